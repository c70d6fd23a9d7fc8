"""Outside services failing under the real Slack bot: the LLM, Tavily and the store.

Nothing is scripted between Slack and the store: real Bolt behind citebot's aiohttp
server, the fake Slack Web API, the real pipeline over a real LanceDB store with
the bundled embedder, the real ``openai`` client and ``tavily-python`` talking to
loopback fakes (or to a port nobody listens on). For each fault the user sees one
answer in the thread, carrying a one-line note that says what failed; nothing is
logged with a traceback; the delivery is marked done, so Slack's retry is not
answered twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bots.app import build_answerer
from bots.core.dedupe import Dedupe, MemoryBackend
from bots.settings import Settings
from bots.testing.slack_api import Message
from pipeline import Pipeline
from tests.fakes.openai_server import Fail, FakeOpenAI, Hang
from tests.fakes.redis_server import free_port
from tests.fakes.tavily_server import FakeTavily
from tests.faults.knowledge import KEYS_URL, ingest_keys
from tests.slack.conftest import MakeHarness, mention

ON_TOPIC = "how do I rotate an API key?"
OFF_TOPIC = "what is the boiling point of tungsten?"  # nothing in the knowledge base
GOOD = '{"grounded": true, "useful": true, "unsupported": []}'
TS = "1700000100.000001"


class DoneWatch(MemoryBackend):
    """The in-process dedupe backend, telling the test when a delivery is marked done
    (the adapter does that just after the reply is posted): an event to wait on."""

    def __init__(self) -> None:
        super().__init__()
        self.done: dict[str, asyncio.Event] = {}

    def event(self, key: str) -> asyncio.Event:
        return self.done.setdefault(key, asyncio.Event())

    async def put(self, key: str, ttl: float) -> None:
        await super().put(key, ttl)
        self.event(key).set()


@pytest.fixture(scope="module")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ingested data dir; each test works on its own copy."""
    return ingest_keys(tmp_path_factory.mktemp("docs"), tmp_path_factory.mktemp("kb"))


