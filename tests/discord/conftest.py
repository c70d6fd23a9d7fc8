"""A real discord.py client against the fake Discord in bots/testing/discord_api.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bots.core.dedupe import Dedupe
from bots.core.feedback import FeedbackStore
from bots.core.runtime import Runtime
from bots.platforms.discord import CitebotBot, configure_endpoints, create_bot
from bots.settings import Settings
from bots.testing.discord_api import FakeDiscord
from citations.model import CitedAnswer, Reference, Segment, Source
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question
from tests import waits

GUIDE = Source(
    1, "https://docs.example.com/guide#keys", "Key rotation guide", "Keys rotate every 90 days."
)
FAQ = Source(2, "https://docs.example.com/faq", "FAQ", "Ask the platform team.")


def cited(
    *pieces: tuple[str, tuple[int, ...]], sources: tuple[Source, ...] = (GUIDE, FAQ)
) -> CitedAnswer:
    refs = tuple(Reference(s.id, s.url, s.title, (s,)) for s in sources)
    return CitedAnswer(segments=tuple(Segment(t, c) for t, c in pieces), references=refs)


DEFAULT_ANSWER = cited(
    ("Keys rotate every 90 days", (1,)), (". Ask the platform team", (2,)), (".", ())
)

Script = Callable[[Question], AsyncIterator[Progress]]


async def streamed(
    question: Question, answer: CitedAnswer = DEFAULT_ANSWER, *, pause: float = 0.0
) -> AsyncIterator[Progress]:
    """The pipeline's shape: statuses, then the answer in small deltas, then Done."""
    yield Status("Searching the knowledge base…", "retrieve")
    yield Status("Writing the answer…", "generate")
    text = answer.text
    for i in range(0, len(text), 12):
        if pause:
            await asyncio.sleep(pause)  # simulated token latency, not a wait for work
        yield AnswerDelta(text[i : i + 12])
    yield Done(answer=answer, route=Route.KNOWLEDGE_BASE, question=question.text)


class ScriptedAnswerer:
    """Our ``Answerer`` protocol, answering from a script; records every question."""

    def __init__(self) -> None:
        self.questions: list[Question] = []
        self.script: Script = streamed
        self.asked = asyncio.Event()

    def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.questions.append(question)
        self.asked.set()
        return self.script(question)


@dataclass
class Harness:
    fake: FakeDiscord
    bot: CitebotBot
    runtime: Runtime
    answerer: ScriptedAnswerer
    store: FeedbackStore
    settings: Settings
    task: asyncio.Task[None]
    extra: dict[str, Any] = field(default_factory=dict)

    async def stop(self) -> None:
        await self.bot.close()
        await asyncio.gather(self.task, return_exceptions=True)


StartBot = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord().start()
    yield server
    await server.stop()


@pytest.fixture
async def start_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[StartBot]:
    """``await start_bot(edit_interval=0.3, plugins=host)``: a connected bot, closed after the test."""
    started: list[Harness] = []
    store = FeedbackStore(tmp_path / "feedback.sqlite3")

    async def start(
        *,
        plugins: Any = None,
        access: dict[str, Any] | None = None,
        root: dict[str, Any] | None = None,
        answerer: Callable[[Settings], Any] | None = None,
        **discord: Any,
    ) -> Harness:
        settings = Settings(
            **{"data_dir": tmp_path, **(root or {})},
            discord={
                "token": "fake-token",
                "api_url": fake.api_url,
                "gateway_url": fake.gateway_url,
                "edit_interval": 0.02,
                **discord,
            },
            access=access or {},
        )
        scripted = ScriptedAnswerer()
        runtime = Runtime(
            settings,
            answerer=answerer(settings) if answerer is not None else scripted,
            feedback=store,
            dedupe=Dedupe(),
            plugins=plugins,
        )
        configure_endpoints(settings.discord)
        bot = create_bot(settings, runtime, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start("fake-token"))
        await asyncio.wait_for(bot.wait_until_ready(), waits.EVENT)
        harness = Harness(fake, bot, runtime, scripted, store, settings, task)
        started.append(harness)
        return harness

    yield start
    for harness in started:
        await harness.stop()
    store.close()
