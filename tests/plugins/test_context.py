"""What hooks and commands see: a narrow, read-only context, never the runtime."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from bots.core.runtime import Runtime
from bots.plugins import ChatCommand, CommandReply, PluginContext, hookimpl
from bots.plugins.manager import PluginHost
from bots.settings import load_settings
from citations.model import CitedAnswer
from pipeline.events import Done
from pipeline.question import Place, Question, Trigger

from .conftest import ScriptedAnswerer, final

ROOT = Path(__file__).resolve().parents[2]
SLACK = Place("slack", "T1", "C1", "1700000000.000100")


class Spy:
    def __init__(self) -> None:
        self.contexts: list[PluginContext] = []

    @hookimpl
    def before_question(self, context: PluginContext) -> None:
        self.contexts.append(context)

    @hookimpl
    def after_answer(self, context: PluginContext) -> None:
        self.contexts.append(context)


async def test_hooks_get_the_place_the_asker_and_the_scope_not_the_runtime(
    make_runtime: Callable[..., Runtime], answerer: ScriptedAnswerer
) -> None:
    host = PluginHost(load_settings(plugins={"entry_points": False}).plugins)
    spy = Spy()
    host.register(spy, name="spy")
    runtime = make_runtime(host, access={"scopes": {"slack:T1/C1": ["eng"]}})
    question = runtime.prepare(
        Question("when do deploys run?", asker="U1", place=SLACK, trigger=Trigger.MENTION)
    )
    await final(runtime, question)
    before, after = spy.contexts
    assert (before.place, before.user, before.scope) == (SLACK, "U1", ("eng",))
    assert after == before
    assert not hasattr(before, "runtime")
    assert {c.name for c in before.commands} == {"help", "sources", "feedback-stats"}
    assert before.settings.access.scopes["slack:T1/C1"] == ("eng",)


def test_settings_are_read_only_for_plugins(make_runtime: Callable[..., Runtime]) -> None:
    from bots.plugins.context import plugin_context

    runtime = make_runtime(access={"scopes": {"slack:T1/C1": ["eng"]}})
    context = plugin_context(runtime, SLACK, user="U1", scope=None)
    with pytest.raises(AttributeError, match="read-only"):
        context.settings.data_dir = Path("/tmp/elsewhere")  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        context.settings.access.default_scope = None
    with pytest.raises(TypeError):
        context.settings.access.scopes["slack:*/C2"] = ["secrets"]  # type: ignore[index]
    assert runtime.settings.access.scopes == {"slack:T1/C1": ["eng"]}


def test_a_hook_that_asks_for_the_runtime_is_reported() -> None:
    class Old:
        @hookimpl
        def before_question(self, question: Question, runtime: object) -> None:
            return None

    host = PluginHost(load_settings(plugins={"entry_points": False}).plugins)
    info = host.register(Old(), name="old")
    assert info.status == "broken"
    assert "runtime" in info.problems[0]


async def test_commands_get_the_same_context(make_runtime: Callable[..., Runtime]) -> None:
    from bots.plugins.commands import invoke
    from bots.plugins.context import plugin_context

    async def where(context: PluginContext) -> CommandReply:
        return CommandReply(f"{context.place.platform} {context.user} {context.command_prefix}")

    runtime = make_runtime(slack={"slash_command": "/docs"})
    reply = await invoke(
        ChatCommand("where", "Where am I?", where),
        plugin_context(runtime, SLACK, user="U9", scope=None),
    )
    assert reply.text == "slack U9 /docs "


def test_plain_text_works_with_every_plugin_off() -> None:
    settings = load_settings(plugins={"entry_points": False, "disable": ["builtin"]})
    styles = PluginHost(settings.plugins).citation_styles()
    assert {"text", "markdown", "html"} <= set(styles)
    assert styles["text"].render(CitedAnswer.empty("plain")) == "plain"


def test_the_example_plugin_is_opt_in() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    groups = project["dependency-groups"]
    assert not any("citebot-example-plugin" in d for d in groups["dev"])
    assert groups["examples"] == ["citebot-example-plugin"]
    assert "examples" not in project["tool"]["uv"].get("default-groups", ["dev"])
    # and so a checkout's default host answers without it
    names = {i.name for i in PluginHost(load_settings().plugins).describe()}
    assert "example" not in names


async def test_no_claim_of_a_hand_over_that_did_not_happen() -> None:
    import citebot_example_plugin as example

    from bots.plugins.context import plugin_context

    nothing = Done(CitedAnswer.empty("I couldn't find this."), route=example.Route.NO_ANSWER)
    runtime = Runtime(load_settings(data_dir="/proc/citebot-cannot-write-here"))
    context = plugin_context(runtime, SLACK, user="U1", scope=None)
    assert await example.after_answer(Question("who owns billing?"), nothing, context) is None
