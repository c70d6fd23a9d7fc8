"""Auto-reply channels on Slack: questions without a mention are answered, quietly.

A question is answered only when there is an answer; small talk, unanswerable
questions, messages addressed to someone else, replies in threads the bot is not
in and questions over the channel's auto-reply rate all leave the channel untouched.
"""

from __future__ import annotations

from bots.core.limits import MemoryLimiter
from bots.settings.sections import LimitSettings
from bots.testing.answerer import knows_only
from pipeline.question import Trigger
from tests.slack.conftest import Harness, default_script, mention, message

AUTO = {"channels": {"slack:*/C111": {"auto_reply": True}}}
SILENT = ("chat.postMessage", "chat.startStream", "chat.update", "assistant.threads.setStatus")


knows_keys_only = knows_only("key", default_script)


def posted_in(h: Harness, thread_ts: str) -> list[str]:
    return [
        c.method
        for c in h.fake.calls
        if c.method in SILENT and thread_ts in (c.params.get("thread_ts"), c.params.get("ts"))
    ]


async def answered(h: Harness, ts: str, channel: str = "C111") -> None:
    """Wait until the thread under ``ts`` shows a finished answer (with its vote buttons)."""
    await h.fake.wait_for(
        lambda f: any(m.blocks and not m.streaming for m in f.in_thread(channel, ts))
    )


async def test_an_auto_reply_channel_answers_questions_and_nothing_else(make_harness):
    h = await make_harness(script=knows_keys_only, root=AUTO)
    quiet = [
        message("thanks, see you tomorrow", ts="1.1"),  # small talk
        message("what is the parental leave policy?", ts="1.2"),  # no answer in the docs
        message("<@U999> how do I rotate the API key?", ts="1.3"),  # addressed to a person
        # a human's reply to a human, in a thread the bot never joined
        message("how do I rotate the API key?", ts="1.5", thread_ts="1.4", parent_user_id="U999"),
    ]
    for event in quiet:
        status, _, _ = await h.event(event)
        assert status == 200
    await h.event(message("how do I rotate the API key?", ts="1.6"))
    await answered(h, "1.6")
    await h.bot.drain()

    asked = [(q.text, q.trigger) for q in h.answerer.questions]
    assert asked == [
        ("what is the parental leave policy?", Trigger.AUTO_REPLY),
        ("how do I rotate the API key?", Trigger.AUTO_REPLY),
    ]
    for ts in ("1.1", "1.2", "1.3", "1.4", "1.5"):
        assert posted_in(h, ts) == [], f"the bot spoke in {ts}"
    # the unanswered question is kept for the knowledge-gaps list, though nobody saw it
    assert [a.question for a in h.store.answers(no_answer=True)] == [
        "what is the parental leave policy?"
    ]


async def test_other_channels_stay_mention_only(make_harness):
    h = await make_harness(root={"channels": {"slack:*/C999": {"auto_reply": True}}})
    await h.event(message("how do I rotate the API key?", ts="2.1"))
    await h.event(mention("how do I rotate the API key?", ts="2.2"))
    await answered(h, "2.2")
    await h.bot.drain()
    assert [q.trigger for q in h.answerer.questions] == [Trigger.MENTION]
    assert posted_in(h, "2.1") == []


async def test_a_mention_in_an_auto_reply_channel_is_answered_once(make_harness):
    h = await make_harness(root=AUTO)
    event = mention("how do I rotate the API key?", ts="3.1")
    await h.event(event)
    # Slack also delivers the same post as a message event
    await h.event({**event, "type": "message", "channel_type": "channel"})
    await answered(h, "3.1")
    await h.bot.drain()
    assert [q.trigger for q in h.answerer.questions] == [Trigger.MENTION]


async def test_auto_replies_are_rate_limited_per_channel_and_silently(make_harness):
    limits = LimitSettings(
        user_per_minute=0, channel_per_minute=0, auto_reply_per_minute=1, auto_reply_burst=1
    )
    channels = {"slack:*/C111": {"auto_reply": True}, "slack:*/C222": {"auto_reply": True}}
    h = await make_harness(
        root={"channels": channels}, runtime_kwargs={"limiter": MemoryLimiter(limits)}
    )
    await h.event(message("how do I rotate the API key?", ts="4.1"))
    await answered(h, "4.1")
    await h.event(message("how do I revoke an API key?", ts="4.2"))  # over C111's rate
    await h.event(message("how do I rotate the API key?", ts="4.3", channel="C222"))
    await answered(h, "4.3", channel="C222")
    await h.bot.drain()
    assert posted_in(h, "4.2") == [], "no 'please wait' noise in a busy channel"
    assert [q.text for q in h.answerer.questions] == [
        "how do I rotate the API key?",
        "how do I rotate the API key?",
    ]


async def test_a_name_pattern_finds_channels_by_their_name(make_harness):
    h = await make_harness(root={"channels": {"slack:*/#help-*": {"auto_reply": True}}})
    h.fake.channel_names["C222"] = "help-desk"
    await h.event(message("how do I rotate the API key?", ts="5.1"))  # C111 is #general
    await h.event(message("how do I rotate the API key?", ts="5.2", channel="C222"))
    await answered(h, "5.2", channel="C222")
    await h.bot.drain()
    assert [q.place.channel_name for q in h.answerer.questions] == ["help-desk"]
    assert posted_in(h, "5.1") == []
    # the name is read once and cached
    await h.event(message("how do I revoke an API key?", ts="5.3", channel="C222"))
    await answered(h, "5.3", channel="C222")
    assert len(h.fake.called("conversations.info")) == 2  # C111 and C222, once each


async def test_a_channel_can_make_slash_answers_ephemeral(make_harness):
    h = await make_harness(root={"channels": {"slack:*/C111": {"answers": "ephemeral"}}})
    status, body, _ = await h.command("what is the answer?")
    assert status == 200 and '"response_type":"ephemeral"' in body.replace(" ", "")
    call = await h.fake.wait_for("response_url:cmd")
    assert call.params["response_type"] == "ephemeral"
    assert not h.fake.called("chat.postMessage") and not h.fake.called("chat.startStream")


async def test_a_thread_the_bot_stayed_silent_in_is_not_its_thread(make_harness):
    h = await make_harness(script=knows_keys_only, root=AUTO)
    await h.event(message("what is the parental leave policy?", ts="6.1"))  # no answer
    await h.event(message("how do I rotate the API key?", ts="6.5"))
    await answered(h, "6.5")
    await h.bot.drain()
    # a colleague answers the asker under the question the bot left alone
    reply = message(
        "ask HR, they will know?", ts="6.2", thread_ts="6.1", parent_user_id="U222", user="U777"
    )
    await h.event(reply)
    await h.event(message("how do I revoke an API key?", ts="6.6"))
    await answered(h, "6.6")
    await h.bot.drain()
    assert posted_in(h, "6.1") == [], "the bot joined a thread it never answered in"
    assert [q.text for q in h.answerer.questions] == [
        "what is the parental leave policy?",
        "how do I rotate the API key?",
        "how do I revoke an API key?",
    ]
