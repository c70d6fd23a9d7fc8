"""From a ``CitedAnswer`` to Discord messages: content chunks plus a Sources embed.

The citation engine does the rendering and enforces Discord's limits; this
module only turns its payload into discord.py objects and keeps link
previews out of streamed text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from citations.model import CitedAnswer
from citations.render.discord import CONTENT_LIMIT, render_discord, stream_filter
from citations.render.pieces import outside_code

__all__ = ["CONTENT_LIMIT", "Part", "no_previews", "preview", "to_parts"]

_BARE_URL = re.compile(r"(?<![<(\w])(https?://[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"*_~`])")


@dataclass(frozen=True, slots=True)
class Part:
    """One message of an answer."""

    content: str
    embeds: tuple[discord.Embed, ...] = ()


def no_previews(text: str, limit: int | None = None) -> str:
    """Wrap bare URLs in ``<>`` so Discord shows no link preview for them.

    With ``limit``, text that would grow past it is returned as it was.
    """
    wrapped = outside_code(text, lambda part: _BARE_URL.sub(r"<\1>", part))
    return text if limit is not None and len(wrapped) > limit else wrapped


def preview(text: str) -> str:
    """The streamed answer so far, as it fits one message: the newest text wins, with
    no link and no ping (a link still arriving is held back), cut outside code."""
    stream = stream_filter()
    stream.feed(text)
    return stream.tail(CONTENT_LIMIT)


def to_parts(answer: CitedAnswer) -> tuple[Part, ...]:
    """The final answer as messages: linked ``[n]`` markers, then the Sources embed on the last."""
    parts = tuple(
        Part(
            no_previews(m.content, CONTENT_LIMIT),
            tuple(discord.Embed.from_dict(e) for e in m.embeds),
        )
        for m in render_discord(answer)
    )
    return parts or (Part("\u200b"),)
