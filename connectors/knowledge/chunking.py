"""Cut documents into chunks: sections first, then sentences within a size budget.

Each chunk keeps the character offsets of its text in the source the connector
read, so a citation can point back at the exact span.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citations.sentences import Boundaries, pack
from connectors.knowledge.documents import Document, Section

__all__ = [
    "RULES",
    "Chunk",
    "Fits",
    "chunk_document",
    "document_ref",
    "section_title",
    "section_titles",
    "section_url",
]

TITLE_SEPARATOR = " › "
#: the smallest budget a span is re-cut to for the embedder's window
MIN_CHARS = 200

#: the version of how documents are parsed into sections and cut into chunks: chunk
#: offsets and anchors are stored, so a change of rules must re-ingest every document
#: (it is part of the ingest fingerprint), or old and new chunks would mix in one store
RULES = 10

# A sentence ends at . ! ? (maybe closed by a quote or bracket) before whitespace,
# or at a blank line (paragraphs, list blocks and headings without a full stop).
# Simpler than citations' PROSE on purpose (see RULES). Not after a run of "!" or "?": "!!!"
# and "???" open an admonition (mkdocs), and a chunk that began at its kind ("note") would
# read the admonition's indented body as code.
_BOUNDARIES = Boundaries(re.compile(r"(?<=[.!?])(?<![!?][!?])[\"')\]]*\s+|\n\s*\n"))


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrievable, addressable piece of a document."""

    text: str
    url: str
    title: str
    document_key: str
    collection: str
    kind: str
    start: int
    end: int
    page: int | None
    anchor: str | None
    content_hash: str
    ordinal: int

    @property
    def document_ref(self) -> str:
        return document_ref(self.collection, self.document_key)

    @property
    def id(self) -> str:
        """Stable across runs, so re-writing a chunk never duplicates it."""
        raw = f"{self.document_ref}\0{self.content_hash}\0{self.ordinal}"
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]

    def metadata(self) -> dict[str, str | int]:
        """Flat, fully typed metadata: every store sees the same columns for every chunk."""
        return {
            "url": self.url,
            "title": self.title,
            "document_key": self.document_key,
            "collection": self.collection,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "page": self.page or 0,
            "anchor": self.anchor or "",
            "content_hash": self.content_hash,
        }


def document_ref(collection: str, key: str) -> str:
    """An opaque id for a document in a collection, safe in any store's filter syntax."""
    return hashlib.sha256(f"{collection}\0{key}".encode()).hexdigest()[:32]


def section_title(document: Document, section: Section, parents: Sequence[str] = ()) -> str:
    heading = section.heading.strip()
    if not heading or heading == document.title:
        return document.title
    return TITLE_SEPARATOR.join((document.title, *parents, heading))


def section_titles(document: Document) -> list[str]:
    """Each section's title. A title that several sections of the page share ("Usage" under
    "Backfilling from OpenMetrics" and under "Backfilling for recording rules") names the
    headings the section sits under, nearest first, until no other section's title is the
    same: two footnotes "Storage › Usage" would not say which place each points at, and the
    title is what the embedder and the full-text index read beside the text. Sections that
    nothing tells apart are counted: "Limits", then "Limits (2)"."""
    paths = [tuple(p for p in s.parents if p and p != document.title) for s in document.sections]

    def titled(depth: int) -> list[str]:
        return [
            section_title(document, s, path[len(path) - min(depth, len(path)) :])
            for s, path in zip(document.sections, paths, strict=True)
        ]

    titles = titled(0)
    shared = {t for t, n in Counter(titles).items() if n > 1}
    for depth in range(1, max(map(len, paths), default=0) + 1):
        if not shared:
            break
        deeper = titled(depth)
        titles = [d if t in shared else t for t, d in zip(titles, deeper, strict=True)]
        shared = {t for t, n in Counter(titles).items() if n > 1}
    # the same heading under the same headings ("Limits" twice): counted, as the page's
    # anchors are (``#limits``, ``#limits-1``)
    seen: Counter[str] = Counter()
    numbered = []
    for title in titles:
        seen[title] += 1
        numbered.append(
            f"{title} ({seen[title]})" if title in shared and seen[title] > 1 else title
        )
    return numbered


def section_url(document: Document, section: Section) -> str:
    base = document.url.split("#", 1)[0]
    if section.page is not None:
        return f"{base}#page={section.page}"
    if section.anchor:
        return f"{base}#{section.anchor}"
    return document.url


#: ``fits(title, text)``: whether the embedder reads all of a chunk (its window is finite)
Fits = Callable[[str, str], bool]


def chunk_document(
    document: Document,
    *,
    max_chars: int = 1200,
    overlap_sentences: int = 0,
    fits: Fits | None = None,
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for section, title in zip(document.sections, section_titles(document), strict=True):
        url = section_url(document, section)
        spans = split_spans(section.text, max_chars, overlap_sentences)
        if fits is not None:
            spans = _fitted(section.text, spans, title, fits, overlap_sentences)
        for start, end in spans:
            chunks.append(
                Chunk(
                    text=section.text[start:end],
                    url=url,
                    title=title,
                    document_key=document.key,
                    collection=document.collection,
                    kind=document.kind,
                    start=section.start + start,
                    end=section.start + end,
                    page=section.page,
                    anchor=section.anchor,
                    content_hash=document.content_hash,
                    ordinal=len(chunks),
                )
            )
    return chunks


def _fitted(
    text: str, spans: list[tuple[int, int]], title: str, fits: Fits, overlap: int
) -> list[tuple[int, int]]:
    """Re-cut each span the embedder would truncate, in smaller budgets, until all fit."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        budget = end - start
        pieces = [(start, end)]
        while budget > MIN_CHARS and not all(fits(title, text[a:b]) for a, b in pieces):
            budget = max(MIN_CHARS, budget * 3 // 4)
            pieces = [
                (start + a, start + b) for a, b in split_spans(text[start:end], budget, overlap)
            ]
        out.extend(pieces)
    return out


def split_spans(text: str, max_chars: int, overlap_sentences: int = 0) -> list[tuple[int, int]]:
    """Pack whole sentences into spans of at most ``max_chars`` (a single long sentence is cut)."""
    runs = pack(text, max_chars, cut=True, overlap=overlap_sentences, boundaries=_BOUNDARIES)
    return [(run.start, run.end) for run in runs]
