"""Bolt middleware and listeners: thin shims that hand each request to the Slack adapter."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bots.core.feedback import DownReason
from bots.core.runtime import VoteReceipt
from bots.platforms.base import receipt_text
from pipeline.errors import one_line

from .feedback import (
    ASK_WHY,
    REASON_BLOCK,
    parse_reason,
    parse_reason_view,
    parse_vote,
    reason_blocks,
    reason_view,
)
from .history import BotIdentity
from .ports import ADAPTER, SlackAdapter, Workspace
from .slash import handle_slash

log = logging.getLogger("citebot.slack")

THANKS = {
    "up": "Thanks for the feedback! 👍",
    "down": "Thanks for the feedback. 👎 We'll use it to improve.",
}
NO_FORM = "Sorry, the form could not be opened. Your 👎 is saved."


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


def workspace(
    body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
) -> Workspace:
    """``client`` is Bolt's per-request client: it carries the token of the event's workspace."""
    return Workspace(team_of(body, event, context), identity(context), client)


EventHandler = Callable[[dict[str, Any], Workspace], Awaitable[None]]


def handed_to(pick: Callable[[SlackAdapter], EventHandler]) -> Callable[..., Awaitable[None]]:
    """A listener that hands the event and its workspace to the adapter's method ``pick``."""

    async def listener(
        body: dict[str, Any],
        event: dict[str, Any],
        context: AsyncBoltContext,
        client: AsyncWebClient,
    ) -> None:
        adapter = adapter_of(context)
        async with adapter.busy():
            await pick(adapter)(event, workspace(body, event, context, client))

    return listener


on_mention = handed_to(lambda adapter: adapter.on_mention)
on_message = handed_to(lambda adapter: adapter.on_message)


async def on_slash(
    ack: AsyncAck,
    command: dict[str, Any],
    respond: AsyncRespond,
    context: AsyncBoltContext,
    client: AsyncWebClient,
) -> None:
    adapter = adapter_of(context)
    async with adapter.busy():
        await handle_slash(adapter, ack, command, respond, identity(context), client)


async def on_vote(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    respond: AsyncRespond,
    context: AsyncBoltContext,
    client: AsyncWebClient,
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
        if (
            receipt is VoteReceipt.RECORDED
            and vote == "down"
            and await _ask_why(client, body, user, answer_id)
        ):
            return
        await respond(
            text=receipt_text(receipt, THANKS[vote]),
            response_type="ephemeral",
            replace_original=False,
        )


async def _ask_why(client: AsyncWebClient, body: dict[str, Any], user: str, answer_id: str) -> bool:
    """The 👎 follow-up, ephemeral in the answer's thread; ``False`` if it could not be posted.
    ``client`` is the click's workspace's."""
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    thread_ts = container.get("thread_ts") or (body.get("message") or {}).get("thread_ts")
    if not channel:
        return False
    try:
        await client.chat_postEphemeral(
            channel=channel,
            user=user,
            text=ASK_WHY,
            blocks=reason_blocks(answer_id),
            **({"thread_ts": thread_ts} if thread_ts else {}),
        )
    except Exception as exc:  # the vote is stored; only the question why is lost
        log.warning("could not ask why about the 👎 on %s: %s", answer_id, one_line(exc))
        return False
    return True


async def on_reason(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    respond: AsyncRespond,
    context: AsyncBoltContext,
    client: AsyncWebClient,
) -> None:
    """A click on the 👎 follow-up: a reason is stored; "Other…" opens a modal for free text."""
    await ack()
    parsed = parse_reason(action)
    user = (body.get("user") or {}).get("id")
    if parsed is None or not user:
        return
    answer_id, reason = parsed
    adapter = adapter_of(context)
    async with adapter.busy():
        if reason is DownReason.OTHER:
            try:
                # a trigger_id lives 3 seconds: open the modal before anything else
                await client.views_open(trigger_id=body["trigger_id"], view=reason_view(answer_id))
            except Exception as exc:
                log.warning("could not open the reason form for %s: %s", answer_id, one_line(exc))
                await respond(text=NO_FORM, response_type="ephemeral", replace_original=True)
            return
        receipt = await adapter.runtime.reason(
            answer_id, user=user, reason=reason, platform="slack"
        )
        await respond(
            text=receipt_text(receipt, f"Noted: “{reason.label.lower()}”. Thank you!"),
            response_type="ephemeral",
            replace_original=True,
        )


async def on_reason_view(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], context: AsyncBoltContext
) -> None:
    """The "Other…" modal was sent: store its text; an error keeps the modal open."""
    parsed = parse_reason_view(view)
    user = (body.get("user") or {}).get("id")
    if parsed is None or not user:
        await ack(response_action="errors", errors={REASON_BLOCK: "Please say what was wrong."})
        return
    answer_id, text = parsed
    adapter = adapter_of(context)
    async with adapter.busy():
        receipt = await adapter.runtime.reason(
            answer_id, user=user, reason=DownReason.OTHER, text=text, platform="slack"
        )
    if receipt is VoteReceipt.RECORDED:
        await ack()
    else:
        await ack(response_action="errors", errors={REASON_BLOCK: receipt_text(receipt, "")})
