"""Prometheus metrics, and the small functions adapters call to record them.

Every metric lives on :data:`registry` rather than prometheus-client's global
one, so importing citebot into a bigger program never clashes with its metrics.
The pipeline knows nothing of Prometheus: grader, web-search and token counts
are read from the ``Done.trace`` it returns (see :func:`answered`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

from pipeline.events import Decision, Done
from pipeline.question import Question

__all__ = [
    "CONTENT_TYPE_LATEST",
    "answered",
    "dedupe_hit",
    "error",
    "feedback_vote",
    "first_token",
    "rate_limited",
    "registry",
    "render",
    "started",
    "stopped",
    "thread_queued",
]

registry = CollectorRegistry(auto_describe=True)
process_collector.ProcessCollector(registry=registry)
platform_collector.PlatformCollector(registry=registry)
gc_collector.GCCollector(registry=registry)

# Answers take seconds, not milliseconds: buckets reach past a slow LLM's timeout.
_ANSWER_BUCKETS = (0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 45, 60, 90, 120)
_FIRST_TOKEN_BUCKETS = (0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 8, 13, 20, 30)

OUTCOMES = Counter(
    "citebot_outcomes",
    "Questions by how they ended (answered, no_answer, refused, rate_limited, too_long, empty, failed).",
    ("platform", "outcome"),
    registry=registry,
)
QUESTIONS = Counter(
    "citebot_questions",
    "Questions answered (or refused), by platform, trigger and route.",
    ("platform", "trigger", "route"),
    registry=registry,
)
IN_FLIGHT = Gauge(
    "citebot_questions_in_flight",
    "Questions being answered right now.",
    ("platform",),
    registry=registry,
)
ANSWER_SECONDS = Histogram(
    "citebot_answer_seconds",
    "Time from a question reaching the runtime to its final answer.",
    ("platform", "route"),
    buckets=_ANSWER_BUCKETS,
    registry=registry,
)
FIRST_TOKEN_SECONDS = Histogram(
    "citebot_first_token_seconds",
    "Time from a question reaching the runtime to the first answer text.",
    ("platform",),
    buckets=_FIRST_TOKEN_BUCKETS,
    registry=registry,
)
GRADER_CALLS = Counter(
    "citebot_grader_calls",
    "Chunks graded for relevance.",
    registry=registry,
)
WEB_SEARCHES = Counter(
    "citebot_web_searches",
    "Web searches run.",
    registry=registry,
)
LLM_TOKENS = Counter(
    "citebot_llm_tokens",
    "LLM tokens used, by kind (prompt or completion).",
    ("kind",),
    registry=registry,
)
ERRORS = Counter(
    "citebot_errors",
    "Failures, by kind (the exception or refusal name).",
    ("kind",),
    registry=registry,
)
FEEDBACK = Counter(
    "citebot_feedback_votes",
    "Feedback votes, by platform and vote.",
    ("platform", "vote"),
    registry=registry,
)
FEEDBACK_REASONS = Counter(
    "citebot_feedback_reasons",
    "Reasons given for a 👎, by platform and reason.",
    ("platform", "reason"),
    registry=registry,
)
DEDUPE_HITS = Counter(
    "citebot_dedupe_hits",
    "Deliveries dropped as duplicates (platform retries, mention + message pairs).",
    ("platform",),
    registry=registry,
)
RATE_LIMITED = Counter(
    "citebot_rate_limited",
    "Questions refused by a limit, by limit (user, channel, daily).",
    ("platform", "limit"),
    registry=registry,
)
THREAD_QUEUED = Counter(
    "citebot_thread_queued",
    "Questions that waited for an earlier question in the same thread.",
    ("platform",),
    registry=registry,
)

#: Trace ``Decision.data`` keys the pipeline may report, and the counter each feeds.
TRACE_KEYS = {
    "graded": GRADER_CALLS,
    "web_searches": WEB_SEARCHES,
}


def render() -> bytes:
    """The metrics in Prometheus' text format (serve with :data:`CONTENT_TYPE_LATEST`)."""
    return generate_latest(registry)


def started(question: Question) -> float:
    IN_FLIGHT.labels(question.place.platform).inc()
    return time.perf_counter()


def stopped(question: Question) -> None:
    """The question left the runtime, answered or abandoned (pairs with :func:`started`)."""
    IN_FLIGHT.labels(question.place.platform).dec()


def first_token(question: Question, since: float) -> None:
    FIRST_TOKEN_SECONDS.labels(question.place.platform).observe(time.perf_counter() - since)


def answered(question: Question, done: Done, since: float | None = None) -> None:
    """Record one finished question: its route, latency, errors and trace counts."""
    platform = question.place.platform
    QUESTIONS.labels(platform, str(question.trigger), str(done.route)).inc()
    if since is not None:
        ANSWER_SECONDS.labels(platform, str(done.route)).observe(time.perf_counter() - since)
    OUTCOMES.labels(platform, str(done.outcome)).inc()
    kind = error_kind(done)
    if kind is not None:
        error(kind)
    _count_trace(done.trace)


def _count_trace(trace: Iterable[Decision]) -> None:
    for decision in trace:
        data = decision.data
        for key, counter in TRACE_KEYS.items():
            value = data.get(key)
            if isinstance(value, int | float) and value > 0:
                counter.inc(value)
        if decision.stage == "web" and "web_searches" not in data:
            WEB_SEARCHES.inc()
        for kind in ("prompt_tokens", "completion_tokens"):
            value = data.get(kind)
            if isinstance(value, int) and value > 0:
                LLM_TOKENS.labels(kind.removesuffix("_tokens")).inc(value)


def error_kind(done: Done) -> str | None:
    """The error label of a question that did not end in an answer, ``None`` if it did.

    A failure is labelled by its reason's code (an exception's type), anything
    else by its outcome; codes that do not look like a type name become
    ``"other"``, so label values stay few.
    """
    if done.outcome.is_answer:
        return None
    if not done.outcome.is_failure:
        return str(done.outcome)
    code = done.reason.code if done.reason is not None else ""
    return code if code.isidentifier() and len(code) <= 40 else "other"


def error(kind: str) -> None:
    ERRORS.labels(kind).inc()


def feedback_vote(platform: str, vote: str) -> None:
    FEEDBACK.labels(platform, vote).inc()


def feedback_reason(platform: str, reason: str) -> None:
    FEEDBACK_REASONS.labels(platform, reason).inc()


def dedupe_hit(platform: str) -> None:
    DEDUPE_HITS.labels(platform).inc()


def rate_limited(platform: str, limit: str) -> None:
    RATE_LIMITED.labels(platform, limit).inc()


def thread_queued(platform: str) -> None:
    THREAD_QUEUED.labels(platform).inc()
