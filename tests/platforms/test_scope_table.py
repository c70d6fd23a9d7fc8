"""Every trigger in every kind of place resolves its knowledge scope through one function.

The table runs real Slack and Discord adapters against the local fakes; each
question they build is answered by searching the real LanceDB store (the one of
tests/connectors/test_scope_isolation.py, where the "secret" collection holds the
best match) with the scope the core gave it. Channels (public or private) may see
"public" and "secret"; direct conversations (DM, group DM) only ``dm_scope``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding

from bots.core.runtime import Runtime
from bots.core.scope import scope_for
from bots.platforms.slack.manifest import build_manifest
from bots.settings import load_settings
from bots.testing.discord_api import APP_ID, DM_CHANNEL_ID, USER, Interaction
from bots.testing.slack_api import BOT_USER, TEAM
from citations.model import CitedAnswer
from pipeline.events import Done, Progress, Route
from pipeline.question import Place, PlaceKind, Question, Trigger
from tests import waits
from tests.connectors.test_scope_isolation import (  # noqa: F401 - module-scoped fixtures
    QUESTION,
    SECRET,
    data_dir,
    embedding,
    open_store,
)
from tests.platforms.drivers import DiscordDriver, SlackDriver
from tests.slack.conftest import message

WIDE = ("public", "secret")
NARROW = ("public",)
ACCESS = {
    "scopes": {f"slack:{TEAM}": list(WIDE), "discord:3001": list(WIDE)},
    "dm_scope": list(NARROW),
    "default_scope": list(NARROW),
}


class StoreAnswerer:
    """Answers by searching the real store with the question's scope; records what it found."""

    def __init__(self, path: Path, model: BaseEmbedding) -> None:
        self.store = open_store(path, model)
        self.asked: list[tuple[Question, set[str]]] = []
        self.taken = 0
        self.changed = asyncio.Event()

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        hits = await self.store.retrieve(question.text, top_k=50, scope=question.scope)
        self.asked.append((question, {h.collection for h in hits}))
        self.changed.set()
        yield Done(CitedAnswer.empty(hits[0].source.text), Route.KNOWLEDGE_BASE)

    async def next(self) -> tuple[Question, set[str]]:
        """The next question not yet taken (waits for it if it is not asked yet).

        A cursor, not the count at call time: a question answered before the
        test gets here (the ack returns first) is still the next one.
        """
        while len(self.asked) <= self.taken:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), waits.EVENT)
        self.taken += 1
        return self.asked[self.taken - 1]


def assert_scoped(
    asked: tuple[Question, set[str]], trigger: Trigger, expected: tuple[str, ...]
) -> None:
    question, found = asked
    assert question.trigger is trigger
    assert question.scope == expected
    assert found <= set(expected)  # the store query itself never left the scope
    assert ("secret" in found) is ("secret" in expected)


@pytest.fixture
def answerer(data_dir: Path, embedding: BaseEmbedding) -> StoreAnswerer:  # noqa: F811
    return StoreAnswerer(data_dir, embedding)


# -- Slack -------------------------------------------------------------------------


@pytest.fixture
async def slack(tmp_path: Path, answerer: StoreAnswerer) -> AsyncIterator[SlackDriver]:
    driver = await SlackDriver(tmp_path, ACCESS, answerer).start()
    driver.fake.conversations["C777"] = "group"  # a private channel with a C… id
    # the token has the scopes the manifest asks for, and no more
    manifest = build_manifest(driver.h.bot.settings, public_url="https://bot.example")
    driver.fake.scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    yield driver
    await driver.stop()


async def slash(driver: SlackDriver, channel: str, channel_name: str) -> str:
    """Type ``/ask QUESTION`` in ``channel``; returns the immediate (ack) response body."""
    body = urllib.parse.urlencode(
        {
            "command": "/ask",
            "text": QUESTION,
            "user_id": "U222",
            "team_id": TEAM,
            "channel_id": channel,
            "channel_name": channel_name,
            "response_url": driver.fake.response_url("cmd"),
            "trigger_id": "1.2.3",
        }
    )
    status, acked, _ = await driver.h.post(body, "application/x-www-form-urlencoded")
    # a refused command is never answered: say so now, not after the wait for an answer
    assert status == 200, acked
    return acked


def app_mention(channel: str, ts: str) -> dict[str, Any]:
    # app_mention carries no channel_type: the bot asks conversations.info
    return {
        "type": "app_mention",
        "user": "U222",
        "text": f"<@{BOT_USER}> {QUESTION}",
        "ts": ts,
        "channel": channel,
        "team": TEAM,
        "event_ts": ts,
    }


def reply(channel: str, channel_type: str, ts: str) -> dict[str, Any]:
    """A plain reply in a thread the bot started (its parent is the bot's message)."""
    return message(
        QUESTION,
        ts=ts,
        channel=channel,
        channel_type=channel_type,
        thread_ts="100.0",
        parent_user_id=BOT_USER,
    )


