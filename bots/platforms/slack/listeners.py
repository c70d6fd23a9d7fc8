"""Bolt middleware and listeners: thin shims that hand each request to ``SlackBot``."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from slack_bolt import BoltResponse
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_bolt.request.async_request import AsyncBoltRequest

from .feedback import ACTION_ID, parse_vote
from .history import BotIdentity
from .slash import handle_slash

if TYPE_CHECKING:
    from .bot import SlackBot

log = logging.getLogger("citebot.slack")

THANKS = {
    "up": "Thanks for the feedback! 👍",
    "down": "Thanks for the feedback. 👎 We'll use it to improve.",
}


def _header(request: AsyncBoltRequest, name: str) -> str | None:
    values = request.headers.get(name)
    return values[0] if values else None


def register(bot: SlackBot) -> None:
    app = bot.app

    @app.middleware
    async def skip_redeliveries(
        body: dict[str, Any], request: AsyncBoltRequest, next: Any
    ) -> BoltResponse | None:
        """Slack redelivers an event it thinks was lost; answer 200 and do nothing the second time."""
        event_id = body.get("event_id") if isinstance(body, dict) else None
        if event_id and body.get("type") == "event_callback":
            try:
                first = await bot.dedupe.first("slack", "event", str(event_id))
            except Exception:
                log.warning("dedupe backend failed; processing %s anyway", event_id, exc_info=True)
                first = True
            if not first:
                log.info(
                    "duplicate delivery of %s (retry %s, %s)",
                    event_id,
                    _header(request, "x-slack-retry-num"),
                    _header(request, "x-slack-retry-reason"),
                )
                # anything but 2xx makes Slack retry again
                return BoltResponse(status=200, body="")
        return await next()  # type: ignore[no-any-return]

    def identity(context: AsyncBoltContext) -> BotIdentity:
        return BotIdentity(user_id=context.bot_user_id, bot_id=context.bot_id)

    def team_of(
        body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
    ) -> str | None:
        return context.team_id or body.get("team_id") or event.get("team")

    @app.event("app_mention")
    async def on_mention(
        body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
    ) -> None:
        async with bot.busy():
            await bot.on_mention(event, team_of(body, event, context), identity(context))

    @app.event("message")
    async def on_message(
        body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
    ) -> None:
        async with bot.busy():
            await bot.on_message(event, team_of(body, event, context), identity(context))

    @app.command(bot.settings.slash_command)
    async def on_slash(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, context: AsyncBoltContext
    ) -> None:
        async with bot.busy():
            await handle_slash(bot, ack, command, respond, identity(context))

    @app.action(ACTION_ID)
    async def on_vote(
        ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], respond: AsyncRespond
    ) -> None:
        await ack()
        async with bot.busy():
            await _vote(bot, body, action, respond)


async def _vote(
    bot: SlackBot, body: dict[str, Any], action: dict[str, Any], respond: AsyncRespond
) -> None:
    parsed = parse_vote(action)
    user = (body.get("user") or {}).get("id")
    if parsed is None or not user:
        return
    answer_id, vote = parsed
    store = bot.runtime.feedback
    if store is None:
        await respond(
            text="Feedback is not enabled here.",
            response_type="ephemeral",
            replace_original=False,
        )
        return
    try:
        await asyncio.to_thread(store.vote, answer_id, user=user, vote=vote, platform="slack")
    except Exception:
        log.exception("could not store a vote on %s", answer_id)
        await respond(
            text="Sorry, your feedback could not be saved. Please try again later.",
            response_type="ephemeral",
            replace_original=False,
        )
        return
    await respond(text=THANKS[vote], response_type="ephemeral", replace_original=False)
