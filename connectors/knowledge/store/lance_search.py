"""Reading the LanceDB table with ``lance`` itself: hybrid search, counts, texts.

``import lancedb`` costs about 1.5 CPU seconds (most of it ``lance_namespace``,
which it imports at top level), ``import lance`` about a third of that, and
the files are the same. Writes go through ``lance`` too (``lance_writer.py``);
a question never loads lancedb. The search is the one lancedb runs for a hybrid
query with ``LinearCombinationReranker``: a vector leg and a full-text leg,
each scaled to 0..1 by min-max, fused as ``weight * (1 - distance) +
(1 - weight) * score``, a row missing from one leg counting as the worst there
(and a leg whose rows all score the same counting them all as the best: lancedb
scores a lone full-text match 0, as if it had not matched).

The full-text leg reads the ``search`` column: the chunk's title, its text and their
identifier terms, spelt one way (``lance_writer.search_text``), searched with the
question's own identifier terms and the documentation's words for its chat phrasings
(``citations.phrasings``: "turn it off" also searches "disable") added, spelt the same way.

Each leg brings a deep pool (``StoreSettings.candidates`` × top_k rows): min-max
scaling over a shallow pool moves with the pool's depth, and a row that ranks 9th
in both legs is missing from both at a depth of 6. From the fused order the store
may keep a section's best chunks first (``ranking.sections_first``,
``StoreSettings.section_slots``), and only then its further chunks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citations.phrasings import with_phrasing_terms
from citations.spelling import folded_spelling

from .identifiers import with_identifier_terms
from .ranking import sections_first

if TYPE_CHECKING:
    import lance

__all__ = ["SEARCH_COLUMN", "TEXT_COLUMN", "LanceReader", "fuse", "quote", "scope_where"]

#: fused rows read per row kept, to find each section's best chunk among them
WINDOW = 4

TEXT_COLUMN = "text"
#: what the full-text index reads: the text and its identifier terms (``lance_writer``)
SEARCH_COLUMN = "search"
VECTOR_COLUMN = "vector"
#: partitions probed when the table has a vector index (the LlamaIndex adapter's default)
NPROBES = 20


def quote(value: str) -> str:
    """A SQL string literal for lance's filters."""
    return "'" + value.replace("'", "''") + "'"


def scope_where(scope: Sequence[str] | None) -> str | None:
    """The collection filter, applied inside both legs of the search."""
    if scope is None:
        return None
    return "metadata.collection IN (" + ",".join(quote(c) for c in scope) + ")"


def _scaled(leg: Sequence[tuple[int, float]]) -> dict[int, float]:
    """Each row's value scaled to 0..1 by min-max (all 1 when they are equal: a row in the
    leg is better than any row missing from it, which counts as 0)."""
    if not leg:
        return {}
    values = [v for _, v in leg]
    low, high = min(values), max(values)
    spread = high - low
    if spread:
        return {row: (v - low) / spread for row, v in leg}
    return dict.fromkeys((row for row, _ in leg), 1.0)


def fuse(
    vector_leg: Sequence[tuple[int, float]],
    text_leg: Sequence[tuple[int, float]],
    weight: float,
) -> list[tuple[int, float]]:
    """Row ids by fused relevance, best first: ``(row id, distance)`` from the vector leg
    and ``(row id, score)`` from the full-text leg."""
    # closeness: a distance scaled to 0..1 and turned round, so the nearest row is 1
    closeness = _scaled([(row, -distance) for row, distance in vector_leg])
    scores = _scaled(text_leg)
    if not scores:
        fused = closeness
    elif not closeness:
        fused = scores
    else:
        fused = {
            row: weight * closeness.get(row, 0.0) + (1.0 - weight) * scores.get(row, 0.0)
            for row in {**closeness, **scores}
        }
    # stable: ties keep the vector leg's order, then the text leg's, as lancedb's sort does
    return sorted(fused.items(), key=lambda item: -item[1])


def _leg(table: Any, column: str) -> list[tuple[int, float]]:
    """``(row id, value)`` pairs of one leg's result, in its order."""
    return list(
        zip(table.column("_rowid").to_pylist(), table.column(column).to_pylist(), strict=True)
    )


