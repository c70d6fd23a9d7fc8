"""Where each heading of a page sits: the headings it is under."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["parents"]


def parents(headings: Sequence[tuple[int, str]]) -> list[tuple[str, ...]]:
    """For each ``(level, text)`` heading in page order, the texts of the headings it sits
    under, outermost first: each nearest heading of a lower level before it. A heading with
    nothing under it still counts ("## Backfilling" straight over "### Usage")."""
    found: list[tuple[str, ...]] = []
    open_headings: list[tuple[int, str]] = []
    for level, text in headings:
        while open_headings and open_headings[-1][0] >= level:
            open_headings.pop()
        found.append(tuple(t for _, t in open_headings))
        open_headings.append((level, text))
    return found
