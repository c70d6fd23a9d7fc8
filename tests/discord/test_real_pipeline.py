"""The real pipeline behind the real discord.py client: LanceDB, the bundled embedder, and the
openai client talking to a fake OpenAI-compatible server that is down."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.app import build_answerer
from bots.testing.discord_api import FakeDiscord
from tests.discord.conftest import StartBot
from tests.fakes.openai_server import Fail, FakeOpenAI, Hang
from tests.faults.knowledge import ingest_keys


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_keys(tmp_path_factory.mktemp("docs"), tmp_path_factory.mktemp("data"))


@pytest.fixture
def dead_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.default = Fail(500, "the model crashed")
        yield server


async def test_llm_down_answer_says_so_and_still_cites(
    start_bot: StartBot, fake: FakeDiscord, data_dir: Path, dead_llm: FakeOpenAI
) -> None:
    root = {
        "data_dir": data_dir,
        "llm": {"provider": "openai_compatible", "base_url": dead_llm.base_url, "max_retries": 0},
        "web": {"enabled": False},
    }
    await start_bot(root=root, answerer=build_answerer)
    await fake.user_says("How do I rotate an API key?", mention_bot=True)
    final = await fake.wait_call(
        "PATCH", r"/channels/\d+/messages/\d+", lambda c: bool(c.json.get("embeds")), within=60
    )
    assert dead_llm.requests, "the real openai client reached the fake server"
    content = final.json["content"]
    assert "language model is unavailable" in content, content
    assert "[[1]](<https://docs.example.com/keys.md#rotating-api-keys:~:text=" in content
    assert "keys.md#rotating-api-keys" in final.json["embeds"][0]["description"]
    assert final.json["allowed_mentions"]["parse"] == []


async def test_llm_that_never_answers_is_timed_out_and_said_in_one_line(
    start_bot: StartBot, fake: FakeDiscord, data_dir: Path
) -> None:
    with FakeOpenAI() as hanging:
        hanging.default = Hang()
        root = {
            "data_dir": data_dir,
            "llm": {
                "provider": "openai_compatible",
                "base_url": hanging.base_url,
                "max_retries": 0,
            },
            "web": {"enabled": False},
            "pipeline": {"generate_timeout": 1.0},
        }
        await start_bot(root=root, answerer=build_answerer)
        await fake.user_says("How do I rotate an API key?", mention_bot=True)
        final = await fake.wait_call(
            "PATCH", r"/channels/\d+/messages/\d+", lambda c: bool(c.json.get("embeds")), within=60
        )
    content = final.json["content"]
    notes = [line for line in content.splitlines() if "did not answer within 1 s" in line]
    assert len(notes) == 1, content
    assert "click Rotate" in content, "the sources still answer"
    assert len([c for c in fake.message_calls() if c.method == "POST"]) == 1, "one answer"
