"""Slack: Block Kit messages, plus the standard-Markdown form for streaming.

Each ``SlackMessage`` carries the same content twice: ``blocks`` (mrkdwn
section blocks with inline ``<url|[n]>`` links, then a Sources context block
with ``[n] <url|Title>`` entries) and ``markdown_text`` (standard Markdown, the
form ``chat.startStream`` / ``appendStream`` / ``stopStream`` and
``chat.postMessage(markdown_text=...)`` take). ``text`` is the short
notification fallback that goes with ``blocks``.

Every limit is enforced here: 3000 characters per section, 10 elements per
context block, 50 blocks and about 11k characters of block text per message
(Slack rejects a payload past roughly 12k with ``msg_blocks_too_long``), and
12,000 characters of ``markdown_text``. Longer answers become several messages,
cut between paragraphs where possible and never inside a marker, a link or a
code fence.

Model text can never ping or link: ``& < >`` are escaped, which disarms
``<!channel>``, ``<!here>``, ``<!subteam^…>``, ``<@U…>`` and ``<url|label>``;
every mrkdwn text object is ``verbatim`` (Slack does not link bare URLs in it);
and prose goes through ``citations.render.safe.defang`` (``@⁠here``, ``https:⁠//``).
``stream_filter`` does the same for ``markdown_text`` that streams in pieces.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from citations.model import CitedAnswer
from citations.render.pieces import Piece, join, pack, segment_pieces
from citations.render.safe import Dialect, SafeStream, defang

SECTION_TEXT_LIMIT = 3000
CONTEXT_ELEMENTS_LIMIT = 10
CONTEXT_ELEMENT_TEXT_LIMIT = 3000
BLOCKS_LIMIT = 50
MESSAGE_TEXT_BUDGET = 11_000
MARKDOWN_TEXT_LIMIT = 12_000
FALLBACK_TEXT_LIMIT = 300
_TITLE_LIMIT = 200
_SOURCES_HEADING = "*Sources*"

_LINK = re.compile(r"<([^|>]*)\|([^>]*)>")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# what standard Markdown would read as syntax in a title: code, emphasis, links, autolinks,
# HTML and entities
_MD_PUNCT = re.compile(r"([\\`*_~\[\]<>&])")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_OPAQUE = re.compile(r"\S")


@dataclass(frozen=True, slots=True)
class SlackMessage:
    text: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    markdown_text: str = ""


def _controls(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape(text: str) -> str:
    """Escape Slack's control characters and disarm links and mentions."""
    return defang(_controls(text))


def _stream_link(label: str, url: str) -> str:
    return f"[{_md_label(label)}]({_md_url(url)})"


STREAM_DIALECT = Dialect(escape=_controls, link=_stream_link)


def stream_filter(*, limit: int | None = None) -> SafeStream:
    """A filter for ``markdown_text`` that streams in pieces: no link, no ping."""
    return SafeStream(STREAM_DIALECT, limit=limit)


def escape_stream(text: str) -> str:
    """``text`` as ``stream_filter`` shows it when it arrives at once."""
    stream = stream_filter()
    return stream.feed(text) + stream.close()


def _mrkdwn_text(text: str) -> dict[str, Any]:
    # verbatim: Slack must not turn bare URLs or channel names into links
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _label(text: str) -> str:
    text = " ".join(text.replace("|", "").replace(">", "").split())
    return escape(text)


def _url(url: str) -> str:
    return (
        url.replace("&", "&amp;").replace("<", "%3C").replace(">", "%3E").replace("|", "%7C")
    ).replace(" ", "%20")


def _md_label(text: str) -> str:
    """Words as plain text in ``markdown_text``: standard Markdown takes backslash escapes
    (docs.slack.dev/reference/block-kit/blocks/markdown-block), and the HTML entities
    mrkdwn needs would show as written; links and pings stay disarmed."""
    return defang(_MD_PUNCT.sub(r"\\\1", " ".join(text.split())))


def _md_url(url: str) -> str:
    return (
        url.replace(" ", "%20")
        .replace("(", "%28")
        .replace(")", "%29")
        .replace("<", "%3C")
        .replace(">", "%3E")
    )


def _mrkdwn(chunk: list[Piece]) -> str:
    """``join(chunk)`` with standard Markdown emphasis and headings in Slack's mrkdwn
    dialect, in prose only: code, links and markers are shown as written."""
    text = "".join(p.text for p in chunk)
    # A rewrite reads this shape, where every character of code, a link or a marker is one
    # that no pattern takes as syntax (white space kept), so none of them can start, end or
    # be rewritten by one: a "# comment" in code is no heading, "**" in a URL no bold.
    shape = "".join(_OPAQUE.sub("\0", p.text) if p.atom or p.code else p.text for p in chunk)
    for pattern in (_HEADING, _BOLD):
        text, shape = _prose_sub(pattern, text, shape)
    return text.strip("\n")


