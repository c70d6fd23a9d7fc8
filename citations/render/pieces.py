"""Shared renderer machinery: link safety, code-aware scanning and safe splitting.

Renderers turn an answer into a list of *pieces*: runs of text, which may be
split at a space or a newline, and atoms (a footnote marker, a link), which
never are. ``pack`` fills messages from pieces without breaking an atom, and
closes a code fence at a cut and opens it again in the next message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from citations.model import CitedAnswer, Segment
from citations.render.safe import WORD_JOINER, break_fence_ticks, code_regions
from citations.urls import canonical_url

# An ordinary Markdown link (not an image): [label](url) or [label](<url>).
_MD_LINK = re.compile(
    r"(?<!!)\[([^\[\]\n]{0,300})\]\(\s*<?([^()<>\s]{1,2000})>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    atom: bool = False
    code: bool = False  # a fenced code block: split only between its lines
    alt: str | None = None  # a second rendering of an atom (Slack's Markdown form)

    @property
    def size(self) -> int:
        return len(self.text) if self.alt is None else max(len(self.text), len(self.alt))


def link_allowed(url: str, answer: CitedAnswer, allowed: Collection[str]) -> bool:
    """Only URLs from source metadata, or on the caller's allowlist, may be links."""
    key = canonical_url(url)
    for ref in answer.references:
        if key == canonical_url(ref.url):
            return True
        for source in ref.sources:
            if key == canonical_url(source.url):
                return True
    if not allowed:
        return False
    host = (urlsplit(url).hostname or "").lower()
    for entry in allowed:
        entry = entry.strip()
        if not entry:
            continue
        if "/" in entry:
            if key.startswith(canonical_url(entry)):
                return True
        elif host == entry.lower() or host.endswith("." + entry.lower()):
            return True
    return False


def outside_code(text: str, fn: Callable[[str], str]) -> str:
    """Apply ``fn`` to the parts of ``text`` that are not code."""
    out: list[str] = []
    pos = 0
    for start, end in code_regions(text):
        out.append(fn(text[pos:start]))
        out.append(text[start:end])
        pos = end
    out.append(fn(text[pos:]))
    return "".join(out)


def links(
    text: str,
    answer: CitedAnswer,
    allowed: Collection[str],
    link: Callable[[str, str], str],
    plain: Callable[[str], str],
    alt_link: Callable[[str, str], str] | None = None,
) -> list[Piece]:
    """Split prose into pieces: safe links become atoms via ``link(label, url)``,
    unsafe ones keep only their label, and the rest goes through ``plain``.

    ``plain`` sees each run between atoms whole, so a URL that a dropped link
    would have glued together (``http:[](x)//host``) is disarmed as one."""
    pieces: list[Piece] = []
    pos = 0
    pending: list[str] = []
    for m in _MD_LINK.finditer(text):
        pending.append(text[pos : m.start()])
        label, url = m.group(1), m.group(2)
        if link_allowed(url, answer, allowed):
            if any(pending):
                pieces.append(Piece(plain("".join(pending))))
            pending = []
            alt = alt_link(label, url) if alt_link is not None else None
            pieces.append(Piece(link(label, url), atom=True, alt=alt))
        else:
            pending.append(label)
        pos = m.end()
    pending.append(text[pos:])
    if any(pending):
        pieces.append(Piece(plain("".join(pending))))
    return pieces


def marker_url(answer: CitedAnswer, segment: Segment, number: int) -> str:
    """Where marker ``[number]`` after ``segment`` links: the exact quoted words when a
    quote in that segment was verified against reference ``number``, else the reference."""
    for check in answer.quotes:
        if (
            check.verified
            and check.deep_link
            and check.reference == number
            and check.quote
            and check.quote in segment.text
        ):
            return check.deep_link
    ref = answer.reference(number)
    return ref.url if ref else ""


def segment_pieces(
    answer: CitedAnswer,
    *,
    allowed: Collection[str],
    prose: Callable[[str], str],
    code: Callable[[str], str],
    link: Callable[[str, str], str],
    marker: Callable[[int, str], str],
    alt_link: Callable[[str, str], str] | None = None,
    alt_marker: Callable[[int, str], str] | None = None,
) -> list[Piece]:
    """The answer body as pieces, with code left verbatim (apart from ``code``).

    Code is found in the whole answer, markers included, at once: a platform
    pairs backticks across markers, and a marker before a fence keeps it from
    starting a line."""
    pieces: list[Piece] = []
    regions = code_regions(answer.text)
    at = 0  # the offset of the current segment in the answer
    for seg in answer.segments:
        pos = 0
        for region_start, region_end in regions:
            start = max(region_start - at, 0)
            end = min(region_end - at, len(seg.text))
            if end <= start:
                continue
            if start > pos:
                pieces.extend(links(seg.text[pos:start], answer, allowed, link, prose, alt_link))
            block = seg.text[start:end]
            opener = _FENCE.match(block)
            fenced = opener is not None and (
                "\n" in block or end == len(seg.text) or seg.text[end : end + 1] == "\n"
            )
            if opener is not None and fenced:
                block = break_fence_ticks(_closed(block, opener.group(1)))
            pieces.append(Piece(code(block), atom=not fenced, code=fenced))
            pos = end
        if pos < len(seg.text):
            pieces.extend(links(seg.text[pos:], answer, allowed, link, prose, alt_link))
        at += len(seg.text) + sum(len(f"[{n}]") for n in seg.citations)
        for number in seg.citations:
            url = marker_url(answer, seg, number)
            alt = alt_marker(number, url) if alt_marker is not None else None
            pieces.append(Piece(marker(number, url), atom=True, alt=alt))
    return _unglued(pieces)


