"""Exactly-once guards for platform events that arrive more than once.

Slack retries a delivery it thinks was lost, and one post can reach an app as
two events (``app_mention`` and ``message``). Every adapter asks a ``Dedupe``
for a *lease* on a key before it answers: a short claim, renewed while the
answer is produced and turned into a lasting "done" mark once it is posted.
If the process dies mid-answer the lease runs out, so Slack's next retry (or
another replica) answers instead of nobody.

The default backend keeps keys in memory, which is right for one process.
Several replicas share a Redis backend (``pip install citebot[redis]``), where
a claim is one atomic ``SET key token NX PX ttl``. Every claim is mirrored in
memory, so when Redis goes away the process falls back to what it knows
itself instead of answering every retry (counted as ``dedupe_degraded``).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bots.ops import metrics

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = [
    "THREAD_TTL",
    "Dedupe",
    "DedupeBackend",
    "Lease",
    "MemoryBackend",
    "RedisBackend",
    "build_dedupe",
]

log = logging.getLogger("citebot.dedupe")

T = TypeVar("T")

#: how long a thread the bot answered stays "ours" for follow-ups without a mention
THREAD_TTL = 14 * 24 * 3600.0

#: the value of a key whose work is finished (a lease holds a random token instead)
DONE = "done"


class DedupeBackend(Protocol):
    async def claim(self, key: str, ttl: float, token: str = DONE) -> bool:
        """Store ``key`` = ``token`` for ``ttl`` seconds; ``True`` only if it was not there."""
        ...

    async def renew(self, key: str, token: str, ttl: float) -> bool:
        """Extend ``key`` to ``ttl`` seconds from now if it still holds ``token``."""
        ...

    async def release(self, key: str, token: str) -> None:
        """Drop ``key`` if it still holds ``token``."""
        ...

    async def put(self, key: str, ttl: float) -> None:
        """Store ``key`` as done for ``ttl`` seconds, whether or not it was there."""
        ...

    async def contains(self, key: str) -> bool: ...

    async def close(self) -> None: ...


class MemoryBackend:
    """A TTL map in one process. Expired keys are purged lazily, oldest first."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, max_keys: int = 200_000
    ) -> None:
        self._clock = clock
        self._max_keys = max_keys
        self._expiry: dict[str, float] = {}
        self._token: dict[str, str] = {}
        self._heap: list[tuple[float, str]] = []

    @property
    def stored(self) -> int:
        """Keys held right now, expired or not (no purge: what the memory really holds)."""
        return len(self._expiry)

    def __len__(self) -> int:
        self._purge(self._clock())
        return len(self._expiry)

    def _purge(self, now: float) -> None:
        heap = self._heap
        while heap and (heap[0][0] <= now or len(self._expiry) > self._max_keys):
            at, key = heapq.heappop(heap)
            if self._expiry.get(key) == at:
                del self._expiry[key]
                del self._token[key]

    def _live(self, key: str, now: float) -> str | None:
        at = self._expiry.get(key)
        return self._token[key] if at is not None and at > now else None

    def _set(self, key: str, token: str, at: float) -> None:
        self._expiry[key] = at
        self._token[key] = token
        heapq.heappush(self._heap, (at, key))

    async def claim(self, key: str, ttl: float, token: str = DONE) -> bool:
        now = self._clock()
        self._purge(now)
        if self._live(key, now) is not None:
            return False
        self._set(key, token, now + ttl)
        return True

    async def renew(self, key: str, token: str, ttl: float) -> bool:
        now = self._clock()
        if self._live(key, now) != token:
            return False
        self._set(key, token, now + ttl)
        return True

    async def release(self, key: str, token: str) -> None:
        if self._live(key, self._clock()) == token:
            # its heap entry goes stale and is skipped when popped
            del self._expiry[key]
            del self._token[key]

    async def put(self, key: str, ttl: float) -> None:
        now = self._clock()
        self._purge(now)
        self._set(key, DONE, now + ttl)

    async def contains(self, key: str) -> bool:
        return self._live(key, self._clock()) is not None

    async def close(self) -> None:
        self._expiry.clear()
        self._token.clear()
        self._heap.clear()


_RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end"
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"


def _ms(ttl: float) -> int:
    return max(1, int(ttl * 1000))


#: seconds a Redis call may take: a Redis that hangs degrades the bot, not every answer
REDIS_TIMEOUT = 2.0


