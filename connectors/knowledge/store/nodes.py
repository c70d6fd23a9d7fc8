"""A chunk in LlamaIndex's shapes, without importing LlamaIndex (over a CPU second).

Stores written by citebot stay readable by LlamaIndex's own vector stores, so a
chunk is embedded as a ``TextNode`` would embed it and stored with the flat
metadata LlamaIndex writes (the node itself as JSON in ``_node_content``). The
tests check both against LlamaIndex's output for the same chunk.
"""

from __future__ import annotations

import json
from typing import Any

from connectors.knowledge.chunking import Chunk

__all__ = ["NOT_EMBEDDED", "embed_text", "node_metadata"]

#: Metadata that only addresses a chunk; kept out of what gets embedded.
NOT_EMBEDDED = (
    "url",
    "document_key",
    "collection",
    "kind",
    "start",
    "end",
    "page",
    "anchor",
    "content_hash",
)
_METADATA_TEMPLATE = "{key}: {value}"
_TEXT_TEMPLATE = "{metadata_str}\n\n{content}"
_SOURCE = "1"  # llama_index.core.schema.NodeRelationship.SOURCE


def embed_text(title: str, text: str) -> str:
    """What gets embedded for a chunk with this title and text (``MetadataMode.EMBED``)."""
    metadata = _METADATA_TEMPLATE.format(key="title", value=title).strip()
    return _TEXT_TEMPLATE.format(metadata_str=metadata, content=text).strip()


def node_metadata(chunk: Chunk) -> dict[str, Any]:
    """The metadata LlamaIndex stores for the chunk's node (``node_to_metadata_dict``, flat)."""
    metadata: dict[str, Any] = chunk.metadata()
    excluded = list(NOT_EMBEDDED)
    node: dict[str, Any] = {
        "id_": chunk.id,
        "embedding": None,
        "metadata": dict(metadata),
        "excluded_embed_metadata_keys": excluded,
        "excluded_llm_metadata_keys": excluded,
        "relationships": {
            _SOURCE: {
                "node_id": chunk.document_ref,
                "node_type": None,
                "metadata": {},
                "hash": None,
                "class_name": "RelatedNodeInfo",
            }
        },
        "metadata_template": _METADATA_TEMPLATE,
        "metadata_separator": "\n",
        "text": chunk.text,
        "mimetype": "text/plain",
        "start_char_idx": chunk.start,
        "end_char_idx": chunk.end,
        "text_template": _TEXT_TEMPLATE,
        "class_name": "TextNode",
    }
    ref = chunk.document_ref
    metadata["_node_content"] = json.dumps(node, ensure_ascii=False)
    metadata["_node_type"] = "TextNode"
    metadata["document_id"] = ref
    metadata["doc_id"] = ref
    metadata["ref_doc_id"] = ref
    return metadata
