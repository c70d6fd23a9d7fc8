"""A knowledge store over any LlamaIndex vector store.

``KnowledgeStore`` is what ingestion writes to and what the pipeline retrieves
from (``pipeline.ports.Retriever``). Back ends (LanceDB, Weaviate) subclass it
and supply the vector store plus the few things LlamaIndex has no generic API
for: counting rows, closing, compacting after a batch of writes.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from citations.model import Locator, Origin, Source
from connectors.errors import StoreError, one_line
from connectors.knowledge.chunking import Chunk, document_ref
from connectors.providers.embeddings import embedding_id
from pipeline.ports import Hit

from .nodes import NOT_EMBEDDED, embed_text
from .ranking import sections_first

if TYPE_CHECKING:
    # LlamaIndex loads where a node or a query is built: a question read through
    # ``lance_search`` builds neither (the import costs over a CPU second)
    from llama_index.core.schema import (
        BaseNode,
        TextNode,
    )
    from llama_index.core.vector_stores.types import (
        BasePydanticVectorStore,
        MetadataFilters,
        VectorStoreQuery,
        VectorStoreQueryResult,
    )

    from connectors.knowledge.settings import StoreSettings
    from connectors.providers.embeddings import Embedding

__all__ = [
    "KnowledgeStore",
    "chunk_node",
    "hit_from_metadata",
    "hit_from_node",
    "meaning_score",
    "scope_filters",
    "source_from_metadata",
]

log = logging.getLogger("citebot.store")


def chunk_node(chunk: Chunk) -> TextNode:
    """The LlamaIndex node for a chunk: its title is embedded with the text, the rest is not."""
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

    return TextNode(
        id_=chunk.id,
        text=chunk.text,
        metadata=chunk.metadata(),
        excluded_embed_metadata_keys=list(NOT_EMBEDDED),
        excluded_llm_metadata_keys=list(NOT_EMBEDDED),
        start_char_idx=chunk.start,
        end_char_idx=chunk.end,
        relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=chunk.document_ref)},
    )


def scope_filters(scope: Sequence[str] | None) -> MetadataFilters | None:
    """The collection filter every store applies inside its own query."""
    if scope is None:
        return None
    from llama_index.core.vector_stores.types import (
        FilterOperator,
        MetadataFilter,
        MetadataFilters,
    )

    return MetadataFilters(
        filters=[MetadataFilter(key="collection", value=list(scope), operator=FilterOperator.IN)]
    )


def _int_or_none(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number


def source_from_metadata(text: str, meta: Mapping[str, Any]) -> Source:
    """A chunk as a source (``id`` is assigned later, per prompt)."""
    page = _int_or_none(meta.get("page"))
    locator = Locator(
        page=page or None,
        anchor=str(meta.get("anchor") or "") or None,
        start=_int_or_none(meta.get("start")),
        end=_int_or_none(meta.get("end")),
    )
    return Source(
        id=0,
        url=str(meta.get("url", "")),
        title=str(meta.get("title", "")),
        text=text,
        locator=locator,
        origin=Origin.KB,
    )


def hit_from_node(node: BaseNode, score: float) -> Hit:
    from llama_index.core.schema import MetadataMode

    return hit_from_metadata(
        node.metadata, node.get_content(metadata_mode=MetadataMode.NONE), score
    )


def hit_from_metadata(meta: Mapping[str, Any], text: str, score: float) -> Hit:
    """The cited hit for a chunk stored with this metadata (``Chunk.metadata()``) and text."""
    source = source_from_metadata(text, meta)
    return Hit(source=source, score=score, collection=str(meta.get("collection", "default")))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float | None:
    if not a or not b or len(a) != len(b):
        return None
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if not na or not nb:
        return None
    return dot / (na * nb)


def meaning_score(query: Sequence[float], chunk: Sequence[float] | None, fallback: float) -> float:
    """A hit's score: how close the meaning is, on the same 0..1 scale whatever the back
    end's fusion produced (the hybrid rank decides the order); the back end's own
    similarity when the chunk's vector did not come back."""
    similarity = _cosine(query, chunk) if chunk else None
    raw = similarity if similarity is not None else fallback
    return min(1.0, max(0.0, float(raw)))


def hybrid_options(settings: StoreSettings) -> dict[str, Any]:
    """``KnowledgeStore``'s search options from the store settings (every back end's)."""
    return {
        "alpha": settings.alpha,
        "candidates": settings.candidates,
        "section_slots": settings.section_slots,
    }