SLACK_TABLE = [
    # (trigger, place, how it arrives, expected scope)
    (Trigger.MENTION, PlaceKind.CHANNEL, ("event", app_mention("C111", "1.0")), WIDE),
    (Trigger.MENTION, PlaceKind.PRIVATE, ("event", app_mention("G222", "2.0")), WIDE),
    (Trigger.MENTION, PlaceKind.PRIVATE, ("event", app_mention("C777", "2.5")), WIDE),
    (Trigger.MENTION, PlaceKind.GROUP_DM, ("event", app_mention("G444", "9.0")), NARROW),
    (
        Trigger.DM,
        PlaceKind.DM,
        (
            "event",
            message(f"<@{BOT_USER}> {QUESTION}", ts="3.0", channel="D333", channel_type="im"),
        ),
        NARROW,
    ),
    (
        Trigger.DM,
        PlaceKind.DM,
        ("event", message(QUESTION, ts="4.0", channel="D333", channel_type="im")),
        NARROW,
    ),
    (Trigger.SLASH, PlaceKind.CHANNEL, ("slash", ("C111", "general")), WIDE),
    (Trigger.SLASH, PlaceKind.PRIVATE, ("slash", ("G222", "privategroup")), WIDE),
    (
        Trigger.SLASH,
        PlaceKind.DM,
        ("slash", ("D333", "directmessage")),
        NARROW,
    ),  # the leak that was
    (Trigger.SLASH, PlaceKind.GROUP_DM, ("slash", ("G444", "mpdm-u222--u333-1")), NARROW),
    (Trigger.THREAD_FOLLOWUP, PlaceKind.CHANNEL, ("event", reply("C111", "channel", "5.0")), WIDE),
    (Trigger.THREAD_FOLLOWUP, PlaceKind.PRIVATE, ("event", reply("G222", "group", "6.0")), WIDE),
    (Trigger.THREAD_FOLLOWUP, PlaceKind.GROUP_DM, ("event", reply("G444", "mpim", "7.0")), NARROW),
    (
        Trigger.DM,
        PlaceKind.DM,
        ("event", reply("D333", "im", "8.0")),
        NARROW,
    ),  # a DM thread stays a DM
]


@pytest.mark.parametrize(
    ("trigger", "place", "arrival", "expected"),
    SLACK_TABLE,
    ids=[f"{t.value}-{p.value}-{i}" for i, (t, p, _, _) in enumerate(SLACK_TABLE)],
)
async def test_slack_trigger_and_place(
    slack: SlackDriver,
    answerer: StoreAnswerer,
    trigger: Trigger,
    place: PlaceKind,
    arrival: tuple[str, Any],
    expected: tuple[str, ...],
) -> None:
    how, what = arrival
    if how == "slash":
        await slash(slack, *what)
    else:
        await slack.h.event(what)
    asked = await answerer.next()
    assert asked[0].place.kind is place
    assert_scoped(asked, trigger, expected)


async def test_slack_asks_slack_once_per_channel(
    slack: SlackDriver, answerer: StoreAnswerer
) -> None:
    for ts in ("11.0", "12.0"):
        await slack.h.event(app_mention("G444", ts))
        assert_scoped(await answerer.next(), Trigger.MENTION, NARROW)
    assert len(slack.fake.called("conversations.info")) == 1


@pytest.mark.parametrize("failure", ["channel_not_found", "missing_scope", "fatal_error"])
async def test_slack_mention_where_slack_cannot_say_gets_the_narrowest_scope(
    slack: SlackDriver,
    answerer: StoreAnswerer,
    caplog: pytest.LogCaptureFixture,
    failure: str,
) -> None:
    fake = slack.fake
    if failure == "channel_not_found":
        fake.conversations["G555"] = None
    elif failure == "missing_scope":
        fake.conversations["G555"] = "mpim"
        fake.scopes = {"app_mentions:read", "chat:write", "channels:read", "groups:read"}
    else:
        fake.fail("conversations.info", failure)
    with caplog.at_level(logging.INFO):
        await slack.h.event(app_mention("G555", "20.0"))
        asked = await answerer.next()
    assert asked[0].place.kind is PlaceKind.UNKNOWN
    assert_scoped(asked, Trigger.MENTION, NARROW)
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == 1, [r.getMessage() for r in said]
    assert "G555" in said[0].getMessage() and failure in said[0].getMessage()
    assert said[0].exc_info is None and "\n" not in said[0].getMessage()


async def test_slack_with_dms_off_answers_no_dm_and_no_slash_in_a_dm(
    tmp_path: Path, answerer: StoreAnswerer
) -> None:
    driver = await SlackDriver(tmp_path, ACCESS, answerer, allow_dms=False).start()
    try:
        await driver.h.event(message(QUESTION, ts="1.0", channel="D333", channel_type="im"))
        refused = await slash(driver, "D333", "directmessage")
        assert "not enabled" in json.loads(refused)["text"]
        await driver.h.event(app_mention("G444", "3.0"))  # a group DM is a direct conversation
        await driver.h.event(app_mention("C111", "2.0"))  # a channel still works
        assert_scoped(await answerer.next(), Trigger.MENTION, WIDE)
        await driver.h.bot.drain()
        assert [q.place.channel for q, _ in answerer.asked] == ["C111"]
    finally:
        await driver.stop()