class RedisBackend:
    """Keys shared by every replica through one Redis server."""

    def __init__(self, client: Any) -> None:
        self._client = client

    @classmethod
    def from_url(cls, url: str, *, timeout: float = REDIS_TIMEOUT) -> RedisBackend:
        try:
            from redis.asyncio import Redis
        except ImportError:  # pragma: no cover - depends on the install
            raise RuntimeError(
                "ops.redis_url is set but the redis package is missing: pip install 'citebot[redis]'"
            ) from None
        # bounded, so a Redis that hangs degrades the bot instead of wedging every answer
        return cls(Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout))

    async def claim(self, key: str, ttl: float, token: str = DONE) -> bool:
        return bool(await self._client.set(key, token, nx=True, px=_ms(ttl)))

    async def renew(self, key: str, token: str, ttl: float) -> bool:
        return bool(await self._client.eval(_RENEW, 1, key, token, _ms(ttl)))

    async def release(self, key: str, token: str) -> None:
        await self._client.eval(_RELEASE, 1, key, token)

    async def put(self, key: str, ttl: float) -> None:
        await self._client.set(key, DONE, px=_ms(ttl))

    async def contains(self, key: str) -> bool:
        return bool(await self._client.exists(key))

    async def close(self) -> None:
        await self._client.aclose()


class Lease:
    """A claim on one delivery: renew it while answering, mark it done once the reply is out.

    ``async with lease.held():`` does both; leaving the block by an exception
    releases the key so a retry may answer.
    """

    def __init__(self, dedupe: Dedupe, key: str, token: str) -> None:
        self._dedupe = dedupe
        self.key = key
        self.token = token

    async def renew(self) -> bool:
        return await self._dedupe._renew(self.key, self.token)

    async def done(self) -> None:
        try:
            await self._dedupe._put(self.key, self._dedupe.ttl)
        finally:
            self._dedupe._held.discard(self.key)

    async def release(self) -> None:
        self._dedupe._held.discard(self.key)
        await self._dedupe._release(self.key, self.token)

    async def _keep(self) -> None:
        while True:
            await self._dedupe._sleep(self._dedupe.lease_ttl / 3)
            if not await self.renew():
                log.warning("lost the lease on %s while answering", self.key)

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """Renewed for the block; done after it, released if it raised (a delivery)."""
        keeper = asyncio.create_task(self._keep())
        try:
            yield
        except BaseException:
            keeper.cancel()
            with contextlib.suppress(Exception):
                await asyncio.shield(self.release())
            raise
        keeper.cancel()
        await self.done()

    @contextlib.asynccontextmanager
    async def kept(self) -> AsyncIterator[None]:
        """Renewed for the block; released after it however it ends (a lock)."""
        keeper = asyncio.create_task(self._keep())
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(Exception):
                await asyncio.shield(self.release())


