"""@mentions, thread follow-ups, DMs and who is ignored, through the real discord.py client."""

from __future__ import annotations

import re

from bots.testing.discord_api import (
    BOT_ID,
    CHANNEL_ID,
    DM_CHANNEL_ID,
    OTHER_BOT,
    OTHER_CHANNEL_ID,
    Call,
    FakeDiscord,
)
from pipeline.question import Trigger
from tests.discord.conftest import GUIDE, StartBot, streamed

EDIT = r"/channels/\d+/messages/\d+"


def is_final(call: Call) -> bool:
    return bool(call.json.get("embeds"))


async def test_mention_starts_a_thread_and_streams_into_it(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(edit_interval=0.1)
    h.answerer.script = lambda q: streamed(q, pause=0.06)
    question = await fake.user_says("how often do keys rotate?", mention_bot=True)

    final = await fake.wait_call("PATCH", EDIT, is_final)

    thread = fake.find("POST", rf"/channels/{CHANNEL_ID}/messages/{question['id']}/threads")[0]
    assert thread.json["name"] == "how often do keys rotate?"
    placeholder = fake.find("POST", rf"/channels/{question['id']}/messages")[
        0
    ]  # the thread shares the id
    assert placeholder.json["content"].startswith("⏳ ")
    assert placeholder.json["flags"] & 4  # SUPPRESS_EMBEDS while streaming

    edits = fake.find("PATCH", rf"/channels/{question['id']}/messages/\d+")
    assert len(edits) >= 3, "statuses and partial answers are shown before the final edit"
    assert any(
        e.json["content"].startswith("Keys rotate") and not e.json.get("embeds") for e in edits[:-1]
    )
    gaps = [b.at - a.at for a, b in zip([placeholder, *edits], edits, strict=False)]
    assert min(gaps) >= 0.095, f"edits closer than the 0.1 s interval: {gaps}"

    assert final is edits[-1]
    assert final.json["content"].startswith(
        "Keys rotate every 90 days[[1]](<https://docs.example.com/guide#keys>)"
    )
    embed = final.json["embeds"][0]
    assert embed["title"] == "Sources"
    assert "[1] [Key rotation guide](<https://docs.example.com/guide#keys>)" in embed["description"]
    assert not final.json["flags"] & 4, "the Sources embed must not be suppressed"
    buttons = [c["custom_id"] for row in final.json["components"] for c in row["components"]]
    q = h.answerer.questions[0]
    assert buttons == [f"citebot:vote:up:{q.id}", f"citebot:vote:down:{q.id}"]

    assert q.text == "how often do keys rotate?"
    assert q.trigger is Trigger.MENTION
    assert (q.place.platform, q.place.workspace, q.place.channel) == (
        "discord",
        "3001",
        str(CHANNEL_ID),
    )
    assert h.store.votes(q.id) == [] and h.store.stats().answers == 1


async def test_follow_up_in_the_thread_needs_no_mention_and_carries_history(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    question = await fake.user_says("how often do keys rotate?", mention_bot=True)
    await fake.wait_call("PATCH", EDIT, is_final)
    thread_id = question["id"]

    follow_up = await fake.user_says("and who do I ask?", channel_id=thread_id)
    await fake.wait_for(lambda: len([c for c in fake.find("PATCH", EDIT) if is_final(c)]) == 2)

    follow = h.answerer.questions[1]
    assert follow.trigger is Trigger.THREAD_FOLLOWUP
    assert follow.text == "and who do I ask?"
    assert follow.place.thread == thread_id and follow.place.channel == str(CHANNEL_ID)
    roles = [t.role for t in follow.history]
    assert roles == ["user", "assistant"]
    assert follow.history[0].text == "how often do keys rotate?"
    # the bot's answer comes back with plain markers, not the links it was sent with
    assert follow.history[1].text == "Keys rotate every 90 days[1]. Ask the platform team[2]."
    history_reads = fake.find("GET", rf"/channels/{thread_id}/messages")
    assert history_reads and history_reads[0].query["before"] == follow_up["id"]


async def test_history_respects_the_token_budget(start_bot: StartBot, fake: FakeDiscord) -> None:
    h = await start_bot()
    h.settings.pipeline.history_tokens = 30
    question = await fake.user_says("first question " + "x" * 200, mention_bot=True)
    await fake.wait_call("PATCH", EDIT, is_final)
    await fake.user_says("next?", channel_id=question["id"])
    await fake.wait_for(lambda: len(h.answerer.questions) == 2)
    history = h.answerer.questions[1].history
    assert sum(len(t.text) // 4 + 1 for t in history) <= 30
    assert [t.role for t in history] == ["assistant"], (
        "the newest turn is kept, the long starter dropped"
    )


async def test_inline_mode_replies_to_the_question(start_bot: StartBot, fake: FakeDiscord) -> None:
    await start_bot(mention_mode="inline")
    question = await fake.user_says("where are the keys?", mention_bot=True)
    await fake.wait_call("PATCH", EDIT, is_final)
    assert not fake.find("POST", r".*/threads")
    post = fake.find("POST", rf"/channels/{CHANNEL_ID}/messages")[0]
    assert str(post.json["message_reference"]["message_id"]) == question["id"]
    assert post.json["allowed_mentions"] == {"parse": [], "replied_user": False}
    assert post.json["flags"] & 4


async def test_direct_message_is_answered_with_the_dm_scope(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(access={"dm_scope": ["public"]})
    await fake.user_says("hi, how do keys rotate?", channel_id=DM_CHANNEL_ID)
    await fake.wait_call("PATCH", rf"/channels/{DM_CHANNEL_ID}/messages/\d+", is_final)
    q = h.answerer.questions[0]
    assert q.trigger is Trigger.DM and q.scope == ("public",)


async def test_bots_itself_and_system_messages_are_ignored(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    await fake.user_says("answer me too", mention_bot=True, author=OTHER_BOT)
    await fake.user_says("pinned a message", mention_bot=True, type=6)
    await fake.user_says("plain chatter without a mention")
    await fake.user_says("the real question", mention_bot=True)
    await fake.wait_call("PATCH", EDIT, is_final)
    # the bot's own placeholder and answer came back as MESSAGE_CREATE too
    own = [
        d for e, d in fake.dispatched if e == "MESSAGE_CREATE" and d["author"]["id"] == str(BOT_ID)
    ]
    assert own
    assert [q.text for q in h.answerer.questions] == ["the real question"]


async def test_disallowed_channel_is_ignored(start_bot: StartBot, fake: FakeDiscord) -> None:
    h = await start_bot(allowed_channels=[CHANNEL_ID])
    await fake.user_says("secret question", channel_id=OTHER_CHANNEL_ID, mention_bot=True)
    await fake.user_says("allowed question", mention_bot=True)
    await fake.wait_call("PATCH", EDIT, is_final)
    assert [q.text for q in h.answerer.questions] == ["allowed question"]
    assert not [c for c in fake.calls if str(OTHER_CHANNEL_ID) in c.path]


async def test_everyone_in_model_output_never_pings(start_bot: StartBot, fake: FakeDiscord) -> None:
    from tests.discord.conftest import cited

    h = await start_bot()
    loud = cited(("@everyone @here <@&77> <@2002> keys rotate", (1,)), (".", ()), sources=(GUIDE,))
    h.answerer.script = lambda q: streamed(q, loud, pause=0.05)
    await fake.user_says("ping test", mention_bot=True)
    final = await fake.wait_call("PATCH", EDIT, is_final)
    sent = fake.message_calls()
    previews = [c.json.get("content", "") for c in sent if c is not final]
    assert any("everyone" in p for p in previews), ("the answer streamed", previews)
    assert not any(re.search(r"@(everyone|here)\b|<@", p) for p in previews), (
        "previews are defanged like the final render (issue 13)"
    )
    for call in sent:
        mentions = call.json["allowed_mentions"]
        assert (
            mentions["parse"] == [] and not mentions.get("users") and not mentions.get("roles")
        ), call
    assert not re.search(r"@(everyone|here)\b", final.json["content"]), (
        "defanged in the final render too"
    )


async def test_the_question_is_the_message_without_who_it_addresses(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    h.answerer.script = lambda q: streamed(q)
    await fake.user_says(
        "<@&4001> how often do keys rotate in <#5005>? cc <@!6006> @here", mention_bot=True
    )
    await fake.wait_call("PATCH", EDIT, is_final)
    (q,) = h.answerer.questions
    assert q.text == "how often do keys rotate in ? cc"
