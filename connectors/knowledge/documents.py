"""What every knowledge connector produces: documents cut into addressable sections.

A connector (folder, web crawler, LlamaHub reader) yields ``Document``s. The
ingestion engine (``connectors.knowledge.ingest``) chunks their sections, embeds the
chunks and writes them to the store, incrementally by ``content_hash``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Section:
    """A span of a document that a URL can point at (a heading, a PDF page)."""

    text: str
    heading: str = ""
    anchor: str | None = None
    page: int | None = None
    start: int = 0
    end: int = 0
    #: the headings ``heading`` sits under, outermost first (when the reader knows them)
    parents: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Document:
    """One source document.

    ``key`` identifies it across re-ingests (a relative path, a page URL);
    ``url`` is the link a reader follows, before any section anchor.
    """

    key: str
    url: str
    title: str
    sections: tuple[Section, ...]
    kind: str = "text"
    collection: str = "default"
    content_hash: str = ""
    metadata: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def hash_of(data: bytes | str) -> str:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True, slots=True)
class Skipped:
    """Something a connector could not read; ingestion warns and goes on."""

    key: str
    reason: str

    def __str__(self) -> str:
        return f"skipped {self.key}: {self.reason}"


def full_text(sections: Iterable[Section]) -> str:
    return "\n\n".join(s.text for s in sections)
