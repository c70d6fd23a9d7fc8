"""Installing to many workspaces: Bolt's OAuth flow, its installation and state stores.

With ``slack.client_id`` set, ``/slack/install`` starts Slack's OAuth v2 flow and
``/slack/oauth_redirect`` finishes it; each workspace's bot token is saved in an
installation store and Bolt's authorize step picks it per request (``context.client``
carries it). Uninstalling (``app_uninstalled``) or revoking (``tokens_revoked``)
deletes the workspace's installation.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import aiohttp
from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.error import BoltError
from slack_bolt.listener.async_builtins import AsyncTokenRevocationListeners
from slack_bolt.oauth.async_callback_options import AsyncFailureArgs
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.sqlite3 import SQLite3InstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from slack_sdk.oauth.state_store.sqlite3 import SQLite3OAuthStateStore
from slack_sdk.oauth.state_store.stateless import StatelessOAuthStateStore

from bots.ops.server import SLACK_INSTALLATIONS_FILE as INSTALLATIONS_FILE
from bots.settings import SettingsError
from bots.settings.sections import SlackSettings
from pipeline.errors import one_line

from .listeners import adapter_of
from .manifest import bot_scopes

log = logging.getLogger("citebot.slack")

STATES_FILE = "slack-oauth-states.sqlite3"
#: Slack's authorization codes live 10 minutes; a state needs no longer
STATE_SECONDS = 600


class DataDirInstallationStore(SQLite3InstallationStore):
    """slack_sdk's SQLite store, with the async deletes Bolt's uninstall listeners call
    (the SDK class has only the blocking ones)."""

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self.delete_bot(enterprise_id=enterprise_id, team_id=team_id)

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        self.delete_installation(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)


def check_oauth(slack: SlackSettings) -> list[str]:
    """One line per OAuth setting that cannot work as given."""
    if not slack.oauth:
        return []
    problems = []
    if slack.client_secret is None:
        problems.append(
            "setting slack.client_secret: required with slack.client_id "
            "[env CITEBOT_SLACK__CLIENT_SECRET or SLACK_CLIENT_SECRET]"
        )
    if slack.bot_token is not None:
        problems.append(
            "setting slack.bot_token: set either bot_token (one workspace) or client_id "
            "(OAuth install, a token per workspace), not both"
        )
    if slack.mode != "http":
        problems.append(
            "setting slack.mode: OAuth install needs mode = 'http' (the install and "
            "redirect pages are served next to /slack/events)"
        )
    if slack.install_database is not None and slack.state_secret is None:
        problems.append(
            "setting slack.state_secret: required with slack.install_database, so that "
            "any replica can finish an install it did not start"
        )
    return problems


def installation_store(slack: SlackSettings, data_dir: Path) -> AsyncInstallationStore:
    client_id = str(slack.client_id)
    if slack.install_database is not None:
        return _database_store(client_id, slack.install_database.get_secret_value())
    data_dir.mkdir(parents=True, exist_ok=True)
    return DataDirInstallationStore(
        database=str(data_dir / INSTALLATIONS_FILE), client_id=client_id, logger=log
    )


def _database_store(client_id: str, url: str) -> AsyncInstallationStore:
    from slack_sdk.oauth.installation_store.sqlalchemy import AsyncSQLAlchemyInstallationStore
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError
    from sqlalchemy.ext.asyncio import create_async_engine

    try:
        engine = create_async_engine(url)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as exc:
        # never echo the URL: it carries the database password
        raise SettingsError(
            [
                f"setting slack.install_database: not a usable SQLAlchemy async URL ({type(exc).__name__})"
            ]
        ) from None
    return AsyncSQLAlchemyInstallationStore(client_id=client_id, engine=engine, logger=log)


def state_store(slack: SlackSettings, data_dir: Path) -> AsyncOAuthStateStore:
    if slack.state_secret is not None:
        return StatelessOAuthStateStore(
            expiration_seconds=STATE_SECONDS,
            signing_secret=slack.state_secret.get_secret_value(),
            logger=log,
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    return SQLite3OAuthStateStore(
        database=str(data_dir / STATES_FILE), expiration_seconds=STATE_SECONDS, logger=log
    )


def oauth_settings(slack: SlackSettings, data_dir: Path) -> AsyncOAuthSettings:
    secret = slack.client_secret
    redirect = slack.public_url.rstrip("/") + slack.redirect_path if slack.public_url else None
    settings = AsyncOAuthSettings(
        client_id=slack.client_id,
        client_secret=secret.get_secret_value() if secret else None,
        scopes=slack.oauth_scopes if slack.oauth_scopes is not None else bot_scopes(slack),
        user_scopes=[],
        redirect_uri=redirect,
        install_path=slack.install_path,
        redirect_uri_path=slack.redirect_path,
        authorization_url=slack.authorize_url,
        installation_store=installation_store(slack, data_dir),
        installation_store_bot_only=True,
        state_store=state_store(slack, data_dir),
        state_expiration_seconds=STATE_SECONDS,
        logger=log,
    )
    # without it every event costs an auth.test call; an uninstalled workspace is still
    # refused, because its token is looked up in the store before the cache
    if isinstance(settings.authorize, AsyncInstallationStoreAuthorize):
        settings.authorize.cache_enabled = True
    return settings


class WorkspaceNotAllowed(BoltError):
    """An install from a workspace outside ``slack.allowed_workspaces``."""


#: what the installer's browser shows; Slack's own words for a refused install are not ours
NOT_ALLOWED_PAGE = (
    "<html><head><title>Not installed</title></head><body>"
    "<h2>This workspace cannot install this app</h2>"
    "<p>The app only serves the workspaces its operator allows. Nothing was installed; "
    "ask the operator to allow this workspace.</p></body></html>"
)


class AllowListOAuthFlow(AsyncOAuthFlow):
    """Bolt's OAuth flow that refuses, before storing its token, an install from a workspace
    ``slack.allowed_workspaces`` leaves out (an empty list allows every workspace)."""

    def __init__(self, *, allowed: list[str], **flow: Any) -> None:
        super().__init__(**flow)
        self.allowed = frozenset(allowed)
        self.failure_handler = self._failure

    async def store_installation(
        self, request: AsyncBoltRequest, installation: Installation
    ) -> None:
        team = installation.team_id
        if self.allowed and team not in self.allowed:
            log.warning(
                "refused an install from workspace %s: not in slack.allowed_workspaces (%s)",
                team,
                await self._revoke(installation.bot_token),
            )
            raise WorkspaceNotAllowed(str(team))
        await super().store_installation(request, installation)

    async def _revoke(self, token: str | None) -> str:
        """Give the refused workspace's token back, so it grants nothing; how that went."""
        if token is None:
            return "no token was issued"
        try:
            await self.client.auth_revoke(token=token)
        except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
            return f"revoking its token failed: {one_line(exc, named=True)}"
        return "its token is revoked"

    async def _failure(self, args: AsyncFailureArgs) -> BoltResponse:
        if isinstance(args.error, WorkspaceNotAllowed):
            return BoltResponse(
                status=403,
                body=NOT_ALLOWED_PAGE,
                headers={"Content-Type": "text/html; charset=utf-8"},
            )
        return await args.default.failure(args)