class Dedupe:
    """Claims namespaced keys on a backend.

    ``await dedupe.first("slack", "event", event_id)`` is ``True`` exactly once per
    key and TTL window, across every coroutine (and, with Redis, every replica):
    each claim is one atomic step on its backend, so no lock is needed.
    ``await dedupe.lease(...)`` is the same for work that may not finish.
    """

    def __init__(
        self,
        backend: DedupeBackend | None = None,
        *,
        ttl: float = 600.0,
        lease_ttl: float = 30.0,
        prefix: str = "citebot:",
        retry_after: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.backend: DedupeBackend = backend if backend is not None else MemoryBackend()
        # what this process knows itself: the fallback when a shared backend fails
        self.local: MemoryBackend | None = (
            None if isinstance(self.backend, MemoryBackend) else MemoryBackend(clock=clock)
        )
        self.ttl = ttl
        self.lease_ttl = lease_ttl
        self.prefix = prefix
        self._retry_after = retry_after
        self._clock = clock
        # the keeper's and the lock's waits: a test drives them without waiting
        self._sleep = sleep
        self._down_until: float | None = None
        # leases this process holds until done or released, whatever their TTL says: an event
        # loop stalled past the lease (CPU starved, a long GC) must not answer its own retry twice
        self._held: set[str] = set()

    @property
    def shared(self) -> bool:
        """Claims go through a backend other processes see (Redis), not this process's memory."""
        return self.local is not None

    @property
    def degraded(self) -> bool:
        """The shared backend failed lately; claims are this process's own."""
        return self._down_until is not None

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def _shared(
        self, call: Callable[[], Awaitable[T]], fallback: Callable[[], Awaitable[T]]
    ) -> tuple[T, bool]:
        """``call`` on the shared backend, or ``fallback`` while it is down; and whether shared."""
        if self.local is None:
            return await call(), True
        if self._down_until is not None and self._clock() < self._down_until:
            return await fallback(), False
        try:
            result = await call()
        except Exception as exc:
            if self._down_until is None:
                log.warning(
                    "dedupe backend unavailable (%s); using this process's memory",
                    type(exc).__name__,
                )
            self._down_until = self._clock() + self._retry_after
            metrics.error("dedupe_degraded")
            return await fallback(), False
        if self._down_until is not None:
            log.warning("dedupe backend is back")
            self._down_until = None
        return result, True

    async def _claim(self, key: str, ttl: float, token: str) -> bool:
        if key in self._held:
            return False
        local = self.local
        if local is not None and await local.contains(key):
            return False
        claimed, shared = await self._shared(
            lambda: self.backend.claim(key, ttl, token),
            lambda: local.claim(key, ttl, token) if local is not None else _const(False),
        )
        if claimed and shared and local is not None:
            await local.claim(key, ttl, token)
        return claimed

    async def _renew(self, key: str, token: str) -> bool:
        local = self.local
        if local is not None:
            await local.renew(key, token, self.lease_ttl)
        renewed, _ = await self._shared(
            lambda: self.backend.renew(key, token, self.lease_ttl),
            lambda: local.renew(key, token, self.lease_ttl) if local is not None else _const(False),
        )
        return renewed

    async def _release(self, key: str, token: str) -> None:
        if self.local is not None:
            await self.local.release(key, token)
        await self._shared(lambda: self.backend.release(key, token), lambda: _const(None))

    async def _put(self, key: str, ttl: float) -> None:
        if self.local is not None:
            await self.local.put(key, ttl)
        await self._shared(lambda: self.backend.put(key, ttl), lambda: _const(None))

    async def first(self, *parts: str, ttl: float | None = None) -> bool:
        claimed = await self._claim(self.key(*parts), self.ttl if ttl is None else ttl, DONE)
        if not claimed and parts:
            metrics.dedupe_hit(parts[0])
        return claimed

    async def lease(self, *parts: str) -> Lease | None:
        """A lease on ``parts`` for ``lease_ttl`` seconds, or ``None`` if it is held or done."""
        key, token = self.key(*parts), uuid.uuid4().hex
        if await self._claim(key, self.lease_ttl, token):
            self._held.add(key)
            return Lease(self, key, token)
        if parts:
            metrics.dedupe_hit(parts[0])
        return None

    @contextlib.asynccontextmanager
    async def lock(self, *parts: str) -> AsyncIterator[None]:
        """Hold ``parts`` exclusively across replicas for the block.

        Alone (the memory backend) the caller's own ``asyncio.Lock`` already is the
        whole story, so this holds nothing. With Redis, the holder is another
        process with nothing here to wait on: poll with backoff, while the holder's
        lease is renewed, or lapses if it died.
        """
        if self.local is None:
            yield
            return
        key, token, wait = self.key(*parts), uuid.uuid4().hex, 0.02
        while not await self._claim(key, self.lease_ttl, token):
            await self._sleep(wait)
            wait = min(wait * 2, 0.5)
        async with Lease(self, key, token).kept():
            yield

    async def remember(self, *parts: str, ttl: float | None = None) -> None:
        await self._put(self.key(*parts), self.ttl if ttl is None else ttl)

    async def seen(self, *parts: str) -> bool:
        key = self.key(*parts)
        local = self.local
        if local is not None and await local.contains(key):
            return True
        found, _ = await self._shared(
            lambda: self.backend.contains(key),
            lambda: local.contains(key) if local is not None else _const(False),
        )
        return found

    async def close(self) -> None:
        await self.backend.close()
        if self.local is not None:
            await self.local.close()


async def _const(value: T) -> T:
    return value


def build_dedupe(settings: Settings) -> Dedupe:
    """Memory by default; Redis when ``ops.redis_url`` is set."""
    url = settings.ops.redis_url
    backend: DedupeBackend = (
        RedisBackend.from_url(url.get_secret_value()) if url is not None else MemoryBackend()
    )
    return Dedupe(backend, ttl=settings.ops.dedupe_ttl, lease_ttl=settings.ops.lease_ttl)
