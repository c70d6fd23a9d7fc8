"""Files attached to a question, as passages the pipeline grades and cites like any other.

An attachment is context the asker chose, in the place they asked: it is searched
beside the knowledge base (never instead of it), graded by the same grader and cited
as the file. Only the passages that share most terms with the question are kept, so a
long log costs a few passages, not its whole length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citations.model import Locator, Source
from pipeline.ports import Hit
from pipeline.question import Attachment, Question
from pipeline.words import question_terms, terms

#: the collection name attachment passages carry, so later steps can tell them apart
ATTACHED = "attachment"
#: passages kept per question, over all its attachments
MAX_PASSAGES = 6
#: a passage's size: about one MiniLM window of prose
PASSAGE_CHARS = 1000

_PAGE = "\f"
_BLANK = re.compile(r"\n[ \t]*\n")


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    lo = 0
    for blank in _BLANK.finditer(text):
        yield lo, blank.start()
        lo = blank.end()
    yield lo, len(text)


def _pieces(text: str, start: int) -> Iterator[tuple[int, int]]:
    """Spans of ``text`` (offsets from ``start``), paragraph by paragraph, each cut at
    line ends to at most PASSAGE_CHARS; a single over-long line is cut where it must be."""
    for lo, end in _paragraphs(text):
        while lo < end:
            hi = min(end, lo + PASSAGE_CHARS)
            if hi < end:
                cut = text.rfind("\n", lo, hi)
                hi = cut + 1 if cut > lo else hi
            if text[lo:hi].strip():
                yield start + lo, start + hi
            lo = hi


def spans(text: str) -> Iterator[tuple[int | None, int, int]]:
    """(page, start, end) of each passage: paragraphs packed up to PASSAGE_CHARS, never
    across a page (PDF pages are separated by form feeds)."""
    pages = text.split(_PAGE)
    offset = 0
    for number, page in enumerate(pages, start=1):
        run: tuple[int, int] | None = None
        for lo, hi in _pieces(page, offset):
            if run is not None and hi - run[0] <= PASSAGE_CHARS:
                run = (run[0], hi)
                continue
            if run is not None:
                yield (number if len(pages) > 1 else None), *run
            run = (lo, hi)
        if run is not None:
            yield (number if len(pages) > 1 else None), *run
        offset += len(page) + len(_PAGE)


def _source(attachment: Attachment, page: int | None, start: int, end: int) -> Source:
    return Source(
        id=0,
        url=attachment.url,
        title=attachment.name,
        text=attachment.text[start:end],
        locator=Locator(page=page, start=start, end=end),
    )


def attachment_hits(question: Question, *, limit: int = MAX_PASSAGES) -> list[Hit]:
    """The passages of ``question``'s readable attachments that share the most of its
    terms, in document order; each scored by the share of the question's terms it has."""
    wanted = set(question_terms(question.text))
    ranked: list[tuple[float, int, Hit]] = []
    for attachment in question.attachments:
        if attachment.skipped is not None or not attachment.text.strip():
            continue
        for page, start, end in spans(attachment.text):
            source = _source(attachment, page, start, end)
            shared = len(wanted & set(terms(source.text))) / len(wanted) if wanted else 0.0
            ranked.append((shared, len(ranked), Hit(source, shared, ATTACHED)))
    if any(shared for shared, _, _ in ranked):
        # a question with terms of its own is answered by passages that have some of them;
        # one without ("what is wrong here?") gets the file's opening passages
        ranked = [r for r in ranked if r[0]]
    best = sorted(ranked, key=lambda r: (-r[0], r[1]))[:limit]
    return [hit for _, _, hit in sorted(best, key=lambda r: r[1])]


def skipped_notes(question: Question) -> list[str]:
    """One line per attachment that was not read, saying why."""
    return [a.skipped for a in question.attachments if a.skipped is not None]
