"""Limits, the thread queue, metrics and the request id, as ``Runtime.ask`` applies them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from bots.core.limits import MemoryLimiter
from bots.core.runtime import Runtime
from bots.ops import metrics
from bots.ops.logging import request_id
from bots.settings import load_settings
from citations.model import CitedAnswer
from pipeline.events import AnswerDelta, Done, Outcome, Progress, Reason, Route, Status
from pipeline.question import Place, Question, Trigger


class ScriptedAnswerer:
    """Answers "answer to <text>"; a question whose text is in ``hold`` waits for its event."""

    def __init__(self) -> None:
        self.hold: dict[str, asyncio.Event] = {}
        self.started: list[str] = []
        self.request_ids: list[str | None] = []
        self.entered = asyncio.Event()

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.started.append(question.text)
        self.entered.set()

        async def in_a_task() -> str | None:
            return request_id.get()

        self.request_ids.append(await asyncio.create_task(in_a_task()))
        yield Status("Searching…", "retrieve")
        if question.text in self.hold:
            await self.hold[question.text].wait()
        yield AnswerDelta("answer to ")
        yield AnswerDelta(question.text)
        yield Done(
            CitedAnswer.empty(f"answer to {question.text}"),
            Route.KNOWLEDGE_BASE,
            question=question.text,
        )


def question(
    text: str, *, user: str = "U1", thread: str | None = "100.1", platform: str = "slack"
) -> Question:
    return Question(
        text, asker=user, place=Place(platform, "T1", "C1", thread), trigger=Trigger.THREAD_FOLLOWUP
    )


async def collect(runtime: Runtime, q: Question) -> list[Progress]:
    return [event async for event in runtime.ask(q)]


def final(events: list[Progress]) -> Done:
    assert isinstance(events[-1], Done)
    assert sum(isinstance(e, Done) for e in events) == 1
    return events[-1]


async def test_rate_limited_question_gets_the_polite_refusal_and_never_reaches_the_pipeline() -> (
    None
):
    settings = load_settings(limits={"user_burst": 1, "user_per_minute": 1})
    answerer = ScriptedAnswerer()
    runtime = Runtime(settings, answerer=answerer, limiter=MemoryLimiter(settings.limits))
    assert final(await collect(runtime, question("one"))).outcome is Outcome.ANSWERED
    done = final(await collect(runtime, question("two")))
    assert done.outcome is Outcome.RATE_LIMITED
    assert done.reason == Reason("user", by="limiter")
    assert done.route is Route.NO_ANSWER
    assert "Please wait 60 seconds" in done.answer.text
    assert answerer.started == ["one"]


async def test_overlapping_questions_in_one_thread_are_queued() -> None:
    settings = load_settings()
    answerer = ScriptedAnswerer()
    answerer.hold["first"] = asyncio.Event()
    runtime = Runtime(settings, answerer=answerer)

    first = asyncio.create_task(collect(runtime, question("first")))
    await answerer.entered.wait()
    second = asyncio.create_task(collect(runtime, question("second")))
    elsewhere = await collect(
        runtime, question("elsewhere", thread="200.2")
    )  # another thread is not held up
    assert answerer.started == ["first", "elsewhere"]
    assert final(elsewhere).answer.text == "answer to elsewhere"

    answerer.hold["first"].set()
    first_events, second_events = await asyncio.gather(first, second)
    assert answerer.started == ["first", "elsewhere", "second"]
    assert isinstance(second_events[0], Status) and second_events[0].stage == "queued"
    assert final(first_events).answer.text == "answer to first"
    assert final(second_events).answer.text == "answer to second"
    assert len(runtime.threads) == 0


async def test_request_id_is_the_question_id_inside_pipeline_tasks() -> None:
    answerer = ScriptedAnswerer()
    runtime = Runtime(load_settings(), answerer=answerer)
    q = question("hello")
    await collect(runtime, q)
    assert answerer.request_ids == [q.id]
    assert request_id.get() is None


async def test_metrics_record_route_first_token_and_in_flight() -> None:
    platform = "runtime-metrics"
    runtime = Runtime(load_settings(), answerer=ScriptedAnswerer())

    def value(name: str, **labels: str) -> float:
        return metrics.registry.get_sample_value(name, labels) or 0.0

    await collect(runtime, question("hi", platform=platform))
    assert (
        value(
            "citebot_questions_total",
            platform=platform,
            trigger="thread_followup",
            route="knowledge_base",
        )
        == 1
    )
    assert value("citebot_first_token_seconds_count", platform=platform) == 1
    assert value("citebot_answer_seconds_count", platform=platform, route="knowledge_base") == 1

    # a consumer that walks away mid-answer does not leave the gauge up, nor the thread locked
    stream = runtime.ask(question("abandoned", platform=platform))
    assert isinstance(await anext(stream), Status)
    assert value("citebot_questions_in_flight", platform=platform) == 1
    await stream.aclose()  # type: ignore[attr-defined]
    assert value("citebot_questions_in_flight", platform=platform) == 0
    assert len(runtime.threads) == 0


async def test_ask_never_raises_when_the_limiter_or_pipeline_misbehaves() -> None:
    class BrokenLimiter:
        async def check(self, q: Question) -> Any:
            raise ConnectionError("limiter backend gone")

    class Silent:
        async def stream(self, q: Question) -> AsyncIterator[Progress]:
            yield Status("thinking", "generate")

    runtime = Runtime(load_settings(), answerer=ScriptedAnswerer(), limiter=BrokenLimiter())
    assert final(await collect(runtime, question("still answered"))).outcome.is_answer

    runtime = Runtime(load_settings(), answerer=Silent())
    done = final(await collect(runtime, question("nothing comes back")))
    assert done.outcome is Outcome.FAILED and done.reason is not None
    assert done.reason.code == "NoAnswer" and "without an answer" in done.reason.detail
    assert "something went wrong" in done.answer.text
