"""A plugin that raises never takes the bot down: at import, at registration, in any hook."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bots.core.runtime import Runtime
from bots.plugins import ChatCommand, CommandReply, Refusal, hookimpl
from bots.plugins.manager import PluginHost, commands_of
from pipeline.events import Done, Outcome
from pipeline.question import Question

from .conftest import ScriptedAnswerer, final

pytestmark = pytest.mark.usefixtures("example_installed")

SAMPLES = "tests.plugins.samples"


def infos(host: PluginHost) -> dict[str, Any]:
    return {i.name: i for i in host.describe()}


def test_import_failure_is_reported_and_the_rest_loads(
    make_host: Callable[..., PluginHost], caplog: pytest.LogCaptureFixture
) -> None:
    host = make_host(load=[f"{SAMPLES}.raises_on_import", f"{SAMPLES}.no_such_module"])
    found = infos(host)
    broken = found[f"{SAMPLES}.raises_on_import"]
    assert broken.status == "broken"
    assert broken.problems == ["import failed: RuntimeError: boom at import"]
    missing = found[f"{SAMPLES}.no_such_module"]
    assert missing.status == "broken"
    assert missing.problems[0].startswith("import failed: ModuleNotFoundError")
    assert {"help", "glossary"} <= {c.name for c in host.commands()}
    assert "plugin tests.plugins.samples.raises_on_import is broken" in caplog.text


def test_a_bad_hook_signature_is_reported(make_host: Callable[..., PluginHost]) -> None:
    broken = infos(make_host(load=[f"{SAMPLES}.bad_signature"]))[f"{SAMPLES}.bad_signature"]
    assert broken.status == "broken"
    assert "invalid plugin" in broken.problems[0] and "colour" in broken.problems[0]


async def test_registration_failure_keeps_other_commands_and_hooks(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    runtime = make_runtime(plugins={"load": [f"{SAMPLES}.raises_on_register"]})
    assert {"help", "glossary"} <= {c.name for c in commands_of(runtime.plugins)}
    info = infos(runtime.plugins)[f"{SAMPLES}.raises_on_register"]
    assert info.problems == ["register_commands: KeyError: 'no commands today'"]
    await final(runtime, Question("when do deploys run?"))
    assert answerer.questions[0].text == "when do deploys run? (checked)"


def test_misspelt_hooks_and_async_registration_are_reported(
    make_host: Callable[..., PluginHost],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a coroutine that is never awaited would warn
        info = infos(make_host(load=[f"{SAMPLES}.typo"]))[f"{SAMPLES}.typo"]
    assert info.status == "loaded"
    assert "unknown hook 'before_questoin', never called" in info.problems
    assert "register_commands: register_commands must not be async" in info.problems


async def _reply(context: Any) -> CommandReply:
    return CommandReply("ok")


class BadCommands:
    @hookimpl
    def register_commands(self) -> list[Any]:
        return [
            ChatCommand("Bad Name", "x", _reply),
            ChatCommand("ask", "Clashes with Discord's /ask.", _reply),
            ChatCommand("help", "A second help.", _reply),
            ChatCommand("fine", "", _reply),
            "not a command",
            ChatCommand("good", "A good command.", _reply),
        ]


def test_invalid_commands_are_rejected_one_by_one(make_host: Callable[..., PluginHost]) -> None:
    host = make_host()
    host.register(BadCommands(), name="bad")
    commands = {c.name: c for c in host.commands()}
    assert commands["good"].plugin == "bad"
    assert commands["help"].plugin == "builtin"
    assert "ask" not in commands and "Bad Name" not in commands and "fine" not in commands
    problems = "\n".join(infos(host)["bad"].problems)
    assert "'Bad Name' must match" in problems
    assert "'ask' is reserved" in problems
    assert "/help is already registered by builtin" in problems
    assert "/fine: description must be 1-100 characters" in problems
    assert "not a ChatCommand" in problems


class Exploding:
    def __init__(self) -> None:
        self.calls = 0

    @hookimpl(tryfirst=True)
    def before_question(self, question: Question) -> Question:
        self.calls += 1
        raise ValueError("rule crashed")

    @hookimpl(tryfirst=True)
    async def after_answer(self, done: Done) -> Done:
        self.calls += 1
        raise ValueError("annotation crashed")


class Marker:
    """Runs after the exploding plugin, proving the chain goes on."""

    @hookimpl
    def before_question(self, question: Question) -> Question:
        return replace(question, text=question.text + " [seen]")

    @hookimpl
    def after_answer(self, done: Done) -> Done:
        return replace(done, question=done.question + " [annotated]")


async def test_raising_event_hooks_are_skipped(
    make_runtime: Callable[..., Runtime],
    answerer: ScriptedAnswerer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    host = PluginHost()
    exploding = Exploding()
    host.register(Marker(), name="marker")
    host.register(exploding, name="exploding")
    runtime = make_runtime(host)
    for _ in range(2):
        _, done = await final(runtime, Question("when do deploys run?"))
        assert done.outcome is Outcome.ANSWERED
        assert done.answer.text == "Deploys run nightly."
        assert done.question.endswith("[seen] [annotated]")
    assert exploding.calls == 4
    info = infos(host)["exploding"]
    assert info.failures == 4
    assert "before_question: ValueError: rule crashed" in info.problems
    # one line each, the reason in it: a traceback only when debugging (-vv)
    assert "Traceback" not in caplog.text
    assert caplog.text.count("ValueError: rule crashed") == 2


class Exiter:
    @hookimpl
    def before_question(self, question: Question) -> Question:
        raise SystemExit(3)


async def test_a_hook_that_exits_is_skipped_not_the_bot(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = make_host_with(Exiter())
    _, done = await final(make_runtime(host), Question("when do deploys run?"))
    assert done.outcome is Outcome.ANSWERED
    assert infos(host)["exiter"].problems == ["before_question: SystemExit: 3"]


class Garbler:
    """A rewrite whose text is not text."""

    @hookimpl(tryfirst=True)
    def before_question(self, question: Question) -> Question:
        return replace(question, text=None)  # type: ignore[arg-type]


class Guard:
    @hookimpl
    def before_question(self, question: Question) -> Question | Refusal:
        return Refusal("Not here.") if "password" in question.text else question


class Mute:
    @hookimpl
    def before_question(self, question: Question) -> Refusal:
        return Refusal(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("broken", [Garbler, Mute], ids=["garbled rewrite", "refusal without text"])
async def test_a_malformed_hook_result_never_lets_a_refused_question_through(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer, broken: type
) -> None:
    host = make_host_with(broken())
    host.register(Guard(), name="guard")
    _, done = await final(make_runtime(host), Question("what is the admin password?"))
    assert done.outcome is Outcome.REFUSED and answerer.questions == []


class Slow:
    def __init__(self) -> None:
        self.never = asyncio.Event()

    @hookimpl
    async def before_question(self, question: Question) -> Question:
        await self.never.wait()
        return question


async def test_a_hanging_hook_times_out(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = make_host_with(Slow(), hook_timeout=0.05)
    _, done = await final(make_runtime(host), Question("when?"))
    assert done.outcome is Outcome.ANSWERED and answerer.questions[0].text == "when?"
    assert infos(host)["slow"].problems == ["before_question: timed out after 0.05s"]


def make_host_with(plugin: object, **plugin_settings: Any) -> PluginHost:
    from bots.settings.sections import PluginSettings

    host = PluginHost(PluginSettings(entry_points=False, **plugin_settings))
    host.register(plugin, name=type(plugin).__name__.lower())
    return host


class WrongTypes:
    @hookimpl
    def before_question(self, question: Question) -> Any:
        return "a string is not a question"

    @hookimpl
    def after_answer(self, done: Done) -> Any:
        return {"answer": "nope"}


async def test_wrong_return_types_are_ignored(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = make_host_with(WrongTypes())
    _, done = await final(make_runtime(host), Question("when?"))
    assert answerer.questions[0].text == "when?"
    assert done.answer.text == "Deploys run nightly."
    problems = infos(host)["wrongtypes"].problems
    assert problems == [
        "before_question: returned str, not a Question, a Refusal or None",
        "after_answer: returned dict, not a Done or None",
    ]


class Emptier:
    @hookimpl
    def before_question(self, question: Question) -> Question:
        return replace(question, text="   ")


async def test_a_rewrite_to_nothing_is_ignored(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    await final(make_runtime(make_host_with(Emptier())), Question("when?"))
    assert answerer.questions[0].text == "when?"


class NotOurHost:
    """A plugins object that is not a PluginHost and fails: ask still ends in a Done."""

    def commands(self) -> list[ChatCommand]:
        return []

    async def before_question(self, question: Question, *, runtime: Runtime) -> Question | Refusal:
        raise RuntimeError("host down")

    async def after_answer(self, question: Question, done: Done, *, runtime: Runtime) -> Done:
        raise RuntimeError("host down")


async def test_ask_never_raises_even_with_a_failing_host(
    make_runtime: Callable[..., Runtime],
    answerer: ScriptedAnswerer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    _, done = await final(make_runtime(NotOurHost()), Question("when?"))  # type: ignore[arg-type]
    assert done.answer.text == "Deploys run nightly."
    assert "before_question hooks failed" in caplog.text
    assert "after_answer hooks failed" in caplog.text
