"""Politeness: a minimum gap between request starts to the same host."""

from __future__ import annotations

import asyncio
import time


class HostThrottle:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._last: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def wait(self, host: str, delay: float | None = None) -> None:
        """Return when a request to ``host`` may start: ``delay`` after the last one did.

        The gap is counted from when the last request was let go, not from when it was
        due: a busy event loop that lets a request go late pushes the next one back too.
        """
        gap = max(self.delay, delay or 0.0)
        if gap <= 0:
            return
        async with self._locks.setdefault(host, asyncio.Lock()):
            last = self._last.get(host)
            if last is not None and (left := last + gap - time.monotonic()) > 0:
                # a rate limit is a wait by definition; nothing else can signal it
                await asyncio.sleep(left)
            self._last[host] = time.monotonic()
