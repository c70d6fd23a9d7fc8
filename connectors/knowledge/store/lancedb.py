"""The embedded default store: LanceDB files under the data dir, hybrid search.

Goes through ``llama-index-vector-stores-lancedb`` with a few repairs for
lancedb 0.40: its deletes quote values as identifiers, an empty result raises
``Warning``, and every add (and every process start) rebuilt the whole full-text
index on the next query. LanceDB searches rows that the FTS index has not seen
yet, so the index is built once and folded forward by ``optimize()``, which
also adds a vector index once the table is large enough and a scalar index for
deletes. (A bitmap index on ``metadata.collection`` would speed the scope filter
a little, but lancedb 0.40 fails to optimize indexes on nested columns.)
"""

from __future__ import annotations

import logging
import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from llama_index.core.vector_stores.types import (
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)

from connectors.errors import StoreError, one_line

from .base import KnowledgeStore

if TYPE_CHECKING:
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from llama_index.vector_stores.lancedb import LanceDBVectorStore

    from connectors.config import StoreSettings

__all__ = ["LanceKnowledgeStore", "open_lancedb"]

log = logging.getLogger("citebot.store.lancedb")
# "Table doesn't exist yet" is how every fresh data dir starts, not a warning.
logging.getLogger("llama_index.vector_stores.lancedb.base").setLevel(logging.ERROR)

SUBDIR = "lancedb"
#: Below this many chunks an exact flat scan is fast enough (about 20 ms at 10k).
TEXT_COLUMN = "text"


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _vector_store_class() -> type[LanceDBVectorStore]:
    # Imported on first use: lancedb, pyarrow and pandas cost ~1 s of start-up.
    from llama_index.vector_stores.lancedb import LanceDBVectorStore

    class CitebotLanceDBVectorStore(LanceDBVectorStore):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self._fts_index_ready = self._has_fts_index()

        @classmethod
        def class_name(cls) -> str:
            return "CitebotLanceDBVectorStore"

        def _has_fts_index(self) -> bool:
            if self._table is None:
                return False
            try:
                indices = self._table.list_indices()
            except Exception:  # an old table format: rebuild on first query
                return False
            return any(
                str(i.index_type).upper() == "FTS" and TEXT_COLUMN in list(i.columns)
                for i in indices
            )

        def add(self, nodes: Any, **add_kwargs: Any) -> list[str]:
            had_index = self._has_fts_index()
            ids: list[str] = super().add(nodes, **add_kwargs)
            self._fts_index_ready = had_index
            return ids

        def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
            if self._table is None:
                return
            self._table.delete(f"{self.doc_id_key} = {_quote(ref_doc_id)}")

        def delete_nodes(
            self,
            node_ids: list[str] | None = None,
            filters: MetadataFilters | None = None,
            **delete_kwargs: Any,
        ) -> None:
            if filters is not None:
                raise NotImplementedError("delete by ids or by document")
            if self._table is None or not node_ids:
                return
            self._table.delete("id IN (" + ",".join(_quote(i) for i in node_ids) + ")")

        def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
            if self._table is None:
                return VectorStoreQueryResult(nodes=[], similarities=[], ids=[])
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    return super().query(query, **kwargs)
            except Warning:  # the integration's way of saying "no rows matched"
                return VectorStoreQueryResult(nodes=[], similarities=[], ids=[])

        def ensure_indexes(self, vector_index_rows: int) -> None:
            """Create missing indexes and fold new rows into existing ones."""
            table = self._table
            if table is None:
                return
            from lancedb.index import FTS, BTree, IvfFlat

            existing = {tuple(i.columns) for i in table.list_indices()}
            if (TEXT_COLUMN,) not in existing:
                table.create_index(TEXT_COLUMN, config=FTS(), replace=True)
            rows = int(table.count_rows())
            vector = self.vector_column_name or "vector"
            if (vector,) not in existing and rows >= vector_index_rows:
                # IVF without quantisation: exact distances inside the probed partitions.
                # At 100k chunks a flat scan costs ~50-90 ms on 2 cores, this ~5-10 ms.
                partitions = max(16, int(math.sqrt(rows) / 2))
                table.create_index(
                    vector,
                    config=IvfFlat(distance_type="cosine", num_partitions=partitions),
                    replace=True,
                )
            if (self.doc_id_key,) not in existing:
                table.create_index(self.doc_id_key, config=BTree(), replace=True)
            if existing:
                # Compacts the small fragments that per-document writes leave and
                # adds rows written since to every existing index.
                table.optimize()
            self._fts_index_ready = True

        def count_rows(self) -> int:
            return 0 if self._table is None else int(self._table.count_rows())

    return CitebotLanceDBVectorStore


class LanceKnowledgeStore(KnowledgeStore):
    kind = "lancedb"

    def __init__(self, path: Path, settings: StoreSettings, embedding: BaseEmbedding) -> None:
        super().__init__(None, embedding, alpha=settings.alpha)
        self.path = path
        self.table = settings.table
        self.vector_index_rows = settings.vector_index_rows
        if path.is_dir():
            self._vector_store = self._connect(create=False)

    def _connect(self, *, create: bool) -> LanceDBVectorStore:
        if create:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot create the store at {self.path}: {exc.strerror or exc}"
                ) from None
        try:
            return _vector_store_class()(
                uri=str(self.path),
                table_name=self.table,
                mode="create",
                query_type="hybrid",
            )
        except Exception as exc:
            raise StoreError(
                f"cannot open the LanceDB store at {self.path}: {one_line(exc)}"
            ) from exc

    def writable_vector_store(self) -> LanceDBVectorStore:
        if self._vector_store is None:
            self._vector_store = self._connect(create=True)
        store: LanceDBVectorStore = self._vector_store  # type: ignore[assignment]
        return store

    def optimize(self) -> None:
        store = self._vector_store
        if store is not None:
            try:
                store.ensure_indexes(self.vector_index_rows)  # type: ignore[attr-defined]
            except Exception as exc:
                raise StoreError(f"cannot index the LanceDB store: {one_line(exc)}") from exc

    def count(self) -> int:
        store = self._vector_store
        return 0 if store is None else int(store.count_rows())  # type: ignore[attr-defined]

    def close(self) -> None:
        self._vector_store = None


def open_lancedb(
    data_dir: Path, settings: StoreSettings, embedding: BaseEmbedding
) -> LanceKnowledgeStore:
    """The LanceDB store under ``data_dir``; nothing is created until the first write."""
    return LanceKnowledgeStore(Path(data_dir) / SUBDIR, settings, embedding)
