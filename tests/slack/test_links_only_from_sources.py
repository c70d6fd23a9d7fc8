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
from typing import Any

from hypothesis import given

from bots.testing.slack_api import Call
from citations import Source, resolve
from pipeline.events import AnswerDelta, Done, Route
from tests.citations.links import foreign_links, payload_texts
from tests.citations.profiles import E2E
from tests.citations.scripted import answers
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
        before = len(h.fake.calls)
        await h.event(mention(ts=f"{next(_ts)}.0"))
        await h.fake.wait_for(lambda f: len(f.calls) > before)
        await h.bot.drain()
        calls = [c for c in h.fake.calls[before:] if c.method.startswith("chat.")]
        assert calls, "nothing was sent"
        shown = shown_in(calls)
        assert foreign_links(shown, SOURCE_URLS) == [], json.dumps(shown, ensure_ascii=False)

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