@pytest.fixture
def data_dir(knowledge: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(knowledge, copy)
    return copy


@pytest.fixture
def llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.when("Task: check an answer", GOOD)
        yield server


def closed_url() -> str:
    """A loopback port nobody listens on: connection refused."""
    return f"http://127.0.0.1:{free_port()}/v1"


def pipeline(
    data_dir: Path, llm_url: str, web: dict[str, Any] | None = None, **timeouts: float
) -> Pipeline:
    settings = Settings(
        data_dir=data_dir,
        llm={"provider": "openai_compatible", "base_url": llm_url, "max_retries": 0},
        web=web or {"enabled": False},
        pipeline={"grader": "embedding", **timeouts},
    )
    return build_answerer(settings)


async def ask(h: Any, watch: DoneWatch, text: str = ON_TOPIC, ts: str = TS) -> Message:
    """One mention and a retry of it; the one reply, once the delivery is marked done."""
    status, _, elapsed = await h.event(mention(text, ts=ts), event_id=f"Ev{ts}")
    assert status == 200 and elapsed < 3.0, "Slack's 3 s ack"
    async with asyncio.timeout(60):
        await watch.event(f"citebot:slack:msg:C111:{ts}").wait()
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    assert (await h.event(mention(text, ts=ts), event_id=f"Ev{ts}", headers=retry))[0] == 200
    replies = [m for m in h.fake.in_thread("C111", ts) if m.visible_text]
    assert len(replies) == 1, [m.visible_text for m in replies]  # not lost, not duplicated
    assert not replies[0].streaming
    reply: Message = replies[0]
    return reply


def note_line(reply: Message, *needles: str) -> str:
    """The one line of the reply that carries the note; it must name every needle."""
    lines = [line for line in reply.visible_text.splitlines() if needles[0] in line]
    assert lines, reply.visible_text
    line = lines[0]
    for needle in needles:
        assert needle in line, line
    return line


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    # an earlier test's openai client, collected after its event loop closed, logs one in this
    # loop (openai's __del__ schedules aclose): the test runner's artefact, not the bot's
    logged = [r for r in caplog.records if r.exc_info and not _closed_loop(r.exc_info[1])]
    assert not logged, [r.getMessage() for r in logged]
    assert "Traceback" not in "\n".join(r.getMessage() for r in caplog.records)


def _closed_loop(exc: BaseException | None) -> bool:
    return isinstance(exc, RuntimeError) and str(exc) == "Event loop is closed"


@pytest.fixture
def harness(make_harness: MakeHarness) -> Any:
    async def start(answerer: Any) -> tuple[Any, DoneWatch]:
        watch = DoneWatch()
        return await make_harness(answerer=answerer, dedupe=Dedupe(watch)), watch

    return start


async def test_llm_refusing_connections(
    harness: Any, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    h, watch = await harness(pipeline(data_dir, closed_url()))
    reply = await ask(h, watch)
    note_line(reply, "language model is unavailable", "Connection")
    assert "click Rotate" in reply.visible_text, "the knowledge base alone still answers"
    assert KEYS_URL in reply.visible_text
    no_traceback(caplog)


async def test_llm_that_never_answers_times_out_and_says_so(
    harness: Any, data_dir: Path, llm: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    llm.default = Hang()
    h, watch = await harness(pipeline(data_dir, llm.base_url, generate_timeout=1.0))
    reply = await ask(h, watch)
    note_line(reply, "did not answer within 1 s")
    assert "click Rotate" in reply.visible_text
    assert llm.calls("Task: answer with citations"), "the real client reached the hanging server"
    no_traceback(caplog)


@pytest.mark.parametrize(
    ("status", "says"), [(500, "language model is unavailable"), (400, "rejected the request")]
)
async def test_llm_error_status(
    harness: Any,
    data_dir: Path,
    llm: FakeOpenAI,
    caplog: pytest.LogCaptureFixture,
    status: int,
    says: str,
) -> None:
    caplog.set_level(logging.WARNING)
    llm.when("Task: answer with citations", Fail(status, "/srv/model at gpu-7.internal:8000"))
    h, watch = await harness(pipeline(data_dir, llm.base_url))
    reply = await ask(h, watch)
    line = note_line(reply, says, str(status))
    assert "gpu-7" not in line and "/srv" not in line, "no host or path from the server's error"
    assert "click Rotate" in reply.visible_text
    no_traceback(caplog)


@pytest.mark.parametrize("fault", ["refused", "hanging"])
async def test_tavily_down(
    harness: Any, data_dir: Path, llm: FakeOpenAI, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    caplog.set_level(logging.WARNING)
    llm.default = "I could not find that in the sources."
    with FakeTavily() as tavily:
        tavily.hang()
        url = tavily.url if fault == "hanging" else closed_url().removesuffix("/v1")
        web = {"tavily_api_key": "tvly-test", "base_url": url, "timeout": 1.0}
        h, watch = await harness(pipeline(data_dir, llm.base_url, web=web))
        reply = await ask(h, watch, OFF_TOPIC)
    says = "did not answer within 1 s" if fault == "hanging" else "connection attempts failed"
    note_line(reply, "web search failed", says)
    no_traceback(caplog)


async def test_store_deleted_mid_run(
    harness: Any, data_dir: Path, llm: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    llm.when("Task: answer with citations", "Click Rotate [1].")
    h, watch = await harness(pipeline(data_dir, llm.base_url))
    first = await ask(h, watch)
    assert "Rotate" in first.visible_text
    shutil.rmtree(data_dir)
    reply = await ask(h, watch, ts="1700000200.000001")
    line = note_line(reply, "knowledge base could not be searched")
    assert "pytest-of" not in line and "chunks.lance" not in line, "no path in what users read"
    assert not data_dir.exists(), "answering does not recreate a deleted data dir"  # noqa: ASYNC240
    no_traceback(caplog)


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """``paths`` read-only for this process: mode bits, or the immutable flag for root (whom
    mode bits do not stop), as a disk remounted read-only after an error would be."""
    root = os.geteuid() == 0
    if root and shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: nothing can make a directory read-only")

    def chattr(flag: str) -> None:
        done = subprocess.run(["chattr", "-R", flag, *map(str, paths)], capture_output=True)
        if done.returncode and flag == "+i":
            pytest.skip(f"chattr +i refused: {done.stderr.decode().strip()}")

    if root:
        chattr("+i")
    else:
        for path in paths:
            for item in [path, *path.rglob("*")]:
                item.chmod(item.stat().st_mode & ~0o222)
    try:
        yield
    finally:
        if root:
            chattr("-i")
        else:
            for path in paths:
                for item in [path, *path.rglob("*")]:
                    item.chmod(item.stat().st_mode | 0o200)


async def test_store_read_only_mid_run(
    harness: Any, data_dir: Path, llm: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    llm.when("Task: answer with citations", "Click Rotate [1].")
    h, watch = await harness(pipeline(data_dir, llm.base_url))
    await ask(h, watch)
    with read_only(data_dir):
        probe = data_dir / "probe"
        with pytest.raises(OSError):
            probe.write_text("x")  # the fault is real
        reply = await ask(h, watch, ts="1700000200.000001")
        # answering only reads the store: the answer is whole, with its sources
        assert "Click Rotate" in reply.visible_text and KEYS_URL in reply.visible_text
        assert "Note:" not in reply.visible_text
    no_traceback(caplog)
