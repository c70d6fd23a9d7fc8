"""Weaviate: naming, scope translation and routing without a server; the rest against one.

The server tests need ``WEAVIATE_URL`` (and ``WEAVIATE_API_KEY``, ``WEAVIATE_GRPC_PORT`` if
your server wants them); ``deploy/docker-compose.yml`` starts one. Without it they are skipped.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)

from bots.settings import load_settings
from connectors.errors import StoreError
from connectors.factory import open_store
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store import scope_filters
from connectors.knowledge.store.weaviate import (
    _Router,
    collection_name,
    connection_params,
    split_scope,
    tenant_name,
)
from connectors.knowledge.store.weaviate_vectors import collection_filter
from connectors.providers.embeddings import build_embedding
from connectors.providers.settings import EmbeddingSettings

CLASS_NAME = r"[A-Z][_0-9A-Za-z]*"
TENANT = r"[A-Za-z0-9_-]{1,64}"


# -- naming ---------------------------------------------------------------------


def test_collection_names_are_valid_and_distinct() -> None:
    import re

    names = ["eng", "Eng", "ENG", "my docs", "my_docs", "docs-v2", "ドキュメント", "x" * 300]
    mapped = [collection_name(n) for n in names]
    assert all(re.fullmatch(CLASS_NAME, m) for m in mapped)
    assert len({m.lower() for m in mapped}) == len(names)  # Weaviate compares names case-blind
    assert collection_name("eng") == "Citebot_eng"  # simple names stay readable
    assert len(collection_name("x" * 300)) <= 200


def test_tenant_names_are_valid_and_distinct() -> None:
    import re

    names = ["slack-T0123", "discord_42", "a b", "a_b", "é", "x" * 100, "x" * 64]
    mapped = [tenant_name(n) for n in names]
    assert all(re.fullmatch(TENANT, m) for m in mapped)
    assert len(set(mapped)) == len(names)
    assert tenant_name("slack-T0123") == "slack-T0123"


def test_empty_names_are_refused() -> None:
    with pytest.raises(StoreError):
        collection_name("")
    with pytest.raises(StoreError):
        tenant_name("")


# -- scope translation ------------------------------------------------------------


def test_the_store_scope_filter_splits_into_collections() -> None:
    assert split_scope(None) == (None, None)
    assert split_scope(scope_filters(["a", "b"])) == (["a", "b"], None)
    assert split_scope(scope_filters([])) == ([], None)


def test_other_filters_stay_and_two_scopes_intersect() -> None:
    kind = MetadataFilter(key="kind", value="pdf")
    filters = MetadataFilters(
        filters=[
            MetadataFilter(key="collection", value=["a", "b"], operator=FilterOperator.IN),
            kind,
            MetadataFilter(key="collection", value="b"),
        ]
    )
    scope, rest = split_scope(filters)
    assert scope == ["b"]
    assert rest is not None and rest.filters == [kind]


def test_a_scope_that_could_widen_the_search_is_refused() -> None:
    scope = MetadataFilter(key="collection", value=["a"], operator=FilterOperator.IN)
    other = MetadataFilter(key="kind", value="pdf")
    with pytest.raises(StoreError, match="AND"):
        split_scope(MetadataFilters(filters=[scope, other], condition=FilterCondition.OR))
    with pytest.raises(StoreError, match="nested"):
        split_scope(
            MetadataFilters(
                filters=[MetadataFilters(filters=[scope, other], condition=FilterCondition.OR)]
            )
        )
    with pytest.raises(StoreError, match="unsupported"):
        split_scope(
            MetadataFilters(
                filters=[MetadataFilter(key="collection", value="a", operator=FilterOperator.NE)]
            )
        )


def test_every_per_collection_query_also_filters_on_the_collection() -> None:
    import weaviate.classes as wvc

    only = collection_filter("eng")
    assert only.target == "collection" and only.value == "eng" and only.operator.name == "EQUAL"
    both = collection_filter("eng", wvc.query.Filter.by_property("kind").equal("pdf"))
    assert [f.value for f in both.filters] == ["eng", "pdf"]


# -- routing (in-memory targets, no server) ---------------------------------------


class _MemoryTarget:
    """One collection held in memory, answering like a per-collection Weaviate target."""

    def __init__(self) -> None:
        self.nodes: list[TextNode] = []

    def add(self, nodes: list[TextNode]) -> list[str]:
        self.nodes += nodes
        return [n.node_id for n in nodes]

    def query(self, query: VectorStoreQuery) -> VectorStoreQueryResult:
        q = query.query_embedding or []
        scored = sorted(
            (
                (sum(a * b for a, b in zip(q, n.embedding or [], strict=True)), n)
                for n in self.nodes
            ),
            key=lambda pair: pair[0],
            reverse=True,
        )[: query.similarity_top_k]
        return VectorStoreQueryResult(
            nodes=[n for _, n in scored],
            similarities=[s for s, _ in scored],
            ids=[n.node_id for _, n in scored],
        )


class _Owner:
    """Stands in for the store's collection bookkeeping; targets are real in-memory stores."""

    def __init__(self, names: list[str]) -> None:
        self.targets = {n: _MemoryTarget() for n in names}
        self.opened: list[str] = []

    def collections(self) -> list[str]:
        return sorted(self.targets)

    def target(self, collection: str, *, create: bool) -> _MemoryTarget | None:
        self.opened.append(collection)
        if collection not in self.targets and create:
            self.targets[collection] = _MemoryTarget()
        return self.targets.get(collection)


