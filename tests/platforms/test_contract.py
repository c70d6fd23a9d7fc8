"""The adapter contract's shared tests, run against every adapter alike.

Slack and Discord (real clients against the local fakes), the console, and a
Mattermost-like stub written against ``bots.platforms.base`` alone: an event
becomes a Question, progress is shown, the final render replaces it, and a
vote comes back to the core, which records it once with one payload.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from pipeline.errors import SORRY
from pipeline.question import Trigger
from tests.platforms.drivers import DRIVERS, GUIDE, STATUS, Driver

ACCESS = {"default_scope": ["docs"]}


@pytest.fixture(params=sorted(DRIVERS))
async def driver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Driver]:
    started: Driver = await DRIVERS[request.param](tmp_path, ACCESS).start()
    yield started
    await started.stop()


async def test_an_event_becomes_a_question_in_its_place_with_its_scope(driver: Driver) -> None:
    await driver.ask("how often do keys rotate?")
    await driver.final()
    (question,) = driver.script.questions
    assert question.text == "how often do keys rotate?"  # the mention is not part of it
    assert question.place.platform == driver.platform
    assert question.trigger is Trigger.MENTION
    assert question.scope == ("docs",)  # resolved by the core, never by the adapter


async def test_progress_is_shown_then_the_final_render_replaces_it(driver: Driver) -> None:
    driver.script.gate = asyncio.Event()
    await driver.ask("how often do keys rotate?")
    await driver.wait_shown(STATUS)  # the answer waits until its status is on screen
    driver.script.gate.set()
    final = await driver.final()
    assert "Keys rotate every 90 days" in final
    assert GUIDE.title in final  # the sources block
    assert "Thinking" not in final


async def test_a_vote_comes_back_and_the_core_records_it_once_with_one_payload(
    driver: Driver,
) -> None:
    await driver.ask("how often do keys rotate?")
    await driver.final()
    (question,) = driver.script.questions
    if not driver.buttons:
        assert driver.store.stats().answers == 0  # nothing to vote on, nothing recorded
        return
    assert "Thanks" in await driver.vote("up")
    (vote,) = driver.store.votes(question.id)
    assert (vote.user, vote.vote, vote.platform) == (driver.user, "up", driver.platform)
    assert (vote.question, vote.route) == ("how often do keys rotate?", "knowledge_base")
    assert vote.references == [
        {"number": 1, "url": GUIDE.url, "title": GUIDE.title, "origin": "kb"}
    ]
    assert driver.store.stats().answers == 1


async def test_a_failure_ends_in_the_apology_and_offers_no_vote(driver: Driver) -> None:
    driver.script.fail = True
    await driver.ask("how often do keys rotate?")
    final = await driver.final()
    assert SORRY in final
    assert driver.store.stats().answers == 0
    assert "citebot_vote" not in final and ":vote:" not in final
