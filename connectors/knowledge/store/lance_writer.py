"""Writing the LanceDB table with ``lance`` itself: rows, deletes, indexes.

The table is the one ``llama-index-vector-stores-lancedb`` writes (the same
columns, the node as JSON in the metadata) plus one: ``search``, the text that
the full-text index reads (the chunk's title, its text and their identifier
terms, ``identifiers.py``). The index has lancedb's full-text settings, and lancedb
searches every indexed column when none is named, so lancedb and LlamaIndex read
the table as before. Neither is imported: together about three CPU seconds, a
third of a small ingest's whole cost. A table without ``search`` (written by the
LlamaIndex adapter, as ``citebot store migrate`` does, or by an older citebot)
gets it at the next write or index upkeep.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citations.spelling import folded_spelling
from connectors.knowledge.chunking import Chunk

from .identifiers import with_identifier_terms
from .lance_search import SEARCH_COLUMN, TEXT_COLUMN, VECTOR_COLUMN, quote
from .nodes import node_metadata

if TYPE_CHECKING:
    import lance
    import pyarrow as pa

__all__ = ["DOC_ID_COLUMN", "FULL_TEXT", "LanceWriter"]

DOC_ID_COLUMN = "doc_id"
#: lancedb's ``FTS()`` defaults, spelt out: the index must search as lancedb's would
FULL_TEXT: dict[str, Any] = {
    "with_position": False,
    "base_tokenizer": "simple",
    "language": "English",
    "max_token_length": 40,
    "lower_case": True,
    "stem": True,
    "remove_stop_words": True,
    "ascii_folding": True,
}
#: what lancedb's ``optimize()`` keeps of old versions (a reader may still use one)
KEEP_VERSIONS = timedelta(days=7)
_METADATA_FIELDS = (
    ("url", "string"),
    ("title", "string"),
    ("document_key", "string"),
    ("collection", "string"),
    ("kind", "string"),
    ("start", "int64"),
    ("end", "int64"),
    ("page", "int64"),
    ("anchor", "string"),
    ("content_hash", "string"),
    ("_node_content", "string"),
    ("_node_type", "string"),
    ("document_id", "string"),
    ("doc_id", "string"),
    ("ref_doc_id", "string"),
)


def _schema(dimension: int) -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("id", pa.string()),
            pa.field(DOC_ID_COLUMN, pa.string()),
            pa.field(VECTOR_COLUMN, pa.list_(pa.float32(), dimension)),
            pa.field(TEXT_COLUMN, pa.string()),
            pa.field(
                "metadata",
                pa.struct([pa.field(n, pa.type_for_alias(t)) for n, t in _METADATA_FIELDS]),
            ),
            pa.field(SEARCH_COLUMN, pa.string()),
        ]
    )


def search_text(title: str, text: str) -> str:
    """What the full-text index reads for a chunk: its title (the page and heading path,
    which is embedded with the text too), its text, and both's identifier terms, spelt one
    way (``citations/spelling.py``). A short section whose subject is only in its heading is found
    by the heading's words."""
    return folded_spelling(with_identifier_terms(f"{title}\n{text}" if title else text))


def _search_texts(batch: pa.RecordBatch) -> pa.RecordBatch:
    """The ``search`` column for rows written without one (``add_columns``)."""
    import pyarrow as pa

    texts = batch.column(TEXT_COLUMN).to_pylist()
    metadata = batch.column("metadata").to_pylist()
    values = [
        search_text(str((m or {}).get("title") or ""), t or "")
        for t, m in zip(texts, metadata, strict=True)
    ]
    return pa.RecordBatch.from_arrays([pa.array(values, pa.string())], [SEARCH_COLUMN])


def _with_search_column(dataset: lance.LanceDataset) -> lance.LanceDataset:
    """The dataset with its ``search`` column, computed for the rows there are."""
    if SEARCH_COLUMN not in dataset.schema.names:
        dataset.add_columns(_search_texts, read_columns=[TEXT_COLUMN, "metadata"])
    return dataset


