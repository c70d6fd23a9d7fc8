"""A retrieved chunk read on into the rest of its section.

Chunks are cut to the embedder's window, so a section's answer often runs on
into the next chunk ("… by default:" then the list), or began in the chunk before the
one retrieved (the sentence that says what a list or an option is for), and a chunk may
start in the middle of a code block, whose closing fence would then open a false one.
Extraction reads each source with the chunk before it and the chunk after it, from the
chunk where an open code block began, so fences pair up and the answer can run on, and
from the chunk holding the column headings of a table it starts inside. Every source that
starts inside a table, read on or not, is read with that table's column headings.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from citations.model import Origin, Source
from pipeline.errors import one_line
from pipeline.ports import Sections
from pipeline.text import FENCED

log = logging.getLogger("citebot.pipeline.sections")

# the row of dashes under a table's column headings; a pipe parts each cell from the next, so
# a long run of dashes that is not such a row fails at once (were the pipes optional, every
# way of splitting the run into cells would be tried: minutes for a line of 60 dashes)
_DASHES = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")

#: the best sources read on (the answer's sentences come mostly from the first few;
#: each source read on costs its extra sentences' embeddings)
READ_ON = 3
#: the chunks of its section read before each of the best sources: on the ten dev sets,
#: reading one back (not only where the chunk opens by leaning on it, "This …") stated the
#: fact in three more answers and lost none, for about 2 ms a question
READ_BACK = 1
#: at most this many chunks are read back before a chunk to reach its open code block
MAX_BACK = 2


async def read_on(
    store: Sections | None,
    sources: Sequence[Source],
    scope: Sequence[str] | None,
    *,
    after: int = 1,
    before: int = READ_BACK,
    reach: int = READ_ON,
) -> list[Source]:
    """``sources`` with the rest of their section around them; as they are on failure."""
    urls = [s.url for s in sources if s.origin is Origin.KB and s.locator.start is not None]
    if store is None or not urls:
        return list(sources)
    try:
        chunks = await store.section_chunks(urls, scope=scope)
    except Exception as exc:
        log.warning("cannot read on past the retrieved chunks: %s", one_line(exc))
        return list(sources)
    return widened(sources, chunks, after=after, before=before, reach=reach)


def widened(
    sources: Sequence[Source],
    chunks: Sequence[Source],
    *,
    after: int,
    before: int = 0,
    reach: int = READ_ON,
) -> list[Source]:
    """Each of the first ``reach`` sources joined with the ``before`` chunks that come before
    it in its section and the ``after`` chunks that follow it, and further back to the code
    block or the table it starts inside (at most ``MAX_BACK`` chunks back in all); each source
    that still starts inside a table gets the table's column headings (:func:`_headed`).
    A source that overlaps or touches a better one of its section is folded into it (its
    sentences would be read twice, and a list they share split between them)."""
    by_url: dict[str, list[Source]] = defaultdict(list)
    for chunk in chunks:
        if chunk.locator.start is not None and chunk.locator.end is not None:
            by_url[chunk.url].append(chunk)
    for section in by_url.values():
        section.sort(key=lambda c: c.locator.start or 0)
    near = {source.url for source in sources[:reach]}
    spans: list[tuple[Source, list[int], Sequence[Source]]] = []
    for n, source in enumerate(sources):
        section = by_url.get(source.url, [])
        starts = [c.locator.start for c in section]
        if source.locator.start not in starts:
            spans.append((source, [], ()))
            continue
        i = first = last = starts.index(source.locator.start)
        if source.url not in near:
            # not read on, but a table's rows are still read with their column headings
            spans.append((source, [], section[:i]))
            continue
        if n < reach:
            first = max(0, i - before)
            while first > 0 and i - first < MAX_BACK and _open_fence_before(section, first):
                first -= 1
            while first > 0 and i - first < MAX_BACK and _starts_mid_table(section[first].text):
                first -= 1
            last = min(len(section) - 1, i + after)
        for kept, span, _ in spans:
            if span and kept.url == source.url and first <= span[1] + 1 and last >= span[0] - 1:
                span[0], span[1] = min(span[0], first), max(span[1], last)
                break
        else:
            spans.append((source, [first, last], ()))
    return [
        _headed(
            _past_code(
                _joined(source, by_url[source.url][span[0] : span[1] + 1]),
                by_url[source.url][: span[0]],
            ),
            by_url[source.url][: span[0]],
        )
        if span
        else _headed(_past_code(source, head), head)
        for source, span, head in spans
    ]


def _headed(source: Source, before: Sequence[Source]) -> Source:
    """``source`` with the column headings of the table it starts inside, from the chunks
    ``before`` it in its section, above its rows: a row is read with its headings ("Default:
    30s"), and the chunks between would only add rows."""
    if not before or not _starts_mid_table(source.text):
        return source
    lines = source.text.split("\n")
    for chunk in reversed(before):
        above = chunk.text.split("\n")
        for k in range(len(above) - 1, 0, -1):
            if _DASHES.match(above[k]) and "|" in above[k - 1]:
                # above the first whole row: the chunk may open with the rest of a row cut
                # in two; none of its first lines with as many cells is another table's
                at = next(
                    (i for i, line in enumerate(lines[:3]) if _columns(line) == _columns(above[k])),
                    None,
                )
                if at is None:
                    return source
                cut = [*lines[:at], ""] if at else []
                text = "\n".join([*cut, above[k - 1], above[k], *lines[at:]])
                return replace(source, text=text)
    return source


def _columns(line: str) -> int:
    # every pipe counts, even one in a code span (units.cells keeps those as text): a row
    # whose count then differs from its headings' is left without them, which keeps a
    # chunk opening with the cut-off rest of such a row from being read as a whole one
    return len(line.strip().strip("|").split("|"))


def _joined(source: Source, parts: Sequence[Source]) -> Source:
    if len(parts) == 1 and parts[0].text == source.text:
        return source
    text = parts[0].text
    for before, chunk in pairwise(parts):
        gap = (chunk.locator.start or 0) - (before.locator.end or 0)
        last = text[text.rfind("\n") + 1 :].strip()
        # a table's row is one line: a chunk cut inside it was cut at a space, or at a full
        # stop in a cell before the padding that lines its columns up (a gap of any width)
        inside_row = gap >= 1 and last.startswith("|") and not last.endswith("|")
        text += (" " if inside_row else _gap(gap)) + chunk.text
    locator = replace(source.locator, start=parts[0].locator.start, end=parts[-1].locator.end)
    return replace(source, text=text, locator=locator)


def _gap(width: int) -> str:
    """The whitespace between two chunks ``width`` characters apart. Chunks are trimmed, so
    a chunk that began inside a bullet lost its indentation: a blank line then the rest as
    indentation keeps the bullet's later paragraphs and nested list in it ("1." under
    "This has two drawbacks:"). Below four, it is only line breaks."""
    if width >= 4:
        return "\n\n" + " " * (width - 2)
    return "\n\n" if width >= 2 else "\n" if width == 1 else ""


def _starts_mid_table(text: str) -> bool:
    """Whether a chunk begins with a table's body row, or the rest of a row cut in two:
    its column headings, which the row is read with, are in a chunk before it."""
    lines = text.lstrip().split("\n", 2)
    row = lines[0].startswith("|") or lines[0].rstrip().endswith("|")
    return row and not (len(lines) > 1 and _DASHES.match(lines[1]))


def _open_fence_before(section: Sequence[Source], index: int) -> bool:
    """Whether a code block is still open where chunk ``index`` begins."""
    return _open_fence(section[:index]) is not None


def _open_fence(chunks: Sequence[Source]) -> str | None:
    """The fence of the code block the ``chunks`` end inside of, if they do."""
    text = "\n".join(c.text for c in chunks)
    return next((b.group("fence") for b in FENCED.finditer(text) if b.group("close") is None), None)


def _past_code(source: Source, before: Sequence[Source]) -> Source:
    """``source`` from where the code block it starts inside of (opened in the chunks
    ``before`` it) ends: a chunk cut from the middle of a long block has no fence to say
    that its lines are code, and read as prose its comments and statements would be
    quoted as sentences. With no closing fence in it, it is all code: nothing is left."""
    fence = _open_fence(before)
    if fence is None:
        return source
    closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$\n?", re.M)
    end = closing.search(source.text)
    cut = end.end() if end else len(source.text)
    cut += len(source.text[cut:]) - len(source.text[cut:].lstrip())
    start = source.locator.start
    locator = replace(source.locator, start=start + cut) if start is not None else source.locator
    return replace(source, text=source.text[cut:], locator=locator)
