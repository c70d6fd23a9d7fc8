"""Optional OpenTelemetry tracing: a span per question, a child span per pipeline stage.

On when ``ops.otel`` is true and the ``otel`` extra is installed
(``pip install 'citebot[otel]'``); otherwise one log line and no spans. Spans go
to the process's tracer provider: the one ``opentelemetry-instrument`` or a host
program set up, or else an SDK provider exporting over OTLP when
``opentelemetry-exporter-otlp`` is installed (it reads the standard
``OTEL_EXPORTER_OTLP_*`` variables).

Stage spans are rebuilt from ``Done.trace`` when the answer is ready, so the
pipeline stays free of OpenTelemetry. Spans carry ids, names, timings and
numbers only: never question text (a DM is private), rewritten queries or secrets.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from bots.ops.metrics import error_kind
from pipeline.events import Decision, Done, Progress
from pipeline.question import Question

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

    from bots.settings.sections import OpsSettings

__all__ = ["QUESTION_SPAN", "stage_attributes", "traced", "tracer"]

log = logging.getLogger("citebot.tracing")

QUESTION_SPAN = "citebot.question"

# The only text fields copied from the trace: fixed vocabularies, never user text.
_TEXT_FIELDS = frozenset({"grader", "route", "verdict"})


def traced(
    ops: OpsSettings, question: Question, events: AsyncGenerator[Progress, None]
) -> AsyncIterator[Progress]:
    """``events`` inside a question span, or ``events`` itself when tracing is off."""
    otel = tracer(ops.otel)
    return events if otel is None else _spanned(otel, question, events)


@functools.cache
def tracer(enabled: bool) -> Tracer | None:
    """The citebot tracer, or ``None`` when tracing is off or not installed (said once)."""
    if not enabled:
        return None
    try:
        from opentelemetry import trace
    except ImportError:
        log.warning(
            "ops.otel is on but OpenTelemetry is not installed "
            "(pip install 'citebot[otel]'); tracing is off"
        )
        return None
    if isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        _default_provider()
    return trace.get_tracer("citebot")


def _default_provider() -> None:
    """Nothing configured tracing: export over OTLP if the exporter is installed."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        log.warning(
            "ops.otel is on but no tracer provider is configured and "
            "opentelemetry-exporter-otlp is not installed; spans go nowhere until one is "
            "(or run under opentelemetry-instrument)"
        )
        return
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": "citebot"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)


async def _spanned(
    otel: Tracer, question: Question, events: AsyncGenerator[Progress, None]
) -> AsyncIterator[Progress]:
    span = otel.start_span(
        QUESTION_SPAN,
        attributes={
            "citebot.platform": question.place.platform,
            "citebot.trigger": str(question.trigger),
            "citebot.request_id": question.id,
        },
    )
    finished = False
    try:
        # closing the inner stream at once keeps its clean-up (metrics, thread turn) prompt
        async with aclosing(events) as stream:
            async for event in stream:
                if isinstance(event, Done):
                    _finish(otel, span, event)
                    finished = True
                yield event
    finally:
        if not finished:
            span.set_attribute("citebot.abandoned", True)
        span.end()


def _finish(otel: Tracer, span: Span, done: Done) -> None:
    try:
        span.set_attribute("citebot.route", str(done.route))
        span.set_attribute("citebot.outcome", str(done.outcome))
        kind = error_kind(done)
        if kind is not None:
            span.set_attribute("citebot.error", kind)
        _stages(otel, span, done.trace, end=time.time_ns())
    except Exception:  # tracing must never cost an answer
        log.exception("could not record the trace spans")


def _stages(otel: Tracer, parent: Span, decisions: tuple[Decision, ...], *, end: int) -> None:
    """One child span per decision, laid end to end so the last one ends now.

    The trace holds durations, not clock times; anchoring at the end puts the
    untimed work (limits, the thread queue, screening) before the first stage,
    where it happened.
    """
    from opentelemetry import trace

    context = trace.set_span_in_context(parent)
    floor: int = getattr(parent, "start_time", None) or 0
    spans: list[tuple[Decision, int, int]] = []
    for decision in reversed(decisions):
        start = max(floor, end - int(decision.ms * 1_000_000))
        spans.append((decision, start, end))
        end = start
    for decision, start, stop in reversed(spans):
        child = otel.start_span(
            f"citebot.{decision.stage}",
            context=context,
            start_time=start,
            attributes=stage_attributes(decision),
        )
        child.end(end_time=stop)


def stage_attributes(decision: Decision) -> dict[str, Any]:
    """The stage, its time and its numeric (and fixed-vocabulary) data fields."""
    attributes: dict[str, Any] = {"citebot.stage": decision.stage, "citebot.ms": decision.ms}
    for key, value in decision.data.items():
        if isinstance(value, bool | int | float) or (
            key in _TEXT_FIELDS and isinstance(value, str)
        ):
            attributes[f"citebot.{key}"] = value
    return attributes
