"""What the Slack responder sends: the citation renderer's output, shaped for each API call.

``citations.render.slack`` owns the formatting, the escaping and every platform
limit. This module only decides which part goes to ``chat.stopStream`` (the
Sources block under the streamed text) and which to ``chat.postMessage`` /
``chat.update``, and where the feedback buttons go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from citations.model import CitedAnswer
from citations.render.slack import (
    BLOCKS_LIMIT,
    MARKDOWN_TEXT_LIMIT,
    SlackMessage,
    escape,
    escape_stream,
    render_slack,
    stream_filter,
)

from .feedback import feedback_blocks

__all__ = [
    "STREAM_LIMIT",
    "SlackMessage",
    "SlackRender",
    "escape",
    "escape_stream",
    "render",
    "stream_filter",
]

#: streamed text per message; kept under chat.*Stream's 12,000 so the final tail still fits
STREAM_LIMIT = MARKDOWN_TEXT_LIMIT - 1_000


@dataclass(frozen=True, slots=True)
class SlackRender:
    """``streamed`` is what streaming the whole answer shows (``[n]`` markers, escaped, no
    link or ping: ``stream_filter`` fed the same text in any pieces shows exactly this);
    ``sources`` the blocks a stream ends with; ``messages`` the posted form."""

    streamed: str
    sources: list[dict[str, Any]]
    messages: list[SlackMessage]

    @property
    def streamable(self) -> bool:
        """Whether the answer fits one streamed message with its sources below it."""
        return (
            len(self.messages) == 1
            and len(self.streamed) <= STREAM_LIMIT
            and len(self.sources) <= BLOCKS_LIMIT
        )


def render(answer: CitedAnswer, *, answer_id: str | None, header: str | None = None) -> SlackRender:
    """Render ``answer``; an ``answer_id`` adds 👍/👎 buttons that carry it."""
    messages = render_slack(answer, header=header)
    buttons = feedback_blocks(answer_id) if answer_id else []
    sources = [b for b in messages[-1].blocks if b.get("type") == "context"] + buttons
    if buttons:
        last = messages[-1]
        if len(last.blocks) + len(buttons) <= BLOCKS_LIMIT:
            messages[-1] = SlackMessage(last.text, last.blocks + buttons, last.markdown_text)
        else:
            messages.append(SlackMessage("Was this answer helpful?", buttons, ""))
    return SlackRender(streamed=escape_stream(answer.text), sources=sources, messages=messages)
