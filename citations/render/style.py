"""The protocol a citation style implements, so plugins can add their own."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from citations.model import CitedAnswer


@runtime_checkable
class CitationStyle(Protocol):
    """A named, pure renderer: ``render(answer)`` returns a platform payload."""

    name: str

    def render(self, answer: CitedAnswer) -> object: ...
