"""Finding plugins: entry points, settings, the disable list."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

import pytest

from bots.plugins.manager import PluginHost
from citations.model import CitedAnswer

pytestmark = pytest.mark.usefixtures("example_installed")


def test_the_example_plugin_is_installed_as_an_entry_point() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="citebot")}
    assert found["example"] == "citebot_example_plugin"
    assert found["builtin"] == "bots.plugins.builtin"


def test_default_host_loads_builtin_and_entry_points(make_host: Callable[..., PluginHost]) -> None:
    host = make_host()
    infos = {i.name: i for i in host.describe()}
    assert infos["builtin"].status == infos["example"].status == "loaded"
    assert infos["example"].source == "entry point"
    assert infos["example"].distribution == "citebot-example-plugin 0.1.0"
    assert infos["example"].hooks == ("after_answer", "before_question", "register_commands")
    assert not infos["example"].problems
    commands = {c.name: c for c in host.commands()}
    assert list(commands)[:3] == ["help", "sources", "feedback-stats"]
    assert commands["glossary"].plugin == "example"
    assert commands["help"].plugin == "builtin"


def test_entry_points_can_be_switched_off(make_host: Callable[..., PluginHost]) -> None:
    host = make_host(entry_points=False)
    assert [i.name for i in host.describe()] == ["builtin"]
    assert "glossary" not in {c.name for c in host.commands()}


def test_settings_list_modules_and_attributes(make_host: Callable[..., PluginHost]) -> None:
    host = make_host(load=["tests.plugins.samples.extras", "tests.plugins.samples.extras:greeter"])
    infos = {i.name: i for i in host.describe()}
    module = infos["tests.plugins.samples.extras"]
    assert module.source == "settings" and module.status == "loaded"
    assert module.provides == {
        "connectors": ["changelog"],
        "graders": ["length"],
        "citation_styles": ["brackets"],
    }
    assert len(module.problems) == 1
    assert "is not a CitationStyle (a name and render(answer))" in module.problems[0]
    assert infos["tests.plugins.samples.extras:greeter"].provides == {"commands": ["hello"]}
    assert "hello" in {c.name for c in host.commands()}


def test_registered_connectors_graders_and_styles_work(
    make_host: Callable[..., PluginHost],
) -> None:
    host = make_host(load=["tests.plugins.samples.extras"])
    (doc,) = host.connectors()["changelog"](text="v2: scopes")
    assert (doc.collection, doc.sections[0].text) == ("releases", "v2: scopes")
    grader = host.graders()["length"](None)
    assert grader.name == "length"
    style = host.citation_styles()["brackets"]
    assert style.render(CitedAnswer.empty("plain")) == "plain"


async def test_a_registered_grader_grades(make_host: Callable[..., PluginHost]) -> None:
    grader = make_host(load=["tests.plugins.samples.extras"]).graders()["length"]()
    assert await grader.grade("q", ["x" * 50, "x" * 500]) == [0.5, 1.0]


def test_disable_by_entry_point_name(make_host: Callable[..., PluginHost]) -> None:
    host = make_host(disable=["example"])
    infos = {i.name: i for i in host.describe()}
    assert infos["example"].status == "disabled"
    assert infos["example"].hooks == ()
    assert "glossary" not in {c.name for c in host.commands()}
    assert host.plugin("example") is None


def test_disable_by_distribution_or_module(make_host: Callable[..., PluginHost]) -> None:
    for name in ("citebot-example-plugin", "citebot_example_plugin"):
        host = make_host(disable=[name])
        assert {i.name: i.status for i in host.describe()}["example"] == "disabled"


def test_disable_builtin_keeps_plugin_commands(make_host: Callable[..., PluginHost]) -> None:
    host = make_host(disable=["builtin"])
    assert [c.name for c in host.commands()] == ["glossary"]


def test_a_plugin_found_twice_loads_once(make_host: Callable[..., PluginHost]) -> None:
    host = make_host(load=["citebot_example_plugin"])
    assert [c.name for c in host.commands()].count("glossary") == 1
    infos = {i.name: i for i in host.describe()}
    assert infos["citebot_example_plugin"].status == "disabled"
    assert "already loaded as plugin 'example'" in infos["citebot_example_plugin"].problems[0]
