"""Pipeline fixtures: the real bundled embedder (loaded once), fake LLM and Tavily servers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.sources.folder import read_folder
from connectors.knowledge.store import KnowledgeStore
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import AsyncEmbedder, MiniLMEmbedding
from pipeline.graders import CachedEmbedder
from pipeline.ports import Embedder
from tests.fakes.openai_server import FakeOpenAI
from tests.fakes.tavily_server import FakeTavily
from tests.pipeline.test_end_to_end import BASE, DOCS

# the dev sets' shared checks assert outside any test module; rewritten, a failing one shows
# what it compared, as it did when they lived in test_devset_eval.py
pytest.register_assert_rewrite("tests.pipeline.devset_eval")


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    model = MiniLMEmbedding()
    model.load()
    # shared by every test, so the same corpus and sentences are embedded once per session
    return CachedEmbedder(AsyncEmbedder(model), size=50_000)


@pytest.fixture
def fake_openai(request: pytest.FixtureRequest) -> Iterator[FakeOpenAI]:
    """Strict like OpenAI's API; ``parametrize("fake_openai", SERVER_KINDS, indirect=True)``
    makes it as strict as each local server instead."""
    with FakeOpenAI(server=getattr(request, "param", "openai")) as server:
        yield server


@pytest.fixture
def fake_tavily() -> Iterator[FakeTavily]:
    with FakeTavily(api_key="tvly-test") as server:
        yield server


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    root = tmp_path_factory.mktemp("docs")
    for name, text in DOCS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    data_dir = tmp_path_factory.mktemp("data")
    kb = open_lancedb(data_dir, StoreSettings(), MiniLMEmbedding())
    report = Ingestor(kb, data_dir, progress=False).ingest(
        read_folder(root, url_base=BASE), source=f"folder:{root}"
    )
    assert report.added == len(DOCS)
    yield kb
    kb.close()


STORAGE = """# Storage

## Retention

Prometheus keeps samples for 15 days by default. Set `--storage.tsdb.retention.time` to keep
them longer; the retention applies to the whole database.

## Remote write

Prometheus can send every sample it scrapes to a remote endpoint with `remote_write`.
"""


@pytest.fixture(scope="module")
def storage_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    """One page of two sections (retention, remote write), as https://docs.example.com/."""
    # imported here: the dev sets' checks are rewritten for assertions once this file ran
    from tests.pipeline.devset_eval import ingest_pages

    kb = ingest_pages(
        {"storage.md": STORAGE}, tmp_path_factory.mktemp("docs"), tmp_path_factory.mktemp("data")
    )
    yield kb
    kb.close()
