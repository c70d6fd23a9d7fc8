"""The slash command: threaded and ephemeral answers, help, plugin commands."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from bots.plugins import ChatCommand, CommandOption, CommandReply, PluginContext
from pipeline.events import Done, Progress, Route
from pipeline.question import Question, Trigger
from tests.plugins.hosts import host_with
from tests.slack.conftest import cited


async def test_ask_acks_at_once_and_answers_in_a_thread_restating_the_question(make_harness):
    h = await make_harness()
    status, body, elapsed = await h.command("what is the answer?")
    assert status == 200 and body == "" and elapsed < 1.0

    await h.fake.wait_for("chat.stopStream")
    parent = h.fake.called("chat.postMessage")[0].params
    assert parent["channel"] == "C111" and "thread_ts" not in parent
    assert parent["text"] == "<@U222> asked: what is the answer?"
    parent_ts = next(m.ts for m in h.fake.messages.values() if m.thread_ts is None)
    start = h.fake.called("chat.startStream")[0].params
    assert start["thread_ts"] == parent_ts and start["recipient_user_id"] == "U222"
    (question,) = h.answerer.questions
    assert question.trigger is Trigger.SLASH and question.place.thread == parent_ts


async def test_ask_restatement_cannot_ping(make_harness):
    h = await make_harness()
    await h.command("<!channel> @here is the build broken?")
    await h.fake.wait_for("chat.stopStream")
    parent = h.fake.called("chat.postMessage")[0].params["text"]
    assert "<!channel>" not in parent and "@here" not in parent
    assert "channel" in parent and "is the build broken?" in parent


async def test_ask_ephemeral_answers_through_response_url(make_harness):
    h = await make_harness(slash_response="ephemeral")
    status, body, _ = await h.command("what is the answer?")
    assert status == 200
    ack = json.loads(body)
    assert ack["response_type"] == "ephemeral" and "what is the answer?" in ack["text"]

    call = await h.fake.wait_for("response_url:cmd")
    assert call.params["response_type"] == "ephemeral" and call.params["replace_original"] is True
    texts = json.dumps(call.params["blocks"])
    assert "The answer is 42" in texts and "docs.example.com/faq|FAQ" in texts
    assert not h.fake.called("chat.postMessage") and not h.fake.called("chat.startStream")


#: Slack's limit on a message's text; response_url takes five posts per command
SLACK_TEXT_LIMIT = 40_000


async def test_an_ephemeral_answer_too_long_for_five_posts_says_so(make_harness, caplog):
    # six times what one message holds, in paragraphs that each cite their own source
    paragraph = "word " * 1_000
    refs = tuple((f"Page {i}", f"https://docs.example.com/p{i}") for i in range(1, 61))
    parts = tuple((paragraph + "\n\n", (i % 60 + 1,)) for i in range(6 * SLACK_TEXT_LIMIT // 5_000))
    long = cited(*parts, refs=refs)

    async def script(question: Question) -> AsyncIterator[Progress]:
        yield Done(long, Route.KNOWLEDGE_BASE, question=question.text)

    h = await make_harness(script=script, slash_response="ephemeral")
    await h.command("what is everything?")
    await h.bot.drain()
    call = await h.fake.wait_for("response_url:cmd")
    posts = h.fake.called("response_url:cmd")
    # never a cut answer: its sources come last, so a cut would drop the footnotes' targets
    assert len(posts) == 1 and "too long" in call.params["text"] and "blocks" not in call.params
    assert any("at most 5" in r.getMessage() for r in caplog.records)


async def test_ask_without_text_shows_help(make_harness):
    h = await make_harness()
    status, body, _ = await h.command("")
    assert status == 200 and "/ask" in json.loads(body)["text"]
    assert h.answerer.questions == []


async def test_ask_in_a_disallowed_channel_says_so(make_harness):
    h = await make_harness(allowed_channels=["C999"])
    status, body, _ = await h.command("anything", channel="C111")
    assert status == 200 and "not enabled" in json.loads(body)["text"]
    await h.bot.drain()
    assert h.answerer.questions == []


async def test_ask_in_a_group_dm_obeys_allow_dms(make_harness):
    h = await make_harness(allow_dms=False)
    # Slack names a group DM's channel "mpdm-…" in the command's channel_name
    status, body, _ = await h.command(
        "what is the answer?", channel="G444", channel_name="mpdm-alice--bob--carol-1"
    )
    assert status == 200 and "not enabled" in json.loads(body)["text"]
    status, body, _ = await h.command(
        "what is the answer?", channel="D555", channel_name="directmessage"
    )
    assert status == 200 and "not enabled" in json.loads(body)["text"]
    await h.bot.drain()
    assert h.answerer.questions == []


async def test_ask_when_the_bot_is_not_in_the_channel(make_harness):
    h = await make_harness()
    h.fake.fail("chat.postMessage", "not_in_channel")
    await h.command("anything")
    call = await h.fake.wait_for("response_url:cmd")
    assert call.params["response_type"] == "ephemeral" and "/invite" in call.params["text"]
    assert h.answerer.questions == []


async def test_a_plugin_reply_links_only_what_it_writes_as_a_link(make_harness):
    async def status(ctx: PluginContext) -> CommandReply:
        return CommandReply(
            "See <https://status.example.com/> and [click](https://evil.example/x), "
            "https://evil.example/bare <!here>"
        )

    h = await make_harness(
        runtime_kwargs={"plugins": host_with(ChatCommand("status", "Status", status))}
    )
    await h.command("status")
    text = (await h.fake.wait_for("response_url:cmd")).params["text"]
    assert "<https://status.example.com/>" in text, "the link the plugin wrote works"
    assert "https://evil" not in text and "<!here>" not in text


async def test_ask_name_routes_to_a_plugin_command(make_harness):
    seen: list[PluginContext] = []

    async def glossary(ctx: PluginContext) -> CommandReply:
        seen.append(ctx)
        return CommandReply(f"{ctx.options['term']} means a lot <!channel>", ephemeral=False)

    command = ChatCommand(
        "glossary",
        "Look a term up",
        glossary,
        options=(
            CommandOption("term", "the term", required=True),
            CommandOption("limit", "how many", type="int"),
        ),
    )
    h = await make_harness(runtime_kwargs={"plugins": host_with(command)})
    status, _, _ = await h.command("glossary vector store")
    assert status == 200
    call = await h.fake.wait_for("response_url:cmd")
    assert call.params["response_type"] == "in_channel"
    assert call.params["text"].startswith("vector store means a lot")
    assert "<!channel>" not in call.params["text"]
    assert seen[0].options["term"] == "vector store" and seen[0].user == "U222"
    assert seen[0].place.channel == "C111"
    assert h.answerer.questions == []  # not treated as a question

    await h.command("glossary term=rag limit=many")
    bad = await h.fake.wait_for("response_url:cmd", count=2)
    assert bad.params["response_type"] == "ephemeral" and "limit" in bad.params["text"]

    # an unknown first word is an ordinary question
    await h.command("glossaries are nice?")
    await h.fake.wait_for("chat.stopStream")
    assert h.answerer.questions[0].text == "glossaries are nice?"


async def test_words_after_an_option_less_command_make_a_question(make_harness):
    async def stats(ctx: PluginContext) -> CommandReply:
        return CommandReply("3 sources")

    h = await make_harness(
        runtime_kwargs={"plugins": host_with(ChatCommand("sources", "List", stats))}
    )
    await h.command("sources")
    assert (await h.fake.wait_for("response_url:cmd")).params["text"] == "3 sources"
    await h.command("sources of revenue?")
    await h.fake.wait_for("chat.stopStream")
    assert [q.text for q in h.answerer.questions] == ["sources of revenue?"]
