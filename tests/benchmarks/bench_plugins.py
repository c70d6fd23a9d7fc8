"""Plugin hook overhead per question: Runtime.ask with no plugins vs the real plugin host.

The answerer is instant, so the ratio is the worst case: with a real pipeline
(hundreds of milliseconds per answer) the hooks' share is far smaller. Run with::

    uv run pytest tests/benchmarks/bench_plugins.py -m benchmark -s
"""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator

import pytest

from bots.core.runtime import Runtime
from bots.plugins import hookimpl
from bots.plugins.manager import PluginHost
from bots.settings import load_settings
from citations.model import CitedAnswer
from pipeline.events import AnswerDelta, Done, Progress, Route
from pipeline.question import Place, Question
from tests.benchmarks.summary import summary

pytestmark = pytest.mark.benchmark

QUESTIONS = 2000


class Instant:
    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        yield AnswerDelta("Deploys run nightly.")
        yield Done(CitedAnswer.empty("Deploys run nightly."), Route.KNOWLEDGE_BASE)


class Noop:
    @hookimpl
    def before_question(self, question: Question) -> None:
        return None

    @hookimpl
    async def after_answer(self, question: Question) -> None:
        return None


async def _per_question_us(runtime: Runtime) -> float:
    rounds = []
    for _ in range(3):
        started = time.perf_counter()
        for i in range(QUESTIONS):
            question = Question(
                f"how do deploys work on K8s? ({i})", place=Place("slack", "T", f"C{i}")
            )
            async for _event in runtime.ask(question):
                pass
        rounds.append((time.perf_counter() - started) / QUESTIONS * 1e6)
    return statistics.median(rounds)


async def test_hook_overhead_per_question() -> None:
    settings = load_settings(limits={"user_per_minute": 0, "channel_per_minute": 0})
    started = time.perf_counter()
    host = PluginHost(settings.plugins)
    discovery_ms = (time.perf_counter() - started) * 1e3
    crowded = PluginHost(settings.plugins)
    for n in range(8):
        crowded.register(Noop(), name=f"noop{n}")

    baseline = await _per_question_us(Runtime(settings, answerer=Instant()))
    example = await _per_question_us(Runtime(settings, answerer=Instant(), plugins=host))
    many = await _per_question_us(Runtime(settings, answerer=Instant(), plugins=crowded))

    print(
        f"\nplugin discovery (builtin + example entry point): {discovery_ms:.1f} ms"
        f"\nRuntime.ask, {QUESTIONS} questions, instant answerer (median of 3 rounds):"
        f"\n  no plugins                  {baseline:8.1f} µs/question"
        f"\n  builtin + example plugin    {example:8.1f} µs/question  ratio {example / baseline:.2f}x"
        f"  (+{example - baseline:.1f} µs)"
        f"\n  + 8 no-op plugins (16 hooks){many:8.1f} µs/question  ratio {many / baseline:.2f}x"
        f"  (+{many - baseline:.1f} µs)"
    )
    summary(
        "plugin hooks per question",
        f"+{example - baseline:.1f} µs (builtin + example; 8 more no-ops +{many - baseline:.1f} µs)",
        f"no plugins {baseline:.1f} µs",
        example / baseline,
        "< +1000 µs",
        example - baseline < 1000,
    )
    # a hook costs microseconds; a real answer costs hundreds of milliseconds
    assert example - baseline < 1000
