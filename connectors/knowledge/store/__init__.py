"""Knowledge stores: any LlamaIndex vector store behind one ``KnowledgeStore`` API."""

from .base import KnowledgeStore, chunk_node, hit_from_node, scope_filters
from .datadir import FORMAT_VERSION, DataDir
from .manifest import Entry, Manifest

__all__ = [
    "FORMAT_VERSION",
    "DataDir",
    "Entry",
    "KnowledgeStore",
    "Manifest",
    "chunk_node",
    "hit_from_node",
    "scope_filters",
]
