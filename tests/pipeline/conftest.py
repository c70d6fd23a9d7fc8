"""Pipeline fixtures: the real bundled embedder (loaded once), fake LLM and Tavily servers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from connectors.embeddings import AsyncEmbedder, MiniLMEmbedding
from pipeline.graders import CachedEmbedder
from pipeline.ports import Embedder
from tests.fakes.openai_server import FakeOpenAI
from tests.fakes.tavily_server import FakeTavily


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    model = MiniLMEmbedding()
    model.load()
    # shared by every test, so the same corpus and sentences are embedded once per session
    return CachedEmbedder(AsyncEmbedder(model), size=50_000)


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake_tavily() -> Iterator[FakeTavily]:
    with FakeTavily(api_key="tvly-test") as server:
        yield server
