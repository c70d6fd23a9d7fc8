"""LlamaIndex's LanceDB vector store with citebot's repairs (see ``lancedb.py`` for why).

Its own module because importing it loads lancedb, pyarrow and pandas (about a
second): ``lancedb.py`` imports it on the first open, not at start-up.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from llama_index.core.vector_stores.types import (
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)
from llama_index.vector_stores.lancedb import LanceDBVectorStore

TEXT_COLUMN = "text"


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


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
            str(i.index_type).upper() == "FTS" and TEXT_COLUMN in list(i.columns) for i in indices
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

    def version(self) -> str:
        table = self._table
        return "empty" if table is None else f"{table.version}:{table.count_rows()}"

    def texts(self) -> list[str]:
        table = self._table
        if table is None:
            return []
        column = table.search().select([TEXT_COLUMN]).limit(table.count_rows()).to_arrow()
        return [str(t or "") for t in column.column(TEXT_COLUMN).to_pylist()]

    def rows_in_sections(
        self, urls: list[str], collections: list[str] | None, limit: int
    ) -> list[tuple[str, dict[str, Any]]]:
        """(text, metadata) of the chunks whose ``url`` is one of ``urls``."""
        table = self._table
        if table is None or not urls:
            return []
        where = f"metadata.url IN ({','.join(_quote(u) for u in urls)})"
        if collections is not None:
            where += f" AND metadata.collection IN ({','.join(_quote(c) for c in collections)})"
        rows = table.search().where(where).select([TEXT_COLUMN, "metadata"]).limit(limit)
        return [(str(r[TEXT_COLUMN] or ""), dict(r["metadata"])) for r in rows.to_list()]

    def count_rows(self) -> int:
        return 0 if self._table is None else int(self._table.count_rows())
