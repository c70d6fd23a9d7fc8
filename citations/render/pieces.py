"""Shared renderer machinery: link safety, code-aware scanning and safe splitting.

Renderers turn an answer into a list of *pieces*: runs of text, which may be
split at a space or a newline, and atoms (a footnote marker, a link), which
never are. ``pack`` fills messages from pieces without breaking an atom: one too
long for any message loses its link (``bare``), and code too long for one is
closed at each cut and opened again in the next message.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from citations.model import CitedAnswer, Segment
from citations.render.cuts import MIN_ROOM, cut, split_fence, split_span
from citations.render.safe import (
    DEST_MAX,
    LABEL_MAX,
    TEMPLATED,
    WORD_JOINER,
    break_fence_ticks,
    code_blocks,
    code_regions,
    defang,
)
from citations.urls import canonical_url

# An ordinary Markdown link (not an image, not an escaped bracket): [label](url) or [label](<url>),
# or one with no destination or a template's (safe.TEMPLATED), which keeps only its label
_MD_LINK = re.compile(
    rf"(?<![!\\])\[([^\[\]\n]{{0,{LABEL_MAX}}})\]\("
    rf"(?:\s*<?([^()<>\s]{{1,{DEST_MAX}}})>?(?:\s+\"[^\"\n]*\")?|[ \t]*(?:"
    + TEMPLATED
    + r")?)\s*\)"
)


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    atom: bool = False
    code: bool = False  # a fenced code block: split only between its lines
    alt: str | None = None  # a second rendering of an atom (Slack's Markdown form)
    source: str | None = None  # code: the text as written, before the renderer's ``code``
    # an atom as shown when it cannot fit a message: a link's words, a marker without its link
    bare: Piece | None = None

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
        label, url = m.group(1), m.group(2) or ""
        if link_allowed(url, answer, allowed):
            if any(pending):
                pieces.append(Piece(plain("".join(pending))))
            pending = []
            alt = alt_link(label, url) if alt_link is not None else None
            pieces.append(Piece(link(label, url), atom=True, alt=alt, bare=_bare(label, plain)))
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
    limit: int | None = None,
) -> list[Piece]:
    """The answer body as pieces, with code left verbatim (apart from ``code``).

    Code is found in the whole answer, markers included, at once: a platform
    pairs backticks across markers, and a marker before a fence keeps it from
    starting a line. A marker that falls inside code waits until the code ends,
    so a fence the model never closed is closed on a line of its own.

    An atom longer than ``limit`` (the most a message holds) is taken in its bare
    form here rather than in ``pack``, so that what is read as code is checked
    on the text as it will be shown."""

    def words(text: str) -> list[Piece]:
        return [fitted(p, limit) for p in links(text, answer, allowed, link, prose, alt_link)]

    pieces: list[Piece] = []
    blocks = code_blocks(answer.text)
    b = 0
    held: list[str] = []  # the code being read, without the markers inside it
    waiting: list[Piece] = []  # those markers

    def end_block() -> None:
        nonlocal b
        pieces.extend(_code_pieces(held, blocks[b].fenced, code, words))
        if waiting and blocks[b].fenced:
            pieces.append(Piece("\n"))
        pieces.extend(waiting)
        held.clear()
        waiting.clear()
        b += 1

    at = 0  # the offset of the current segment in the answer
    for seg in answer.segments:
        pos = 0
        while pos < len(seg.text):
            if b < len(blocks) and blocks[b].start <= at + pos:
                end = min(blocks[b].end - at, len(seg.text))
                held.append(seg.text[pos:end])
                pos = end
                if at + pos >= blocks[b].end:
                    end_block()
                continue
            stop = len(seg.text) if b == len(blocks) else min(blocks[b].start - at, len(seg.text))
            pieces.extend(words(seg.text[pos:stop]))
            pos = stop
        at += len(seg.text) + sum(len(f"[{n}]") for n in seg.citations)
        for number in seg.citations:
            piece = _marker(number, marker_url(answer, seg, number), answer, marker, alt_marker)
            (waiting if held else pieces).append(fitted(piece, limit))
        if held and at >= blocks[b].end:
            end_block()
    if held:
        end_block()
    return _unglued(_as_read(pieces, words))


def fitted(piece: Piece, limit: int | None) -> Piece:
    """``piece``, or the first of its bare forms within ``limit``."""
    while limit is not None and piece.size > limit and piece.bare is not None:
        piece = piece.bare
    return piece


def _bare(label: str, plain: Callable[[str], str]) -> Piece:
    # Word joiners keep the words from joining the text either side into a URL or a
    # mention, and without backticks they cannot change which text around is code.
    return Piece(WORD_JOINER + plain(label.replace("`", "")) + WORD_JOINER)


def _marker(
    number: int,
    url: str,
    answer: CitedAnswer,
    marker: Callable[[int, str], str],
    alt_marker: Callable[[int, str], str] | None,
) -> Piece:
    """Marker ``[number]`` linking ``url``; too long for a message, it links the whole
    reference instead, and then nothing (Sources still lists the reference)."""

    def made(link_to: str, bare: Piece | None) -> Piece:
        alt = alt_marker(number, link_to) if alt_marker is not None else None
        return Piece(marker(number, link_to), atom=True, alt=alt, bare=bare)

    piece = made("", None)
    ref = answer.reference(number)
    for link_to in dict.fromkeys(u for u in (ref.url if ref else "", url) if u):
        piece = made(link_to, piece)
    return piece


def _code_pieces(
    parts: list[str], fenced: bool, code: Callable[[str], str], words: Callable[[str], list[Piece]]
) -> list[Piece]:
    text = "".join(parts)
    if fenced:
        fence = text.lstrip(" ")
        fence = fence[: len(fence) - len(fence.lstrip("`"))]
        block = break_fence_ticks(_closed(text, fence))
        return [Piece(code(block), code=True, source=block)]
    if len(parts) > 1 and code_regions(text) != [(0, len(text))]:
        # the markers taken out of this span changed how its backticks pair
        return words(text)
    return [Piece(code(text), atom=True, source=text)]


def _as_read(pieces: list[Piece], words: Callable[[str], list[Piece]]) -> list[Piece]:
    """Code stays verbatim only where the whole message still reads it as code,
    in both forms (``text`` and ``alt``); any other code is shown as prose.

    A renderer's own syntax (an escaped bracket before a dropped link, a marker
    or link with a backtick in its URL) must never turn code into prose that a
    platform would link."""
    for _ in range(3):
        wrong = _misread(pieces, alt=False) | _misread(pieces, alt=True)
        if not wrong:
            return pieces
        pieces = [
            q for i, p in enumerate(pieces) for q in (words(p.source or "") if i in wrong else [p])
        ]
    return [q for p in pieces for q in (words(p.source) if p.source is not None else [p])]


def _misread(pieces: list[Piece], *, alt: bool) -> set[int]:
    shown = [
        p.source if p.source is not None else (p.alt if alt and p.alt is not None else p.text)
        for p in pieces
    ]
    regions = code_regions("".join(shown))
    starts = [start for start, _ in regions]
    wrong: set[int] = set()
    at = 0
    for i, (piece, text) in enumerate(zip(pieces, shown, strict=True)):
        if piece.source is not None:
            r = bisect_right(starts, at) - 1
            if r < 0 or regions[r][1] < at + len(text):
                wrong.add(i)
        at += len(text)
    return wrong


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


def pack(pieces: list[Piece], limit: int) -> list[list[Piece]]:
    """Group pieces into chunks of at most ``limit`` characters (in both the
    ``text`` and the ``alt`` form) without breaking an atom, and close a code
    fence or span at every cut. Splittable text is cut at a paragraph, line,
    sentence or space where it can be. Code longer than a message starts in the
    room the message before leaves, so no message holds only a few words."""
    chunks: list[list[Piece]] = []
    current: list[Piece] = []
    size = 0

    def flush() -> None:
        nonlocal current, size
        if any(p.text.strip() for p in current):
            chunks.append(current)
        current, size = [], 0

    for piece in _unglued([fitted(p, limit) for p in pieces]):
        cost = piece.size
        if size + cost <= limit:
            current.append(piece)
            size += cost
            continue
        if piece.code or (piece.atom and piece.source is not None):
            first = limit - size if cost > limit else limit
            split = split_fence if piece.code else split_span
            for part in split(piece.text, first, limit):
                if size + len(part) > limit:
                    flush()
                current.append(Piece(part, atom=not piece.code, code=piece.code))
                size += len(part)
            continue
        if piece.atom and cost <= limit:
            flush()
            current.append(piece)
            size = cost
            continue
        # text, or an atom too long for any message that has no bare form: disarmed
        text = piece.text if not piece.atom else defang(piece.text)
        while text:
            room = limit - size
            if room <= 0 or (room < MIN_ROOM and current):
                flush()
                room = limit
            at = cut(text, room)
            current.append(Piece(text[:at]))
            size += at
            text = text[at:]
            if text:
                flush()
    flush()
    return chunks


def join(chunk: list[Piece], *, alt: bool = False) -> str:
    return "".join(p.alt if alt and p.alt is not None else p.text for p in chunk).strip("\n")
