"""Thread follow-ups without a mention, answered with the thread's history."""

from __future__ import annotations

from bots.testing.slack_api import BOT_ID, BOT_USER
from pipeline.question import Trigger, Turn
from tests.slack.conftest import mention, message


def thread(parent_ts: str, *replies: dict) -> list[dict]:
    return [
        {"user": "U222", "text": f"<@{BOT_USER}> what is the answer?", "ts": parent_ts},
        *replies,
    ]


async def test_plain_reply_in_an_answered_thread_uses_the_history(make_harness):
    h = await make_harness()
    await h.event(mention(ts="5.0"))
    await h.fake.wait_for("chat.stopStream")

    h.fake.threads[("C111", "5.0")] = thread(
        "5.0",
        {"bot_id": BOT_ID, "user": BOT_USER, "text": "The answer is 42[1].", "ts": "5.1"},
        {"user": "U222", "text": "and in French?", "ts": "5.2", "thread_ts": "5.0"},
    )
    await h.event(message("and in French?", ts="5.2", thread_ts="5.0"))
    await h.fake.wait_for("chat.stopStream", count=2)

    question = h.answerer.questions[1]
    assert question.trigger is Trigger.THREAD_FOLLOWUP
    assert question.text == "and in French?"
    assert question.history == (
        Turn("user", "what is the answer?"),
        Turn("assistant", "The answer is 42[1]."),
    )
    replies = h.fake.called("conversations.replies")[-1].params
    assert replies["channel"] == "C111" and replies["ts"] == "5.0"
    start = h.fake.called("chat.startStream")[1].params
    assert start["thread_ts"] == "5.0"


async def test_unknown_thread_where_the_bot_replied_is_found_by_reading_it(make_harness):
    h = await make_harness()  # e.g. after a restart: nothing in memory
    h.fake.threads[("C111", "6.0")] = thread(
        "6.0", {"bot_id": BOT_ID, "text": "earlier answer", "ts": "6.1"}
    )
    await h.event(message("more please", ts="6.2", thread_ts="6.0"))
    await h.fake.wait_for("chat.stopStream")
    assert h.answerer.questions[0].history[-1] == Turn("assistant", "earlier answer")


async def test_threads_the_bot_is_not_in_are_left_alone(make_harness):
    h = await make_harness()
    h.fake.threads[("C111", "7.0")] = [
        {"user": "U222", "text": "team chat", "ts": "7.0"},
        {"user": "U333", "text": "reply", "ts": "7.1"},
    ]
    await h.event(message("just chatting", ts="7.2", thread_ts="7.0"))
    await h.event(mention("the real one", ts="7.9"))
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert [q.text for q in h.answerer.questions] == ["the real one"]


async def test_followups_can_be_switched_off(make_harness):
    h = await make_harness(followups=False)
    await h.event(mention(ts="8.0"))
    await h.fake.wait_for("chat.stopStream")
    await h.event(message("and then?", ts="8.2", thread_ts="8.0"))
    await h.bot.drain()
    assert len(h.answerer.questions) == 1


async def test_history_respects_the_token_budget(make_harness):
    h = await make_harness()
    h.bot.runtime.settings.pipeline.history_tokens = 30  # the one budget, shared with Discord
    long = "x" * 200
    h.fake.threads[("C111", "9.0")] = thread(
        "9.0",
        {"user": "U222", "text": long, "ts": "9.1"},
        {"bot_id": BOT_ID, "text": "short answer", "ts": "9.2"},
        {"user": "U222", "text": "newest question", "ts": "9.3"},
    )
    await h.event(message("newest question", ts="9.3", thread_ts="9.0"))
    await h.fake.wait_for("chat.stopStream")
    assert h.answerer.questions[0].history == (Turn("assistant", "short answer"),)
