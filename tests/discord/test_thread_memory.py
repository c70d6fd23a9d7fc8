"""Discord's "threads I answered" outlives a restart: alone, it is in the data dir's SQLite.

A user starts a thread and @mentions the bot in it; the bot answers. The bot is
restarted on the same data dir (a new client, runtime and dedupe: nothing kept in
memory), and a plain follow-up in that thread, with no mention, is still a question.
The thread is the user's and the bot never joined it, so only the stored memory
can say it is the bot's.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bots.platforms.discord.threads import FILE, StoredThreads
from bots.testing.discord_api import FakeDiscord
from pipeline.question import Trigger
from tests.discord.conftest import StartBot


def finals(fake: FakeDiscord, channel: str) -> int:
    return len(
        [
            c
            for c in fake.find("PATCH", rf"/channels/{channel}/messages/\d+")
            if c.json.get("embeds")
        ]
    )


async def test_a_follow_up_after_a_restart_is_recognised(
    start_bot: StartBot, fake: FakeDiscord, tmp_path: Path
) -> None:
    thread = fake.add_thread("keys")
    first = await start_bot()
    await fake.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
    await fake.user_says("how often do keys rotate?", channel_id=thread["id"], mention_bot=True)
    await fake.wait_for(lambda: finals(fake, thread["id"]) == 1 or None, within=10)
    assert (tmp_path / FILE).exists()
    await first.stop()

    second = await start_bot()
    assert second.runtime is not first.runtime and second.bot is not first.bot
    await fake.user_says("and who do I ask?", channel_id=thread["id"])
    await fake.wait_for(lambda: finals(fake, thread["id"]) == 2 or None, within=10)
    (follow,) = second.answerer.questions
    assert follow.trigger is Trigger.THREAD_FOLLOWUP and follow.text == "and who do I ask?"


async def test_a_thread_the_bot_never_answered_stays_silent_after_a_restart(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    answered, other = fake.add_thread("answered"), fake.add_thread("other")
    first = await start_bot()
    for thread in (answered, other):
        await fake.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
    await fake.user_says("a question", channel_id=answered["id"], mention_bot=True)
    await fake.wait_for(lambda: finals(fake, answered["id"]) == 1 or None, within=10)
    await first.stop()
    second = await start_bot()
    await fake.user_says("chatter between people", channel_id=other["id"])
    await fake.user_says("a follow-up", channel_id=answered["id"])
    await fake.wait_for(lambda: finals(fake, answered["id"]) == 2 or None, within=10)
    assert [q.text for q in second.answerer.questions] == ["a follow-up"]  # not the chatter


def test_stored_threads_expire_and_survive_a_broken_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = [1000.0]
    path = tmp_path / FILE
    threads = StoredThreads(path, ttl=60, clock=lambda: now[0])
    threads.add(7)
    threads.close()
    again = StoredThreads(path, ttl=60, clock=lambda: now[0])
    assert 7 in again and 8 not in again and "7" not in again
    now[0] += 61
    assert 7 in again, "what this process already knows stays for its life"
    again.close()
    assert 7 not in StoredThreads(path, ttl=60, clock=lambda: now[0]), "expired after a restart"

    caplog.set_level(logging.WARNING)
    broken = tmp_path / "missing" / FILE  # its directory is gone
    memory_only = StoredThreads(broken)
    memory_only.add(9)
    memory_only.add(10)
    assert 9 in memory_only and 10 in memory_only
    warnings = [r for r in caplog.records if r.name == "citebot.discord"]
    assert len(warnings) == 1 and not warnings[0].exc_info
    assert "keeping them in memory" in warnings[0].getMessage()
