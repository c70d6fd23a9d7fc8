"""The embedded default store: LanceDB files under the data dir, hybrid search.

Questions read the table with ``lance`` directly (``lance_search.py``: a
third of lancedb's import cost) and ingestion writes it the same way
(``lance_writer.py``): neither imports lancedb or LlamaIndex. The table is the
one ``llama-index-vector-stores-lancedb`` writes, and ``vector_store`` is that
adapter (opened on first use) for LlamaIndex code and ``citebot store migrate``.
LanceDB searches rows that the FTS index has not seen yet, so the index is
built once and folded forward by ``optimize()``, which also adds a vector index
once the table is large enough and a scalar index for deletes. (A bitmap index
on ``metadata.collection`` would speed the scope filter a little, but lancedb
0.40 fails to optimize indexes on nested columns.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from connectors.errors import StoreError, one_line
from connectors.knowledge.chunking import document_ref

from .base import (
    KnowledgeStore,
    hit_from_metadata,
    hybrid_options,
    meaning_score,
    source_from_metadata,
)
from .lance_search import LanceReader, scope_where
from .lance_writer import LanceWriter

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from llama_index.vector_stores.lancedb import LanceDBVectorStore

    from citations.model import Source
    from connectors.knowledge.chunking import Chunk
    from connectors.knowledge.settings import StoreSettings
    from connectors.providers.embeddings import Embedding
    from pipeline.ports import Hit

__all__ = ["LanceKnowledgeStore", "open_lancedb"]

log = logging.getLogger("citebot.store.lancedb")
# "Table doesn't exist yet" is how every fresh data dir starts, not a warning.
logging.getLogger("llama_index.vector_stores.lancedb.base").setLevel(logging.ERROR)

SUBDIR = "lancedb"
#: at most this many chunks read back per question for the sections of its sources
SECTION_ROWS = 200


class LanceKnowledgeStore(KnowledgeStore):
    kind = "lancedb"

    def __init__(self, path: Path, settings: StoreSettings, embedding: Embedding) -> None:
        super().__init__(None, embedding, **hybrid_options(settings))
        self.path = path
        self.table = settings.table
        self.vector_index_rows = settings.vector_index_rows
        self.reader = LanceReader(path / f"{self.table}.lance")
        self.writer = LanceWriter(path / f"{self.table}.lance")

    @property
    def vector_store(self) -> LanceDBVectorStore | None:
        """LlamaIndex's adapter over the table, opened on first use (citebot's own reads
        and writes go through ``lance``)."""
        if self._vector_store is None and self.path.is_dir():
            self._vector_store = self._connect(create=False)
        store: LanceDBVectorStore | None = self._vector_store  # type: ignore[assignment]
        return store

    def _make_dir(self) -> None:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the store at {self.path}: {exc.strerror or exc}"
            ) from None

    def _connect(self, *, create: bool) -> LanceDBVectorStore:
        if create:
            self._make_dir()
        try:
            from .lancedb_vectors import CitebotLanceDBVectorStore

            return CitebotLanceDBVectorStore(
                uri=str(self.path), table_name=self.table, mode="create"
            )
        except Exception as exc:
            raise StoreError(
                f"cannot open the LanceDB store at {self.path}: {one_line(exc)}"
            ) from exc

    def writable_vector_store(self) -> LanceDBVectorStore:
        if self.vector_store is None:
            self._vector_store = self._connect(create=True)
        store: LanceDBVectorStore = self._vector_store  # type: ignore[assignment]
        return store

    def add(
        self, chunks: Sequence[Chunk], *, vectors: Sequence[Sequence[float]] | None = None
    ) -> int:
        if not chunks:
            return 0
        if vectors is None:
            vectors = self.embedding.get_text_embedding_batch(self.embed_texts(chunks))
        self._make_dir()
        try:
            return self.writer.add(chunks, vectors)
        except Exception as exc:
            raise StoreError(f"cannot write to the {self.kind} store: {one_line(exc)}") from exc
        finally:
            self._written()

    def delete(self, document_keys: Iterable[str], collection: str) -> None:
        try:
            self.writer.delete([document_ref(collection, k) for k in document_keys])
        except Exception as exc:
            raise StoreError(f"cannot delete from the {self.kind} store: {one_line(exc)}") from exc
        finally:
            self._written()

    def optimize(self) -> None:
        try:
            self.writer.ensure_indexes(self.vector_index_rows)
        except Exception as exc:
            raise StoreError(f"cannot index the LanceDB store: {one_line(exc)}") from exc
        finally:
            self._written()

    def _written(self) -> None:
        # the reader and a LlamaIndex adapter opened earlier would see an old version
        self.reader.refresh()
        self._vector_store = None

    def is_empty(self) -> bool:
        return not self.reader.exists()

    def search(
        self, query: str, vector: list[float], *, top_k: int, scope: Sequence[str] | None
    ) -> list[Hit]:
        if not self.reader.has_text_index():
            # full-text search needs the index once; rows written after it are searched too
            self.optimize()
        # a linear fusion is what honours alpha (lancedb's default, RRF, has no weight);
        # over the deep pool it ranks better than RRF on the four dev sets (docs/pages/knowledge.md)
        rows = self.reader.search(
            query,
            vector,
            limit=top_k,
            pool=top_k * self.candidates,
            slots=self.section_slots,
            where=scope_where(scope),
            weight=0.5 if self.alpha is None else self.alpha,
        )
        return [
            hit_from_metadata(
                row["metadata"] or {},
                str(row["text"] or ""),
                meaning_score(vector, row["vector"], relevance),
            )
            for row, relevance in rows
        ]

    def count(self) -> int:
        return self.reader.count()

    def corpus_version(self) -> str:
        """``pipeline.ports.Corpus``: changes with every write."""
        return self.reader.version()

    def corpus_texts(self) -> list[str]:
        """``pipeline.ports.Corpus``: every chunk's text (for the pipeline's term statistics)."""
        try:
            return self.reader.texts()
        except Exception as exc:
            raise StoreError(f"cannot read the LanceDB store's texts: {one_line(exc)}") from exc

    async def section_chunks(
        self, urls: Sequence[str], *, scope: Sequence[str] | None
    ) -> list[Source]:
        """``pipeline.ports.Sections``: the chunks of these sections, within ``scope``."""
        if not urls or (scope is not None and not scope):
            return []
        collections = None if scope is None else list(scope)
        try:
            rows = await asyncio.to_thread(
                self.reader.rows_in_sections,
                list(dict.fromkeys(urls)),
                collections,
                SECTION_ROWS,
            )
        except Exception as exc:
            raise StoreError(
                f"cannot read sections from the LanceDB store: {one_line(exc)}"
            ) from exc
        return [source_from_metadata(text, meta) for text, meta in rows]

    def close(self) -> None:
        self._vector_store = None
        self.reader.refresh()


def open_lancedb(
    data_dir: Path, settings: StoreSettings, embedding: Embedding
) -> LanceKnowledgeStore:
    """The LanceDB store under ``data_dir``; nothing is created until the first write."""
    return LanceKnowledgeStore(Path(data_dir) / SUBDIR, settings, embedding)
