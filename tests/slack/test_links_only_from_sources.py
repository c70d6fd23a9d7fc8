"""Issue 13: every link in every payload sent to Slack, in flight or final, points at a source.

Hypothesis draws an answer full of links, bare URLs, pings and code and a split
of it into deltas; the real Bolt app streams it (native stream, and the
chat.update path) to the fake Slack, and every payload is read as a reader
would see it, the streamed text after each call included.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.app import build_answerer
from bots.settings import load_settings
from bots.testing.slack_api import Call
from citations import Source, resolve
from pipeline.events import AnswerDelta, Done, Route
from tests.citations.links import foreign_links, payload_texts, pings
from tests.citations.profiles import E2E, E2E_LLM
from tests.citations.scripted import CODE, NASTY, answers, model_texts
from tests.fakes.openai_server import FakeOpenAI
from tests.platforms.llm import (  # noqa: F401 - fixtures
    QUESTION,
    knowledge,
    knowledge_base,
    llm,
    script,
    settings_for,
)
from tests.platforms.llm import SOURCE_URLS as KB_URLS
from tests.slack.conftest import ANSWER, FAQ, GUIDE, mention

SOURCES = [Source(1, GUIDE, "Guide https://evil.example/title", "t"), Source(2, FAQ, "FAQ", "t")]
SOURCE_URLS = [s.url for s in SOURCES]
_ts = itertools.count(1)


def shown_in(calls: list[Call]) -> list[str]:
    """Everything the calls show, with the streamed text after each stream call."""
    shown: list[str] = []
    streamed = ""
    for call in calls:
        params = call.params
        if call.method in ("chat.startStream", "chat.appendStream", "chat.stopStream"):
            chunks = params.get("chunks") or []
            streamed += "".join(c.get("text", "") for c in chunks) + (
                params.get("markdown_text") or ""
            )
            shown.append(streamed)
        shown.extend(payload_texts(params.get("blocks") or []))
        shown.extend(str(params[key]) for key in ("text", "markdown_text") if params.get(key))
    return shown


async def ask_and_check(h: Any, text: str, ts: str, sources: list[str]) -> None:
    """Mention the bot, wait for the answer, and check every chat payload it sent."""
    before = len(h.fake.calls)
    await h.event(mention(text, ts=ts))
    await h.fake.wait_for(lambda f: len(f.calls) > before)
    await h.bot.drain()
    calls = [c for c in h.fake.calls[before:] if c.method.startswith("chat.")]
    assert calls, "nothing was sent"
    shown = shown_in(calls)
    assert foreign_links(shown, sources) == [], json.dumps(shown, ensure_ascii=False)
    assert pings(shown) == [], json.dumps(shown, ensure_ascii=False)


async def run_property(make_harness: Any, **slack: Any) -> None:
    case: dict[str, Any] = {}

    async def script(question: Any) -> Any:
        for part in case["parts"]:
            yield AnswerDelta(part)
        yield Done(resolve(case["text"], SOURCES), Route.KNOWLEDGE_BASE)

    h = await make_harness(script=script, update_interval=0.0, **slack)
    loop = asyncio.get_running_loop()

    async def one(text: str, parts: list[str]) -> None:
        case.update(text=text, parts=parts)
        await ask_and_check(h, "what is the answer?", f"{next(_ts)}.0", SOURCE_URLS)

    @E2E
    @given(answers(SOURCES))
    def check(case_: tuple[str, list[str]]) -> None:
        asyncio.run_coroutine_threadsafe(one(*case_), loop).result(timeout=30)

    await asyncio.to_thread(check)


async def test_streamed_answers_link_only_sources(make_harness: Any) -> None:
    await run_property(make_harness, stream_buffer=1)


async def test_edited_answers_link_only_sources(make_harness: Any) -> None:
    await run_property(make_harness, stream=False)


async def test_a_refused_final_edit_is_retried_then_posted_fresh(make_harness: Any) -> None:
    async def one_delta(question: Any) -> Any:
        yield AnswerDelta("The answer is 42")  # posted as a new message, never edited
        yield Done(ANSWER, Route.KNOWLEDGE_BASE)

    h = await make_harness(script=one_delta, stream=False, update_interval=0.0)
    h.fake.fail("chat.update", "internal_error", times=50)
    await h.event(mention(ts="77.0"))
    await h.fake.wait_for(
        lambda f: [c for c in f.called("chat.postMessage") if c.params.get("blocks")]
    )
    await h.bot.drain()
    finals = [c for c in h.fake.called("chat.update") if c.params.get("blocks")]
    assert len(finals) == 2  # the edit, and one retry
    posted = [c for c in h.fake.called("chat.postMessage") if c.params.get("blocks")]
    assert len(posted) == 1 and posted[0].params["thread_ts"] == "77.0"
    assert "The answer is 42" in json.dumps(posted[0].params["blocks"])


# -- through the fake LLM ------------------------------------------------------------


@pytest.mark.parametrize(
    "slack", [{"stream_buffer": 1}, {"stream": False}], ids=["stream", "edits"]
)
async def test_the_models_answer_through_the_fake_llm_links_only_sources(
    make_harness: Any,
    llm: FakeOpenAI,  # noqa: F811
    knowledge: Path,  # noqa: F811
    slack: dict[str, Any],
) -> None:
    case: dict[str, str] = {}
    script(llm, lambda: case["text"])
    pipeline = build_answerer(load_settings(**settings_for(knowledge, llm)))
    h = await make_harness(answerer=pipeline, update_interval=0.0, **slack)
    loop = asyncio.get_running_loop()

    async def one(text: str, chunk_chars: int) -> str:
        """What the thread shows at the end."""
        case["text"], llm.chunk_chars = text, chunk_chars
        ts = f"{next(_ts)}.0"
        await ask_and_check(h, QUESTION, ts, KB_URLS)
        return "\n".join(m.visible_text for m in h.fake.in_thread("C111", ts))

    @E2E_LLM
    @given(model_texts, st.integers(1, 9))
    def check(text: str, chunk_chars: int) -> None:
        asyncio.run_coroutine_threadsafe(one(text, chunk_chars), loop).result(timeout=60)

    await asyncio.to_thread(check)

    final = await one(NASTY, 3)
    assert llm.calls("Task: answer with citations"), "the real openai client asked the fake"
    for code in CODE:
        assert code in final, (code, final)
