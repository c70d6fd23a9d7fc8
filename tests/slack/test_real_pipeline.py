"""Slack end to end with no scripted parts: real Bolt, the real pipeline over a real
LanceDB store, and the real openai client streaming from the fake OpenAI-compatible server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bots.app import build_answerer
from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from bots.settings import load_settings
from pipeline import Pipeline
from tests.fakes.openai_server import Fail, FakeOpenAI
from tests.slack.conftest import MakeHarness, mention, message

DOC = """# API keys

## Rotating API keys

To rotate a key, open Settings › API keys and click Rotate next to the key. The old key keeps
working for 24 hours; after that it is revoked.
"""
URL = "https://docs.example.com/keys.md#rotating-api-keys"
GOOD = '{"grounded": true, "useful": true, "unsupported": []}'


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def pipeline_for(tmp_path: Path, openai: FakeOpenAI) -> Pipeline:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "keys.md").write_text(DOC, encoding="utf-8")
    env = {"CITEBOT_DATA_DIR": str(tmp_path / "kb")}
    ingested = CliRunner().invoke(
        cli, ["ingest", str(docs), "--url-base", "https://docs.example.com/"], env=env
    )
    assert ingested.exit_code == 0, ingested.output
    settings = load_settings(
        data_dir=str(tmp_path / "kb"),
        llm={
            "provider": "openai_compatible",
            "base_url": openai.base_url,
            "model": "fake",
            "max_retries": 0,
        },
        pipeline={"grader": "embedding"},
    )
    return build_answerer(settings)


async def test_a_mention_is_answered_by_the_real_pipeline(
    make_harness: MakeHarness, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.when(
        "Task: answer with citations",
        "Open Settings › API keys and click Rotate [1]. Ping @channel and <!here> now.",
    )
    fake_openai.when("Task: check an answer", GOOD)
    h = await make_harness(answerer=pipeline_for(tmp_path, fake_openai))
    status, _, elapsed = await h.event(
        mention("how do I rotate an API key?", ts="1700000001.000001")
    )
    assert status == 200 and elapsed < 1.0

    stop = await h.fake.wait_for("chat.stopStream", within=60)
    sent = json.dumps([c.params for c in h.fake.calls if c.method.startswith("chat.")])
    assert "click Rotate" in sent
    assert "<!here>" not in sent and "@channel" not in sent, "model output never pings"
    entries = [
        e["text"] for b in stop.params["blocks"] if b["type"] == "context" for e in b["elements"]
    ]
    assert any(URL in entry and entry.startswith("[1] <") for entry in entries)
    request = fake_openai.calls("Task: answer with citations")[0]
    assert request.body["stream"] is True and "docs.example.com" not in request.prompt


async def test_with_the_llm_down_the_user_still_gets_a_visible_answer(
    make_harness: MakeHarness, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.when("Task:", Fail(500))
    h = await make_harness(answerer=pipeline_for(tmp_path, fake_openai))
    await h.event(mention("how do I rotate an API key?", ts="1700000002.000001"))
    await h.fake.wait_for("chat.stopStream", within=60)
    # the note changes the answer under the stream, so the message is replaced by its render
    update = await h.fake.wait_for("chat.update", within=30)
    text = json.dumps(update.params["blocks"])
    assert "click Rotate" in text, "the knowledge base alone still answers"
    assert "language model" in text.lower() or "unavailable" in text.lower()
    assert URL in text, "the replaced message carries its Sources block"


async def test_an_auto_reply_channel_answers_only_what_the_docs_answer(
    make_harness: MakeHarness, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """Acceptance (issue 15): no mention needed for a question the docs answer; silence on
    small talk and on a question they do not."""
    fake_openai.when(
        "Task: answer with citations", "Open Settings › API keys and click Rotate [1]."
    )
    fake_openai.when("Task: check an answer", GOOD)
    h = await make_harness(
        answerer=pipeline_for(tmp_path, fake_openai),
        root={"channels": {"slack:*/C111": {"auto_reply": True}}},
    )
    chatter, uncovered, asked = "1700000002.000001", "1700000002.000002", "1700000002.000003"
    await h.event(message("thanks everyone, see you tomorrow", ts=chatter))
    await h.event(message("what is the parental leave policy for new parents?", ts=uncovered))
    await h.event(message("how do I rotate an API key?", ts=asked))

    def answer_in(fake: Any) -> Any:
        return next(
            (
                c
                for c in fake.calls
                if c.method in ("chat.postMessage", "chat.stopStream")
                and c.params.get("thread_ts") == asked
                and c.params.get("blocks")
            ),
            None,
        )

    final = await h.fake.wait_for(answer_in, within=60)
    await h.bot.drain()
    assert "click Rotate" in json.dumps(final.params)
    spoke = {
        c.params.get("thread_ts") or c.params.get("ts")
        for c in h.fake.calls
        if c.method.startswith(("chat.", "assistant."))
    }
    assert chatter not in spoke and uncovered not in spoke
    # the unanswered question is kept for the knowledge-gaps list, though nobody saw it
    gaps = [a.question for a in h.store.answers(no_answer=True)]
    assert gaps == ["what is the parental leave policy for new parents?"]
