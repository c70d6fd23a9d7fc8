"""Exactly-once guards for platform events that arrive more than once.

Slack retries a delivery it thinks was lost, and one post can reach an app as
two events (``app_mention`` and ``message``). Every adapter asks a ``Dedupe``
to *claim* a key before it acts; only the first claim within the TTL wins.

The default backend keeps keys in memory, which is right for one process.
Several replicas share a Redis backend (``pip install citebot[redis]``), where
a claim is one atomic ``SET key 1 NX PX ttl``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from bots.ops import metrics

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = ["Dedupe", "DedupeBackend", "MemoryBackend", "RedisBackend", "build_dedupe"]


class DedupeBackend(Protocol):
    async def claim(self, key: str, ttl: float) -> bool:
        """Store ``key`` for ``ttl`` seconds; ``True`` only if it was not there."""
        ...

    async def put(self, key: str, ttl: float) -> None:
        """Store ``key`` for ``ttl`` seconds, whether or not it was there."""
        ...

    async def contains(self, key: str) -> bool: ...

    async def close(self) -> None: ...


class MemoryBackend:
    """A TTL set in one process. Expired keys are purged lazily, oldest first."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, max_keys: int = 200_000
    ) -> None:
        self._clock = clock
        self._max_keys = max_keys
        self._expiry: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []

    def __len__(self) -> int:
        self._purge(self._clock())
        return len(self._expiry)

    def _purge(self, now: float) -> None:
        heap = self._heap
        while heap and (heap[0][0] <= now or len(self._expiry) > self._max_keys):
            at, key = heapq.heappop(heap)
            if self._expiry.get(key) == at:
                del self._expiry[key]

    async def claim(self, key: str, ttl: float) -> bool:
        now = self._clock()
        self._purge(now)
        at = self._expiry.get(key)
        if at is not None and at > now:
            return False
        at = now + ttl
        self._expiry[key] = at
        heapq.heappush(self._heap, (at, key))
        return True

    async def put(self, key: str, ttl: float) -> None:
        now = self._clock()
        self._purge(now)
        at = now + ttl
        self._expiry[key] = at
        heapq.heappush(self._heap, (at, key))

    async def contains(self, key: str) -> bool:
        at = self._expiry.get(key)
        return at is not None and at > self._clock()

    async def close(self) -> None:
        self._expiry.clear()
        self._heap.clear()


class RedisBackend:
    """Keys shared by every replica through one Redis server."""

    def __init__(self, client: Any) -> None:
        self._client = client

    @classmethod
    def from_url(cls, url: str) -> RedisBackend:
        try:
            from redis.asyncio import Redis
        except ImportError:  # pragma: no cover - depends on the install
            raise RuntimeError(
                "ops.redis_url is set but the redis package is missing: pip install 'citebot[redis]'"
            ) from None
        return cls(Redis.from_url(url))

    async def claim(self, key: str, ttl: float) -> bool:
        return bool(await self._client.set(key, b"1", nx=True, px=max(1, int(ttl * 1000))))

    async def put(self, key: str, ttl: float) -> None:
        await self._client.set(key, b"1", px=max(1, int(ttl * 1000)))

    async def contains(self, key: str) -> bool:
        return bool(await self._client.exists(key))

    async def close(self) -> None:
        await self._client.aclose()


class Dedupe:
    """Claims namespaced keys on a backend.

    ``await dedupe.first("slack", "event", event_id)`` is ``True`` exactly once per
    key and TTL window, across every coroutine (and, with Redis, every replica):
    each claim is one atomic step on its backend, so no lock is needed.
    """

    def __init__(
        self, backend: DedupeBackend | None = None, *, ttl: float = 600.0, prefix: str = "citebot:"
    ) -> None:
        self.backend: DedupeBackend = backend if backend is not None else MemoryBackend()
        self.ttl = ttl
        self.prefix = prefix

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def first(self, *parts: str, ttl: float | None = None) -> bool:
        claimed = await self.backend.claim(self.key(*parts), self.ttl if ttl is None else ttl)
        if not claimed and parts:
            metrics.dedupe_hit(parts[0])
        return claimed

    async def remember(self, *parts: str, ttl: float | None = None) -> None:
        await self.backend.put(self.key(*parts), self.ttl if ttl is None else ttl)

    async def seen(self, *parts: str) -> bool:
        return await self.backend.contains(self.key(*parts))

    async def close(self) -> None:
        await self.backend.close()


def build_dedupe(settings: Settings) -> Dedupe:
    """Memory by default; Redis when ``ops.redis_url`` is set."""
    url = settings.ops.redis_url
    backend: DedupeBackend = (
        RedisBackend.from_url(url.get_secret_value()) if url is not None else MemoryBackend()
    )
    return Dedupe(backend, ttl=settings.ops.dedupe_ttl)
