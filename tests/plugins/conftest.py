"""Fixtures for plugin tests: a scripted answerer and a runtime around a real plugin host."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bots.core.runtime import Runtime
from bots.plugins.manager import PluginHost
from bots.settings import Settings, load_settings
from citations.model import CitedAnswer
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question


class ScriptedAnswerer:
    """Answers every question with the same text and route, and remembers what it was asked."""

    def __init__(
        self, text: str = "Deploys run nightly.", route: Route = Route.KNOWLEDGE_BASE
    ) -> None:
        self.text = text
        self.route = route
        self.fail: Exception | None = None
        self.questions: list[Question] = []

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.questions.append(question)
        yield Status("Searching the knowledge base…", stage="retrieve")
        if self.fail is not None:
            raise self.fail
        yield AnswerDelta(self.text)
        yield Done(answer=CitedAnswer.empty(self.text), route=self.route, question=question.text)


async def final(runtime: Runtime, question: Question) -> tuple[list[Progress], Done]:
    events = [e async for e in runtime.ask(question)]
    assert isinstance(events[-1], Done)
    assert sum(isinstance(e, Done) for e in events) == 1
    return events, events[-1]


@pytest.fixture
def answerer() -> ScriptedAnswerer:
    return ScriptedAnswerer()


@pytest.fixture
def make_host() -> Callable[..., PluginHost]:
    def make(**plugins: Any) -> PluginHost:
        return PluginHost(load_settings(plugins=plugins).plugins)

    return make


@pytest.fixture
def make_runtime(answerer: ScriptedAnswerer) -> Callable[..., Runtime]:
    def make(host: PluginHost | None = None, **overrides: Any) -> Runtime:
        settings: Settings = load_settings(**overrides)
        return Runtime(settings, answerer=answerer, plugins=host or PluginHost(settings.plugins))

    return make
