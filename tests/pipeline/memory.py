"""An in-memory ``Retriever`` for unit tests: cosine ranking over a handful of sources."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from citations.model import Locator, Source
from pipeline.ports import Embedder, Hit


def kb(url: str, title: str, text: str, *, collection: str = "default") -> tuple[Source, str]:
    return Source(
        id=0, url=url, title=title, text=text, locator=Locator(start=0, end=len(text))
    ), collection


@dataclass
class MemoryRetriever:
    embedder: Embedder
    docs: Sequence[tuple[Source, str]]
    calls: list[tuple[str, tuple[str, ...] | None]] = field(default_factory=list)
    fail: BaseException | None = None
    _vectors: np.ndarray | None = None

    async def retrieve(self, query: str, *, top_k: int, scope: Sequence[str] | None) -> list[Hit]:
        self.calls.append((query, tuple(scope) if scope is not None else None))
        if self.fail is not None:
            raise self.fail
        if self._vectors is None:
            self._vectors = np.asarray(await self.embedder.embed([s.text for s, _ in self.docs]))
        (q,) = await self.embedder.embed([query])
        sims = self._vectors @ np.asarray(q)
        order = np.argsort(-sims)
        hits = []
        for i in order:
            source, collection = self.docs[int(i)]
            if scope is not None and collection not in scope:
                continue
            hits.append(Hit(source=source, score=float(sims[int(i)]), collection=collection))
            if len(hits) == top_k:
                break
        return hits


class StubWeb:
    """A ``WebSearch`` returning fixed pages, or failing."""

    def __init__(self, pages: Sequence[Source] = (), *, fail: BaseException | None = None) -> None:
        self.pages = list(pages)
        self.fail = fail
        self.queries: list[str] = []

    async def search(self, query: str) -> list[Source]:
        self.queries.append(query)
        if self.fail is not None:
            raise self.fail
        return list(self.pages)
