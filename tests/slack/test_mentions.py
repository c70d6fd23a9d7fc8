"""Mentions, DMs and the Sources block, through real Bolt over HTTP."""

from __future__ import annotations

from bots.testing.slack_api import BOT_ID, TEAM
from pipeline.question import Trigger
from tests.slack.conftest import mention, message


async def test_mention_sets_status_then_streams_answer_with_sources(make_harness):
    h = await make_harness()
    status, _body, elapsed = await h.event(mention(ts="1700000000.000001"))
    assert status == 200 and elapsed < 1.0

    stop = await h.fake.wait_for("chat.stopStream")
    methods = [m for m in h.fake.methods() if m != "auth.test"]
    assert methods.index("assistant.threads.setStatus") < methods.index("chat.startStream")
    assert methods.index("chat.startStream") < methods.index("chat.stopStream")
    statuses = [c.params["status"] for c in h.fake.called("assistant.threads.setStatus")]
    assert "Searching the knowledge base…" in statuses

    start = h.fake.called("chat.startStream")[0].params
    assert start["channel"] == "C111" and start["thread_ts"] == "1700000000.000001"
    assert start["recipient_user_id"] == "U222" and start["recipient_team_id"] == TEAM

    streamed = h.fake.messages[start_ts(h)]
    assert streamed.markdown == "The answer is 42[1]. See the FAQ[2]."
    assert not streamed.streaming

    context = [b for b in stop.params["blocks"] if b["type"] == "context"]
    entries = [e["text"] for b in context for e in b["elements"]]
    assert "[1] <https://docs.example.com/guide?a=1&amp;b=2|Guide>" in entries
    assert "[2] <https://docs.example.com/faq|FAQ>" in entries
    question = h.answerer.questions[0]
    buttons = [b for b in stop.params["blocks"] if b["type"] == "actions"]
    assert buttons[0]["block_id"] == f"citebot_fb:{question.id}"

    assert question.text == "what is the answer?"
    assert question.trigger is Trigger.MENTION
    assert question.place.channel == "C111" and question.place.workspace == TEAM
    # the native stream carries the whole answer: nothing goes through chat.postMessage
    assert h.fake.called("chat.postMessage") == []


async def test_posted_answers_never_unfurl(make_harness):
    h = await make_harness(stream=False)
    await h.event(mention(ts="1700000000.000009"))
    await h.fake.wait_for("chat.update")
    await h.bot.drain()
    posts = h.fake.called("chat.postMessage")
    assert posts, "with streaming off the answer is posted, then edited"
    for call in posts:
        assert call.params.get("unfurl_links") in (False, "0", "false")
        assert call.params.get("unfurl_media") in (False, "0", "false")


def start_ts(h) -> str:
    return next(m.ts for m in h.fake.messages.values() if m.thread_ts == "1700000000.000001")


async def test_dm_is_answered_in_its_thread(make_harness):
    h = await make_harness()
    await h.event(
        message("how do I deploy?", ts="1700000100.000001", channel="D111", channel_type="im")
    )
    await h.fake.wait_for("chat.stopStream")
    start = h.fake.called("chat.startStream")[0].params
    assert start["channel"] == "D111" and start["thread_ts"] == "1700000100.000001"
    (question,) = h.answerer.questions
    assert question.trigger is Trigger.DM and question.text == "how do I deploy?"


async def test_edits_bots_and_joins_are_ignored(make_harness):
    h = await make_harness()
    ignored = [
        message("edited", ts="1.1", channel="D111", channel_type="im", subtype="message_changed"),
        message("joined", ts="1.2", channel="D111", channel_type="im", subtype="channel_join"),
        message("I am a bot", ts="1.3", channel="D111", channel_type="im", bot_id="BOTHER"),
        message("me", ts="1.4", channel="D111", channel_type="im", bot_id=BOT_ID, user="UBOT"),
        message("top-level chatter", ts="1.5"),
        mention("from a bot", ts="1.6", bot_id="BOTHER"),
    ]
    for event in ignored:
        status, _, _ = await h.event(event)
        assert status == 200
    # a real question afterwards proves the ignored ones were processed, not lost in flight
    await h.event(mention("the real one", ts="1.9"))
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert [q.text for q in h.answerer.questions] == ["the real one"]
    assert len(h.fake.called("chat.startStream")) == 1 and not h.fake.called("chat.postMessage")


async def test_other_bots_answered_when_enabled(make_harness):
    h = await make_harness(answer_bots=True)
    await h.event(mention("from a bot", ts="1.6", bot_id="BOTHER"))
    await h.fake.wait_for("chat.stopStream")
    assert h.answerer.questions[0].text == "from a bot"


async def test_disallowed_channel_and_workspace_are_ignored(make_harness):
    h = await make_harness(allowed_channels=["C999"])
    await h.event(mention(ts="2.1", channel="C111"))
    await h.bot.drain()
    assert h.answerer.questions == []
    assert [m for m in h.fake.methods() if m != "auth.test"] == []

    await h.event(mention(ts="2.2", channel="C999"))
    await h.fake.wait_for("chat.stopStream")
    assert len(h.answerer.questions) == 1


async def test_disallowed_workspace_is_ignored(make_harness):
    h = await make_harness(allowed_workspaces=["TOTHER"])
    await h.event(mention(ts="2.3"))
    await h.bot.drain()
    assert h.answerer.questions == []
    assert [m for m in h.fake.methods() if m != "auth.test"] == []


async def test_the_question_is_what_the_person_typed_without_who_it_addresses(make_harness):
    h = await make_harness()
    # Slack's message format: a colleague cc'd, a user group, a link as typed, escaped "&"/"<"
    text = (
        "<!subteam^S0614TZR7|@platform> is <https://docs.example.com/a?x=1&amp;y=2|our guide> "
        "right that `a &amp;&amp; b &lt; c` fails in <#C222|deploys>? cc <@U333|alice>"
    )
    await h.event(mention(text, ts="1700000200.000001"))
    await h.fake.wait_for("chat.stopStream")
    (question,) = h.answerer.questions
    assert question.text == "is our guide right that `a && b < c` fails in #deploys? cc"
