"""The citation data model: what a source is, what a footnote is, what an answer is.

Everything here is an immutable value. Renderers, the stream resolver and the
numbering all speak these types, and nothing in this package does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Origin(StrEnum):
    KB = "kb"
    WEB = "web"


@dataclass(frozen=True, slots=True)
class Locator:
    """Where in its document a source's text sits."""

    page: int | None = None
    anchor: str | None = None
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """One retrievable piece of evidence.

    ``id`` is the short number the model sees; the model never sees ``url``.
    """

    id: int
    url: str
    title: str
    text: str
    locator: Locator = field(default_factory=Locator)
    origin: Origin = Origin.KB


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """The outcome of verifying one quoted or cited span against its source."""

    quote: str
    reference: int
    verified: bool
    score: float
    source_id: int | None = None
    start: int | None = None
    end: int | None = None
    reason: str = ""
    deep_link: str | None = None
    kind: str = "quote"  # "quote" for quoted words, "sentence" for a cited sentence


@dataclass(frozen=True, slots=True)
class Reference:
    """A numbered footnote: every source that shares one canonical URL."""

    number: int
    url: str
    title: str
    sources: tuple[Source, ...]

    @property
    def origin(self) -> Origin:
        return self.sources[0].origin if self.sources else Origin.KB


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of answer text followed by the footnote numbers that cite it."""

    text: str
    citations: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CitedAnswer:
    segments: tuple[Segment, ...]
    references: tuple[Reference, ...]
    warnings: tuple[str, ...] = ()
    quotes: tuple[QuoteCheck, ...] = ()

    @property
    def text(self) -> str:
        """The answer with ``[n]`` markers after each cited segment."""
        return "".join(seg.text + "".join(f"[{n}]" for n in seg.citations) for seg in self.segments)

    @property
    def plain_text(self) -> str:
        return "".join(seg.text for seg in self.segments)

    def reference(self, number: int) -> Reference | None:
        for ref in self.references:
            if ref.number == number:
                return ref
        return None

    @classmethod
    def empty(cls, text: str, *, warnings: tuple[str, ...] = ()) -> CitedAnswer:
        """An answer with no footnotes (a refusal, an error, a no-answer)."""
        return cls(segments=(Segment(text),), references=(), warnings=warnings)
