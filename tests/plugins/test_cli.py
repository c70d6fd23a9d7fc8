"""``citebot plugins``: what is installed, what it hooks, and what is broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from connectors.knowledge.store.manifest import Manifest

pytestmark = pytest.mark.usefixtures("example_installed")


def test_lists_installed_plugins_and_their_hooks() -> None:
    result = CliRunner().invoke(cli, ["plugins"])
    assert result.exit_code == 0, result.output
    blocks = result.output.strip().split("\n\n")
    assert blocks[0].splitlines()[1:] == [
        "  hooks: register_citation_styles, register_commands",
        "  commands: help, sources, feedback-stats",
        "  citation styles: text, markdown, html",
    ]
    assert blocks[1].splitlines() == [
        "example  [loaded]  citebot_example_plugin (entry point, citebot-example-plugin 0.1.0)",
        "  hooks: after_answer, before_question, register_commands",
        "  commands: glossary",
    ]


def test_reports_broken_and_disabled_plugins() -> None:
    Path("citebot.toml").write_text(
        "[plugins]\n"
        'load = ["tests.plugins.samples.raises_on_import", "tests.plugins.samples.raises_on_register"]\n'
        'disable = ["example"]\n'
    )
    result = CliRunner().invoke(cli, ["plugins"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "example  [disabled]  citebot_example_plugin" in out
    assert (
        "tests.plugins.samples.raises_on_import  [broken]  tests.plugins.samples.raises_on_import (settings)\n"
        "  problem: import failed: RuntimeError: boom at import"
    ) in out
    assert (
        "tests.plugins.samples.raises_on_register  [loaded with 1 problem]" in out
        and "  problem: register_commands: KeyError: 'no commands today'" in out
    )
    assert "Traceback" not in out
    assert CliRunner().invoke(cli, ["plugins", "--check"]).exit_code == 1


def test_json_output() -> None:
    result = CliRunner().invoke(cli, ["plugins", "--json"])
    assert result.exit_code == 0
    data = {p["name"]: p for p in json.loads(result.output)}
    assert data["example"]["hooks"] == ["after_answer", "before_question", "register_commands"]
    assert data["example"]["provides"] == {"commands": ["glossary"]}
    assert data["builtin"]["status"] == "loaded"
    assert CliRunner().invoke(cli, ["plugins", "--check"]).exit_code == 0


def test_a_bad_plugin_setting_is_one_line() -> None:
    Path("citebot.toml").write_text("[plugins]\nhook_timeout = -1\n")
    result = CliRunner().invoke(cli, ["plugins"])
    assert result.exit_code == 2
    assert "citebot.toml: plugins.hook_timeout: Input should be greater than 0" in result.output


def _with_extras() -> None:
    Path("citebot.toml").write_text('[plugins]\nload = ["tests.plugins.samples.extras"]\n')


def test_ingest_from_a_plugin_connector(tmp_path: Path) -> None:
    _with_extras()
    data = str(tmp_path / "data")
    result = CliRunner().invoke(
        cli, ["--data-dir", data, "ingest", "plugin:changelog?text=v2 adds scopes"]
    )
    assert result.exit_code == 0, result.output
    assert "ingested into 'default': 1 added" in result.output
    with Manifest(data, "lancedb") as manifest:
        (entry,) = manifest.entries()
    assert (entry.key, entry.url, entry.source) == (
        "changelog",
        "https://example.org/changelog",
        "plugin:changelog",
    )


def test_ingest_from_an_unknown_or_failing_plugin_connector(tmp_path: Path) -> None:
    _with_extras()
    data = tmp_path / "data"
    unknown = CliRunner().invoke(cli, ["--data-dir", str(data), "ingest", "plugin:wiki"])
    assert unknown.exit_code == 1
    assert unknown.output.strip() == (
        "citebot: no plugin connector named 'wiki' (known: changelog)"
    )
    assert not data.exists(), "nothing is opened before every source resolves"
    failing = CliRunner().invoke(
        cli, ["--data-dir", str(data), "ingest", "plugin:changelog?colour=red"]
    )
    assert failing.exit_code == 1
    assert failing.output.strip().startswith(
        "citebot: plugin connector 'changelog' failed: TypeError:"
    )
    assert "Traceback" not in failing.output
