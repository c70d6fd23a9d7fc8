"""Signatures, redeliveries, the mention+message pair, rate limits."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest

from bots.ops import metrics
from bots.testing.slack_api import BOT_USER
from tests.slack.conftest import envelope, mention, message, sign

DEEP = "[" * 100_000 + "]" * 100_000
JUNK = {
    "non-object JSON": ("[1, 2, 3]", "application/json"),
    "null": ("null", "application/json"),
    "deep nesting": (DEEP, "application/json"),
    "not JSON": ("{not json", "application/json"),
    "not UTF-8": ("\udcff", "application/json"),
    "form payload not an object": ("payload=%5B1%5D", "application/x-www-form-urlencoded"),
    # Bolt reads the last of several payloads, and an empty one as JSON too
    "two form payloads": (
        "payload=%7B%22type%22%3A%22block_actions%22%7D&payload=%5B1%5D",
        "application/x-www-form-urlencoded",
    ),
    "empty form payload": ("payload=", "application/x-www-form-urlencoded"),
    "event not an object": (
        json.dumps({"type": "event_callback", "event_id": "Ev1", "event": "x"}),
        "application/json",
    ),
    # Bolt reads a body that starts with "{" as JSON whatever the content type says
    "JSON event sent as text": (
        json.dumps({"type": "event_callback", "event_id": "Ev1", "event": [1, 2]}),
        "text/plain",
    ),
    # Bolt reads the channel and the user before any listener runs, and a number breaks it
    "event channel a number": (
        json.dumps({"type": "event_callback", "event_id": "Ev1", "event": {"channel": 7}}),
        "application/json",
    ),
    "action user a number": (
        'payload={"type":"block_actions","user":7}',
        "application/x-www-form-urlencoded",
    ),
}


def rejected(reason: str) -> float:
    return metrics.ERRORS.labels(f"slack_{reason}")._value.get()


def no_tracebacks(caplog: pytest.LogCaptureFixture, requests: int) -> None:
    noted = [r for r in caplog.records if r.name.startswith(("citebot", "slack_bolt"))]
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    warnings = [r for r in noted if r.levelno >= logging.WARNING]
    assert len(warnings) == requests  # one line per request, no more


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
    assert status == 400
    status, _, _ = await h.post(
        json.dumps(envelope({"type": "app_mention"}, "EvBAD")), "application/json"
    )
    assert status == 200  # acked; the malformed event is dropped, not crashed on
    await h.bot.drain()
    assert h.answerer.questions == []


@pytest.mark.parametrize("name", sorted(JUNK))
async def test_unsigned_junk_is_401_before_parsing(make_harness, caplog, name):
    h = await make_harness()
    body, content_type = JUNK[name]
    raw = body.encode("utf-8", "surrogatepass")
    before = rejected("unsigned")
    caplog.set_level(logging.INFO)
    headers = [
        {"Content-Type": content_type},  # no signature at all
        {"Content-Type": content_type, **sign("other body")},  # signed, not this body
        {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": "soon",
            "X-Slack-Signature": "v0=1",
        },
        {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": "１２３",
            "X-Slack-Signature": "v0=1",
        },
    ]
    for header in headers:
        async with h.session.post(h.url, data=raw, headers=header) as response:
            assert response.status == 401
    assert rejected("unsigned") - before == len(headers)
    no_tracebacks(caplog, len(headers))
    await h.bot.drain()
    assert h.answerer.questions == []


@pytest.mark.parametrize("name", sorted(set(JUNK) - {"not UTF-8"}))
async def test_signed_malformed_envelope_is_400(make_harness, caplog, name):
    h = await make_harness()
    body, content_type = JUNK[name]
    before = rejected("malformed")
    caplog.set_level(logging.INFO)
    status, _, _ = await h.post(body, content_type)
    assert status == 400
    assert rejected("malformed") - before == 1
    no_tracebacks(caplog, 1)
    await h.bot.drain()
    assert h.answerer.questions == []


async def test_signed_well_formed_requests_still_pass(make_harness):
    h = await make_harness()
    status, _, _ = await h.event(mention(ts="5.5"))
    assert status == 200
    status, _, _ = await h.command("what is the answer?")
    assert status == 200
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert [q.text for q in h.answerer.questions] == ["what is the answer?"] * 2


def _without(event: dict[str, object], key: str) -> dict[str, object]:
    return {k: v for k, v in event.items() if k != key}


#: signed, well-formed envelopes whose event no listener can read
ODD_EVENTS = {
    "mention without ts": _without(mention(ts="8.1"), "ts"),
    "DM without ts": _without(message("hi?", ts="8.2", channel="D1", channel_type="im"), "ts"),
    "mention with object text": {**mention(ts="8.3"), "text": {"a": 1}},
    "DM with number text": {**message("x", ts="8.4", channel="D1", channel_type="im"), "text": 12},
    "reply with number thread_ts": {**message("and then?", ts="8.5"), "thread_ts": 8.1},
}


@pytest.mark.parametrize("name", sorted(ODD_EVENTS))
async def test_a_malformed_event_is_dropped_with_one_line(make_harness, caplog, name):
    h = await make_harness()
    caplog.set_level(logging.INFO)
    status, _, _ = await h.event(ODD_EVENTS[name])
    assert status == 200  # acked, so Slack does not retry it
    # the next good event is answered: the odd one was handled before it, without a crash
    await h.event(mention(ts="8.9"))
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert [q.text for q in h.answerer.questions] == ["what is the answer?"]
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    noted = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(noted) == 1 and "malformed Slack" in noted[0], noted
