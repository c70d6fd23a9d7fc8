from __future__ import annotations

import asyncio

from bots.core.queue import ThreadQueue, thread_key
from pipeline.question import Place


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
