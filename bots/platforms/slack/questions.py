"""Turning Slack events into ``Question``s."""

from __future__ import annotations

import logging
from typing import Any

from pipeline.question import Place, PlaceKind, Question, Trigger, Turn

from .access import place_kind
from .text import question_text

log = logging.getLogger("citebot.slack")

#: message subtypes that are still a person's words
USER_TEXT_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


def malformed(event: dict[str, Any]) -> str | None:
    """What makes ``event`` unlike any message Slack sends, or ``None``: a signed request
    (or a Socket Mode frame) can still carry an event no listener can read."""
    for key in ("channel", "ts"):
        if not isinstance(event.get(key), str) or not event[key]:
            return f"no {key}"
    for key in ("text", "thread_ts"):
        if event.get(key) is not None and not isinstance(event[key], str):
            return f"its {key} is not a string"
    return None


def is_user_text(event: dict[str, Any], *, answer_bots: bool) -> bool:
    """False for edits, deletions, joins, topic changes and (unless allowed) other bots,
    and for a malformed event (one line in the log)."""
    flaw = malformed(event)
    if flaw is not None:
        log.warning("ignoring a malformed Slack %s event: %s", event.get("type", "message"), flaw)
        return False
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