def node(text: str, collection: str, vector: list[float]) -> TextNode:
    return TextNode(
        text=text, id_=str(uuid.uuid4()), metadata={"collection": collection}, embedding=vector
    )


def test_router_writes_by_collection_and_queries_only_the_scope() -> None:
    owner = _Owner([])
    router = _Router(owner)  # type: ignore[arg-type]
    router.add([node("public", "public", [1.0, 0.0]), node("secret", "secret", [0.0, 1.0])])
    assert set(owner.targets) == {"public", "secret"}

    owner.opened.clear()
    query = VectorStoreQuery(
        query_embedding=[0.0, 1.0], similarity_top_k=5, filters=scope_filters(["public"])
    )
    result = router.query(query)
    assert [n.get_content() for n in result.nodes or []] == ["public"]
    assert owner.opened == ["public"], "a collection outside the scope was opened"

    everything = router.query(VectorStoreQuery(query_embedding=[0.0, 1.0], similarity_top_k=5))
    assert [n.get_content() for n in everything.nodes or []] == ["secret", "public"]
    nothing = router.query(
        VectorStoreQuery(query_embedding=[0.0, 1.0], similarity_top_k=5, filters=scope_filters([]))
    )
    assert not nothing.nodes


async def test_hybrid_queries_bring_a_deeper_pool_and_keep_one_chunk_per_section_first() -> None:
    """The same candidate pool and section rule as the LanceDB store (``StoreSettings``)."""
    from llama_index.core.embeddings import MockEmbedding

    from connectors.knowledge.store import KnowledgeStore

    owner = _Owner([])
    router = _Router(owner)  # type: ignore[arg-type]
    nodes = [
        node(f"{section} {n}", "public", [1.0, 1.0 - rank / 10])
        for rank, (section, n) in enumerate([("long", 1), ("long", 2), ("long", 3), ("other", 1)])
    ]
    for n, text in zip(nodes, ["long", "long", "long", "other"], strict=True):
        n.metadata["url"] = f"https://docs.example.com/{text}.md#{text}"
    router.add(nodes)
    asked: list[int] = []
    target = owner.targets["public"]
    real_query = target.query

    def query(q: VectorStoreQuery) -> VectorStoreQueryResult:
        asked.append(q.similarity_top_k)
        return real_query(q)

    target.query = query  # type: ignore[method-assign]
    store = KnowledgeStore(
        router, MockEmbedding(embed_dim=2), alpha=0.7, candidates=4, section_slots=1
    )
    hits = await store.retrieve("long", top_k=2, scope=["public"])
    assert asked == [8]
    assert [h.source.text for h in hits] == ["long 1", "other 1"]


# -- settings -----------------------------------------------------------------------


