"""Pure pieces: dedupe backends, mention handling, history budget, manifests."""

from __future__ import annotations

import asyncio

import pytest

from bots.core.dedupe import Dedupe, MemoryBackend, RedisBackend, build_dedupe
from bots.platforms.slack.history import BotIdentity, turns
from bots.platforms.slack.questions import is_user_text
from bots.platforms.slack.text import mentions, question_text, quiet, strip_mention
from bots.settings import load_settings
from pipeline.question import Turn
from tests.fakes.redis_server import redis_server


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_memory_dedupe_claims_once_per_ttl():
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock), ttl=10)
    assert await dedupe.first("slack", "event", "Ev1")
    assert not await dedupe.first("slack", "event", "Ev1")
    assert await dedupe.first("slack", "event", "Ev2")
    clock.now = 10.5
    assert await dedupe.first("slack", "event", "Ev1")  # expired, claimable again
    assert len(dedupe.backend) == 1  # type: ignore[arg-type]


async def test_memory_dedupe_remember_and_seen():
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock), ttl=10)
    assert not await dedupe.seen("thread", "C1", "1.0")
    await dedupe.remember("thread", "C1", "1.0", ttl=100)
    clock.now = 50
    assert await dedupe.seen("thread", "C1", "1.0")
    clock.now = 101
    assert not await dedupe.seen("thread", "C1", "1.0")


async def test_memory_dedupe_is_bounded():
    backend = MemoryBackend(max_keys=100)
    for i in range(1000):
        await backend.claim(f"k{i}", 3600)
    assert backend.stored <= 101  # what memory holds, not a len() that purges first


async def test_concurrent_claims_have_one_winner():
    dedupe = Dedupe()
    wins = await asyncio.gather(*(dedupe.first("msg", "C1", "1.0") for _ in range(100)))
    assert wins.count(True) == 1


async def test_redis_dedupe_is_shared_between_replicas():
    pytest.importorskip("redis")
    with redis_server() as url:
        replicas = [Dedupe(RedisBackend.from_url(url), ttl=60) for _ in range(3)]
        try:
            wins = await asyncio.gather(
                *(r.first("event", "Ev1") for r in replicas for _ in range(20))
            )
            assert wins.count(True) == 1
            await replicas[0].remember("thread", "C1", "1.0")
            assert await replicas[2].seen("thread", "C1", "1.0")
        finally:
            for r in replicas:
                await r.close()


def test_build_dedupe_follows_settings():
    assert isinstance(build_dedupe(load_settings()).backend, MemoryBackend)
    settings = load_settings(ops={"redis_url": "redis://127.0.0.1:1/0", "dedupe_ttl": 42})
    dedupe = build_dedupe(settings)
    assert isinstance(dedupe.backend, RedisBackend) and dedupe.ttl == 42


def test_mentions_and_stripping():
    assert mentions("hi <@UBOT> there", "UBOT")
    assert mentions("hi <@UBOT|citebot>", "UBOT")
    assert not mentions("hi <@UOTHER>", "UBOT")
    assert strip_mention("<@UBOT>  what is  <@U2>?", "UBOT") == "what is <@U2>?"
    assert strip_mention("<@UBOT> line one\n\nline two", "UBOT") == "line one\n\nline two"


def test_question_text_is_slack_markup_read_back_to_what_was_typed():
    assert question_text("<@UBOT> <@U2> what is <!here> this?", "UBOT") == "what is this?"
    assert question_text("see <https://x.example/a|x.example/a> and <http://b.example>", None) == (
        "see x.example/a and http://b.example"
    )
    assert question_text("in <#C123|general> or <#C124>?", None) == "in #general or ?"
    assert question_text("is 1 &lt; 2 &amp;&amp; 3 &gt; 2?", None) == "is 1 < 2 && 3 > 2?"
    # decoded once: "&amp;lt;" is what someone typed as "&lt;"
    assert question_text("what does &amp;lt; mean?", None) == "what does &lt; mean?"


def test_quiet_removes_broadcast_pings():
    text = quiet("<!channel> <!here|here> <!subteam^S1|@team> @everyone hello")
    for ping in ("<!channel>", "<!here", "<!subteam", "@everyone"):
        assert ping not in text
    assert text.endswith("hello")


def test_history_turns_keep_newest_within_budget():
    me = BotIdentity("UBOT", "BBOT")
    messages = [
        {"user": "U1", "text": "<@UBOT> first question", "ts": "1"},
        {"bot_id": "BBOT", "text": "first answer", "ts": "2"},
        {"bot_id": "BOTHER", "text": "another bot", "ts": "3"},
        {"user": "U1", "text": "", "ts": "4"},
        {"user": "U1", "text": "current", "ts": "5"},
    ]
    assert turns(messages, me, budget_tokens=1000, exclude_ts="5") == (
        Turn("user", "first question"),
        Turn("assistant", "first answer"),
    )
    assert turns(messages, me, budget_tokens=4, exclude_ts="5") == (
        Turn("assistant", "first answer"),
    )
    assert turns(messages, me, budget_tokens=0, exclude_ts="5") == ()
    with_bots = turns(messages, me, budget_tokens=1000, exclude_ts="5", include_bots=True)
    assert Turn("user", "another bot") in with_bots


@pytest.mark.parametrize(
    ("extra", "answer_bots", "answered"),
    [
        # a bot's post comes as subtype bot_message, with or without its bot_id
        ({"subtype": "bot_message"}, True, True),
        ({"subtype": "bot_message", "bot_id": "B1"}, True, True),
        ({"bot_id": "B1"}, True, True),
        ({"bot_id": "B1"}, False, False),
        ({"subtype": "message_changed"}, False, False),
        ({"subtype": "bot_message", "bot_id": "B1"}, False, False),
        ({"subtype": "bot_message"}, False, False),
        # a bot's edit is an edit
        ({"subtype": "message_changed", "bot_id": "B1"}, True, False),
        ({}, False, True),
        ({"subtype": "thread_broadcast"}, False, True),
    ],
)
def test_which_messages_are_words_to_answer(
    extra: dict[str, str], answer_bots: bool, answered: bool
) -> None:
    event = {"type": "message", "channel": "C1", "ts": "1.1", "text": "what is it?", **extra}
    assert is_user_text(event, answer_bots=answer_bots) is answered
