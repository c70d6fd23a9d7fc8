"""Dedupe's numbers and fallbacks: TTLs to the millisecond in Redis, the memory bound, the
retry of a failed Redis after 5 s, the lock's back-off, the lease keeper's pace.

Time is a test clock and the waits go through the ``sleep`` Dedupe is given, so
nothing here waits for real.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Iterator

import pytest
import redis

from bots.core.dedupe import THREAD_TTL, Dedupe, MemoryBackend, RedisBackend
from bots.core.runtime import Runtime
from bots.ops import metrics
from bots.settings import load_settings
from tests import waits
from tests.slack.test_leases import Clock, degraded_count


class Flaky:
    """A shared backend (a stand-in for Redis) that fails like a dead server while ``down``."""

    def __init__(self, clock: Clock) -> None:
        self.store = MemoryBackend(clock=clock)
        self.down = False
        self.calls = 0

    def _check(self) -> None:
        self.calls += 1
        if self.down:
            raise ConnectionError("Connection refused")

    async def claim(self, key: str, ttl: float, token: str = "done") -> bool:
        self._check()
        return await self.store.claim(key, ttl, token)

    async def renew(self, key: str, token: str, ttl: float) -> bool:
        self._check()
        return await self.store.renew(key, token, ttl)

    async def release(self, key: str, token: str) -> None:
        self._check()
        await self.store.release(key, token)

    async def put(self, key: str, ttl: float) -> None:
        self._check()
        await self.store.put(key, ttl)

    async def contains(self, key: str) -> bool:
        self._check()
        return await self.store.contains(key)

    async def close(self) -> None:
        await self.store.close()


def hits(platform: str) -> float:
    return float(metrics.DEDUPE_HITS.labels(platform)._value.get())


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    yield raw
    raw.close()


# -- memory --------------------------------------------------------------------------


async def test_the_defaults_are_600_s_done_and_30_s_leases() -> None:
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock))
    assert await dedupe.first("slack", "event", "Ev1")
    lease = await dedupe.lease("slack", "msg", "C1", "1.0")
    assert lease is not None
    clock.now = 29.999
    assert not await Dedupe(dedupe.backend).lease("slack", "msg", "C1", "1.0")
    clock.now = 30.0  # a lease lapses after exactly its TTL, not before
    assert await Dedupe(dedupe.backend).lease("slack", "msg", "C1", "1.0") is not None
    clock.now = 599.999
    assert await dedupe.first("slack", "event", "Ev1") is False
    clock.now = 600.0
    assert await dedupe.first("slack", "event", "Ev1")


async def test_a_thread_stays_ours_for_14_days() -> None:
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock))
    await dedupe.remember("thread", "C1", "1.0", ttl=THREAD_TTL)
    clock.now = 14 * 24 * 3600 - 1
    assert await dedupe.seen("thread", "C1", "1.0")
    clock.now = 14 * 24 * 3600
    assert not await dedupe.seen("thread", "C1", "1.0")


async def test_expired_keys_are_purged_by_the_next_write_and_counted_until_then() -> None:
    clock = Clock()
    backend = MemoryBackend(clock=clock)
    assert await backend.claim("a", 10)
    await backend.put("b", 20)
    clock.now = 10.0  # "a" ends now
    assert backend.stored == 2 and len(backend) == 1
    assert backend.stored == 1  # len() purged
    clock.now = 20.0
    assert backend.stored == 1
    assert await backend.claim("c", 10)
    assert backend.stored == 1
    clock.now = 30.0
    await backend.put("d", 10)
    assert backend.stored == 1
    await backend.close()
    assert backend.stored == 0 and not await backend.contains("d")


async def test_memory_holds_at_most_200_000_keys() -> None:
    backend = MemoryBackend()
    for i in range(200_002):
        await backend.put(str(i), 600)
    # the oldest go first; one over the bound until the next write purges
    assert backend.stored == 200_001
    assert not await backend.contains("0") and await backend.contains("2")


async def test_a_renewed_key_outlives_its_first_expiry() -> None:
    clock = Clock()
    backend = MemoryBackend(clock=clock)
    assert await backend.claim("k", 10, "mine")
    clock.now = 5
    assert await backend.renew("k", "mine", 10)
    clock.now = 12
    assert await backend.claim("other", 10)  # purges the stale entry from the first claim
    assert await backend.claim("k", 10, "theirs") is False
    assert await backend.renew("k", "theirs", 10) is False
    assert await backend.renew("k", "mine", 10)


async def test_duplicates_are_counted_per_platform() -> None:
    dedupe = Dedupe()
    slack, discord = hits("slack"), hits("discord")
    assert await dedupe.first("slack", "event", "EvM1")
    assert not await dedupe.first("slack", "event", "EvM1")
    assert not await dedupe.first("slack", "event", "EvM1")
    assert await dedupe.lease("discord", "msg", "M1") is not None
    assert await dedupe.lease("discord", "msg", "M1") is None
    assert await dedupe.first("discord", "msg", "M1") is False  # held by this process
    assert (hits("slack") - slack, hits("discord") - discord) == (2.0, 2.0)


async def test_alone_the_lock_holds_nothing_but_the_callers_own_turn() -> None:
    dedupe = Dedupe()
    async with dedupe.lock("thread", "T1"):
        assert await dedupe.lease("thread", "T1") is not None
    assert not dedupe.shared


# -- the lease keeper ----------------------------------------------------------------


class Steps:
    """The ``sleep`` Dedupe waits with: records each wait and moves ``clock`` on by it;
    clearing ``go`` holds the waiter."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.waits: list[float] = []
        self.waited = asyncio.Event()
        self.go = asyncio.Event()
        self.go.set()

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.clock.now += seconds
        self.waited.set()
        await self.go.wait()
        await asyncio.sleep(0)

    async def until(self, count: int) -> None:
        while len(self.waits) < count:
            self.waited.clear()
            await asyncio.wait_for(self.waited.wait(), waits.EVENT)