class LanceReader:
    """One table's dataset, opened on first use and reopened after writes (``refresh``)."""

    COLUMNS = ("id", TEXT_COLUMN, "metadata", VECTOR_COLUMN)

    def __init__(self, path: Path) -> None:
        self.path = path
        self._dataset: lance.LanceDataset | None = None
        self._indexed: str | None = None

    def exists(self) -> bool:
        return self._dataset is not None or self.path.is_dir()

    def refresh(self) -> None:
        self._dataset = None
        self._indexed = None

    def dataset(self) -> lance.LanceDataset | None:
        if self._dataset is None and self.path.is_dir():
            import lance

            self._dataset = lance.dataset(str(self.path))
        return self._dataset

    def count(self) -> int:
        dataset = self.dataset()
        return 0 if dataset is None else int(dataset.count_rows())

    def version(self) -> str:
        dataset = self.dataset()
        return "empty" if dataset is None else f"{dataset.version}:{dataset.count_rows()}"

    def texts(self) -> list[str]:
        dataset = self.dataset()
        if dataset is None:
            return []
        column = dataset.to_table(columns=[TEXT_COLUMN]).column(TEXT_COLUMN)
        return [str(t or "") for t in column.to_pylist()]

    def rows_in_sections(
        self, urls: Sequence[str], collections: Sequence[str] | None, limit: int
    ) -> list[tuple[str, dict[str, Any]]]:
        """(text, metadata) of the chunks whose ``url`` is one of ``urls``."""
        dataset = self.dataset()
        if dataset is None or not urls:
            return []
        where = f"metadata.url IN ({','.join(quote(u) for u in urls)})"
        if collections is not None:
            where += f" AND {scope_where(collections)}"
        rows = dataset.to_table(columns=[TEXT_COLUMN, "metadata"], filter=where, limit=limit)
        return [(str(r[TEXT_COLUMN] or ""), dict(r["metadata"])) for r in rows.to_pylist()]

    def text_index(self) -> str | None:
        """The column the full-text index reads: ``search``, or ``text`` in a table that an
        older citebot wrote and nothing has written since (None: no index yet)."""
        dataset = self.dataset()
        if dataset is None:
            return None
        if self._indexed is not None:
            return self._indexed
        indexed = {
            column
            for index in dataset.list_indices()
            if str(index.get("type", "")).lower() in {"inverted", "fts"}
            for column in index.get("fields", [])
        }
        self._indexed = next((c for c in (SEARCH_COLUMN, TEXT_COLUMN) if c in indexed), None)
        return self._indexed

    def has_text_index(self) -> bool:
        return self.text_index() is not None

    def search(
        self,
        query: str,
        vector: Sequence[float],
        *,
        limit: int,
        pool: int,
        slots: int,
        where: str | None,
        weight: float,
    ) -> list[tuple[Mapping[str, Any], float]]:
        """The best ``limit`` rows (each a dict of ``COLUMNS``) with their fused relevance,
        fused from ``pool`` rows of each leg, a section's best ``slots`` first (0: no rule)."""
        dataset = self.dataset()
        if dataset is None or limit <= 0:
            return []
        depth = max(pool, limit)
        common: dict[str, Any] = {
            "filter": where,
            "prefilter": True,
            "with_row_id": True,
            "limit": depth,
            "disable_scoring_autoprojection": True,
        }
        near = {
            "column": VECTOR_COLUMN,
            "q": list(vector),
            "k": depth,
            "nprobes": NPROBES,
            "metric": "cosine",
        }
        # Both legs return row ids and scores only; the rows that make the cut are read once,
        # afterwards. Reading every column in each leg cost twice the CPU of the whole search
        # at 100k chunks (a random-access read of the metadata struct for every candidate).
        by_vector = dataset.to_table(columns=["_distance"], nearest=near, **common)
        column = self.text_index() or SEARCH_COLUMN
        if column == SEARCH_COLUMN:
            query = folded_spelling(with_identifier_terms(with_phrasing_terms(query)))
        by_text = dataset.to_table(
            columns=["_score"], full_text_query={"query": query, "columns": [column]}, **common
        )
        ranked = fuse(_leg(by_vector, "_distance"), _leg(by_text, "_score"), weight)
        ranked = ranked[: limit * WINDOW]
        if not ranked:
            return []
        # a filter on the row ids is read as a take of those rows, not a scan
        taken = dataset.to_table(
            columns=list(self.COLUMNS),
            filter="_rowid IN (" + ",".join(str(row_id) for row_id, _ in ranked) + ")",
            with_row_id=True,
        ).to_pylist()
        rows = {row["_rowid"]: row for row in taken}
        found = [(rows[row_id], relevance) for row_id, relevance in ranked if row_id in rows]
        return sections_first(
            found, lambda pair: (pair[0]["metadata"] or {}).get("url"), limit, slots=slots
        )
