"""LlamaIndex's LanceDB vector store with citebot's repairs (see ``lancedb.py`` for why):
the writer. Questions are answered by ``lance_search.py``.

Its own module because importing it loads lancedb, pyarrow and pandas (about two
CPU seconds): ``lancedb.py`` imports it on the first write, never for a question.
"""

from __future__ import annotations

import math
from typing import Any

from llama_index.core.vector_stores.types import MetadataFilters
from llama_index.vector_stores.lancedb import LanceDBVectorStore

from .lance_search import TEXT_COLUMN, quote


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
        self._table.delete(f"{self.doc_id_key} = {quote(ref_doc_id)}")

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
        self._table.delete("id IN (" + ",".join(quote(i) for i in node_ids) + ")")

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
