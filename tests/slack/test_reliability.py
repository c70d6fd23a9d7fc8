"""Signatures, redeliveries, the mention+message pair, rate limits."""

from __future__ import annotations

import asyncio
import json
import time

from bots.testing.slack_api import BOT_USER
from tests.slack.conftest import envelope, mention, message


async def test_bad_signature_is_401(make_harness):
    h = await make_harness()
    status, _, _ = await h.event(mention(ts="3.1"), secret="not-the-secret")
    assert status == 401
    await h.bot.drain()
    assert h.answerer.questions == []


async def test_stale_timestamp_is_401(make_harness):
    h = await make_harness()
    status, _, _ = await h.event(mention(ts="3.2"), timestamp=int(time.time()) - 600)
    assert status == 401
    await h.bot.drain()
    assert h.answerer.questions == []


async def test_retry_with_same_event_id_is_answered_once(make_harness):
    h = await make_harness()
    event = mention(ts="3.3")
    first, _, _ = await h.event(event, event_id="EvRETRY")
    retries = [
        await h.event(
            event,
            event_id="EvRETRY",
            headers={"X-Slack-Retry-Num": str(n), "X-Slack-Retry-Reason": "http_timeout"},
        )
        for n in (1, 2, 3)
    ]
    assert first == 200
    assert [(status, body) for status, body, _ in retries] == [(200, "")] * 3
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert len(h.answerer.questions) == 1
    assert len(h.fake.called("chat.startStream")) == 1


async def test_concurrent_redeliveries_are_answered_once(make_harness):
    h = await make_harness()
    event = mention(ts="3.4")
    results = await asyncio.gather(*(h.event(event, event_id="EvBURST") for _ in range(10)))
    assert {status for status, _, _ in results} == {200}
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert len(h.answerer.questions) == 1


async def test_mention_and_message_for_one_post_answered_once(make_harness):
    h = await make_harness()
    # the bot answered this thread before, so both the app_mention and the message event qualify
    await h.event(mention("first", ts="4.0"))
    await h.fake.wait_for("chat.stopStream")

    text = f"<@{BOT_USER}> and a follow-up"
    pair = [
        mention("and a follow-up", ts="4.5", thread_ts="4.0"),
        message(text, ts="4.5", thread_ts="4.0"),
    ]
    results = await asyncio.gather(*(h.event(e) for e in pair))
    assert [status for status, _, _ in results] == [200, 200]
    await h.fake.wait_for("chat.stopStream", count=2)
    await h.bot.drain()
    assert [q.text for q in h.answerer.questions] == ["first", "and a follow-up"]
    assert len(h.fake.called("chat.startStream")) == 2


async def test_top_level_mention_with_message_event_answered_once(make_harness):
    h = await make_harness()
    text = f"<@{BOT_USER}> hello"
    for event in (message(text, ts="4.7"), mention("hello", ts="4.7")):
        await h.event(event)
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert len(h.answerer.questions) == 1


async def test_rate_limited_call_is_retried_after_retry_after(make_harness):
    h = await make_harness()
    h.fake.rate_limit("chat.startStream", retry_after=1)
    await h.event(mention(ts="4.9"))
    await h.fake.wait_for("chat.stopStream")
    starts = h.fake.called("chat.startStream")
    assert len(starts) == 2
    assert starts[1].at - starts[0].at >= 0.9
    assert h.fake.messages[next(iter(m for m in h.fake.messages))].markdown.startswith(
        "The answer is 42"
    )


async def test_url_verification_and_malformed_body(make_harness):
    h = await make_harness()
    body = json.dumps({"type": "url_verification", "challenge": "abc123", "token": "x"})
    status, text, _ = await h.post(body, "application/json")
    assert status == 200 and "abc123" in text
    status, _, _ = await h.post("{not json", "application/json")
    assert status in (400, 401, 404)
    status, _, _ = await h.post(
        json.dumps(envelope({"type": "app_mention"}, "EvBAD")), "application/json"
    )
    assert status == 200  # acked; the malformed event is dropped, not crashed on
    await h.bot.drain()
    assert h.answerer.questions == []