def _fill_search_column(dataset: lance.LanceDataset) -> None:
    """Rows that the adapter appended to a table with a ``search`` column have none: they
    are searched by their title and text (their identifier terms need the chunk's writer)."""
    dataset.update(
        {SEARCH_COLUMN: f"concat_ws(chr(10), nullif(metadata.title, ''), {TEXT_COLUMN})"},
        where=f"{SEARCH_COLUMN} IS NULL",
    )


class LanceWriter:
    """One table's writes; every call works on the latest committed version."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _dataset(self) -> lance.LanceDataset | None:
        if not self.path.is_dir():
            return None
        import lance

        return lance.dataset(str(self.path))

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> int:
        """Append one row per chunk (the table is created by the first write)."""
        if not chunks:
            return 0
        import lance
        import numpy as np
        import pyarrow as pa

        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or len(matrix) != len(chunks):
            raise ValueError(f"{len(chunks)} chunks but vectors of shape {matrix.shape}")
        dimension = int(matrix.shape[1])
        schema = _schema(dimension)
        table = pa.Table.from_arrays(
            [
                pa.array([c.id for c in chunks], pa.string()),
                pa.array([c.document_ref for c in chunks], pa.string()),
                pa.FixedSizeListArray.from_arrays(pa.array(matrix.reshape(-1)), dimension),
                pa.array([c.text for c in chunks], pa.string()),
                pa.array([node_metadata(c) for c in chunks], schema.field("metadata").type),
                pa.array([search_text(c.title, c.text) for c in chunks], pa.string()),
            ],
            schema=schema,
        )
        dataset = self._dataset()
        if dataset is None:
            lance.write_dataset(table, str(self.path), mode="create")
        else:
            lance.write_dataset(table, _with_search_column(dataset), mode="append")
        return len(chunks)

    def delete(self, document_refs: Sequence[str]) -> None:
        """Remove every row of these documents, in one commit."""
        dataset = self._dataset()
        if dataset is None or not document_refs:
            return
        dataset.delete(f"{DOC_ID_COLUMN} IN ({','.join(quote(r) for r in document_refs)})")

    def ensure_indexes(self, vector_index_rows: int) -> None:
        """Compact, create missing indexes and fold new rows into existing ones.

        LanceDB searches rows that an index has not seen yet, so this runs once
        after a batch of writes, never per write.
        """
        dataset = self._dataset()
        if dataset is None:
            return
        dataset = _with_search_column(dataset)
        _fill_search_column(dataset)
        existing = {tuple(i["fields"]) for i in dataset.list_indices()}
        # small fragments, one per write, merged before indexing (lancedb's optimize)
        dataset.optimize.compact_files()
        if (SEARCH_COLUMN,) not in existing:
            dataset.create_scalar_index(
                SEARCH_COLUMN, "INVERTED", name=f"{SEARCH_COLUMN}_idx", replace=True, **FULL_TEXT
            )
        rows = dataset.count_rows()
        if (VECTOR_COLUMN,) not in existing and rows >= vector_index_rows:
            # IVF without quantisation: exact distances inside the probed partitions.
            # At 100k chunks a flat scan costs ~50-90 ms on 2 cores, this ~5-10 ms.
            dataset.create_index(
                VECTOR_COLUMN,
                "IVF_FLAT",
                name=f"{VECTOR_COLUMN}_idx",
                metric="cosine",
                num_partitions=max(16, int(math.sqrt(rows) / 2)),
                replace=True,
            )
        if (DOC_ID_COLUMN,) not in existing:
            dataset.create_scalar_index(
                DOC_ID_COLUMN, "BTREE", name=f"{DOC_ID_COLUMN}_idx", replace=True
            )
        if existing:
            dataset.optimize.optimize_indices()
        dataset.cleanup_old_versions(older_than=KEEP_VERSIONS)