def test_connection_params_from_settings() -> None:
    params = connection_params("https://weaviate.example.com", 50051)
    assert (params.http.host, params.http.port, params.http.secure) == (
        "weaviate.example.com",
        443,
        True,
    )
    assert (params.grpc.port, params.grpc.secure) == (50051, True)
    local = connection_params("http://localhost:8080", 50051)
    assert (local.http.port, local.grpc.port, local.grpc.secure) == (8080, 50051, False)
    with pytest.raises(StoreError, match="CITEBOT_STORE__WEAVIATE_URL"):
        connection_params("ftp://x", 1)
    with pytest.raises(StoreError, match="must be different"):
        connection_params("http://localhost:8080", 8080)


def test_kind_weaviate_without_a_url_is_one_clear_line(tmp_path: object) -> None:
    # load_settings refuses this already; the store still checks settings built in code
    loaded = load_settings(data_dir=str(tmp_path))
    settings = loaded.model_copy(update={"store": StoreSettings(kind="weaviate")})
    assert settings.store.kind == "weaviate"
    with pytest.raises(
        StoreError, match=r"weaviate_url is not set \[env CITEBOT_STORE__WEAVIATE_URL\]"
    ):
        open_store(settings)


def test_a_dead_server_is_one_clear_line(tmp_path: object) -> None:
    settings = load_settings(
        data_dir=str(tmp_path),
        store={"kind": "weaviate", "weaviate_url": "http://127.0.0.1:9", "weaviate_grpc_port": 10},
    )
    with pytest.raises(StoreError, match=r"cannot reach Weaviate at http://127\.0\.0\.1:9"):
        open_store(settings)


# -- against a real server ----------------------------------------------------------

WEAVIATE_URL = os.environ.get("WEAVIATE_URL")
needs_server = pytest.mark.skipif(
    not WEAVIATE_URL, reason="WEAVIATE_URL is not set: no Weaviate server to test against"
)


@pytest.fixture(scope="module")
def embedding() -> Iterator[BaseEmbedding]:
    yield build_embedding(EmbeddingSettings())


def _docs(collection: str, text: str) -> Document:
    return Document(
        key=f"{collection}/doc",
        url=f"https://{collection}.example.com/doc",
        title=collection,
        sections=(Section(text, heading="Part", anchor="part"),),
        collection=collection,
        content_hash=Document.hash_of(text),
    )


@needs_server
@pytest.mark.weaviate
@pytest.mark.parametrize("tenancy", ["collections", "tenants"])
def test_scoped_hybrid_search_on_a_real_server(
    tenancy: str, embedding: BaseEmbedding, tmp_path: object
) -> None:
    import asyncio

    from connectors.knowledge.ingest import Ingestor
    from connectors.knowledge.store.weaviate import WeaviateKnowledgeStore, connect

    settings = StoreSettings(
        kind="weaviate",
        weaviate_url=WEAVIATE_URL,
        weaviate_api_key=os.environ.get("WEAVIATE_API_KEY") or None,
        weaviate_grpc_port=int(os.environ.get("WEAVIATE_GRPC_PORT", "50051")),
        tenancy=tenancy,  # type: ignore[arg-type]
    )
    prefix = "CitebotTest" + uuid.uuid4().hex[:8]
    store = WeaviateKnowledgeStore(connect(settings), settings, embedding, prefix=prefix)
    try:
        ingestor = Ingestor(store, str(tmp_path), progress=False)
        ingestor.ingest(
            [_docs("public", "The office opens at 9am.")], source="t", collection="public"
        )
        ingestor.ingest(
            [_docs("secret", "The launch code for Falcon is 7741.")],
            source="t",
            collection="secret",
        )
        assert sorted(store.collections()) == ["public", "secret"]
        assert store.count() == 2
        question = "What is the launch code for Falcon?"
        best = asyncio.run(store.retrieve(question, top_k=1, scope=None))
        assert best[0].collection == "secret"
        scoped = asyncio.run(store.retrieve(question, top_k=5, scope=["public"]))
        assert {h.collection for h in scoped} == {"public"}
        assert scoped[0].source.url == "https://public.example.com/doc#part"
        ingestor.remove(["secret/doc"], "secret")
        assert store.count() == 1
    finally:
        for name in ("public", "secret"):
            with contextlib.suppress(Exception):
                store.drop(name)
        if tenancy == "tenants":
            store.client.collections.delete(prefix)
        store.close()
