"""Build connectors from settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from connectors.errors import StoreError
from connectors.knowledge.store import DataDir, KnowledgeStore
from connectors.providers.embeddings import build_embedding, embedding_id

if TYPE_CHECKING:
    from connectors.knowledge.settings import StoreConfig

__all__ = ["open_store"]


def open_store(settings: StoreConfig, *, llama_index: bool = True) -> KnowledgeStore:
    """The store ``settings.store.kind`` names, checked against the data dir's format;
    without ``llama_index``, the bundled embedder does not import LlamaIndex (for
    answering questions: see ``build_embedding``)."""
    embedding = build_embedding(settings.embeddings, documents=True, llama_index=llama_index)
    kind = settings.store.kind
    DataDir(settings.data_dir).check(store=kind, embedding=embedding_id(embedding))
    if kind == "lancedb":
        from connectors.knowledge.store.lancedb import open_lancedb

        return open_lancedb(settings.data_dir, settings.store, embedding)
    if kind == "weaviate":
        try:
            from connectors.knowledge.store.weaviate import open_weaviate
        except ImportError as exc:
            raise StoreError(
                f"the weaviate store needs the 'weaviate' extra (pip install 'citebot[weaviate]'): {exc}"
            ) from None
        store: KnowledgeStore = open_weaviate(settings, embedding)
        return store
    raise StoreError(f"unknown store kind {kind!r} [env CITEBOT_STORE__KIND]")
