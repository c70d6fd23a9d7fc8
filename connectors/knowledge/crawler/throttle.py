"""Politeness: a minimum gap between request starts to the same host."""

from __future__ import annotations

import asyncio
import time


class HostThrottle:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._next: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def wait(self, host: str, delay: float | None = None) -> None:
        gap = max(self.delay, delay or 0.0)
        if gap <= 0:
            return
        lock = self._locks.setdefault(host, asyncio.Lock())
        async with lock:
            now = time.monotonic()
            start = max(now, self._next.get(host, now))
            self._next[host] = start + gap
        if start > now:
            # a rate limit is a wait by definition; nothing else can signal it
            await asyncio.sleep(start - now)
