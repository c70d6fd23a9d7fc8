"""The plugin host of a test bot: the plugins under test, and a recorder of final answers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.core.dedupe import Dedupe
from bots.core.feedback import FeedbackStore
from bots.core.runtime import Answerer, Runtime
from bots.plugins.hookspecs import hookimpl
from bots.plugins.manager import PluginHost
from bots.settings import Settings
from bots.settings.sections import PluginSettings
from bots.testing.answerer import ScriptedAnswerer
from pipeline.events import Done
from pipeline.question import Question

RECORDER = "citebot.testing"


@dataclass
class Finished:
    question: Question
    done: Done
    at: float = field(default_factory=time.monotonic)


class AnswerRecorder:
    """Sees every final answer after every other plugin (``trylast``), so a test can wait
    for the answer the asker gets, as the plugins left it."""

    def __init__(self) -> None:
        self.finished: list[Finished] = []
        self._changed = asyncio.Condition()

    @hookimpl(trylast=True)
    async def after_answer(self, question: Question, done: Done) -> None:
        async with self._changed:
            self.finished.append(Finished(question, done))
            self._changed.notify_all()

    async def next_after(self, count: int, within: float) -> Finished:
        """The answer after the first ``count`` ones."""
        async with asyncio.timeout(within), self._changed:
            await self._changed.wait_for(lambda: len(self.finished) > count)
        return self.finished[count]


def plugin_host(
    plugins: Iterable[object], *, discover: bool = False, settings: PluginSettings | None = None
) -> tuple[PluginHost, AnswerRecorder]:
    """A host with the built-in commands, ``plugins`` (modules or objects) and the recorder.

    Installed plugins stay out unless ``discover`` is true, so a test sees its own plugin alone.
    """
    base = settings or PluginSettings()
    host = PluginHost(base.model_copy(update={"entry_points": discover and base.entry_points}))
    for plugin in plugins:
        host.register(plugin)
    recorder = AnswerRecorder()
    host.register(recorder, name=RECORDER)
    return host, recorder


@dataclass
class Wiring:
    """A test bot's runtime, what answers it, and the recorder of its final answers."""

    runtime: Runtime
    answerer: Any
    recorder: AnswerRecorder

    @property
    def questions(self) -> list[Any]:
        """What reached the answerer (after the plugins' rewrites and refusals)."""
        return list(getattr(self.answerer, "questions", []))


@contextmanager
def bot_runtime(
    settings: Settings,
    plugins: Iterable[object],
    *,
    answerer: Answerer | None = None,
    discover: bool = False,
) -> Iterator[Wiring]:
    """A runtime with ``plugins``, votes in the data dir, and ``answerer`` (a script by default)."""
    host, recorder = plugin_host(plugins, discover=discover, settings=settings.plugins)
    store = FeedbackStore(Path(settings.data_dir) / "feedback.sqlite3")
    chosen = answerer or ScriptedAnswerer()
    runtime = Runtime(settings, answerer=chosen, feedback=store, dedupe=Dedupe(), plugins=host)
    try:
        yield Wiring(runtime, chosen, recorder)
    finally:
        store.close()
