from __future__ import annotations

import asyncio

import pytest

from bots.core.dedupe import Dedupe, RedisBackend
from bots.core.queue import ThreadQueue, thread_key
from pipeline.question import Place
from tests import waits
from tests.fakes.redis_server import redis_server


async def test_one_turn_at_a_time_per_thread_in_arrival_order() -> None:
    queue = ThreadQueue()
    place = Place("slack", "T1", "C1", "111.1")
    order: list[str] = []
    release = asyncio.Event()
    holding = asyncio.Event()

    async def first() -> None:
        async with queue.turn(place) as waited:
            assert waited is False
            order.append("first:start")
            holding.set()
            await release.wait()
            order.append("first:end")

    async def later(name: str) -> None:
        async with queue.turn(place) as waited:
            assert waited is True
            order.append(name)

    one = asyncio.create_task(first())
    await holding.wait()
    assert queue.busy(place)
    two = asyncio.create_task(later("second"))
    three = asyncio.create_task(later("third"))
    await asyncio.sleep(0)
    assert order == ["first:start"]
    release.set()
    await asyncio.gather(one, two, three)
    assert order == ["first:start", "first:end", "second", "third"]
    assert len(queue) == 0 and not queue.busy(place)


async def test_other_threads_and_threadless_questions_do_not_wait() -> None:
    queue = ThreadQueue()
    async with queue.turn(Place("slack", "T1", "C1", "1")):
        async with queue.turn(Place("slack", "T1", "C1", "2")) as waited:
            assert waited is False
        async with queue.turn(Place("slack", "T1", "C1", None)) as waited:
            assert waited is False
        assert len(queue) == 1


async def test_a_cancelled_waiter_leaves_no_trace() -> None:
    queue = ThreadQueue()
    place = Place("discord", "G", "C", "9")
    async with queue.turn(place):
        waiter = asyncio.create_task(queue.turn(place).__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
    assert len(queue) == 0


def test_thread_key() -> None:
    assert thread_key(Place("slack", None, None, None)) is None
    assert thread_key(Place("slack", "T", "C", "1.2")) == "slack:T:C:1.2"


async def test_two_replicas_take_turns_in_one_thread() -> None:
    """A distributed per-thread lock: the second replica waits for the first one's turn."""
    redis = pytest.importorskip("redis.asyncio")
    tried = asyncio.Event()

    class Watched(RedisBackend):
        async def claim(self, key: str, ttl: float, token: str = "done") -> bool:
            won = await super().claim(key, ttl, token)
            if not won:
                tried.set()
            return won

    with redis_server() as url:
        one = Dedupe(RedisBackend.from_url(url), lease_ttl=5)
        two = Dedupe(Watched(redis.Redis.from_url(url)), lease_ttl=5)
        a, b = ThreadQueue(one), ThreadQueue(two)
        place = Place("slack", "T1", "C1", "222.2")
        order: list[str] = []

        async def second() -> None:
            async with b.turn(place):
                order.append("b")

        try:
            async with a.turn(place):
                task = asyncio.create_task(second())
                await asyncio.wait_for(tried.wait(), waits.EVENT)  # b asked and was refused
                order.append("a")
            await asyncio.wait_for(task, waits.EVENT)
            assert order == ["a", "b"]
            async with (
                b.turn(Place("slack", "T1", "C1", "333.3")),
                a.turn(Place("slack", "T1", "C1", "444.4")),
            ):
                order.append("other threads at once")
            assert order[-1] == "other threads at once"
        finally:
            await one.close()
            await two.close()