def keepers() -> list[asyncio.Task[object]]:
    return [
        t
        for t in asyncio.all_tasks()
        if not t.done() and getattr(t.get_coro(), "__qualname__", "") == "Lease._keep"
    ]


async def test_the_keeper_renews_every_third_of_the_lease_and_stops_after(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    steps = Steps(clock)
    backend = MemoryBackend(clock=clock)
    dedupe = Dedupe(backend, lease_ttl=30, sleep=steps)
    lease = await dedupe.lease("slack", "msg", "C1", "3.0")
    assert lease is not None
    with caplog.at_level(logging.WARNING, logger="citebot.dedupe"):
        async with lease.held():
            await steps.until(3)
            assert clock.now == 30  # renewed at 10 and 20: held past its first 30 s
            assert not await Dedupe(backend).lease("slack", "msg", "C1", "3.0")
        await asyncio.sleep(0)  # let the cancelled keeper finish
        assert keepers() == []
    assert steps.waits[:3] == [10.0, 10.0, 10.0]
    clock.now += 31  # done, not a lease: it lasts the dedupe TTL for every holder
    assert await Dedupe(backend).lease("slack", "msg", "C1", "3.0") is None
    assert caplog.records == []

    lease = await dedupe.lease("slack", "msg", "C1", "3.1")
    assert lease is not None
    steps.go.clear()
    done = len(steps.waits)
    with caplog.at_level(logging.WARNING, logger="citebot.dedupe"):
        async with lease.kept():
            await steps.until(done + 1)
            await backend.release(lease.key, lease.token)  # taken over while it slept
            assert await backend.claim(lease.key, 30, "theirs")
            steps.go.set()
            await steps.until(done + 2)
        await asyncio.sleep(0)
        assert keepers() == []
    # one line per failed renewal, from the dedupe logger
    assert {(r.name, r.getMessage()) for r in caplog.records} == {
        ("citebot.dedupe", "lost the lease on citebot:slack:msg:C1:3.1 while answering")
    }


async def test_a_failed_block_releases_and_stops_its_keeper() -> None:
    dedupe = Dedupe(lease_ttl=30, sleep=Steps())
    lease = await dedupe.lease("k", "boom")
    assert lease is not None
    with pytest.raises(RuntimeError):
        async with lease.held():
            raise RuntimeError("the answer never reached Slack")
    await asyncio.sleep(0)
    assert keepers() == []
    assert await dedupe.lease("k", "boom") is not None


# -- the shared backend failing --------------------------------------------------------


async def test_a_failed_backend_is_retried_after_exactly_5_s(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    shared = Flaky(clock)
    dedupe = Dedupe(shared, clock=clock)
    assert dedupe.shared and not dedupe.degraded
    assert await dedupe.first("slack", "event", "Ev1")
    shared.down = True
    before = degraded_count()
    with caplog.at_level(logging.WARNING, logger="citebot.dedupe"):
        clock.now = 100.0
        assert await dedupe.first("slack", "event", "Ev2")  # this process's memory
        assert dedupe.degraded and degraded_count() == before + 1
        calls = shared.calls
        clock.now = 104.999
        assert not await dedupe.first("slack", "event", "Ev2")
        assert await dedupe.first("slack", "event", "Ev3")
        assert shared.calls == calls, "not asked again within 5 s"
        shared.down = False
        clock.now = 105.0
        assert await dedupe.first("slack", "event", "Ev4")
        assert shared.calls == calls + 1 and not dedupe.degraded
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("citebot.dedupe", "dedupe backend unavailable (ConnectionError); using this process's memory"),
        ("citebot.dedupe", "dedupe backend is back"),
    ]  # fmt: skip


async def test_while_the_backend_is_down_leases_live_on_in_memory() -> None:
    clock = Clock()
    shared = Flaky(clock)
    dedupe = Dedupe(shared, lease_ttl=30, clock=clock)
    held = await dedupe.lease("slack", "msg", "C1", "4.0")
    assert held is not None
    clock.now = 20
    assert await held.renew()  # on the shared backend, and mirrored
    shared.down = True
    clock.now = 45  # past the first TTL, within the renewed one
    assert dedupe.local is not None and await dedupe.local.contains(held.key)
    assert await held.renew()  # in memory alone
    clock.now = 70
    assert await dedupe.local.contains(held.key)
    assert await dedupe.lease("slack", "msg", "C1", "4.1") is not None
    await held.done()
    assert await dedupe.seen("slack", "msg", "C1", "4.0")
    assert await dedupe.lease("slack", "msg", "C1", "4.0") is None
    other = await dedupe.lease("slack", "msg", "C1", "4.2")
    assert other is not None
    await other.release()
    assert await dedupe.lease("slack", "msg", "C1", "4.2") is not None


async def test_a_memory_dedupe_falls_back_to_nothing_and_closes() -> None:
    dedupe = Dedupe()
    assert dedupe.local is None and not dedupe.degraded
    assert await dedupe.first("x")
    await dedupe.close()
    assert await dedupe.first("x")


# -- Redis -----------------------------------------------------------------------------


async def test_redis_keys_carry_the_ttls_to_the_millisecond(
    redis_url: str, client: redis.Redis
) -> None:
    dedupe = Dedupe(RedisBackend.from_url(redis_url))
    try:
        assert await dedupe.first("slack", "event", "Ev1")
        lease = await dedupe.lease("slack", "msg", "C1", "5.0")
        assert lease is not None
        assert 598_000 < client.pttl("citebot:slack:event:Ev1") <= 600_000
        assert 28_000 < client.pttl("citebot:slack:msg:C1:5.0") <= 30_000
        assert client.get("citebot:slack:event:Ev1") == "done"
        assert client.get("citebot:slack:msg:C1:5.0") == lease.token
        client.pexpire(lease.key, 1_000)
        assert await lease.renew()
        assert 28_000 < client.pttl(lease.key) <= 30_000
        await lease.done()
        assert client.get(lease.key) == "done"
        assert 598_000 < client.pttl(lease.key) <= 600_000
        await dedupe.remember("thread", "C1", "5.0", ttl=THREAD_TTL)
        assert THREAD_TTL * 1000 - 2_000 < client.pttl("citebot:thread:C1:5.0") <= THREAD_TTL * 1000
        # a TTL under a millisecond is still a valid PX for Redis
        assert await dedupe.first("tiny", ttl=0.0001)
        assert client.pttl("citebot:tiny") <= 1
        assert not dedupe.degraded
    finally:
        await dedupe.close()


async def test_what_this_process_claimed_holds_when_redis_forgets_it(
    redis_url: str, client: redis.Redis
) -> None:
    dedupe = Dedupe(RedisBackend.from_url(redis_url))
    try:
        assert await dedupe.first("slack", "event", "Ev1")
        await dedupe.remember("thread", "C1", "6.0")
        client.flushall()  # a restarted Redis without persistence
        assert await dedupe.first("slack", "event", "Ev1") is False
        assert await dedupe.seen("thread", "C1", "6.0")
        assert not dedupe.degraded
    finally:
        await dedupe.close()


async def test_a_released_lock_is_free_for_the_other_replica_at_once(redis_url: str) -> None:
    one, two = (Dedupe(RedisBackend.from_url(redis_url), lease_ttl=30) for _ in range(2))
    try:
        async with one.lock("thread", "T1"):
            assert await two.lease("thread", "T1") is None
        assert await two.lease("thread", "T1") is not None
    finally:
        await one.close()
        await two.close()


async def test_the_lock_backs_off_from_20_ms_doubling_to_half_a_second(redis_url: str) -> None:
    steps = Steps()
    one = Dedupe(RedisBackend.from_url(redis_url), lease_ttl=30)
    two = Dedupe(RedisBackend.from_url(redis_url), lease_ttl=30, sleep=steps)
    entered = asyncio.Event()

    async def wait_for_it() -> None:
        async with two.lock("thread", "T2"):
            entered.set()

    try:
        async with one.lock("thread", "T2"):
            waiter = asyncio.create_task(wait_for_it())
            await steps.until(8)
            steps.go.clear()
            await steps.until(9)
        steps.go.set()
        await asyncio.wait_for(entered.wait(), waits.EVENT)
        await waiter
        assert steps.waits[:8] == [0.02, 0.04, 0.08, 0.16, 0.32, 0.5, 0.5, 0.5]
    finally:
        await one.close()
        await two.close()


async def test_redis_clients_time_out_after_2_s_and_close_their_connections(
    redis_url: str, client: redis.Redis
) -> None:
    backend = RedisBackend.from_url(redis_url)
    kwargs = backend._client.connection_pool.connection_kwargs
    assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (2.0, 2.0)
    dedupe = Dedupe(backend)
    assert await dedupe.first("x")
    assert client.info("clients")["connected_clients"] == 2
    await dedupe.close()
    assert client.info("clients")["connected_clients"] == 1
    assert dedupe.local is not None and dedupe.local.stored == 0


def test_without_the_redis_package_the_message_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "redis.asyncio", None)  # what a missing extra looks like
    with pytest.raises(RuntimeError) as raised:
        RedisBackend.from_url("redis://127.0.0.1:6379/0")
    assert str(raised.value) == (
        "ops.redis_url is set but the redis package is missing: pip install 'citebot[redis]'"
    )


def test_a_runtime_without_its_own_dedupe_keeps_both_configured_ttls() -> None:
    runtime = Runtime(load_settings(ops={"dedupe_ttl": 123.0, "lease_ttl": 7.0}))
    assert isinstance(runtime.dedupe, Dedupe)
    assert (runtime.dedupe.ttl, runtime.dedupe.lease_ttl) == (123.0, 7.0)
