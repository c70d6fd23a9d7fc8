"""Fallbacks, long answers, failures and what model text may (not) do."""

from __future__ import annotations

import itertools
import json
import re

from bots.platforms.slack.render import STREAM_LIMIT
from citations.render.slack import BLOCKS_LIMIT, SECTION_TEXT_LIMIT
from pipeline.events import AnswerDelta, Done, Route, Status
from tests.slack.conftest import ANSWER, cited, mention


def spacing(calls) -> list[float]:
    return [b.at - a.at for a, b in itertools.pairwise(calls)]


async def test_stream_expiry_falls_back_to_throttled_chat_update(make_harness):
    async def slow_script(question):
        for piece in ("The answer is 42", "[1]", ". See the FAQ", "[2]", "."):
            yield AnswerDelta(piece)
        yield Done(ANSWER, Route.KNOWLEDGE_BASE)

    h = await make_harness(script=slow_script, stream_buffer=1, update_interval=0.3)
    h.fake.fail("chat.appendStream", "message_not_in_streaming_state", times=10)
    await h.event(mention(ts="10.0"))
    final = await h.fake.wait_for(
        lambda f: [c for c in f.called("chat.update") if c.params.get("blocks")]
    )

    stream_ts = h.fake.called("chat.startStream")[0]
    ts = next(m.ts for m in h.fake.messages.values() if m.thread_ts == "10.0")
    updates = h.fake.called("chat.update")
    assert {u.params["ts"] for u in updates} == {ts}
    assert all(gap >= 0.29 for gap in spacing(updates)), spacing(updates)
    assert stream_ts.params["thread_ts"] == "10.0"
    blocks = json.dumps(final[-1].params["blocks"])
    assert "docs.example.com/faq|FAQ" in blocks and "citebot_fb:" in blocks
    assert not h.fake.called("chat.postMessage")  # the streamed message is reused, not duplicated


async def test_streaming_unavailable_posts_one_message_then_edits(make_harness):
    h = await make_harness()
    h.fake.fail("chat.startStream", "unknown_method")
    await h.event(mention(ts="11.0"))
    # the first words are posted as soon as streaming is refused; the final render edits them
    await h.fake.wait_for(lambda f: [c for c in f.called("chat.update") if c.params.get("blocks")])
    await h.bot.drain()
    posts = h.fake.called("chat.postMessage")
    assert len(posts) == 1 and posts[0].params["thread_ts"] == "11.0"
    assert posts[0].params["unfurl_links"] is False
    (message,) = h.fake.in_thread("C111", "11.0")
    assert "The answer is 42" in json.dumps(message.blocks)


async def test_streaming_off_by_setting(make_harness):
    h = await make_harness(stream=False)
    await h.event(mention(ts="12.0"))
    await h.fake.wait_for(lambda f: [c for c in f.called("chat.update") if c.params.get("blocks")])
    assert not h.fake.called("chat.startStream")


def long_answer(paragraphs: int = 120):
    parts = tuple(
        (
            f"Paragraph P{i:03d} " + "lorem ipsum dolor sit amet " * 9 + ("\n\n" if i % 2 else ""),
            (i % 3 + 1,),
        )
        for i in range(paragraphs)
    )
    refs = tuple((f"Doc {n}", f"https://docs.example.com/{n}") for n in (1, 2, 3))
    return cited(*parts, refs=refs)


