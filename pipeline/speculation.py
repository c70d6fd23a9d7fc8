"""An answer started while the LLM grades, used only if the grade keeps the same passages.

With the LLM grader, the answer's first token used to wait for a whole grading round
trip. A speculation starts generating at once over the passages the cheap (embedding)
grade would keep, and buffers what the model sends. When the LLM's grades are in and
``decide`` keeps exactly those passages, ``generate`` shows the buffered text and carries
on with the same stream: the same prompt over the same sources it would have sent then,
so the answer and its self-check are unchanged. Otherwise it is cancelled (its prompt
tokens are paid, and counted in the run's usage).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from citations.model import Source

__all__ = ["Speculation"]

_END = object()


class Speculation:
    """One speculative answer stream: ``guess`` picks the sources, ``stream`` starts the call."""

    def __init__(
        self,
        guess: Callable[[], Awaitable[list[Source] | None]],
        stream: Callable[[list[Source]], Awaitable[AsyncIterator[Any]]],
    ) -> None:
        self.sources: list[Source] | None = None
        self._chunks: asyncio.Queue[Any] = asyncio.Queue()
        self._guessed = asyncio.Event()
        self._task = asyncio.ensure_future(self._run(guess, stream))

    async def _run(
        self,
        guess: Callable[[], Awaitable[list[Source] | None]],
        stream: Callable[[list[Source]], Awaitable[AsyncIterator[Any]]],
    ) -> None:
        try:
            try:
                self.sources = await guess() or None
            finally:
                self._guessed.set()
            if self.sources is None:
                return
            async for chunk in await stream(self.sources):
                self._chunks.put_nowait(chunk)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # handed to the consumer, which handles it like its own call
            self._chunks.put_nowait(exc)
        finally:
            self._chunks.put_nowait(_END)

    async def settled(self) -> list[Source] | None:
        """The guessed sources once known (``None``: nothing was started)."""
        await self._guessed.wait()  # a few ms of local work, long done when the grade is in
        return self.sources

    async def take(self, sources: Sequence[Source]) -> AsyncIterator[Any] | None:
        """The answer stream if it was started over the same set of ``sources``, else
        ``None`` (and the speculation is cancelled)."""
        guessed = await self.settled()
        if guessed is None or set(guessed) != set(sources) or len(guessed) != len(sources):
            self.cancel()
            return None
        return self._drain()

    async def _drain(self) -> AsyncIterator[Any]:
        while (item := await self._chunks.get()) is not _END:
            if isinstance(item, Exception):
                raise item
            yield item

    def cancel(self) -> None:
        self._task.cancel()
