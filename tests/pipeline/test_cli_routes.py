"""Acceptance for the corrective pipeline through the CLI: ``citebot ask --json`` with the
real openai client against the fake OpenAI-compatible server and tavily-python against the
fake Tavily, over a knowledge base ingested with ``citebot ingest``."""

from __future__ import annotations

import gc
import json
import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from tests.fakes.openai_server import FakeOpenAI
from tests.fakes.tavily_server import FakeTavily
from tests.pipeline.test_end_to_end import DOCS, GOOD, KEYS_URL, WEB_URL, grades, web_pages


@pytest.fixture
def env(tmp_path: Path, fake_openai: FakeOpenAI, fake_tavily: FakeTavily) -> dict[str, str]:
    docs = tmp_path / "docs"
    for name, text in DOCS.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    variables = {
        "CITEBOT_DATA_DIR": str(tmp_path / "data"),
        "CITEBOT_LLM__PROVIDER": "openai_compatible",
        "CITEBOT_LLM__BASE_URL": fake_openai.base_url,
        "CITEBOT_LLM__MODEL": "fake",
        "CITEBOT_LLM__MAX_RETRIES": "0",
        "CITEBOT_WEB__TAVILY_API_KEY": "tvly-test",
        "CITEBOT_WEB__BASE_URL": fake_tavily.url,
        "CITEBOT_PIPELINE__GRADER": "llm",
        "CITEBOT_PLUGINS__ENTRY_POINTS": "false",
    }
    result = CliRunner().invoke(
        cli, ["ingest", str(docs), "--url-base", "https://docs.example.com/"], env=variables
    )
    assert result.exit_code == 0, result.output
    return variables


def ask(env: dict[str, str], question: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["ask", "--json", question], env=env)
    assert result.exit_code == 0, result.output
    payload: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return payload


def test_routes_knowledge_base_web_and_mixed(
    env: dict[str, str], fake_openai: FakeOpenAI, fake_tavily: FakeTavily
) -> None:
    fake_tavily.default(web_pages())
    fake_openai.when("Task: check an answer", GOOD)
    fake_openai.when("Task: rewrite for web search", "API key rotation")

    fake_openai.when(
        "Task: grade relevance", grades({"click Rotate next to the key": 0.93}), times=4
    )
    fake_openai.when(
        "Task: answer with citations", "Click Rotate in Settings › API keys [1].", times=1
    )
    clear = ask(env, "How do I rotate an API key?")
    assert clear["route"] == "knowledge_base"
    assert clear["references"] == [
        {"number": 1, "url": KEYS_URL, "title": "API keys › Rotating API keys"}
    ]
    assert fake_tavily.requests == []

    fake_openai.reset()
    fake_openai.when("Task: check an answer", GOOD)
    fake_openai.when("Task: rewrite for web search", "API key rotation frequency")
    fake_openai.when("Task: grade relevance", grades({}, default=0.1))
    fake_openai.when("Task: answer with citations", "Rotate API keys at least every 90 days [1].")
    web = ask(env, "How often should API keys be rotated?")
    assert web["route"] == "web"
    assert [r["url"] for r in web["references"]] == [WEB_URL]  # type: ignore[union-attr,index]
    assert web["answer"] == "Rotate API keys at least every 90 days [1]."

    fake_openai.reset()
    fake_openai.when("Task: check an answer", GOOD)
    fake_openai.when("Task: rewrite for web search", "API key rotation")
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.5}))
    fake_openai.when(
        "Task: answer with citations",
        "Click Rotate in Settings › API keys [1]. Rotate keys at least every 90 days [2].",
    )
    mixed = ask(env, "How and how often do I rotate API keys?")
    assert mixed["route"] == "mixed"
    assert [r["url"] for r in mixed["references"]] == [KEYS_URL, WEB_URL]  # type: ignore[union-attr,index]


@pytest.mark.parametrize("fake_openai", ["vllm"], indirect=True)
def test_ask_against_vllm_gives_a_checked_answer_with_no_note(
    env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.93}))
    fake_openai.when("Task: answer with citations", "Click Rotate in Settings › API keys [1].")
    fake_openai.when("Task: check an answer", GOOD)
    result = CliRunner().invoke(
        cli, ["ask", "--json", "--trace", "How do I rotate an API key?"], env=env
    )

    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout.strip().splitlines()[-1])
    assert payload["answer"] == "Click Rotate in Settings › API keys [1]."
    assert "warnings" not in payload and "error" not in payload
    check = [d for d in payload["trace"] if d["stage"] == "check"]
    assert check and check[-1]["data"]["grounded"] is True
    assert [r.rejected for r in fake_openai.requests] == [None] * len(fake_openai.requests)


@pytest.mark.parametrize("fake_openai", ["vllm"], indirect=True)
def test_a_rejected_request_prints_no_traceback_below_debug(
    env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    # tools mode on a vLLM started without --enable-auto-tool-choice: every structured call
    # is a 400. pytest's own log handlers are set aside so that the CLI's logging set-up
    # (-v: INFO) is what prints, as in a terminal.
    fake_openai.when("Task: answer with citations", "Click Rotate in Settings › API keys [1].")
    variables = {**env, "CITEBOT_LLM__STRUCTURED": "tools"}
    # openai's client closes itself on garbage collection by scheduling aclose() on whatever
    # loop is running then; a client an earlier test left behind would log that failure into
    # this test's output. Collect it now, while no loop runs, so the output is this run's own.
    gc.collect()
    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    root.handlers.clear()
    try:
        result = CliRunner().invoke(
            cli, ["-v", "ask", "How do I rotate an API key?"], env=variables
        )
    finally:
        root.handlers[:] = saved
        root.setLevel(level)
    output = result.output

    assert result.exit_code == 0, output
    assert any(r.rejected for r in fake_openai.requests)
    assert "LLM check failed" in output, "INFO logging is on, and names the failure"
    assert "Traceback" not in output
    assert "the model rejected the request (400)" in output
    assert "unavailable" not in output
