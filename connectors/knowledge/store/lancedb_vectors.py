"""LlamaIndex's LanceDB vector store with citebot's repairs for lancedb 0.40: its
deletes quote values as identifiers, and every add (and every process start)
rebuilt the whole full-text index on the next query.

citebot reads and writes the table with ``lance`` (``lance_search.py``,
``lance_writer.py``); this adapter is for LlamaIndex code over the same table and
for ``citebot store migrate``. Its own module because importing it loads
lancedb and LlamaIndex (about three CPU seconds).
"""

from __future__ import annotations

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
