"""Long answers, failures, feedback clicks and plugin commands, end to end."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bots.platforms.discord.chat_commands import _chunks
from bots.plugins import ChatCommand, CommandReply, PluginContext
from bots.plugins.manager import PluginHost
from bots.settings.sections import PluginSettings
from bots.testing.discord_api import USER_ID, FakeDiscord
from connectors.errors import ServiceError
from pipeline.events import Done, Progress, Route, Status
from pipeline.question import Question
from tests.discord.conftest import GUIDE, StartBot, cited, streamed
from tests.plugins.hosts import host_with

EDIT = r"/channels/\d+/messages/\d+"


async def test_long_answer_continues_in_more_messages(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    sentence = "Keys rotate every ninety days and the platform team owns the schedule"
    long = cited(*[(f" {sentence} ({i})", (1,)) for i in range(70)], (".", ()), sources=(GUIDE,))
    assert len(long.text) > 4500
    h.answerer.script = lambda q: streamed(q, long)
    question = await fake.user_says("tell me everything", mention_bot=True)
    thread = question["id"]

    last = await fake.wait_call(
        "POST", rf"/channels/{thread}/messages", lambda c: bool(c.json.get("embeds"))
    )

    posts = fake.find("POST", rf"/channels/{thread}/messages")
    first_edit = [c for c in fake.find("PATCH", rf"/channels/{thread}/messages/\d+")][-1]
    parts = [first_edit.json["content"]] + [p.json["content"] for p in posts[1:]]
    assert len(parts) >= 3
    assert all(0 < len(p) <= 2000 for p in parts), [len(p) for p in parts]
    assert "".join(parts).count("[[1]](<https://docs.example.com/guide#keys>)") == 70, (
        "no marker broken"
    )
    assert not first_edit.json.get("embeds") and not first_edit.json.get("components")
    assert (
        last is posts[-1]
        and last.json["embeds"][0]["title"] == "Sources"
        and last.json["components"]
    )
    assert all(c.json["allowed_mentions"]["parse"] == [] for c in posts)


async def test_streamed_preview_never_exceeds_the_limit(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(edit_interval=0.02)
    long = cited(*[(" word" * 20, (1,)) for _ in range(40)], sources=(GUIDE,))
    h.answerer.script = lambda q: streamed(q, long, pause=0.002)
    await fake.user_says("stream a lot", mention_bot=True)
    await fake.wait_call("POST", r"/channels/\d+/messages", lambda c: bool(c.json.get("embeds")))
    sent = fake.message_calls()
    assert any(c.json.get("content", "").startswith("…") for c in sent), (
        "the preview showed the newest text"
    )
    assert all(len(c.json.get("content", "")) <= 2000 for c in sent)


async def test_llm_down_shows_a_visible_error(
    start_bot: StartBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    h = await start_bot()

    async def down(q: Question) -> AsyncIterator[Progress]:
        yield Status("Writing the answer…")
        raise ServiceError("the LLM at http://127.0.0.1:9/v1 refused the connection")

    h.answerer.script = down
    await fake.user_says("anyone home?", mention_bot=True)
    final = await fake.wait_call("PATCH", EDIT, lambda c: "Sorry" in c.json.get("content", ""))
    assert final.json["content"].startswith("⚠️ Sorry, something went wrong")
    assert not final.json.get("components"), "no feedback on an error"
    assert "127.0.0.1:9" not in final.json["content"], "internals stay in the log"
    assert h.store.stats().answers == 0


async def test_failure_inside_the_adapter_replaces_the_placeholder(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()

    async def broken(q: Question) -> AsyncIterator[Progress]:
        yield Status("Searching the knowledge base…")
        yield Done(answer=None, route=Route.KNOWLEDGE_BASE)  # type: ignore[arg-type]  # unrenderable

    h.answerer.script = broken
    await fake.user_says("break it", mention_bot=True)
    final = await fake.wait_call("PATCH", EDIT, lambda c: "Sorry" in c.json.get("content", ""))
    assert final.json["content"].startswith("⚠️")


async def test_feedback_click_is_stored_and_acknowledged_privately(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    await fake.user_says("keys?", mention_bot=True)
    final = await fake.wait_call("PATCH", EDIT, lambda c: bool(c.json.get("components")))
    answer = fake.get_message(final.path.rsplit("/", 1)[1])
    qid = h.answerer.questions[0].id

    await fake.click(answer, f"citebot:vote:up:{qid}")
    ack = await fake.wait_call("POST", r"/interactions/\d+/[^/]+/callback")
    assert ack.json["type"] == 4 and ack.json["data"]["flags"] & 64
    assert ack.json["data"]["allowed_mentions"]["parse"] == []
    votes = h.store.votes(qid)
    assert [(v.user, v.vote, v.platform, v.question) for v in votes] == [
        (str(USER_ID), "up", "discord", "keys?")
    ]
    assert votes[0].references[0]["url"] == "https://docs.example.com/guide#keys"

    # a restart: a new process knows nothing of the message, the custom_id is enough
    await h.stop()
    h2 = await start_bot()
    await fake.click(answer, f"citebot:vote:down:{qid}")
    await fake.wait_for(lambda: len(fake.find("POST", r"/interactions/\d+/[^/]+/callback")) == 2)
    assert [v.vote for v in h2.store.votes(qid)] == ["down"], "the second vote replaced the first"


async def test_plugin_commands_become_typed_app_commands(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    host = PluginHost(PluginSettings(load=["citebot_example_plugin"]))
    h = await start_bot(plugins=host)
    assert "glossary" in h.bot.plugin_commands
    synced = {c["name"]: c for c in fake.commands["global"]}
    assert set(synced) >= {"ask", "glossary"}
    options = {o["name"]: o for o in synced["glossary"]["options"]}
    assert options["term"]["type"] == 3 and options["term"]["required"]
    assert options["related"]["type"] == 4 and options["public"]["type"] == 5
    assert [c["value"] for c in options["lang"]["choices"]] == ["en", "de"]

    await fake.slash("glossary", {"term": "RAG", "related": 1})
    reply = await fake.wait_call("POST", r"/interactions/\d+/[^/]+/callback")
    assert reply.json["type"] == 4 and reply.json["data"]["flags"] & 64
    assert reply.json["data"]["content"].startswith("*rag*: Retrieval-augmented generation")
    assert "See also: crag" in reply.json["data"]["content"]

    await fake.slash("glossary", {"term": "rag", "public": True})
    await fake.wait_for(lambda: len(fake.find("POST", r"/interactions/\d+/[^/]+/callback")) == 2)
    public = fake.find("POST", r"/interactions/\d+/[^/]+/callback")[1]
    assert not public.json["data"].get("flags", 0) & 64


async def test_a_slow_public_plugin_reply_stays_public(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    release = asyncio.Event()

    async def status(context: PluginContext) -> CommandReply:
        await release.wait()  # slower than the interaction's first response may be
        return CommandReply("The build is green.", ephemeral=False)

    await start_bot(plugins=host_with(ChatCommand("status", "Build status.", status)))
    interaction = await fake.slash("status", {})
    deferred = await fake.wait_call("POST", r"/interactions/\d+/[^/]+/callback", within=10)
    assert deferred.json["type"] == 5  # "thinking…", private
    release.set()
    await fake.wait_call("DELETE", r"/webhooks/\d+/[^/]+/messages/@original")
    shown = fake.messages.get(interaction.channel_id, [])
    assert [m["content"] for m in shown] == ["The build is green."]
    assert not shown[0]["flags"] & 64, "the reply everyone should see is private"


#: Discord's limit on a message's content
DISCORD_CONTENT_LIMIT = 2000


async def test_a_long_plugin_reply_is_cut_between_words_never_in_a_link(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    link = "https://docs.example.com/a/long/path/to/document-number-048"

    async def listing(context: PluginContext) -> CommandReply:
        # the link would start 50 characters before the limit: it goes whole to the next
        return CommandReply("x" * 1950 + f" <{link}> and more words", ephemeral=False)

    await start_bot(plugins=host_with(ChatCommand("listing", "A long listing.", listing)))
    interaction = await fake.slash("listing", {})
    await fake.wait_for(lambda: len(fake.messages.get(interaction.channel_id, [])) == 2)
    shown = [m["content"] for m in fake.messages[interaction.channel_id]]
    assert all(len(text) <= DISCORD_CONTENT_LIMIT for text in shown)
    assert shown[1].startswith(f"<{link}>"), shown[1][:80]
    assert all(text.count("<") == text.count(">") for text in shown)


def test_an_empty_plugin_reply_is_shown_as_done() -> None:
    # Discord refuses a message without content (50006)
    assert _chunks(CommandReply("")) == ["Done."]


async def test_a_plugin_reply_links_only_what_it_writes_as_a_link(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    async def status(context: PluginContext) -> CommandReply:
        # a plugin passes on text it did not write: a title, a ticket's summary
        return CommandReply(
            "See <https://status.example.com/> and [click](https://evil.example/x), "
            "https://evil.example/bare, `run --limit:<int>`",
            ephemeral=False,
        )

    await start_bot(plugins=host_with(ChatCommand("status", "Status.", status)))
    interaction = await fake.slash("status", {})
    await fake.wait_for(lambda: fake.messages.get(interaction.channel_id))
    (text,) = [m["content"] for m in fake.messages[interaction.channel_id]]
    assert "<https://status.example.com/>" in text
    assert "](https://evil" not in text and "https://evil" not in text
    assert "`run --limit:<int>`" in text, "code is copied as written"


async def test_without_message_content_the_intent_is_off_and_logged_once(
    start_bot: StartBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="citebot.discord")
    await start_bot(message_content=False)
    assert not fake.intents & (1 << 15)
    warnings = [r for r in caplog.records if "MESSAGE_CONTENT" in r.getMessage()]
    assert len(warnings) == 1 and "@mention" in warnings[0].getMessage()


async def test_message_content_intent_is_requested_by_default(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    await start_bot()
    assert fake.intents & (1 << 15)
    assert not fake.intents & (1 << 8), "no presence intent"


async def test_commands_sync_to_listed_guilds(start_bot: StartBot, fake: FakeDiscord) -> None:
    await start_bot(sync_guilds=[3001])
    assert "global" not in fake.commands
    assert [c["name"] for c in fake.commands["3001"]] == ["ask"]