class KnowledgeStore:
    """Chunks in, cited hits out. Hybrid search; the scope is a filter in the store's query."""

    kind = "generic"

    def __init__(
        self,
        vector_store: BasePydanticVectorStore | None,
        embedding: Embedding,
        *,
        alpha: float | None = None,
        candidates: int = 1,
        section_slots: int = 0,
    ) -> None:
        self._vector_store = vector_store
        self.embedding = embedding
        self.alpha = alpha
        #: the back end's hybrid query brings ``top_k`` × this; the best ``top_k`` are kept
        self.candidates = candidates
        #: a section's chunks beyond this many wait for every other section's (0: no rule)
        self.section_slots = section_slots

    @property
    def vector_store(self) -> BasePydanticVectorStore | None:
        """``None`` while a back end has nothing stored yet (nothing created on disk)."""
        return self._vector_store

    def writable_vector_store(self) -> BasePydanticVectorStore:
        """The vector store, created if the back end creates it lazily."""
        if self._vector_store is None:
            raise StoreError(f"the {self.kind} store is not open for writing")
        return self._vector_store

    @property
    def embedding_id(self) -> str:
        return embedding_id(self.embedding)

    # -- writing -----------------------------------------------------------

    @staticmethod
    def embed_text(title: str, text: str) -> str:
        """What gets embedded for a chunk with this title and text."""
        return embed_text(title, text)

    @staticmethod
    def embed_texts(chunks: Sequence[Chunk]) -> list[str]:
        """What gets embedded for each chunk (its title and text)."""
        return [embed_text(c.title, c.text) for c in chunks]

    def add(
        self, chunks: Sequence[Chunk], *, vectors: Sequence[Sequence[float]] | None = None
    ) -> int:
        """Write ``chunks``, embedded here unless ``vectors`` (one per chunk, from
        ``embed_texts``) come with them; returns how many were written."""
        if not chunks:
            return 0
        nodes = [chunk_node(c) for c in chunks]
        if vectors is None:
            vectors = self.embedding.get_text_embedding_batch(self.embed_texts(chunks))
        for node, vector in zip(nodes, vectors, strict=True):
            node.embedding = list(vector)
        store = self.writable_vector_store()
        try:
            store.add(list(nodes))
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"cannot write to the {self.kind} store: {one_line(exc)}") from exc
        return len(nodes)

    def delete(self, document_keys: Iterable[str], collection: str) -> None:
        """Remove every chunk of these documents from ``collection``."""
        store = self.vector_store
        if store is None:
            return
        for key in document_keys:
            try:
                store.delete(document_ref(collection, key))
            except Exception as exc:
                raise StoreError(
                    f"cannot delete from the {self.kind} store: {one_line(exc)}"
                ) from exc

    def optimize(self) -> None:
        """Called after a batch of writes (index upkeep). Back ends override."""

    def count(self) -> int:
        """How many chunks the store holds. Back ends override."""
        raise NotImplementedError(f"{type(self).__name__} cannot count its chunks")

    def close(self) -> None:
        """Release connections. Back ends override."""

    def __enter__(self) -> KnowledgeStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------

    def build_query(
        self, query: str, embedding: list[float], *, top_k: int, scope: Sequence[str] | None
    ) -> VectorStoreQuery:
        from llama_index.core.vector_stores.types import VectorStoreQuery, VectorStoreQueryMode

        return VectorStoreQuery(
            query_embedding=embedding,
            query_str=query,
            similarity_top_k=top_k,
            mode=VectorStoreQueryMode.HYBRID,
            alpha=self.alpha,
            filters=scope_filters(scope),
        )

    def run_query(self, query: VectorStoreQuery) -> VectorStoreQueryResult:
        """Runs in a worker thread. Back ends override to tune their query."""
        from llama_index.core.vector_stores.types import VectorStoreQueryResult

        store = self.vector_store
        if store is None:
            return VectorStoreQueryResult(nodes=[], similarities=[], ids=[])
        return store.query(query)

    def is_empty(self) -> bool:
        """Whether there is nothing to search (cheap: no query is embedded then)."""
        return self.vector_store is None

    def search(
        self, query: str, vector: list[float], *, top_k: int, scope: Sequence[str] | None
    ) -> list[Hit]:
        """Runs in a worker thread: the hits for ``query`` and its ``vector``, best first
        (``top_k`` × ``candidates`` of them, or fewer; ``retrieve`` keeps ``top_k``)."""
        request = self.build_query(query, vector, top_k=top_k * self.candidates, scope=scope)
        return self._hits(self.run_query(request), vector)

    async def retrieve(self, query: str, *, top_k: int, scope: Sequence[str] | None) -> list[Hit]:
        """``pipeline.ports.Retriever``: hybrid search limited to ``scope`` (None = every collection)."""
        if top_k <= 0 or not query.strip() or (scope is not None and not scope):
            return []
        if self.is_empty():
            return []
        vector = await self.embedding.aget_query_embedding(query)
        try:
            hits = await asyncio.to_thread(self.search, query, vector, top_k=top_k, scope=scope)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(
                f"the {self.kind} store failed to answer a query: {one_line(exc)}"
            ) from exc
        # the store returns a deeper candidate pool than asked for: keep the best top_k
        return sections_first(hits, lambda hit: hit.source.url, top_k, slots=self.section_slots)

    def _hits(self, result: VectorStoreQueryResult, vector: list[float]) -> list[Hit]:
        nodes = result.nodes or []
        similarities = list(result.similarities or [])
        return [
            hit_from_node(
                node,
                meaning_score(
                    vector, node.embedding, similarities[i] if i < len(similarities) else 0.0
                ),
            )
            for i, node in enumerate(nodes)
        ]