async def test_long_answer_is_split_within_limits_and_nothing_is_lost(make_harness):
    answer = long_answer()
    assert len(answer.text) > 2 * STREAM_LIMIT

    async def script(question):
        text = answer.text
        for i in range(0, len(text), 500):
            yield AnswerDelta(text[i : i + 500])
        yield Done(answer, Route.KNOWLEDGE_BASE)

    h = await make_harness(script=script, stream_buffer=2000, update_interval=0.0)
    await h.event(mention(ts="13.0"))
    await h.fake.wait_for(
        lambda f: any("citebot_fb:" in json.dumps(m.blocks) for m in f.in_thread("C111", "13.0"))
    )
    await h.bot.drain()

    streamed_chars = sum(
        len(chunk["text"])
        for c in h.fake.calls
        if c.method.endswith("Stream")
        for chunk in c.params.get("chunks") or []
    )
    assert streamed_chars <= STREAM_LIMIT
    messages = sorted(h.fake.in_thread("C111", "13.0"), key=lambda m: float(m.ts))
    assert len(messages) >= 3
    shown = ""
    for m in messages:
        assert len(m.blocks) <= BLOCKS_LIMIT
        for block in m.blocks:
            if block["type"] == "section":
                assert len(block["text"]["text"]) <= SECTION_TEXT_LIMIT
        shown += json.dumps(m.blocks)
    for i in range(120):
        assert f"P{i:03d}" in shown
    assert "citebot_fb:" in json.dumps(messages[-1].blocks)
    assert "docs.example.com/3|Doc 3" in json.dumps(messages[-1].blocks)


async def test_model_output_cannot_ping(make_harness):
    pings = "Hey <!channel> and @here, <!subteam^S123|@devs> and <@U999>, also @everyone"

    async def script(question):
        for piece in (
            "Hey <!chan",
            "nel> and @he",
            "re, <!subteam^S123|@devs> and <@U999>, also @every",
            "one",
        ):
            yield AnswerDelta(piece)
        yield Done(cited((pings, (1,))), Route.KNOWLEDGE_BASE)

    h = await make_harness(script=script, stream_buffer=1)
    await h.event(mention(ts="14.0"))
    await h.fake.wait_for("chat.stopStream")
    pattern = re.compile(r"<!(channel|here|everyone|subteam)|<@U999>|@(channel|here|everyone)\b")
    for call in h.fake.calls:
        if call.method.startswith("chat."):
            payload = json.dumps(call.params, ensure_ascii=False)
            assert not pattern.search(payload), (call.method, payload)


async def test_pipeline_failure_is_a_visible_error_and_clears_the_status(make_harness):
    async def broken(question):
        yield Status("Searching the knowledge base…")
        raise ConnectionError("LLM at http://127.0.0.1:9 refused the connection")

    h = await make_harness(script=broken)
    await h.event(mention(ts="15.0"))
    post = await h.fake.wait_for("chat.postMessage")
    assert post.params["thread_ts"] == "15.0"
    assert "Sorry" in json.dumps(post.params)
    cleared = await h.fake.wait_for(
        lambda f: [c for c in f.called("assistant.threads.setStatus") if c.params["status"] == ""]
    )
    assert cleared[0].at >= post.at
    assert "citebot_fb:" not in json.dumps(post.params)  # no votes on an error


async def test_failure_mid_stream_replaces_the_partial_answer_with_an_error(make_harness):
    async def dies(question):
        yield AnswerDelta("The answer starts")
        raise RuntimeError("boom")

    h = await make_harness(script=dies, stream_buffer=1)
    await h.event(mention(ts="16.0"))
    stop = await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    (message,) = h.fake.in_thread("C111", "16.0")
    assert stop.params["ts"] == message.ts and not message.streaming
    # a half answer without its sources is not left standing
    shown = json.dumps(message.blocks)
    assert "Sorry" in shown and "The answer starts" not in shown and message.edits == 1


async def test_slack_failures_still_end_in_a_visible_error(make_harness):
    h = await make_harness()
    h.fake.fail("chat.startStream", "internal_error")
    h.fake.fail("chat.postMessage", "internal_error")  # the fallback post fails too
    await h.event(mention(ts="17.0"))
    error = await h.fake.wait_for("chat.postMessage", count=2)
    assert "Sorry" in error.params["text"] and error.params["thread_ts"] == "17.0"
    await h.fake.wait_for(
        lambda f: [c for c in f.called("assistant.threads.setStatus") if c.params["status"] == ""]
    )
