"""The real pipeline behind a bot, with the fake OpenAI-compatible server writing the answer.

A two-page knowledge base in a real LanceDB store (the bundled embedder), the
settings that point the pipeline at the fake LLM, and the model's script: the
answer is whatever the test says, streamed in ``chunk_chars`` pieces; the
answer check approves it, so the model's own words reach the platform.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bots.settings import Settings
from connectors.factory import open_store
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.sources.folder import read_folder
from pipeline.events import Done, Progress
from pipeline.question import Question
from tests.fakes.openai_server import FakeOpenAI

URL_BASE = "https://docs.example.com/"
DOCS = {
    "keys.md": "# API keys\n\n## Rotating API keys\n\nTo rotate an API key, open Settings › API "
    "keys and click Rotate next to the key. The old key keeps working for 24 hours.\n",
    "revoke.md": "# Revoking API keys\n\n## Revoke a key\n\nTo revoke an API key at once, open "
    "Settings › API keys and click Revoke; jobs using the key stop within a minute.\n",
}
SOURCE_URLS = [URL_BASE + name for name in DOCS]
QUESTION = "How do I rotate or revoke an API key?"
APPROVED = '{"grounded": true, "useful": true, "unsupported": []}'


@pytest.fixture(scope="module")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The knowledge base, once per test module (``from tests.platforms.llm import knowledge``)."""
    return knowledge_base(tmp_path_factory.mktemp("kb"))


@pytest.fixture
def llm() -> Iterator[FakeOpenAI]:
    """The fake LLM server, for one test."""
    with FakeOpenAI() as server:
        yield server


def knowledge_base(root: Path) -> Path:
    """A data dir holding ``DOCS``, as ``citebot ingest --url-base`` would write it."""
    docs, data = root / "docs", root / "data"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    store = open_store(Settings(data_dir=data))
    try:
        Ingestor(store, data, progress=False).ingest(
            read_folder(docs, url_base=URL_BASE), source=f"folder:{docs}"
        )
    finally:
        store.close()
    return data


def settings_for(data: Path, llm: FakeOpenAI) -> dict[str, Any]:
    """Root settings: the knowledge base, the fake LLM, no web search."""
    return {
        "data_dir": data,
        "llm": {"provider": "openai_compatible", "base_url": llm.base_url, "max_retries": 0},
        "web": {"enabled": False},
        "pipeline": {"grader": "embedding"},
    }


def script(llm: FakeOpenAI, answer: Callable[[], str]) -> None:
    """The model answers ``answer()`` to every question and approves its own answer."""
    llm.when("Task: answer with citations", lambda prompt: answer())
    llm.when("Task: check an answer", APPROVED)


class Recording:
    """An answerer that keeps every ``Done`` the one it wraps produces."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.done: list[Done] = []
        self._changed = asyncio.Condition()

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        async for event in self.inner.stream(question):
            if isinstance(event, Done):
                async with self._changed:
                    self.done.append(event)
                    self._changed.notify_all()
            yield event

    async def next_after(self, count: int, within: float) -> Done:
        async with asyncio.timeout(within), self._changed:
            await self._changed.wait_for(lambda: len(self.done) > count)
        return self.done[count]
