"""Bolt middleware and listeners: thin shims that hand each request to the Slack adapter."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_bolt.request.async_request import AsyncBoltRequest

from bots.core.runtime import VoteReceipt

from .feedback import parse_vote
from .history import BotIdentity
from .ports import ADAPTER, SlackAdapter
from .slash import handle_slash

log = logging.getLogger("citebot.slack")

THANKS = {
    "up": "Thanks for the feedback! 👍",
    "down": "Thanks for the feedback. 👎 We'll use it to improve.",
}
NO_FEEDBACK = "Feedback is not enabled here."
NOT_SAVED = "Sorry, your feedback could not be saved. Please try again later."


def adapter_of(context: AsyncBoltContext) -> SlackAdapter:
    adapter: SlackAdapter = context[ADAPTER]
    return adapter


def _header(request: AsyncBoltRequest, name: str) -> str | None:
    values = request.headers.get(name)
    return values[0] if values else None


def identity(context: AsyncBoltContext) -> BotIdentity:
    return BotIdentity(user_id=context.bot_user_id, bot_id=context.bot_id)


def team_of(body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext) -> str | None:
    return context.team_id or body.get("team_id") or event.get("team")


async def skip_redeliveries(
    body: dict[str, Any], request: AsyncBoltRequest, context: AsyncBoltContext, next: Any
) -> BoltResponse | None:
    """Slack redelivers an event it thinks was lost; answer 200 and do nothing the second time."""
    event_id = body.get("event_id") if isinstance(body, dict) else None
    if event_id and body.get("type") == "event_callback":
        runtime = adapter_of(context).runtime
        # only for a lease's length: once it lapses, the question's own lease decides, so a
        # retry of a delivery whose process died is answered
        first = await runtime.dedupe.first(
            "slack", "event", str(event_id), ttl=runtime.settings.ops.lease_ttl
        )
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


async def on_mention(
    body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
) -> None:
    adapter = adapter_of(context)
    async with adapter.busy():
        await adapter.on_mention(event, team_of(body, event, context), identity(context))


async def on_message(
    body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
) -> None:
    adapter = adapter_of(context)
    async with adapter.busy():
        await adapter.on_message(event, team_of(body, event, context), identity(context))


async def on_slash(
    ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, context: AsyncBoltContext
) -> None:
    adapter = adapter_of(context)
    async with adapter.busy():
        await handle_slash(adapter, ack, command, respond, identity(context))


async def on_vote(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    await ack()
    parsed = parse_vote(action)
    user = (body.get("user") or {}).get("id")
    if parsed is None or not user:
        return
    answer_id, vote = parsed
    adapter = adapter_of(context)
    async with adapter.busy():
        receipt = await adapter.runtime.vote(answer_id, user=user, vote=vote, platform="slack")
        text = {
            VoteReceipt.RECORDED: THANKS[vote],
            VoteReceipt.OFF: NO_FEEDBACK,
            VoteReceipt.FAILED: NOT_SAVED,
        }[receipt]
        await respond(text=text, response_type="ephemeral", replace_original=False)
