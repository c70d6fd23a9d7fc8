"""Thread history from ``conversations.replies``, as conversation turns within a token budget."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from pipeline.question import Turn

from .text import approx_tokens, question_text

log = logging.getLogger("citebot.slack")

#: conversations.replies pages are oldest first; a long thread's newest turns are on the last page
MAX_PAGES = 5
PAGE_SIZE = 200


@dataclass(frozen=True, slots=True)
class BotIdentity:
    user_id: str | None
    bot_id: str | None

    def wrote(self, message: dict[str, Any]) -> bool:
        return bool(
            (self.bot_id and message.get("bot_id") == self.bot_id)
            or (self.user_id and message.get("user") == self.user_id)
        )


async def fetch_thread(
    client: AsyncWebClient, *, channel: str, thread_ts: str
) -> list[dict[str, Any]]:
    """Every message of the thread, oldest first (the parent included); ``[]`` if unreadable."""
    messages: list[dict[str, Any]] = []
    cursor: str | None = None
    try:
        for _ in range(MAX_PAGES):
            response = await client.conversations_replies(
                channel=channel, ts=thread_ts, limit=PAGE_SIZE, cursor=cursor
            )
            messages.extend(response.get("messages") or [])
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if not response.get("has_more") or not cursor:
                break
    except SlackApiError as exc:
        # history is a nicety: without it the question is still answered on its own
        log.warning("cannot read thread %s/%s: %s", channel, thread_ts, exc.response.get("error"))
    return messages


def bot_in_thread(messages: Sequence[dict[str, Any]], me: BotIdentity) -> bool:
    return any(me.wrote(m) for m in messages)


def turns(
    messages: Sequence[dict[str, Any]],
    me: BotIdentity,
    *,
    budget_tokens: int,
    exclude_ts: str | None = None,
    include_bots: bool = False,
) -> tuple[Turn, ...]:
    """The newest turns that fit ``budget_tokens``, oldest first.

    The bot's own messages become ``assistant`` turns; the current message
    (``exclude_ts``) is left out because it is the question itself.
    """
    picked: list[Turn] = []
    used = 0
    for message in reversed(messages):
        if exclude_ts and message.get("ts") == exclude_ts:
            continue
        text = (message.get("text") or "").strip()
        if not text:
            continue
        if me.wrote(message):
            turn = Turn("assistant", text)
        elif message.get("bot_id") or message.get("subtype") == "bot_message":
            if not include_bots:
                continue
            turn = Turn("user", text)
        else:
            turn = Turn("user", question_text(text, me.user_id))
        cost = approx_tokens(turn.text)
        if used + cost > budget_tokens:
            break
        used += cost
        picked.append(turn)
    picked.reverse()
    return tuple(picked)
