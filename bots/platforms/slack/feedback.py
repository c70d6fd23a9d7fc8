"""👍/👎 buttons that carry their answer id, so a click needs no server-side state."""

from __future__ import annotations

import re
from typing import Any

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
