"""Cut documents into chunks: sections first, then sentences within a size budget.

Each chunk keeps the character offsets of its text in the source the connector
read, so a citation can point back at the exact span.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from connectors.documents import Document, Section

__all__ = ["Chunk", "chunk_document", "document_ref", "section_title", "section_url"]

TITLE_SEPARATOR = " › "

# A sentence ends at . ! ? (maybe closed by a quote or bracket) before whitespace,
# or at a blank line (paragraphs, list blocks and headings without a full stop).
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n\s*\n")


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


def section_title(document: Document, section: Section) -> str:
    heading = section.heading.strip()
    if not heading or heading == document.title:
        return document.title
    return f"{document.title}{TITLE_SEPARATOR}{heading}"


def section_url(document: Document, section: Section) -> str:
    base = document.url.split("#", 1)[0]
    if section.page is not None:
        return f"{base}#page={section.page}"
    if section.anchor:
        return f"{base}#{section.anchor}"
    return document.url


def chunk_document(
    document: Document, *, max_chars: int = 1200, overlap_sentences: int = 0
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for section in document.sections:
        url = section_url(document, section)
        title = section_title(document, section)
        for start, end in split_spans(section.text, max_chars, overlap_sentences):
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


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each sentence, whitespace trimmed."""
    pos = 0
    for match in _BOUNDARY.finditer(text):
        yield from _trimmed(text, pos, match.start())
        pos = match.end()
    yield from _trimmed(text, pos, len(text))


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield start, end


def _hard_split(text: str, start: int, end: int, max_chars: int) -> Iterator[tuple[int, int]]:
    """A sentence longer than the budget, cut at the last space that fits."""
    while end - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars)
        if cut <= start:
            cut = start + max_chars
        yield from _trimmed(text, start, cut)
        start = cut
    yield from _trimmed(text, start, end)


def split_spans(text: str, max_chars: int, overlap_sentences: int = 0) -> list[tuple[int, int]]:
    """Pack whole sentences into spans of at most ``max_chars`` (a single long sentence is cut)."""
    sentences: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        sentences.extend(_hard_split(text, start, end, max_chars))
    spans: list[tuple[int, int]] = []
    first = 0
    while first < len(sentences):
        last = first
        while (
            last + 1 < len(sentences) and sentences[last + 1][1] - sentences[first][0] <= max_chars
        ):
            last += 1
        spans.append((sentences[first][0], sentences[last][1]))
        if last + 1 >= len(sentences):
            break
        # Overlap repeats trailing sentences but must always move forward.
        first = max(first + 1, last + 1 - overlap_sentences)
    return spans
