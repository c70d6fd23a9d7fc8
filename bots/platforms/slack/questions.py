"""Turning Slack events into ``Question``s."""

from __future__ import annotations

from typing import Any

from pipeline.question import Place, PlaceKind, Question, Trigger, Turn

from .access import place_kind
from .text import question_text

#: message subtypes that are still a person's words
USER_TEXT_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


def is_user_text(event: dict[str, Any], *, answer_bots: bool) -> bool:
    """False for edits, deletions, joins, topic changes and (unless allowed) other bots."""
    subtype = event.get("subtype")
    if event.get("bot_id") or subtype == "bot_message":
        return answer_bots and subtype in (None, "bot_message") and bool(event.get("text"))
    return subtype in USER_TEXT_SUBTYPES and bool((event.get("text") or "").strip())


def thread_of(event: dict[str, Any]) -> str:
    """The thread an answer to ``event`` belongs in: its own, or a new one under it."""
    return str(event.get("thread_ts") or event["ts"])


def in_thread(event: dict[str, Any]) -> bool:
    return bool(event.get("thread_ts")) and event.get("thread_ts") != event.get("ts")


def from_event(
    event: dict[str, Any],
    *,
    team: str | None,
    bot_user_id: str | None,
    trigger: Trigger,
    history: tuple[Turn, ...] = (),
    channel_name: str | None = None,
    kind: PlaceKind | None = None,
) -> Question:
    """``kind`` is who can read the channel when the event does not say (an app_mention)."""
    asker = event.get("user") or event.get("bot_id") or "unknown"
    return Question(
        text=question_text(event.get("text") or "", bot_user_id),
        asker=str(asker),
        place=Place(
            "slack",
            team,
            event.get("channel"),
            thread_of(event),
            kind or place_kind(event.get("channel"), event.get("channel_type")),
            channel_name,
        ),
        trigger=trigger,
        history=history,
    )
