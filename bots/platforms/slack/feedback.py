"""👍/👎 buttons and the 👎 follow-up; each carries its answer id, so a click needs no server-side state."""

from __future__ import annotations

import re
from typing import Any

from bots.core.feedback import DownReason
from bots.core.ports import Vote

BLOCK_PREFIX = "citebot_fb:"
ACTION_ID = re.compile(r"^citebot_vote_(up|down)$")


def feedback_blocks(answer_id: str) -> list[dict[str, Any]]:
    def button(vote: Vote, emoji: str, label: str) -> dict[str, Any]:
        return {
            "type": "button",
            "action_id": f"citebot_vote_{vote}",
            "text": {"type": "plain_text", "text": emoji, "emoji": True},
            "value": answer_id,
            "accessibility_label": label,
        }

    return [
        {
            "type": "actions",
            "block_id": BLOCK_PREFIX + answer_id,
            "elements": [
                button("up", "👍", "This answer helped"),
                button("down", "👎", "This answer did not help"),
            ],
        }
    ]


def parse_vote(action: dict[str, Any]) -> tuple[str, Vote] | None:
    """``(answer_id, vote)`` from a ``block_actions`` action, or ``None`` if it isn't ours."""
    match = ACTION_ID.match(action.get("action_id") or "")
    block_id = action.get("block_id") or ""
    if match is None or not block_id.startswith(BLOCK_PREFIX):
        return None
    answer_id = block_id[len(BLOCK_PREFIX) :]
    if not answer_id:
        return None
    vote: Vote = "up" if match.group(1) == "up" else "down"
    return answer_id, vote


# -- why a 👎: ephemeral buttons, "Other…" opens a modal --------------------

WHY_PREFIX = "citebot_why:"
WHY_ACTION = re.compile(r"^citebot_why_(wrong|outdated|not_what_i_asked|other)$")
REASON_VIEW = "citebot_reason"
REASON_BLOCK = "why"
REASON_INPUT = "text"
#: what the store keeps of free text (:meth:`FeedbackStore.set_reason`)
REASON_CHARS = 1000
ASK_WHY = "Thanks for the feedback. 👎 What was wrong with the answer?"


def reason_blocks(answer_id: str) -> list[dict[str, Any]]:
    """The ephemeral follow-up to a 👎: one button per :class:`DownReason`."""

    def button(reason: DownReason) -> dict[str, Any]:
        label = reason.label + ("…" if reason is DownReason.OTHER else "")
        return {
            "type": "button",
            "action_id": f"citebot_why_{reason}",
            "text": {"type": "plain_text", "text": label},
            "value": answer_id,
        }

    return [
        {"type": "section", "text": {"type": "plain_text", "text": ASK_WHY}},
        {
            "type": "actions",
            "block_id": WHY_PREFIX + answer_id,
            "elements": [button(reason) for reason in DownReason],
        },
    ]


def parse_reason(action: dict[str, Any]) -> tuple[str, DownReason] | None:
    """``(answer_id, reason)`` from a click on :func:`reason_blocks`, or ``None``."""
    match = WHY_ACTION.match(action.get("action_id") or "")
    block_id = action.get("block_id") or ""
    answer_id = block_id[len(WHY_PREFIX) :] if block_id.startswith(WHY_PREFIX) else ""
    if match is None or not answer_id:
        return None
    return answer_id, DownReason(match.group(1))


def reason_view(answer_id: str) -> dict[str, Any]:
    """The modal "Other…" opens; the answer id rides in ``private_metadata``."""
    return {
        "type": "modal",
        "callback_id": REASON_VIEW,
        "private_metadata": answer_id,
        "title": {"type": "plain_text", "text": "What was wrong?"},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            {
                "type": "input",
                "block_id": REASON_BLOCK,
                "label": {"type": "plain_text", "text": "What was wrong with the answer?"},
                "element": {
                    "type": "plain_text_input",
                    "action_id": REASON_INPUT,
                    "multiline": True,
                    "max_length": REASON_CHARS,
                },
            }
        ],
    }


def parse_reason_view(view: dict[str, Any]) -> tuple[str, str] | None:
    """``(answer_id, text)`` from a ``view_submission`` of :func:`reason_view`, or ``None``."""
    answer_id = view.get("private_metadata") or ""
    values = ((view.get("state") or {}).get("values") or {}).get(REASON_BLOCK) or {}
    text = (values.get(REASON_INPUT) or {}).get("value") or ""
    if view.get("callback_id") != REASON_VIEW or not answer_id or not text.strip():
        return None
    return answer_id, text
