"""Weaviate, the scale-out store, through ``llama-index-vector-stores-weaviate``.

Each citebot collection lives apart on the server, chosen by ``store.tenancy``:

- ``collections``: one Weaviate collection per citebot collection
  (``Citebot_eng``), so scopes map to whole collections;
- ``tenants``: one multi-tenant Weaviate collection (``Citebot``) with one
  tenant per citebot collection. Name collections after workspaces or guilds
  (``--collection slack-T0123``) to get one tenant per workspace or guild.

Either way a scope is resolved to its collections or tenants before the query
is sent, so the server never searches outside it (and a ``collection``
filter rides along as a second lock). Writes go through fixed-size batches
whose failures are reported, not dropped.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.schema import BaseNode, TextNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)

from connectors.errors import StoreError, one_line
from connectors.knowledge.chunking import document_ref

from .base import KnowledgeStore, hybrid_options
from .identifiers import FIELD as IDENTIFIERS

if TYPE_CHECKING:
    import weaviate

    from connectors.knowledge.settings import StoreConfig, StoreSettings
    from connectors.providers.embeddings import Embedding

__all__ = [
    "PREFIX",
    "WeaviateKnowledgeStore",
    "collection_name",
    "connection_params",
    "open_weaviate",
    "split_scope",
    "tenant_name",
]

log = logging.getLogger("citebot.store.weaviate")

PREFIX = "Citebot"
TEXT_KEY = "text"
_CLASS_UNSAFE = re.compile(r"[^0-9a-z_]")
_TENANT_UNSAFE = re.compile(r"[^0-9A-Za-z_-]")
_MAX_TENANT = 64


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]


def collection_name(collection: str, prefix: str = PREFIX) -> str:
    """The Weaviate collection for a citebot collection, in Weaviate's class-name alphabet.

    Weaviate capitalises the first letter and compares names without regard to
    case, so the name is lower-cased; whenever that or the alphabet changes the
    name, a digest of the original keeps two collections apart.
    """
    if not collection:
        raise StoreError("a collection name cannot be empty")
    safe = _CLASS_UNSAFE.sub("_", collection.lower())
    name = f"{prefix}_{safe}"
    if safe != collection or len(name) > 200:
        name = f"{name[:190]}_{_digest(collection)}"
    return name


def tenant_name(collection: str) -> str:
    """The tenant for a citebot collection: ``[A-Za-z0-9_-]{1,64}``, distinct per collection."""
    if not collection:
        raise StoreError("a collection name cannot be empty")
    safe = _TENANT_UNSAFE.sub("_", collection)
    if safe != collection or len(safe) > _MAX_TENANT:
        safe = f"{safe[: _MAX_TENANT - 9]}_{_digest(collection)}"
    return safe


def split_scope(
    filters: MetadataFilters | None,
) -> tuple[list[str] | None, MetadataFilters | None]:
    """Take the ``collection`` scope out of a query's filters: ``(collections or None, the rest)``.

    Only a top-level AND can be split; a scope inside OR/NOT could widen the
    search, so it is refused rather than guessed at.
    """
    if filters is None:
        return None, None
    scope: list[str] | None = None
    rest: list[MetadataFilter | MetadataFilters] = []
    for item in filters.filters:
        is_scope = isinstance(item, MetadataFilter) and item.key == "collection"
        if is_scope and filters.condition not in (FilterCondition.AND, None):
            raise StoreError("a collection scope can only be combined with AND")
        if not is_scope:
            if isinstance(item, MetadataFilters) and _mentions_collection(item):
                raise StoreError("a collection scope cannot be nested in other filters")
            rest.append(item)
            continue
        assert isinstance(item, MetadataFilter)
        if item.operator == FilterOperator.IN and isinstance(item.value, list):
            values = [str(v) for v in item.value]
        elif item.operator == FilterOperator.EQ:
            values = [str(item.value)]
        else:
            raise StoreError(f"unsupported collection filter {item.operator.value!r}")
        scope = values if scope is None else [v for v in scope if v in values]
    remaining = MetadataFilters(filters=rest, condition=filters.condition) if rest else None
    return scope, remaining


def _mentions_collection(filters: MetadataFilters) -> bool:
    for item in filters.filters:
        if isinstance(item, MetadataFilters):
            if _mentions_collection(item):
                return True
        elif item.key == "collection":
            return True
    return False


def connection_params(url: str, grpc_port: int) -> Any:
    """HTTP and gRPC endpoints from ``store.weaviate_url`` (gRPC on the same host, same TLS)."""
    from weaviate.connect import ConnectionParams

    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise StoreError(
            f"store.weaviate_url {url!r} is not an http(s) URL [env CITEBOT_STORE__WEAVIATE_URL]"
        )
    secure = parts.scheme == "https"
    try:
        return ConnectionParams.from_params(
            http_host=parts.hostname,
            http_port=parts.port or (443 if secure else 80),
            http_secure=secure,
            grpc_host=parts.hostname,
            grpc_port=grpc_port,
            grpc_secure=secure,
        )
    except ValueError as exc:
        lines = str(exc).splitlines()
        problem = (lines[1] if len(lines) > 1 else lines[0]).split(" [type=")[0]
        problem = problem.removeprefix("Value error, ").strip()
        raise StoreError(
            f"store.weaviate_url {url!r} with gRPC port {grpc_port}: {problem} "
            "[env CITEBOT_STORE__WEAVIATE_GRPC_PORT]"
        ) from None


def _exact_field(name: str) -> Any:
    """A text property matched whole (ids, URLs, names), never searched by words."""
    from weaviate.classes.config import DataType, Property, Tokenization

    return Property(
        name=name,
        data_type=DataType.TEXT,
        tokenization=Tokenization.FIELD,
        index_searchable=False,
    )


def _properties() -> list[Any]:
    from weaviate.classes.config import DataType, Property

    return [
        Property(name=TEXT_KEY, data_type=DataType.TEXT),
        Property(name="title", data_type=DataType.TEXT),
        # searched with the text (a collection made before it gets it from auto-schema)
        Property(name=IDENTIFIERS, data_type=DataType.TEXT),
        _exact_field("collection"),
        _exact_field("document_key"),
        _exact_field("ref_doc_id"),
        _exact_field("doc_id"),
        _exact_field("document_id"),
        _exact_field("url"),
        _exact_field("anchor"),
        _exact_field("kind"),
        _exact_field("content_hash"),
        Property(name="start", data_type=DataType.INT),
        Property(name="end", data_type=DataType.INT),
        Property(name="page", data_type=DataType.INT),
    ]


class _Router(BasePydanticVectorStore):
    """Routes writes by each node's ``collection`` and queries by the scope in their filters."""

    stores_text: bool = True
    is_embedding_query: bool = True
    _owner: WeaviateKnowledgeStore = PrivateAttr()

    def __init__(self, owner: WeaviateKnowledgeStore) -> None:
        super().__init__(stores_text=True)
        self._owner = owner

    @classmethod
    def class_name(cls) -> str:
        return "CitebotWeaviateRouter"

    @property
    def client(self) -> Any:
        return self._owner.client

    def add(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[str]:
        groups: dict[str, list[BaseNode]] = {}
        for node in nodes:
            groups.setdefault(str(node.metadata.get("collection", "default")), []).append(node)
        ids: list[str] = []
        for collection, group in groups.items():
            target = self._owner.target(collection, create=True)
            assert target is not None
            ids += target.add(group)
        return ids

    def delete(self, ref_doc_id: str, **kwargs: Any) -> None:
        for collection in self._owner.collections():
            target = self._owner.target(collection, create=False)
            if target is not None:
                target.delete(ref_doc_id)

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        scope, rest = split_scope(query.filters)
        names = self._owner.collections() if scope is None else scope
        nodes: list[tuple[float, BaseNode]] = []
        for collection in dict.fromkeys(names):
            target = self._owner.target(collection, create=False)
            if target is None:
                continue
            sub = VectorStoreQuery(
                query_embedding=query.query_embedding,
                query_str=query.query_str,
                similarity_top_k=query.similarity_top_k,
                mode=query.mode,
                alpha=query.alpha,
                filters=rest,
            )
            result = target.query(sub)
            nodes += zip(result.similarities or [], result.nodes or [], strict=False)
        nodes.sort(key=lambda pair: pair[0], reverse=True)
        top = nodes[: query.similarity_top_k]
        return VectorStoreQueryResult(
            nodes=[n for _, n in top],
            similarities=[s for s, _ in top],
            ids=[n.node_id for _, n in top],
        )


class WeaviateKnowledgeStore(KnowledgeStore):
    kind = "weaviate"

    def __init__(
        self,
        client: weaviate.WeaviateClient,
        settings: StoreSettings,
        embedding: Embedding,
        *,
        prefix: str = PREFIX,
    ) -> None:
        super().__init__(None, embedding, **hybrid_options(settings))
        self.client = client
        self.tenancy = settings.tenancy
        self.batch_size = settings.batch_size
        self.prefix = prefix
        self._targets: dict[str, BasePydanticVectorStore] = {}
        self._vector_store = _Router(self)

    # -- where each collection lives -----------------------------------------

    def collections(self) -> list[str]:
        """Every citebot collection the server holds."""
        try:
            if self.tenancy == "tenants":
                if not self.client.collections.exists(self.prefix):
                    return []
                tenants = self.client.collections.get(self.prefix).tenants.get()
                return sorted(self._from_tenant(t) for t in tenants)
            found = []
            for name in self.client.collections.list_all(simple=True):
                if name.lower().startswith(self.prefix.lower() + "_"):
                    found.append(self._from_collection(name))
            return sorted(found)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"cannot list Weaviate collections: {one_line(exc)}") from exc

    def _from_collection(self, name: str) -> str:
        # the true name sits on every object; the class name is only a lossy spelling of it
        response = self.client.collections.get(name).query.fetch_objects(
            limit=1, return_properties=["collection"]
        )
        if response.objects:
            return str(response.objects[0].properties.get("collection"))
        return name.split("_", 1)[1]

    def _from_tenant(self, tenant: str) -> str:
        handle = self.client.collections.get(self.prefix).with_tenant(tenant)
        response = handle.query.fetch_objects(limit=1, return_properties=["collection"])
        if response.objects:
            return str(response.objects[0].properties.get("collection"))
        return tenant

    def target(self, collection: str, *, create: bool) -> Any:
        if collection in self._targets:
            return self._targets[collection]
        try:
            found = self._open(collection, create=create)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(
                f"cannot open Weaviate collection for {collection!r}: {one_line(exc)}"
            ) from exc
        if found is not None:
            self._targets[collection] = found
        return found

    def _open(self, collection: str, *, create: bool) -> Any:
        from weaviate.classes.config import Configure
        from weaviate.classes.tenants import Tenant

        from .weaviate_vectors import CitebotWeaviateVectorStore

        if self.tenancy == "tenants":
            index, tenant = self.prefix, tenant_name(collection)
            if not self.client.collections.exists(index):
                if not create:
                    return None
                self.client.collections.create(
                    index,
                    properties=_properties(),
                    vectorizer_config=Configure.Vectorizer.none(),
                    multi_tenancy_config=Configure.multi_tenancy(
                        enabled=True, auto_tenant_activation=True
                    ),
                )
            handle = self.client.collections.get(index)
            if tenant not in handle.tenants.get():
                if not create:
                    return None
                handle.tenants.create([Tenant(name=tenant)])
        else:
            index, tenant = collection_name(collection, self.prefix), None
            if not self.client.collections.exists(index):
                if not create:
                    return None
                self.client.collections.create(
                    index, properties=_properties(), vectorizer_config=Configure.Vectorizer.none()
                )
        return CitebotWeaviateVectorStore(
            weaviate_client=self.client,
            index_name=index,
            text_key=TEXT_KEY,
            collection=collection,
            tenant=tenant,
            batch_size=self.batch_size,
        )

    # -- KnowledgeStore ----------------------------------------------------------

    def delete(self, document_keys: Iterable[str], collection: str) -> None:
        target = self.target(collection, create=False)
        if target is None:
            return
        for key in document_keys:
            try:
                target.delete(document_ref(collection, key))
            except Exception as exc:
                raise StoreError(f"cannot delete from Weaviate: {one_line(exc)}") from exc

    def drop(self, collection: str) -> None:
        """Remove a whole collection (its Weaviate collection, or its tenant)."""
        if self.tenancy == "tenants":
            if self.client.collections.exists(self.prefix):
                self.client.collections.get(self.prefix).tenants.remove([tenant_name(collection)])
        else:
            self.client.collections.delete(collection_name(collection, self.prefix))
        self._targets.pop(collection, None)

    def count(self) -> int:
        total = 0
        for collection in self.collections():
            target = self.target(collection, create=False)
            if target is not None:
                total += target.count_rows()
        return total

    def iter_nodes(self) -> Iterator[TextNode]:
        for collection in self.collections():
            target = self.target(collection, create=False)
            if target is not None:
                yield from target.iter_nodes()

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:  # closing must never fail a command that already finished
            log.debug("closing the Weaviate client failed", exc_info=True)


def connect(settings: StoreSettings) -> weaviate.WeaviateClient:
    import weaviate
    from weaviate.auth import Auth
    from weaviate.config import AdditionalConfig, Timeout

    if not settings.weaviate_url:
        raise StoreError(
            "store.kind is 'weaviate' but store.weaviate_url is not set [env CITEBOT_STORE__WEAVIATE_URL]"
        )
    key = settings.weaviate_api_key
    client = weaviate.WeaviateClient(
        connection_params=connection_params(settings.weaviate_url, settings.weaviate_grpc_port),
        auth_client_secret=Auth.api_key(key.get_secret_value()) if key else None,
        additional_config=AdditionalConfig(timeout=Timeout(init=10, query=30, insert=120)),
    )
    try:
        client.connect()
    except Exception as exc:
        raise StoreError(
            f"cannot reach Weaviate at {settings.weaviate_url}: {one_line(exc)}"
        ) from None
    return client


def open_weaviate(settings: StoreConfig, embedding: Embedding) -> WeaviateKnowledgeStore:
    """The Weaviate store ``settings.store`` points at (``CITEBOT_STORE__KIND=weaviate``)."""
    return WeaviateKnowledgeStore(connect(settings.store), settings.store, embedding)