# -- Discord -----------------------------------------------------------------------


@pytest.fixture
async def discord(tmp_path: Path, answerer: StoreAnswerer) -> AsyncIterator[DiscordDriver]:
    driver = await DiscordDriver(tmp_path, ACCESS, answerer).start()
    yield driver
    await driver.stop()


async def dm_slash(driver: DiscordDriver) -> None:
    """``/ask`` in a DM: an interaction with a user and no guild, as Discord sends it."""
    fake = driver.fake
    iid = fake.snowflake()
    token = f"itok-{iid}"
    payload = {
        "id": iid,
        "application_id": str(APP_ID),
        "type": 2,
        "token": token,
        "version": 1,
        "data": {
            "id": "5001",
            "name": "ask",
            "type": 1,
            "options": [{"name": "question", "type": 3, "value": QUESTION}],
        },
        "channel_id": str(DM_CHANNEL_ID),
        "channel": {"id": str(DM_CHANNEL_ID), "type": 1, "recipients": [USER]},
        "user": USER,
        "app_permissions": "0",
        "locale": "en-US",
        "attachment_size_limit": 10485760,
        "entitlements": [],
        "authorizing_integration_owners": {"1": str(USER["id"])},
        "context": 1,
    }
    fake.interactions[token] = Interaction(iid, token, str(DM_CHANNEL_ID), payload)
    await fake.dispatch("INTERACTION_CREATE", payload)


async def test_discord_every_trigger_and_place(
    discord: DiscordDriver, answerer: StoreAnswerer
) -> None:
    fake = discord.fake
    started = await fake.user_says(QUESTION, mention_bot=True)
    assert_scoped(await answerer.next(), Trigger.MENTION, WIDE)

    await fake.user_says(QUESTION, channel_id=started["id"])  # the thread the mention opened
    asked = await answerer.next()
    assert asked[0].place.thread == started["id"]
    assert_scoped(asked, Trigger.THREAD_FOLLOWUP, WIDE)

    await fake.slash("ask", {"question": QUESTION})
    assert_scoped(await answerer.next(), Trigger.SLASH, WIDE)

    await fake.user_says(QUESTION, channel_id=DM_CHANNEL_ID)
    asked = await answerer.next()
    assert asked[0].place.kind is PlaceKind.DM
    assert_scoped(asked, Trigger.DM, NARROW)

    await dm_slash(discord)
    asked = await answerer.next()
    assert asked[0].place.kind is PlaceKind.DM
    assert_scoped(asked, Trigger.SLASH, NARROW)


async def test_discord_with_dms_off_answers_no_dm(tmp_path: Path, answerer: StoreAnswerer) -> None:
    driver = await DiscordDriver(tmp_path, ACCESS, answerer, allow_dms=False).start()
    try:
        await driver.fake.user_says(QUESTION, channel_id=DM_CHANNEL_ID)
        await driver.fake.user_says(QUESTION, mention_bot=True)  # a channel still works
        assert_scoped(await answerer.next(), Trigger.MENTION, WIDE)
        assert [q.place.kind for q, _ in answerer.asked] == [PlaceKind.CHANNEL]
    finally:
        await driver.stop()


# -- the hooks not wired to a platform yet, and the one function itself ----------------


@pytest.mark.parametrize("trigger", list(Trigger))
@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (PlaceKind.CHANNEL, WIDE),
        (PlaceKind.PRIVATE, WIDE),
        (PlaceKind.DM, NARROW),
        (PlaceKind.GROUP_DM, NARROW),
    ],
)
async def test_the_place_decides_for_every_trigger(
    answerer: StoreAnswerer, trigger: Trigger, kind: PlaceKind, expected: tuple[str, ...]
) -> None:
    if trigger is Trigger.DM and not kind.direct:
        pytest.skip("a DM trigger only happens in a direct conversation")
    runtime = Runtime(load_settings(access=ACCESS), answerer=answerer)
    question = runtime.prepare(
        Question(QUESTION, place=Place("slack", TEAM, "X1", None, kind), trigger=trigger)
    )
    events = [e async for e in runtime.ask(question)]
    assert isinstance(events[-1], Done)
    assert_scoped(answerer.asked[-1], trigger, expected)
    assert (SECRET in events[-1].answer.text) is ("secret" in expected)


def test_a_place_of_unknown_kind_gets_only_what_both_kinds_could_see() -> None:
    access = load_settings(
        access={
            "scopes": {f"slack:{TEAM}": ["public", "secret"]},
            "dm_scope": ["public", "dms"],
            "default_scope": ["public", "dms", "secret"],
        }
    ).access
    place = Place("slack", TEAM, "G1", None, PlaceKind.UNKNOWN)
    assert scope_for(access, place) == ("public",)
    # with no dm_scope and no default, a direct conversation could see everything
    wide = load_settings(access={"scopes": {f"slack:{TEAM}": ["public"]}}).access
    assert scope_for(wide, place) == ("public",)
    assert scope_for(load_settings().access, place) is None
