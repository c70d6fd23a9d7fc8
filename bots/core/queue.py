"""One answer at a time per thread.

Two quick replies in one thread must not be answered side by side: the second
one's history should hold the first one's answer, and two streams in one thread
read as noise. :class:`ThreadQueue` hands out turns first come, first served
(``asyncio.Lock`` is fair) and forgets a thread as soon as nobody waits on it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from pipeline.question import Place

if TYPE_CHECKING:
    from bots.core.ports import Claims

__all__ = ["ThreadQueue", "thread_key"]


def thread_key(place: Place) -> str | None:
    """The queue key of a place; ``None`` for a question outside any thread."""
    if not place.thread:
        return None
    return f"{place.platform}:{place.workspace or '-'}:{place.channel or '-'}:{place.thread}"


class ThreadQueue:
    """``shared`` (the runtime's claims) makes a turn exclusive across replicas too: with
    Redis configured, two processes never answer in one thread at once."""

    def __init__(self, shared: Claims | None = None) -> None:
        self._shared = shared
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    def __len__(self) -> int:
        """Threads with a question running or waiting."""
        return len(self._locks)

    def busy(self, place: Place) -> bool:
        key = thread_key(place)
        return key is not None and key in self._locks and self._locks[key].locked()

    @contextlib.asynccontextmanager
    async def turn(self, place: Place) -> AsyncIterator[bool]:
        """Wait for this thread's turn; yields whether it had to wait."""
        key = thread_key(place)
        if key is None:
            yield False
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        waited = lock.locked()
        try:
            async with lock:
                if self._shared is None:
                    yield waited
                else:
                    async with self._shared.lock("thread", key):
                        yield waited
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                del self._locks[key]
