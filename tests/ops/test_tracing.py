"""OpenTelemetry tracing of ``Runtime.ask``, exported by the real SDK to its in-memory exporter."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from bots.core.runtime import Runtime
from bots.ops import metrics
from bots.ops.tracing import QUESTION_SPAN
from bots.settings import load_settings
from citations.model import CitedAnswer
from pipeline.events import AnswerDelta, Decision, Done, Outcome, Progress, Route, Status
from pipeline.question import Place, Question, Trigger
from pipeline.trace import Tracer

ROOT = Path(__file__).resolve().parents[2]
SECRET = "my salary is 91k, should I ask for more"


def _trace() -> tuple[Decision, ...]:
    t = Tracer()
    t.add("condense", "no thread history; the question stands alone")
    t.add("retrieve", "4 chunks", ms=1.5, query=SECRET, top_k=4, scores=[0.8, 0.4])
    t.add("grade", "graded 4 chunks", ms=3.25, grader="llm", graded=4, grades=[0.9, 0.1])
    t.add("decide", "correct", best=0.9, upper=0.7, lower=0.3, kept=1, web="web search is off")
    t.add("generate", "LLM answer", ms=25.0, sources=1, stricter=False, chars=42)
    t.add("check", "grounded", ms=8.0, grounded=True, useful=True, unsupported=[SECRET])
    t.add(
        "finalize",
        "route knowledge_base",
        route="knowledge_base",
        verdict="correct",
        references=["https://docs.example.com/pay"],
        retries=0,
        prompt_tokens=900,
        completion_tokens=120,
    )
    return t.freeze()


TRACE = _trace()


class Answerer:
    """Yields ``trace`` as its answer's trace; ``working`` takes as long as the trace says."""

    def __init__(self, trace: tuple[Decision, ...] = TRACE, *, working: bool = True) -> None:
        self.trace = trace
        self.working = working

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        yield Status("Searching the knowledge base…", "retrieve")
        if self.working:
            # stands in for the stages' work, so the durations fit inside the question span
            await asyncio.sleep(sum(d.ms for d in self.trace) / 1000)
        yield AnswerDelta("Ask HR [1].")
        yield Done(
            CitedAnswer.empty("Ask HR."), Route.KNOWLEDGE_BASE, self.trace, question=question.text
        )


@pytest.fixture(scope="module")
def _exporter() -> InMemorySpanExporter:
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


