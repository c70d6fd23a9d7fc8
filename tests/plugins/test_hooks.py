"""before_question and after_answer through Runtime.ask, with the example plugin as installed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from bots.core.runtime import Runtime
from bots.plugins import Refusal, hookimpl
from bots.plugins.manager import PluginHost, commands_of
from pipeline.events import Done, Outcome, Reason, Route
from pipeline.question import Place, Question, Trigger

from .conftest import ScriptedAnswerer, final

pytestmark = pytest.mark.usefixtures("example_installed")

SLACK = Place("slack", "T1", "C1", "1700000000.000100")


async def test_example_rule_spells_out_abbreviations(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    question = Question(
        "How do we deploy to K8s?", asker="U1", place=SLACK, trigger=Trigger.MENTION
    )
    await final(make_runtime(), question)
    (seen,) = answerer.questions
    assert seen.text == "How do we deploy to K8s (Kubernetes)?"
    assert (seen.asker, seen.place, seen.id) == ("U1", SLACK, question.id)


async def test_example_rule_refuses_a_pasted_token(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    question = Question("why does xoxb-123456789012-abcdefghij fail?", place=SLACK)
    events, done = await final(make_runtime(), question)
    assert answerer.questions == []
    assert len(events) == 1
    assert done.route is Route.NO_ANSWER
    assert "contains a secret token" in done.answer.text
    assert done.outcome is Outcome.REFUSED
    assert done.reason == Reason("credential", by="example")


async def test_the_size_check_runs_before_plugins(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    long = "xoxb-123456789012-abcdefghij " + "x" * 5000
    _, done = await final(make_runtime(), Question(long))
    assert done.outcome is Outcome.TOO_LONG


async def test_example_annotates_web_answers(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    answerer.route = Route.WEB
    _, done = await final(make_runtime(), Question("what is new in Python 3.14?"))
    assert done.answer.text == (
        "Deploys run nightly.\n\n_This answer comes from the web, not from our docs._"
    )


async def test_knowledge_base_answers_pass_untouched(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    _, done = await final(make_runtime(), Question("when do deploys run?"))
    assert done.answer.text == "Deploys run nightly."


async def test_without_plugins_nothing_changes(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    _, done = await final(
        make_runtime(plugins={"disable": ["example"]}), Question("K8s xoxb-123456789012-abc")
    )
    assert answerer.questions[0].text == "K8s xoxb-123456789012-abc"
    assert done.outcome is Outcome.ANSWERED


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, Done]] = []

    @hookimpl
    async def after_answer(self, question: Question, done: Done) -> None:
        self.seen.append((question.text, done))


async def test_after_answer_sees_failures_and_refusals(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = PluginHost()
    recorder = Recorder()
    host.register(recorder, name="recorder")
    runtime = make_runtime(host)
    answerer.fail = RuntimeError("LLM down")
    _, failed = await final(runtime, Question("when?"))
    _, refused = await final(runtime, Question("here is sk-abcdefghijklmnopqrstuvwxyz"))
    assert failed.outcome is Outcome.FAILED
    assert failed.reason == Reason("RuntimeError", "LLM down")
    assert [d for _, d in recorder.seen] == [failed, refused]


class Scoper:
    def __init__(self, scope: tuple[str, ...] | None) -> None:
        self.scope = scope

    @hookimpl
    def before_question(self, question: Question) -> Question:
        return replace(
            question,
            text="rewritten",
            scope=self.scope,
            asker="someone-else",
            place=Place("discord", "G9", "C9"),
        )


@pytest.mark.parametrize(
    ("asked", "rewritten", "expected"),
    [
        (("eng",), None, ("eng",)),  # widening to every collection is refused
        (("eng",), ("eng", "hr"), ("eng",)),  # adding a collection is refused
        (("eng", "docs"), ("docs",), ("docs",)),  # narrowing is fine
        (None, ("docs",), ("docs",)),
    ],
)
async def test_a_rewrite_never_widens_scope_or_moves_the_question(
    make_runtime: Callable[..., Runtime],
    answerer: ScriptedAnswerer,
    asked: tuple[str, ...] | None,
    rewritten: tuple[str, ...] | None,
    expected: tuple[str, ...] | None,
) -> None:
    host = PluginHost()
    host.register(Scoper(rewritten), name="scoper")
    await final(make_runtime(host), Question("original", asker="U1", place=SLACK, scope=asked))
    (seen,) = answerer.questions
    assert seen.scope == expected
    assert (seen.text, seen.asker, seen.place) == ("rewritten", "U1", SLACK)


class Polite:
    @hookimpl(tryfirst=True)
    async def before_question(self, question: Question) -> Refusal | None:
        return Refusal("  ", reason="quiet-hours") if "tonight" in question.text else None


async def test_async_refusal_stops_the_chain(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = PluginHost()
    host.register(Polite(), name="polite")
    _, done = await final(make_runtime(host), Question("deploy K8s tonight?"))
    assert answerer.questions == []
    assert done.answer.text == "Sorry, I can't answer that here."
    assert done.outcome is Outcome.REFUSED
    assert done.reason == Reason("quiet-hours", by="polite")


async def test_runtime_commands_come_from_the_host(make_runtime: Callable[..., Runtime]) -> None:
    runtime = make_runtime()
    assert [c.name for c in commands_of(runtime.plugins)] == [
        "help",
        "sources",
        "feedback-stats",
        "glossary",
    ]
