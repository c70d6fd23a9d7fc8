"""Which of a fused candidate pool a store hands back: a section's best chunks first.

A long section is cut into several chunks, and they tend to rank together: on
structlog's docs a 9,000-character section took three of six slots, so only four
or five sections were retrieved. The pipeline reads on through the section of a
retrieved chunk itself (``pipeline/sections.py``), so with ``slots`` set, the
best ``slots`` chunks of each section come first, in fused order, and a
section's further chunks only after every section's first ``slots``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

__all__ = ["sections_first"]

T = TypeVar("T")


def sections_first(
    ranked: Sequence[T], section: Callable[[T], Hashable], keep: int, *, slots: int
) -> list[T]:
    """The first ``keep`` of ``ranked`` (best first) when each section's chunks beyond its
    first ``slots`` wait for every other section's first ``slots`` (and so on, round by
    round); the order is kept within each round. ``slots`` 0: ``ranked`` as it is."""
    if slots <= 0:
        return list(ranked[: max(keep, 0)])
    seen: Counter[Hashable] = Counter()
    rounds: list[list[T]] = []
    for item in ranked:
        key = section(item)
        depth = seen[key] // slots
        seen[key] += 1
        if depth == len(rounds):
            rounds.append([])
        rounds[depth].append(item)
        if depth == 0 and len(rounds[0]) >= keep:
            break
    return [item for level in rounds for item in level][: max(keep, 0)]
