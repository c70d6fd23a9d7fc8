"""Copy a knowledge store into another kind (``citebot store migrate --from lancedb --to weaviate``).

Chunks travel with their stored vectors, so nothing is embedded again, which
is why both sides must use the same embedding. The ingest manifest is copied
too, so the next ``citebot ingest`` against the new store is incremental.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.utils import metadata_dict_to_node

from connectors.errors import StoreError
from connectors.knowledge.store import DataDir, KnowledgeStore, Manifest

__all__ = ["MigrateReport", "export_nodes", "migrate"]

log = logging.getLogger("citebot.migrate")


@dataclass(frozen=True, slots=True)
class MigrateReport:
    chunks: int
    documents: int

    def summary(self) -> str:
        return f"copied {self.chunks} chunks of {self.documents} documents"


def export_nodes(store: KnowledgeStore, batch_size: int = 500) -> Iterator[list[BaseNode]]:
    """Every chunk of ``store`` with its vector, in batches."""
    exporter = getattr(store, "iter_nodes", None)
    if callable(exporter):
        batch: list[BaseNode] = []
        for node in exporter():
            batch.append(node)
            if len(batch) >= batch_size:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    table = getattr(store.vector_store, "_table", None)
    if store.kind != "lancedb":
        raise StoreError(f"cannot read every chunk out of a {store.kind} store")
    if table is None:
        return
    yield from _lance_batches(table, batch_size)


def _lance_batches(table: Any, batch_size: int) -> Iterator[list[BaseNode]]:
    # to_batches streams the dataset, so a large store never sits in memory at once
    for record_batch in table.to_lance().to_batches(batch_size=batch_size):
        nodes = []
        for row in record_batch.to_pylist():
            node = metadata_dict_to_node(row["metadata"], text=row.get("text"))
            node.embedding = list(row["vector"])
            nodes.append(node)
        if nodes:
            yield nodes


def migrate(
    source: KnowledgeStore,
    target: KnowledgeStore,
    *,
    source_dir: Path | str,
    target_dir: Path | str | None = None,
    batch_size: int = 500,
) -> MigrateReport:
    """Copy every chunk and manifest row from ``source`` into ``target`` (same or another data dir)."""
    if source.embedding_id != target.embedding_id:
        raise StoreError(
            f"the stores use different embeddings ({source.embedding_id} vs {target.embedding_id}); "
            "stored vectors cannot be reused: re-ingest into the new store instead"
        )
    target_dir = Path(target_dir if target_dir is not None else source_dir)
    if target.kind == source.kind and Path(source_dir).resolve() == target_dir.resolve():
        raise StoreError("source and target are the same store")
    with Manifest(source_dir, source.kind) as manifest:
        entries = [e for e in manifest.entries() if not e.pending]
    copied = 0
    with DataDir(target_dir).writing(store=target.kind, embedding=target.embedding_id):
        writer = target.writable_vector_store()
        for nodes in export_nodes(source, batch_size):
            try:
                writer.add(nodes)
            except StoreError:
                raise
            except Exception as exc:
                raise StoreError(f"cannot write to the {target.kind} store: {exc}") from exc
            copied += len(nodes)
            log.info("copied %d chunks", copied)
        target.optimize()
        # manifest rows last: a run that dies half-way is redone, never half-trusted
        with Manifest(target_dir, target.kind) as out:
            for entry in entries:
                out.put(replace(entry))
    return MigrateReport(chunks=copied, documents=len(entries))
