"""What a reader could click in text a platform shows, for the "links only from sources" tests.

A deliberately generous model of Slack's and Discord's link syntax: Markdown
links, ``<url>`` and ``<url|label>`` angle links, bare ``scheme://`` and
``www.`` URLs and e-mail addresses, all outside code (code spans and fenced
blocks as ``citations.render.safe`` reads them). A word joiner between two
characters of the syntax breaks it, as it does on the platforms.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from citations.render.safe import code_regions
from citations.urls import canonical_url

_MARKDOWN = re.compile(r"\]\([ \t]*<?([^)\s>]+)")
_ANGLE = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>|\s]*)(?:\|[^>]*)?>")
_BARE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>)\]]*|(?<![A-Za-z0-9])[wW]{3}\.[^\s<>)\]]+")
_EMAIL = re.compile(r"[\w.+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+")
# @everyone/@here/@channel, and <@U…>, <!here>, <!subteam^…>, <#C…>
_PING = re.compile(r"@(?:everyone|here|channel)\b|<[@!#]")


def _outside_code(text: str) -> str:
    out = list(text)
    for start, end in code_regions(text):
        out[start:end] = " " * (end - start)
    return "".join(out)


def visible_links(text: str) -> list[str]:
    """Every link destination a reader could click in ``text``."""
    prose = _outside_code(text)
    found: list[str] = []
    for pattern in (_MARKDOWN, _ANGLE):
        for m in pattern.finditer(prose):
            found.append(m.group(1))
        prose = pattern.sub(lambda m: " " * len(m.group()), prose)
    found.extend(m.group() for m in _BARE.finditer(prose))
    found.extend("mailto:" + m.group() for m in _EMAIL.finditer(prose))
    return [html.unescape(url) for url in found]


def pings(texts: Iterable[str]) -> list[str]:
    """Every mention in ``texts``, outside code, that could notify someone."""
    return [m.group() for text in texts for m in _PING.finditer(_outside_code(text))]


def foreign_links(texts: Iterable[str], sources: Iterable[str]) -> list[str]:
    """The visible links in ``texts`` that do not point at one of ``sources``."""
    allowed = {canonical_url(url, merge_fragments=True) for url in sources}
    return [
        url
        for text in texts
        for url in visible_links(text)
        if canonical_url(url, merge_fragments=True) not in allowed
    ]


def payload_texts(value: Any) -> list[str]:
    """Every string a payload (blocks, embeds, nested dicts and lists) shows."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [
            t for key, v in value.items() if key not in ("url", "type") for t in payload_texts(v)
        ]
    if isinstance(value, list | tuple):
        return [t for v in value for t in payload_texts(v)]
    return []