def _unglued(pieces: list[Piece]) -> list[Piece]:
    """Text after an atom that ends in ``]`` must not turn it into a link (``[1](…)``)."""
    for i in range(1, len(pieces)):
        before, piece = pieces[i - 1], pieces[i]
        glued = before.text.endswith("]") or (before.alt or "").endswith("]")
        if (
            glued
            and before.atom
            and not piece.atom
            and not piece.code
            and piece.text.startswith(("(", ":"))
        ):
            pieces[i] = Piece(WORD_JOINER + piece.text)
    return pieces


def _closed(block: str, fence: str) -> str:
    """A fenced block the model never closed gets its closing fence, so the
    rest of the message does not render as code."""
    lines = block.rstrip("\n").split("\n")
    last = lines[-1].strip() if len(lines) > 1 else ""
    if last.startswith(fence[0] * len(fence)) and last.strip(fence[0]) == "":
        return block
    return block.rstrip("\n") + "\n" + fence


_BREAKS = ("\n\n", "\n", ". ", " ")


def _cut(text: str, budget: int) -> int:
    """Where to cut ``text`` so the first part fits ``budget``: prefer a paragraph,
    then a line, a sentence, a space; a hard cut as the last resort."""
    if len(text) <= budget:
        return len(text)
    window = text[:budget]
    for sep in _BREAKS:
        at = window.rfind(sep)
        if at > budget // 3:
            return at + len(sep)
    return max(budget, 1)


def pack(pieces: list[Piece], limit: int) -> list[list[Piece]]:
    """Group pieces into chunks of at most ``limit`` characters (in both the
    ``text`` and the ``alt`` form) without breaking an atom, and close a code
    fence at every cut. Splittable text is cut at a paragraph, line, sentence
    or space where it can be."""
    chunks: list[list[Piece]] = []
    current: list[Piece] = []
    size = 0

    def flush() -> None:
        nonlocal current, size
        if any(p.text.strip() for p in current):
            chunks.append(current)
        current, size = [], 0

    for piece in pieces:
        cost = piece.size
        if size + cost <= limit:
            current.append(piece)
            size += cost
            continue
        if piece.atom:
            flush()
            if cost > limit:
                piece = Piece(
                    piece.text[:limit],
                    atom=True,
                    alt=None if piece.alt is None else piece.alt[:limit],
                )
            current.append(piece)
            size = piece.size
            continue
        if piece.code:
            for part in _split_fence(piece.text, limit):
                if size + len(part) > limit:
                    flush()
                current.append(Piece(part, code=True))
                size += len(part)
            continue
        text = piece.text
        while text:
            room = limit - size
            if room <= 0 or (room < 40 and current):
                flush()
                room = limit
            at = _cut(text, room)
            current.append(Piece(text[:at]))
            size += at
            text = text[at:]
            if text:
                flush()
    flush()
    return chunks


def join(chunk: list[Piece], *, alt: bool = False) -> str:
    return "".join(p.alt if alt and p.alt is not None else p.text for p in chunk).strip("\n")


def _split_fence(block: str, limit: int) -> list[str]:
    """Split a fenced code block into blocks that each open and close the fence."""
    if len(block) <= limit:
        return [block]
    first_nl = block.find("\n")
    opener = block[: first_nl if first_nl >= 0 else len(block)]
    fence = opener.strip()
    marker = fence[: len(fence) - len(fence.lstrip(fence[0]))] if fence else "```"
    body = block[first_nl + 1 :] if first_nl >= 0 else ""
    if body.rstrip().endswith(marker):
        body = body.rstrip()[: -len(marker)]
    room = max(limit - len(opener) - len(marker) - 2, 1)
    parts: list[str] = []
    while body:
        at = body.rfind("\n", 0, room + 1)
        at = at + 1 if at > 0 else room
        parts.append(f"{opener}\n{body[:at].rstrip(chr(10))}\n{marker}")
        body = body[at:]
    return parts or [block[:limit]]
