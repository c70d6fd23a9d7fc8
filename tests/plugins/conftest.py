"""Fixtures for plugin tests: a scripted answerer, a runtime around a real plugin host, and
the example plugin installed as an entry point."""

from __future__ import annotations

import tomllib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
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


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "citebot-example-plugin"


@pytest.fixture
def example_installed(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example plugin's distribution metadata on ``sys.path``, as ``pip install`` leaves it.

    A plain checkout does not install it (it is the opt-in ``examples`` group); its code
    is importable in the suite through pytest's ``pythonpath``.
    """
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    site = tmp_path_factory.mktemp("site-packages")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    points = "".join(f"{k} = {v}\n" for k, v in project["entry-points"]["citebot"].items())
    (info / "entry_points.txt").write_text(f"[citebot]\n{points}")
    monkeypatch.syspath_prepend(str(site))
