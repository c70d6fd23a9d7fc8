"""LlamaIndex's Weaviate vector store for one citebot collection (see ``weaviate.py``).

Its own module because importing it loads the Weaviate client: ``weaviate.py``
imports it on the first open, not at start-up. Each object carries its text's
identifier terms in a searchable property of their own (``identifiers.py``), and
a question's keyword query carries its own, as the LanceDB store's index does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import weaviate.classes as wvc
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.types import VectorStoreQuery, VectorStoreQueryResult
from llama_index.vector_stores.weaviate import WeaviateVectorStore
from llama_index.vector_stores.weaviate.utils import get_data_object, to_node
from weaviate.exceptions import WeaviateQueryError

from citations.phrasings import with_phrasing_terms
from citations.spelling import spelling_variants
from connectors.errors import StoreError

from .identifiers import FIELD as IDENTIFIERS
from .identifiers import identifier_terms, with_identifier_terms


def collection_filter(collection: str, extra: Any = None) -> Any:
    """``collection == name`` (exact: the property is tokenized as a whole field), AND ``extra``."""
    mine = wvc.query.Filter.by_property("collection").equal(collection)
    return mine if not extra else wvc.query.Filter.all_of([mine, extra])


class CitebotWeaviateVectorStore(WeaviateVectorStore):
    """One citebot collection: a Weaviate collection, or one tenant of the shared one."""

    _tenant: str | None = PrivateAttr(default=None)
    _collection: str = PrivateAttr(default="")
    _batch_size: int = PrivateAttr(default=100)

    def __init__(
        self, *, collection: str, tenant: str | None, batch_size: int, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._collection = collection
        self._tenant = tenant
        self._batch_size = batch_size

    @classmethod
    def class_name(cls) -> str:
        return "CitebotWeaviateVectorStore"

    def _handle(self) -> Any:
        handle = self.client.collections.get(self.index_name)
        return handle.with_tenant(self._tenant) if self._tenant else handle

    def add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        with self.client.batch.fixed_size(batch_size=self._batch_size) as batch:
            for node in nodes:
                obj: Any = get_data_object(node=node, text_key=self.text_key)
                text = str(obj.properties.get(self.text_key) or "")
                obj.properties[IDENTIFIERS] = " ".join(
                    [*identifier_terms(text), *spelling_variants(text)]
                )
                batch.add_object(
                    collection=self.index_name,
                    properties=obj.properties,
                    uuid=obj.uuid,
                    vector=obj.vector,
                    tenant=self._tenant,
                )
        failed = self.client.batch.failed_objects
        if failed:
            raise StoreError(
                f"Weaviate refused {len(failed)} of {len(nodes)} chunks: {failed[0].message}"
            )
        return [n.node_id for n in nodes]

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        self._handle().data.delete_many(
            where=wvc.query.Filter.by_property("ref_doc_id").equal(ref_doc_id)
        )

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        params = self.get_query_parameters(query, property_types=None, **kwargs)
        if query.alpha is not None and params["vector"] is not None and query.query_str:
            params["alpha"] = query.alpha  # the integration turns 0.0 (keywords only) into 0.5
        if params.get("query"):
            asked = with_identifier_terms(with_phrasing_terms(params["query"]))
            params["query"] = " ".join([asked, *spelling_variants(asked)])
        params["filters"] = collection_filter(self._collection, params.get("filters"))
        try:
            result = self._handle().query.hybrid(**params)
        except WeaviateQueryError as exc:
            raise StoreError(f"Weaviate refused the query: {exc.message}") from None
        for obj in result.objects:
            obj.properties.pop(IDENTIFIERS, None)
        return self.parse_query_result(result, query)

    def count_rows(self) -> int:
        return int(self._handle().aggregate.over_all(total_count=True).total_count or 0)

    def iter_nodes(self) -> Iterator[BaseNode]:
        for obj in self._handle().iterator(include_vector=True):
            properties = dict(obj.properties)
            properties.pop(IDENTIFIERS, None)
            yield to_node(
                {
                    "metadata": obj.metadata,
                    "properties": properties,
                    "vector": dict(obj.vector),
                },
                text_key=self.text_key,
            )
