"""Discord: message content of at most 2000 characters plus a Sources embed.

Inline markers link with ``[[n]](<url>)`` (the angle brackets stop a link
preview). The Sources embed lists ``[n] [Title](<url>)`` lines and stays inside
the embed limits (description 4096, 25 fields, 6000 characters per message).

Mentions are the caller's job: send every message with
``allowed_mentions=AllowedMentions.none()``. ``MENTIONS_MUST_BE_DISABLED``
says so to anything that renders through this module. As a second line of
defence, prose outside code goes through ``citations.render.safe.defang``:
``@⁠everyone``, ``<⁠@…>`` and bare URLs (``https:⁠//``) are disarmed, because
``<url>`` still links. ``stream_filter`` does the same for previews.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from citations.model import CitedAnswer
from citations.render.pieces import join, pack, segment_pieces
from citations.render.safe import Dialect, SafeStream, defang, no_code

MENTIONS_MUST_BE_DISABLED = True
"""Send with ``allowed_mentions=discord.AllowedMentions.none()``: model text may contain mentions."""

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL_LIMIT = 6000
_TITLE_LIMIT = 200
_LINE_LIMIT = 1000
_SOURCES_TITLE = "Sources"

_MD_SPECIAL = re.compile(r"([\\\[\]*_~`|])")
_URL_LIKE = re.compile(
    r"^\s*(?:[a-z][a-z0-9+.-]*://|www\.)|^[^\s/]+\.[a-z]{2,}(?:/|$)", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class DiscordMessage:
    content: str
    embeds: list[dict[str, Any]] = field(default_factory=list)


def _url(url: str) -> str:
    return url.replace(" ", "%20").replace(">", "%3E").replace("<", "%3C").replace(")", "%29")


def _label(text: str) -> str:
    return defang(_MD_SPECIAL.sub(r"\\\1", " ".join(text.split())))


def _stream_link(label: str, url: str) -> str:
    return f"[{_label(label)}](<{_url(url)}>)"


def _same(text: str) -> str:
    return text


STREAM_DIALECT = Dialect(escape=_same, link=_stream_link)


def stream_filter(*, limit: int | None = None) -> SafeStream:
    """A filter for streamed preview text: no link, no ping; ``tail`` fits it in a message."""
    return SafeStream(STREAM_DIALECT, limit=limit)


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _source_line(number: int, title: str, url: str) -> str:
    title = _truncate(" ".join((title or "").split()), _TITLE_LIMIT)
    if not title or _URL_LIKE.search(title):
        # Discord refuses masked links whose label looks like a URL.
        line = f"[{number}] <{_url(url)}>"
    else:
        line = f"[{number}] [{_label(title)}](<{_url(url)}>)"
    if len(line) > _LINE_LIMIT:
        line = f"[{number}] {_label(title or url)[: _LINE_LIMIT - 10]}"
    return line


def _sources_embeds(answer: CitedAnswer) -> list[dict[str, Any]]:
    embeds: list[dict[str, Any]] = []
    lines: list[str] = []
    size = 0
    for ref in answer.references:
        line = _source_line(ref.number, ref.title, ref.url)
        # ``size`` counts a newline after each line: the description with ``line`` added
        if lines and size + len(line) > EMBED_DESCRIPTION_LIMIT:
            embeds.append({"title": _SOURCES_TITLE, "description": "\n".join(lines)})
            lines, size = [], 0
        lines.append(line)
        size += len(line) + 1
    if lines:
        embeds.append({"title": _SOURCES_TITLE, "description": "\n".join(lines)})
    return embeds


def _embed_size(embed: dict[str, Any]) -> int:
    return len(embed.get("title", "")) + len(embed.get("description", ""))


def render_discord(
    answer: CitedAnswer,
    *,
    header: str | None = None,
    allowed_links: Collection[str] = (),
) -> list[DiscordMessage]:
    """Render ``answer`` as Discord messages, each within every limit."""
    first_limit = CONTENT_LIMIT
    prefix = ""
    if header:
        # a backtick in the header must not pair with one in the answer
        header = no_code(" ".join(header.split()))
        prefix = _truncate(defang(header), 200) + "\n"
        first_limit -= len(prefix)
    pieces = segment_pieces(
        answer,
        allowed=allowed_links,
        prose=defang,
        code=_same,
        link=_stream_link,
        marker=lambda n, url: f"[[{n}]](<{_url(url)}>)" if url else f"[{n}]",
        limit=first_limit,
    )
    chunks = [join(chunk) for chunk in pack(pieces, first_limit)]
    if prefix:
        chunks = [prefix + chunks[0], *chunks[1:]] if chunks else [prefix.strip()]
    messages = [DiscordMessage(content=c) for c in chunks]

    for embed in _sources_embeds(answer):
        last = messages[-1] if messages else None
        if (
            last is not None
            and len(last.embeds) < EMBEDS_PER_MESSAGE
            and sum(map(_embed_size, last.embeds)) + _embed_size(embed) <= EMBED_TOTAL_LIMIT
        ):
            last.embeds.append(embed)
        else:
            messages.append(DiscordMessage(content="", embeds=[embed]))
    if not messages:
        messages.append(DiscordMessage(content="\u200b"))
    return messages
