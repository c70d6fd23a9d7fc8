"""The Discord surface of the adapter contract: one answer in one message.

A placeholder shows the pipeline's status texts, then the answer as it
streams, by editing the same message at most once per ``interval`` seconds.
The final edit is always sent: the answer with linked ``[n]`` markers, the
Sources embed and the feedback buttons; text past 2000 characters continues
in further messages. Whatever fails, the placeholder ends as a short,
visible error instead of hanging at "Thinking…".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence

import discord

from bots.platforms.discord.feedback import feedback_view
from bots.platforms.discord.render import CONTENT_LIMIT, Part, preview, to_parts
from bots.platforms.discord.surfaces import Canvas
from pipeline.errors import SORRY
from pipeline.events import Done

log = logging.getLogger("citebot.discord")

THINKING = "Thinking…"
FAILED = f"⚠️ {SORRY}"


def status_line(text: str) -> str:
    return f"⏳ {text}"


class MessageSurface:
    """Implements :class:`bots.platforms.base.Surface` on a Discord :class:`Canvas`."""

    def __init__(
        self,
        canvas: Canvas,
        *,
        interval: float = 1.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.canvas = canvas
        self.interval = interval
        self._clock = clock
        self._status = THINKING
        self._text = ""
        self._shown: str | None = None
        self._last_edit = float("-inf")
        self._dirty = asyncio.Event()
        self._closing = asyncio.Event()
        self._edit_lock = asyncio.Lock()
        self._flusher: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self._edit(status_line(self._status))
        self._flusher = asyncio.create_task(self._flush_loop())

    async def status(self, text: str) -> None:
        self._status = text
        self._dirty.set()

    async def delta(self, text: str) -> None:
        self._text += text
        self._dirty.set()

    async def _stop_flushing(self) -> None:
        self._closing.set()
        self._dirty.set()
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)

    # ------------------------------------------------------------------ streaming
    def _live(self) -> str:
        return preview(self._text) if self._text else status_line(self._status)

    async def _flush_loop(self) -> None:
        while True:
            await self._dirty.wait()
            if self._closing.is_set():
                return
            delay = self._last_edit + self.interval - self._clock()
            if delay > 0:
                # a throttle, not a wait for work: the final edit cuts it short
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), delay)
                if self._closing.is_set():
                    return
            self._dirty.clear()
            content = self._live()
            if content == self._shown:
                continue
            try:
                await self._edit(content)
            except discord.HTTPException:
                # a lost progress edit is harmless; the final edit carries everything
                log.warning("a progress edit failed", exc_info=True)

    async def _edit(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
        throttle: bool = False,
    ) -> None:
        async with self._edit_lock:
            if throttle:
                delay = self._last_edit + self.interval - self._clock()
                if delay > 0:
                    await asyncio.sleep(delay)
            try:
                await self.canvas.show(content, embeds=embeds, view=view)
            finally:
                self._last_edit = self._clock()
            self._shown = content

    # ------------------------------------------------------------------ the end
    async def finish(self, done: Done, answer_id: str | None) -> None:
        await self._stop_flushing()
        parts = list(to_parts(done.answer))
        if done.outcome.is_failure:
            log.warning("question ended with an error: %s", done.reason)
            flagged = "⚠️ " + parts[0].content
            if len(flagged) <= CONTENT_LIMIT:
                parts[0] = Part(flagged, parts[0].embeds)
        view = feedback_view(answer_id) if answer_id is not None else None
        first, *rest = parts
        first_view = None if rest else view
        for attempt in (1, 2):
            try:
                await self._edit(first.content, embeds=first.embeds, view=first_view, throttle=True)
                break
            except discord.HTTPException:
                log.warning("replacing the preview failed (attempt %d)", attempt, exc_info=True)
        else:
            # the preview stays (it shows no link and no ping); the answer goes out fresh
            await self.canvas.more(first.content, embeds=first.embeds, view=first_view)
        for i, part in enumerate(rest, start=1):
            await self.canvas.more(
                part.content, embeds=part.embeds, view=view if i == len(rest) else None
            )

    async def fail(self) -> None:
        await self._stop_flushing()
        await self._edit(FAILED)