def _prose_sub(pattern: re.Pattern[str], text: str, shape: str) -> tuple[str, str]:
    """``*group 1*`` for every match of ``pattern`` in ``shape``, in ``text`` and ``shape`` alike."""
    out: list[str] = []
    out_shape: list[str] = []
    pos = 0
    for m in pattern.finditer(shape):
        start, end = m.span(1)
        out += [text[pos : m.start()], "*", text[start:end], "*"]
        out_shape += [shape[pos : m.start()], "*", shape[start:end], "*"]
        pos = m.end()
    out.append(text[pos:])
    out_shape.append(shape[pos:])
    return "".join(out), "".join(out_shape)


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _body_pieces(answer: CitedAnswer, allowed: Collection[str]) -> list[Piece]:
    return segment_pieces(
        answer,
        allowed=allowed,
        prose=escape,
        code=_controls,
        link=lambda label, url: f"<{_url(url)}|{_label(label)}>",
        marker=lambda n, url: f"<{_url(url)}|[{n}]>" if url else f"[{n}]",
        alt_link=lambda label, url: f"[{_md_label(label)}]({_md_url(url)})",
        alt_marker=lambda n, url: f"[\\[{n}\\]]({_md_url(url)})" if url else f"[{n}]",
        limit=SECTION_TEXT_LIMIT,
    )


def _source_entries(answer: CitedAnswer) -> list[tuple[str, str]]:
    entries = []
    for ref in answer.references:
        title = _truncate(" ".join((ref.title or ref.url).split()), _TITLE_LIMIT)
        mrkdwn = f"[{ref.number}] <{_url(ref.url)}|{_label(title)}>"
        markdown = f"{ref.number}. [{_md_label(title)}]({_md_url(ref.url)})"
        if len(mrkdwn) > CONTEXT_ELEMENT_TEXT_LIMIT:
            mrkdwn = f"[{ref.number}] {_label(title)}"
            markdown = f"{ref.number}. {_md_label(title)}"
        entries.append((mrkdwn, markdown))
    return entries


def _group_size(group: list[tuple[str, str]]) -> int:
    return sum(max(len(a), len(b)) + 1 for a, b in group)


def _fitted(group: list[tuple[str, str]], heading: int, draft: _Draft) -> list[tuple[str, str]]:
    """The longest start of ``group`` that ``draft`` still holds (never fewer than one entry)."""
    fitted = group[:]
    while len(fitted) > heading + 1 and not draft.fits(1, _group_size(fitted)):
        fitted.pop()
    return fitted


@dataclass
class _Draft:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    markdown: list[str] = field(default_factory=list)
    size: int = 0
    fallback: str = ""

    def fits(self, blocks: int, size: int) -> bool:
        return len(self.blocks) + blocks <= BLOCKS_LIMIT and self.size + size <= MESSAGE_TEXT_BUDGET


def render_slack(
    answer: CitedAnswer,
    *,
    header: str | None = None,
    allowed_links: Collection[str] = (),
) -> list[SlackMessage]:
    """Render ``answer`` as one or more Slack messages within every limit."""
    drafts: list[_Draft] = [_Draft()]

    def room(blocks: int, size: int) -> _Draft:
        if not drafts[-1].fits(blocks, size):
            drafts.append(_Draft())
        return drafts[-1]

    if header:
        words = " ".join(header.split())
        text = _truncate(escape(words), 1000)
        # escaped, a backtick in the header cannot pair with one in the answer
        markdown = f"_{_md_label(_truncate(words, 1000))}_"
        size = max(len(text), len(markdown))
        draft = room(1, size)
        draft.blocks.append({"type": "context", "elements": [_mrkdwn_text(text)]})
        draft.markdown.append(markdown)
        draft.size += size

    for chunk in pack(_body_pieces(answer, allowed_links), SECTION_TEXT_LIMIT):
        mrkdwn = _mrkdwn(chunk)
        markdown = join(chunk, alt=True)
        size = max(len(mrkdwn), len(markdown))
        draft = room(1, size)
        draft.blocks.append({"type": "section", "text": _mrkdwn_text(mrkdwn)})
        draft.markdown.append(markdown)
        draft.size += size
        if not draft.fallback:
            draft.fallback = _truncate(defang(_LINK.sub(r"\2", mrkdwn)), FALLBACK_TEXT_LIMIT)

    entries = _source_entries(answer)
    first = True
    while entries:
        heading = [(_SOURCES_HEADING, "**Sources**")] if first else []
        take = CONTEXT_ELEMENTS_LIMIT - len(heading)
        group = heading + entries[:take]
        if not drafts[-1].fits(1, _group_size(group)):
            # Fill the current message with what it still holds; if not even one entry
            # fits, the group opens the next message, as much of it as a message holds.
            here = _fitted(group, len(heading), drafts[-1])
            fits_here = drafts[-1].fits(1, _group_size(here))
            group = here if fits_here else _fitted(group, len(heading), _Draft())
        size = _group_size(group)
        draft = room(1, size)
        draft.blocks.append({"type": "context", "elements": [_mrkdwn_text(a) for a, _ in group]})
        draft.markdown.append("\n".join(b for _, b in group))
        draft.size += size
        entries = entries[len(group) - len(heading) :]
        first = False

    messages: list[SlackMessage] = []
    for draft in drafts:
        if not draft.blocks:
            continue
        fallback = draft.fallback or _truncate(
            "Sources" if not messages else "(continued)", FALLBACK_TEXT_LIMIT
        )
        markdown = _truncate("\n\n".join(draft.markdown), MARKDOWN_TEXT_LIMIT)
        messages.append(SlackMessage(text=fallback, blocks=draft.blocks, markdown_text=markdown))
    if not messages:
        messages.append(SlackMessage(text=" ", blocks=[], markdown_text=" "))
    return messages
