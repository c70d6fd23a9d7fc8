"""Fixtures for connector tests: the real bundled embedder, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store.lancedb import LanceKnowledgeStore, open_lancedb
from connectors.providers.embeddings import MiniLMEmbedding


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedding:
    embedding = MiniLMEmbedding()
    embedding.load()
    return embedding


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def lance_store(data_dir: Path, minilm: MiniLMEmbedding) -> LanceKnowledgeStore:
    return open_lancedb(data_dir, StoreSettings(), minilm)
