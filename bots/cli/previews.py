"""``citebot ask --style slack|discord``: what the bot would post, without a workspace."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citations.model import CitedAnswer

BLOCK_KIT_BUILDER = "https://app.slack.com/block-kit-builder/#"
#: feedback buttons carry the answer's id; a preview has none of its own
PREVIEW_ID = "preview"


def slack_payloads(answer: CitedAnswer) -> list[dict[str, Any]]:
    """The ``chat.postMessage`` arguments the Slack bot sends, one per message."""
    from bots.platforms.slack.render import render

    return [
        {"text": m.text, "blocks": m.blocks} for m in render(answer, answer_id=PREVIEW_ID).messages
    ]


def block_kit_builder_url(blocks: list[dict[str, Any]]) -> str:
    """A Block Kit Builder link that opens ``blocks`` (the builder reads JSON from the fragment)."""
    from urllib.parse import quote

    return BLOCK_KIT_BUILDER + quote(json.dumps({"blocks": blocks}, separators=(",", ":")), safe="")


def discord_payloads(answer: CitedAnswer) -> list[dict[str, Any]]:
    """The message content and embeds the Discord bot sends, one per message."""
    from bots.platforms.discord.render import to_parts

    return [
        {"content": part.content, "embeds": [embed.to_dict() for embed in part.embeds]}
        for part in to_parts(answer)
    ]


def preview(style: str, answer: CitedAnswer) -> list[str]:
    """The lines to print for a preview style: JSON payloads, and for Slack the builder links."""
    if style == "slack":
        payloads = slack_payloads(answer)
        lines = [json.dumps(payloads, indent=2, ensure_ascii=False)]
        for i, payload in enumerate(payloads, 1):
            label = f"message {i}: " if len(payloads) > 1 else ""
            lines.append(f"\nOpen in Block Kit Builder ({label}blocks only):")
            lines.append(block_kit_builder_url(payload["blocks"]))
        return lines
    return [json.dumps(discord_payloads(answer), indent=2, ensure_ascii=False)]


PREVIEW_STYLES = ("slack", "discord")
