"""The Bolt app: one ``AsyncApp`` with citebot's middleware and listeners registered by name."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncApp
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bots.settings.sections import SlackSettings

from . import listeners
from .assistant import build_assistant
from .feedback import ACTION_ID, REASON_VIEW, WHY_ACTION
from .installation import AllowListOAuthFlow, add_uninstall_listeners
from .ports import ADAPTER, SlackAdapter

#: Bolt copies a level onto the logger named after the app on every request;
#: naming it "citebot" would freeze the whole citebot logger tree at that level
BOLT_LOGGER = "citebot.slack.bolt"


def _bolt_logger() -> logging.Logger:
    logger = logging.getLogger(BOLT_LOGGER)
    if not any(isinstance(f, _OwnClient) for f in logger.filters):
        logger.addFilter(_OwnClient())
    return logger


class _OwnClient(logging.Filter):
    """Bolt warns that SLACK_BOT_TOKEN "will be unused" next to a client: ours is built
    from that same token, so the warning only alarms the operator."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


class AttachAdapter(AsyncMiddleware):
    """Puts the adapter in every request's context, where the listeners find it."""

    def __init__(self, adapter: SlackAdapter) -> None:
        self.adapter = adapter

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse | None:
        req.context[ADAPTER] = self.adapter
        return await next()


def build_app(
    adapter: SlackAdapter,
    settings: SlackSettings,
    client: AsyncWebClient,
    oauth: AsyncOAuthSettings | None = None,
) -> AsyncApp:
    """With ``oauth``, each request is authorized with its workspace's installed token
    (listeners get it in their ``client``); without, ``client``'s one token serves all."""
    http = settings.mode == "http"
    secret = settings.signing_secret
    logger = _bolt_logger()
    app = AsyncApp(
        client=client,
        signing_secret=secret.get_secret_value() if secret else None,
        request_verification_enabled=http,
        process_before_response=False,
        oauth_flow=(
            None
            if oauth is None
            else AllowListOAuthFlow(
                client=client, logger=logger, settings=oauth, allowed=settings.allowed_workspaces
            )
        ),
        name=BOLT_LOGGER,
        logger=logger,
    )
    app.use(AttachAdapter(adapter))
    app.use(listeners.skip_redeliveries)
    if oauth is not None:
        add_uninstall_listeners(app, oauth.installation_store)
    if settings.assistant:
        # before the message listener: a message in an assistant thread is the assistant's
        app.assistant(build_assistant(logger))
    app.event("app_mention")(listeners.on_mention)
    app.event("message")(listeners.on_message)
    app.command(settings.slash_command)(listeners.on_slash)
    app.action(ACTION_ID)(listeners.on_vote)
    app.action(WHY_ACTION)(listeners.on_reason)
    app.view(REASON_VIEW)(listeners.on_reason_view)
    return app