@pytest.fixture
def spans(_exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    _exporter.clear()
    yield _exporter
    _exporter.clear()


def dm(text: str = SECRET, platform: str = "tracing-test") -> Question:
    return Question(text, asker="U7", place=Place(platform, "T1", "D1", None), trigger=Trigger.DM)


def attribute_text(span: ReadableSpan) -> str:
    return " ".join(f"{k}={v}" for k, v in (span.attributes or {}).items()) + " " + span.name


async def test_a_question_is_a_span_with_a_child_span_per_stage(
    spans: InMemorySpanExporter,
) -> None:
    runtime = Runtime(load_settings(ops={"otel": True}), answerer=Answerer())
    question = dm()
    events = [e async for e in runtime.ask(runtime.prepare(question))]
    assert isinstance(events[-1], Done)

    finished = spans.get_finished_spans()
    roots = [s for s in finished if s.name == QUESTION_SPAN]
    assert len(roots) == 1
    root = roots[0]
    assert root.attributes == {
        "citebot.platform": "tracing-test",
        "citebot.trigger": "dm",
        "citebot.request_id": question.id,
        "citebot.route": "knowledge_base",
        "citebot.outcome": "answered",
    }
    stages = sorted((s for s in finished if s.parent is not None), key=lambda s: s.start_time or 0)
    assert [s.name for s in stages] == [f"citebot.{d.stage}" for d in TRACE]
    assert root.context is not None
    for span, decision in zip(stages, TRACE, strict=True):
        assert span.parent is not None and span.parent.span_id == root.context.span_id
        assert span.context is not None and span.context.trace_id == root.context.trace_id
        assert span.start_time is not None and span.end_time is not None
        assert root.start_time is not None and root.end_time is not None
        assert root.start_time <= span.start_time <= span.end_time <= root.end_time
        assert span.end_time - span.start_time == int(decision.ms * 1_000_000)
    # laid end to end: each stage starts where the one before it ended
    assert all(a.end_time == b.start_time for a, b in itertools.pairwise(stages))

    by_stage = {s.name: dict(s.attributes or {}) for s in stages}
    assert by_stage["citebot.grade"] == {
        "citebot.stage": "grade",
        "citebot.ms": 3.25,
        "citebot.grader": "llm",
        "citebot.graded": 4,
    }
    assert by_stage["citebot.decide"]["citebot.best"] == 0.9
    assert "citebot.web" not in by_stage["citebot.decide"]
    assert by_stage["citebot.check"]["citebot.grounded"] is True
    assert by_stage["citebot.finalize"]["citebot.prompt_tokens"] == 900
    assert by_stage["citebot.finalize"]["citebot.verdict"] == "correct"
    # a DM's text (and the queries and claims made from it) never reaches a span
    assert all("salary" not in attribute_text(s) for s in finished)


async def test_stages_never_start_before_their_question(spans: InMemorySpanExporter) -> None:
    # a trace claiming more time than the question took (clock skew, a cached answer)
    runtime = Runtime(load_settings(ops={"otel": True}), answerer=Answerer(working=False))
    [_ async for _ in runtime.ask(dm())]
    finished = spans.get_finished_spans()
    (root,) = [s for s in finished if s.name == QUESTION_SPAN]
    stages = [s for s in finished if s.parent is not None]
    assert len(stages) == len(TRACE)
    assert root.start_time is not None and root.end_time is not None
    assert all(
        root.start_time <= (s.start_time or 0) <= (s.end_time or 0) <= root.end_time for s in stages
    )


async def test_tracing_is_off_by_default(spans: InMemorySpanExporter) -> None:
    runtime = Runtime(load_settings(), answerer=Answerer())
    events = [e async for e in runtime.ask(dm("hello"))]
    assert isinstance(events[-1], Done)
    assert spans.get_finished_spans() == ()


async def test_errors_are_recorded_by_kind_and_abandoned_questions_still_end(
    spans: InMemorySpanExporter,
) -> None:
    platform = "tracing-abandon"
    runtime = Runtime(load_settings(ops={"otel": True}), answerer=Answerer(trace=()))
    empty = [e async for e in runtime.ask(dm("   ", platform=platform))]
    assert isinstance(empty[-1], Done) and empty[-1].outcome is Outcome.EMPTY
    (refused,) = spans.get_finished_spans()
    assert refused.attributes is not None and refused.attributes["citebot.error"] == "empty"
    spans.clear()

    stream = runtime.ask(dm("walks away", platform=platform))
    assert isinstance(await anext(stream), Status)
    assert spans.get_finished_spans() == ()
    await stream.aclose()  # type: ignore[attr-defined]
    (abandoned,) = spans.get_finished_spans()
    assert abandoned.name == QUESTION_SPAN
    assert abandoned.attributes is not None and abandoned.attributes["citebot.abandoned"] is True
    # the inner stream was closed at once, not left to the garbage collector
    assert (
        metrics.registry.get_sample_value("citebot_questions_in_flight", {"platform": platform})
        or 0
    ) == 0
    assert len(runtime.threads) == 0


MISSING_EXTRA = textwrap.dedent(
    """
    import asyncio, importlib.abc, logging, sys

    class NoOpenTelemetry(importlib.abc.MetaPathFinder):
        # the otel extra is not installed
        def find_spec(self, name, path=None, target=None):
            if name == "opentelemetry" or name.startswith("opentelemetry."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NoOpenTelemetry())
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")

    from bots.core.runtime import Runtime
    from bots.settings import load_settings
    from citations.model import CitedAnswer
    from pipeline.events import Done, Route
    from pipeline.question import Question, Trigger

    class Answerer:
        async def stream(self, question):
            yield Done(CitedAnswer.empty("hi"), Route.KNOWLEDGE_BASE, question=question.text)

    async def main():
        runtime = Runtime(load_settings(ops={"otel": True}), answerer=Answerer())
        for _ in range(2):
            events = [e async for e in runtime.ask(Question("hello", trigger=Trigger.DM))]
            assert isinstance(events[-1], Done), events
            print("answered", events[-1].route)

    asyncio.run(main())
    """
)


def test_without_the_extra_one_log_line_and_answers_as_usual(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", MISSING_EXTRA],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["answered knowledge_base"] * 2
    warnings = [line for line in result.stderr.splitlines() if "citebot.tracing" in line]
    assert warnings == [
        "WARNING citebot.tracing ops.otel is on but OpenTelemetry is not installed "
        "(pip install 'citebot[otel]'); tracing is off"
    ]
    assert "Traceback" not in result.stderr
