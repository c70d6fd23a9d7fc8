"""Knowledge stores: any LlamaIndex vector store behind one ``KnowledgeStore`` API.

The names load on first use: a question read through ``lance_search`` needs the manifest
and the data directory, not LlamaIndex (whose import costs over a CPU second).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .datadir import FORMAT_VERSION, DataDir
from .manifest import Entry, Manifest

if TYPE_CHECKING:
    from .base import KnowledgeStore, chunk_node, hit_from_node, scope_filters

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

_FROM_BASE = frozenset({"KnowledgeStore", "chunk_node", "hit_from_node", "scope_filters"})


def __getattr__(name: str) -> Any:
    if name in _FROM_BASE:
        return getattr(importlib.import_module(f"{__name__}.base"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