def add_uninstall_listeners(app: AsyncApp, store: AsyncInstallationStore) -> None:
    """``app_uninstalled`` deletes the workspace's installation, ``tokens_revoked`` the
    revoked tokens (Bolt's own handlers), counted as work so shutdown waits for them."""
    revocations = AsyncTokenRevocationListeners(store)

    async def on_app_uninstalled(context: AsyncBoltContext) -> None:
        async with adapter_of(context).busy():
            await revocations.handle_app_uninstalled_events(context)
        log.warning("uninstalled from workspace %s: its installation is deleted", context.team_id)

    async def on_tokens_revoked(event: dict[str, Any], context: AsyncBoltContext) -> None:
        async with adapter_of(context).busy():
            await revocations.handle_tokens_revoked_events(event, context)
        log.warning("tokens revoked in workspace %s: they are deleted", context.team_id)

    app.event("app_uninstalled")(on_app_uninstalled)
    app.event("tokens_revoked")(on_tokens_revoked)


async def create_tables(store: Any) -> None:
    """Make the store's tables before the first install (and the SQLite file, which
    ``/readyz`` checks, at start rather than on first use)."""
    if isinstance(store, SQLite3InstallationStore):
        await asyncio.to_thread(store.init)
        return
    create = getattr(store, "create_tables", None)
    if create is not None:
        await create()


async def close_installations(store: Any) -> None:
    """Release a shared database's connections (an SQLite file's store holds none open)."""
    engine = getattr(store, "engine", None)
    dispose = getattr(engine, "dispose", None)
    if dispose is not None and not isinstance(store, SQLite3InstallationStore):
        await dispose()
