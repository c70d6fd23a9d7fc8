"""``/ask`` through discord.py's real CommandTree: defer, edits of the original response, final."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bots.testing.discord_api import CHANNEL_ID, OTHER_CHANNEL_ID, USER_ID, FakeDiscord
from pipeline.events import Progress, Status
from pipeline.question import Question, Trigger
from tests.discord.conftest import StartBot, streamed

ORIGINAL = r"/webhooks/1000/[^/]+/messages/@original"


def callbacks(fake: FakeDiscord) -> list[dict]:  # type: ignore[type-arg]
    return [c.json for c in fake.find("POST", r"/interactions/\d+/[^/]+/callback")]


async def test_ask_defers_then_streams_into_the_original_response(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(edit_interval=0.05)
    h.answerer.script = lambda q: streamed(q, pause=0.04)
    await fake.slash("ask", {"question": "how often do keys rotate?"})

    final = await fake.wait_call("PATCH", ORIGINAL, lambda c: bool(c.json.get("embeds")))

    assert callbacks(fake) == [{"type": 5, "data": {"flags": 0}}] or callbacks(fake)[0]["type"] == 5
    assert not (callbacks(fake)[0].get("data") or {}).get("flags", 0) & 64
    edits = fake.find("PATCH", ORIGINAL)
    assert edits[0].json["content"].startswith("⏳ ")
    assert len(edits) >= 3 and edits[-1] is final
    assert final.json["content"].startswith(
        "Keys rotate every 90 days[[1]](<https://docs.example.com/guide#keys>)"
    )
    assert final.json["embeds"][0]["title"] == "Sources"
    assert final.json["components"], "feedback buttons on the final answer"
    assert all(e.json["allowed_mentions"]["parse"] == [] for e in edits)
    q = h.answerer.questions[0]
    assert (
        q.trigger is Trigger.SLASH
        and q.asker == str(USER_ID)
        and q.text == "how often do keys rotate?"
    )
    assert not fake.find("POST", r"/channels/\d+/messages"), "nothing outside the interaction"


async def test_ephemeral_ask(start_bot: StartBot, fake: FakeDiscord) -> None:
    await start_bot(ephemeral=True)
    interaction = await fake.slash("ask", {"question": "keys?"})
    await fake.wait_call("PATCH", ORIGINAL, lambda c: bool(c.json.get("embeds")))
    assert callbacks(fake)[0]["type"] == 5
    assert callbacks(fake)[0]["data"]["flags"] & 64
    assert interaction.original is not None and interaction.original["flags"] & 64


async def test_ask_in_a_disallowed_channel_is_refused_privately(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(allowed_channels=[CHANNEL_ID])
    await fake.slash("ask", {"question": "secret?"}, channel_id=OTHER_CHANNEL_ID)
    cb = await fake.wait_call("POST", r"/interactions/\d+/[^/]+/callback")
    assert cb.json["type"] == 4 and cb.json["data"]["flags"] & 64
    assert "don't answer" in cb.json["data"]["content"]
    assert h.answerer.questions == []


async def test_too_long_question_gets_a_polite_refusal(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    h.settings.access.max_question_chars = 20
    await fake.slash("ask", {"question": "x" * 50})
    final = await fake.wait_for(
        lambda: next(
            (c for c in fake.find("PATCH", ORIGINAL) if "too long" in c.json.get("content", "")),
            None,
        )
    )
    assert final.json["content"].startswith("Sorry, that question is too long (50 characters")
    assert not final.json.get("components"), "no feedback buttons on a refusal"
    assert h.answerer.questions == []


async def test_answer_that_would_outlive_the_token_continues_in_the_channel(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    await start_bot(interaction_margin=60)
    # 14.5 minutes old: 30 s of token left, less than the 60 s margin
    await fake.slash("ask", {"question": "slow one"}, age=14.5 * 60)
    final = await fake.wait_call(
        "PATCH", rf"/channels/{CHANNEL_ID}/messages/\d+", lambda c: bool(c.json.get("embeds"))
    )
    assert callbacks(fake)[0]["type"] == 5, "deferred within the 3 s as always"
    pointer = fake.find("PATCH", ORIGINAL)
    assert len(pointer) == 1 and "continues below" in pointer[0].json["content"]
    assert final.json["embeds"][0]["title"] == "Sources"
    placeholder = fake.find("POST", rf"/channels/{CHANNEL_ID}/messages")[0]
    assert placeholder.json["allowed_mentions"]["parse"] == []


async def test_rejected_token_moves_the_answer_to_the_channel(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    gate = asyncio.Event()

    async def slow(q: Question) -> AsyncIterator[Progress]:
        yield Status("Searching the knowledge base…")
        await gate.wait()
        async for event in streamed(q):
            yield event

    h.answerer.script = slow
    interaction = await fake.slash("ask", {"question": "keys?"})
    await fake.wait_call("PATCH", ORIGINAL, lambda c: "Searching" in c.json.get("content", ""))
    fake.expire(interaction)
    gate.set()
    final = await fake.wait_for(
        lambda: next(
            (
                c
                for c in fake.message_calls()
                if c.path.startswith(f"/channels/{CHANNEL_ID}/") and c.json.get("embeds")
            ),
            None,
        )
    )
    assert final.json["content"].startswith("Keys rotate")
    assert final.json["components"]
    rejected = [
        c for c in fake.find("PATCH", ORIGINAL) if c.json.get("content", "").startswith("Keys")
    ]
    assert len(rejected) == 1, "one rejected edit, then the answer moved"


async def test_expiring_ephemeral_answer_continues_in_a_dm(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    await start_bot(ephemeral=True)
    await fake.slash("ask", {"question": "private one"}, age=14.5 * 60)
    await fake.wait_call(
        "PATCH", r"/channels/4900/messages/\d+", lambda c: bool(c.json.get("embeds"))
    )
    assert fake.find("POST", r"/users/@me/channels")
    assert not fake.find("POST", rf"/channels/{CHANNEL_ID}/messages"), "never made public"


CALLBACK = r"/interactions/\d+/[^/]+/callback"


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("ask", {}),  # the required question missing
        ("retired", {"a": "b"}),  # a command Discord still shows, no longer registered
    ],
)
async def test_a_command_unlike_the_registered_ones_gets_a_private_line(
    start_bot: StartBot,
    fake: FakeDiscord,
    caplog: pytest.LogCaptureFixture,
    name: str,
    options: dict[str, str],
) -> None:
    h = await start_bot()
    await fake.slash(name, options)
    reply = await fake.wait_call("POST", CALLBACK)
    assert reply.json["type"] == 4 and reply.json["data"]["flags"] & 64
    assert "changed since Discord last loaded it" in reply.json["data"]["content"]
    assert h.answerer.questions == []
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    noted = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(noted) == 1 and noted[0].startswith(f"/{name} does not match"), noted


async def test_an_expiring_private_answer_stays_in_the_response_when_dms_are_closed(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    fake.dms_closed = True
    await start_bot(ephemeral=True)
    # 40 s of its token left: inside the margin, so the answer tries to move to a DM
    interaction = await fake.slash("ask", {"question": "private one"}, age=14 * 60 + 20)
    await fake.wait_call("PATCH", ORIGINAL, lambda c: bool(c.json.get("embeds")))
    assert interaction.original is not None
    assert "Sources" in str(interaction.original["embeds"]), "the answer is in the response"
    assert "continues in your DMs" not in interaction.original["content"]
    assert fake.rejected and fake.rejected[0][2]["code"] == 50007
