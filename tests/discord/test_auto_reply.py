"""Per-channel settings on Discord. Auto-reply channels: questions without a mention are
answered in a thread, only when there is an answer; everything else leaves the channel
untouched. A name pattern also sets /ask's visibility and persona; an id sets the scope."""

from __future__ import annotations

from bots.testing.answerer import knows_only
from bots.testing.discord_api import (
    CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    OTHER_USER,
    FakeDiscord,
)
from pipeline.question import Trigger
from tests.discord.conftest import StartBot, streamed

AUTO = {"channels": {f"discord:*/{CHANNEL_ID}": {"auto_reply": True}}}
EDIT = r"/channels/\d+/messages/\d+"
ORIGINAL = r"/webhooks/1000/[^/]+/messages/@original"
CALLBACK = r"/interactions/\d+/[^/]+/callback"


knows_keys_only = knows_only("key", streamed)


def is_final(call) -> bool:
    return bool(call.json.get("components"))


async def test_an_auto_reply_channel_answers_questions_and_nothing_else(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(root=AUTO)
    h.answerer.script = knows_keys_only
    small_talk = await fake.user_says("thanks all, see you tomorrow")
    no_answer = await fake.user_says("what is the parental leave policy?")
    addressed = await fake.user_says(f"<@{OTHER_USER['id']}> how do I rotate the API key?")
    reply = await fake.user_says(
        "how do I rotate the API key?",
        type=19,
        message_reference={"message_id": small_talk["id"], "channel_id": str(CHANNEL_ID)},
    )
    elsewhere = await fake.user_says("how do I rotate the API key?", channel_id=OTHER_CHANNEL_ID)
    question = await fake.user_says("how do I rotate the API key?")
    await fake.wait_call("PATCH", EDIT, is_final)

    asked = [(q.text, q.trigger) for q in h.answerer.questions]
    assert asked == [
        ("what is the parental leave policy?", Trigger.AUTO_REPLY),
        ("how do I rotate the API key?", Trigger.AUTO_REPLY),
    ]
    (thread,) = fake.find("POST", rf"/channels/{CHANNEL_ID}/messages/\d+/threads")
    assert thread.path.endswith(f"/messages/{question['id']}/threads")
    for quiet in (small_talk, no_answer, addressed, reply, elsewhere):
        assert not fake.find("POST", rf"/channels/{quiet['id']}/messages"), quiet["content"]
    assert [a.question for a in h.store.answers(no_answer=True)] == [
        "what is the parental leave policy?"
    ]


async def test_a_human_thread_the_bot_is_not_in_is_left_alone(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(root=AUTO)
    # a thread two people started under a message; the bot never spoke in it
    fake.channels["4700"] = {
        "id": "4700",
        "type": 11,
        "guild_id": str(GUILD_ID),
        "parent_id": str(CHANNEL_ID),
        "name": "lunch",
        "owner_id": OTHER_USER["id"],
        "message_count": 1,
        "member_count": 2,
        "rate_limit_per_user": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 60,
            "archive_timestamp": "2026-01-01T00:00:00+00:00",
            "locked": False,
        },
    }
    await fake.dispatch("THREAD_CREATE", fake.channels["4700"])
    await fake.user_says("how do I rotate the API key?", channel_id=4700)
    await fake.user_says("how do I rotate the API key?")
    await fake.wait_call("PATCH", EDIT, is_final)
    assert [q.place.thread for q in h.answerer.questions] == [None]
    assert not fake.find("POST", r"/channels/4700/messages")


async def test_a_channel_pattern_by_name_sets_slash_answers_and_persona_by_id_scope(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    channels = {
        "discord:*/#gen*": {"answers": "ephemeral", "persona": "Be brief."},
        f"discord:{GUILD_ID}/{CHANNEL_ID}": {"scope": ["docs"]},
    }
    h = await start_bot(root={"channels": channels})
    await fake.slash("ask", {"question": "keys?"})  # in #general
    await fake.wait_call("PATCH", ORIGINAL, lambda c: bool(c.json.get("embeds")))
    (deferred,) = [c.json for c in fake.find("POST", CALLBACK)]
    assert deferred["type"] == 5 and deferred["data"]["flags"] & 64
    (asked,) = h.answerer.questions
    assert (asked.place.channel_name, asked.persona, asked.scope) == (
        "general",
        "Be brief.",
        ("docs",),
    )
