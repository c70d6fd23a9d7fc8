"""Turns a stream of ``Progress`` into one Discord answer.

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
from typing import TYPE_CHECKING

import discord

from bots.core.runtime import SORRY
from bots.platforms.discord.feedback import feedback_view
from bots.platforms.discord.places import PLATFORM
from bots.platforms.discord.render import CONTENT_LIMIT, Part, preview, to_parts
from bots.platforms.discord.surfaces import Surface
from pipeline.events import AnswerDelta, Done, Status

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from pipeline.question import Question

log = logging.getLogger("citebot.discord")

THINKING = "Thinking…"
FAILED = f"⚠️ {SORRY}"
#: Refusals that are the user's to fix or wait out, not failures: shown without a warning sign.
_POLITE = ("empty", "too_long", "rate_limited", "refused by plugin")


def failed(done: Done) -> bool:
    return done.error is not None and not done.error.startswith(_POLITE)


def status_line(text: str) -> str:
    return f"⏳ {text}"


class Responder:
    def __init__(
        self,
        surface: Surface,
        runtime: Runtime,
        question: Question,
        *,
        interval: float = 1.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.surface = surface
        self.runtime = runtime
        self.question = question
        self.interval = interval
        self._clock = clock
        self._status = THINKING
        self._text = ""
        self._shown: str | None = None
        self._last_edit = float("-inf")
        self._dirty = asyncio.Event()
        self._closing = asyncio.Event()
        self._edit_lock = asyncio.Lock()

    async def run(self) -> Done | None:
        """Answer the question; returns the ``Done`` that was shown, or ``None`` on failure."""
        try:
            await self._edit(status_line(self._status))
        except discord.HTTPException:
            log.exception("could not post the placeholder for question %s", self.question.id)
            return None
        flusher = asyncio.create_task(self._flush_loop())
        done: Done | None = None
        try:
            async for event in self.runtime.ask(self.question):
                if isinstance(event, Status):
                    self._status = event.text
                elif isinstance(event, AnswerDelta):
                    self._text += event.text
                elif isinstance(event, Done):
                    done = event
                    break
                self._dirty.set()
        except Exception:
            log.exception("answering question %s failed", self.question.id)
        finally:
            self._closing.set()
            self._dirty.set()
            await asyncio.gather(flusher, return_exceptions=True)
        if done is None:
            await self._fail()
            return None
        try:
            await self._finish(done)
        except Exception:
            log.exception("could not send the answer to question %s", self.question.id)
            await self._fail()
            return None
        return done

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
                log.warning("progress edit failed for question %s", self.question.id, exc_info=True)

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
                await self.surface.show(content, embeds=embeds, view=view)
            finally:
                self._last_edit = self._clock()
            self._shown = content

    # ------------------------------------------------------------------ the end
    async def _finish(self, done: Done) -> None:
        parts = list(to_parts(done.answer))
        if failed(done):
            log.warning("question %s ended with an error: %s", self.question.id, done.error)
            flagged = "⚠️ " + parts[0].content
            if len(flagged) <= CONTENT_LIMIT:
                parts[0] = Part(flagged, parts[0].embeds)
        view = await self._feedback(done)
        first, *rest = parts
        await self._edit(
            first.content, embeds=first.embeds, view=None if rest else view, throttle=True
        )
        for i, part in enumerate(rest, start=1):
            await self.surface.more(
                part.content, embeds=part.embeds, view=view if i == len(rest) else None
            )

    async def _feedback(self, done: Done) -> discord.ui.View | None:
        store = self.runtime.feedback
        if store is None or done.error is not None:
            return None
        references = [
            {"number": ref.number, "url": ref.url, "title": ref.title, "origin": str(ref.origin)}
            for ref in done.answer.references
        ]
        try:
            await asyncio.to_thread(
                store.record_answer,
                self.question.id,
                platform=PLATFORM,
                question=self.question.text,
                route=str(done.route),
                references=references,
            )
        except Exception:
            log.exception(
                "could not record answer %s; sending it without feedback buttons", self.question.id
            )
            return None
        return feedback_view(self.question.id)

    async def _fail(self) -> None:
        try:
            await self._edit(FAILED)
        except Exception:
            log.exception("could not show the error for question %s", self.question.id)
