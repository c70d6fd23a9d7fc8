"""``citebot plugins new NAME``: a plugin package that works and is tested from its first minute.

The package has the ``citebot`` entry point, one chat command, one hook, and a test that runs
a real bot with the plugin against the fake Slack and Discord servers (the ``citebot``
pytest fixture of :mod:`bots.testing`).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

#: a package name Python's packaging takes: no dash at the end (PEP 508)
NAME = re.compile(r"^[a-z](?:[a-z0-9-]{0,29}[a-z0-9])?$")
#: the command would clash with the adapters' /ask and the built-in commands
TAKEN = frozenset({"ask", "help", "sources", "feedback-stats"})


class ScaffoldError(ValueError):
    """Why the package cannot be made; the message is shown as is."""


PYPROJECT = """\
[project]
name = "citebot-{name}"
version = "0.1.0"
description = "A citebot plugin: /{name} and a question rule."
requires-python = ">=3.11"
dependencies = ["citebot"]

# citebot finds the plugin through this entry point once the package is installed
[project.entry-points.citebot]
{name} = "{package}"

[dependency-groups]
dev = ["pytest>=8.3", "pytest-asyncio>=0.24"]

[build-system]
requires = ["hatchling>=1.25"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
packages = ["{package}"]

[tool.pytest.ini_options]
asyncio_mode = "auto"
{sources}"""

#: citebot is not on PyPI: uv takes it from the source checkout the scaffold ran from
SOURCES = """
# citebot is not on PyPI: `uv run` installs it from this checkout
[tool.uv.sources]
citebot = {{ path = {path}, editable = true }}
"""

#: run from an installed wheel, there is no checkout to point at
NO_SOURCES = """
# citebot is not on PyPI: point uv at a citebot checkout before `uv run pytest`, e.g.
# [tool.uv.sources]
# citebot = { path = "/path/to/citebot", editable = true }
"""

PLUGIN = '''\
"""The {name} plugin for citebot.

- ``/{name}`` (Slack: ``/ask {name}``) answers with a greeting;
- ``before_question`` refuses questions that ask for a password.

It imports only the public plugin API, ``bots.plugins``.
"""

from __future__ import annotations

from bots.plugins import (
    ChatCommand,
    CommandOption,
    CommandReply,
    PluginContext,
    Question,
    Refusal,
    hookimpl,
)


async def greet(context: PluginContext) -> CommandReply:
    who = context.options["who"] or "there"
    return CommandReply(f"Hello, {{who}}! ({{context.place.platform}})")


@hookimpl
def register_commands() -> list[ChatCommand]:
    return [
        ChatCommand(
            "{name}",
            "Say hello.",
            greet,
            options=(CommandOption("who", "Whom to greet"),),
        )
    ]


@hookimpl
def before_question(question: Question, context: PluginContext) -> Refusal | None:
    if "password" in question.text.lower():
        return Refusal("I can't help with passwords here; ask the IT desk.", reason="password")
    return None
'''

TEST = '''\
"""/{name} and the question rule on a real bot, against fake Slack and Discord servers."""

from __future__ import annotations

import {package} as plugin
from bots.testing.pytest_plugin import Citebot


async def test_the_command_answers_on_slack_and_discord(citebot: Citebot) -> None:
    async with citebot.slack(plugins=[plugin]) as slack:
        reply = await slack.command("{name} Ada")
        assert reply.text == "Hello, Ada! (slack)"
    async with citebot.discord(plugins=[plugin]) as discord:
        reply = await discord.slash("{name}")
        assert reply.text == "Hello, there! (discord)"


async def test_password_questions_are_refused(citebot: Citebot) -> None:
    async with citebot.slack(plugins=[plugin]) as bot:
        answer = await bot.mention("what is the admin password?")
        assert "ask the IT desk" in answer.text
        assert bot.questions == [], "the question never reached the pipeline"
        answered = await bot.mention("when do deploys run?")
        assert "Deploys run nightly." in answered.text
'''

README = """\
# citebot-{name}

A citebot plugin: `/{name}` and a rule that refuses password questions.

- Try it: `uv pip install -e .` (or `pip install -e .`) next to citebot, then `citebot plugins`.
- Test it: `uv run pytest` (the tests run a real bot against fake Slack and Discord servers).
"""


def citebot_checkout() -> Path | None:
    """The source checkout this citebot runs from (its pyproject.toml names ``citebot``), if any."""
    import bots

    root = Path(bots.__file__).resolve().parent.parent
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return root if project.get("project", {}).get("name") == "citebot" else None


def _sources(root: Path) -> str:
    """The ``[tool.uv.sources]`` entry for citebot: relative inside the checkout, else absolute."""
    checkout = citebot_checkout()
    if checkout is None:
        return NO_SOURCES
    here = root.resolve()
    path = Path(os.path.relpath(checkout, here)) if here.is_relative_to(checkout) else checkout
    # a JSON string is a valid TOML basic string (quotes and backslashes escaped)
    return SOURCES.format(path=json.dumps(path.as_posix()))


def scaffold(name: str, parent: Path) -> Path:
    """Write the package ``citebot-NAME`` under ``parent``; returns its folder."""
    if not NAME.match(name):
        raise ScaffoldError(
            f"plugin name {name!r} must be lowercase letters, digits and dashes, "
            "starting with a letter and not ending with a dash (at most 31 characters)"
        )
    if name in TAKEN:
        raise ScaffoldError(f"/{name} is already a citebot command; choose another name")
    package = "citebot_" + name.replace("-", "_")
    root = parent / f"citebot-{name}"
    if root.exists():
        raise ScaffoldError(f"{root} already exists")
    values = {"name": name, "package": package, "sources": _sources(root)}
    files = {
        root / "pyproject.toml": PYPROJECT,
        root / "README.md": README,
        root / package / "__init__.py": PLUGIN,
        root / "tests" / f"test_{package}.py": TEST,
    }
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values), encoding="utf-8")
    return root
