"""``citebot plugins new NAME``: the package it makes installs as a plugin and passes its own test."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from bots.plugins import scaffold as scaffold_module
from bots.plugins.manager import PluginHost
from bots.settings import load_settings


def test_the_scaffold_is_a_plugin_whose_own_test_passes(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["plugins", "new", "hello", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    root = tmp_path / "citebot-hello"
    assert f"Created {root}/" in result.output

    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["citebot"] == {"hello": "citebot_hello"}
    source = (root / "citebot_hello" / "__init__.py").read_text()
    imports = {line.split()[1] for line in source.splitlines() if line.startswith("from ")}
    assert imports == {"__future__", "bots.plugins"}, "only the public plugin API"

    env = {**os.environ, "PYTHONPATH": str(root)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "2 passed" in run.stdout


def test_the_scaffold_loads_as_a_plugin(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    CliRunner().invoke(cli, ["plugins", "new", "team-faq", "--dir", str(tmp_path)])
    monkeypatch.syspath_prepend(str(tmp_path / "citebot-team-faq"))
    host = PluginHost(load_settings(plugins={"load": ["citebot_team_faq"]}).plugins)
    (info,) = [i for i in host.describe() if i.name == "citebot_team_faq"]
    assert (info.status, info.problems) == ("loaded", [])
    assert info.hooks == ("before_question", "register_commands")
    assert info.provides == {"commands": ["team-faq"]}


def test_bad_names_and_existing_folders_are_one_line_errors(tmp_path: Path) -> None:
    for name, message in (
        ("Hello World", "must be lowercase letters, digits and dashes"),
        # PEP 508: a package name ends with a letter or digit (citebot-sources- cannot be built)
        ("sources-", "not ending with a dash"),
        ("help", "/help is already a citebot command"),
    ):
        result = CliRunner().invoke(cli, ["plugins", "new", name, "--dir", str(tmp_path)])
        assert result.exit_code == 2 and message in result.output, result.output
    assert CliRunner().invoke(cli, ["plugins", "new", "x", "--dir", str(tmp_path)]).exit_code == 0
    again = CliRunner().invoke(cli, ["plugins", "new", "x", "--dir", str(tmp_path)])
    assert again.exit_code == 2 and "already exists" in again.output
    assert "Traceback" not in again.output


def test_uv_takes_citebot_from_the_checkout_it_ran_from(tmp_path: Path) -> None:
    # citebot is not on PyPI: without [tool.uv.sources], `uv run pytest` cannot resolve it
    CliRunner().invoke(cli, ["plugins", "new", "hello", "--dir", str(tmp_path)])
    root = tmp_path / "citebot-hello"
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    assert pyproject["project"]["dependencies"] == ["citebot"]
    source = pyproject["tool"]["uv"]["sources"]["citebot"]
    assert source["editable"] is True
    checkout = (root / source["path"]).resolve()
    assert tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["name"] == "citebot"
    assert checkout == scaffold_module.citebot_checkout()


def test_the_sources_path_is_relative_inside_the_checkout(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    checkout = tmp_path / "citebot"
    monkeypatch.setattr(scaffold_module, "citebot_checkout", lambda: checkout)
    root = scaffold_module.scaffold("inner", checkout / "plugins")
    source = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["uv"]["sources"]
    assert source["citebot"] == {"path": "../..", "editable": True}

    monkeypatch.setattr(scaffold_module, "citebot_checkout", lambda: None)
    wheel = scaffold_module.scaffold("outer", tmp_path / "elsewhere")
    text = (wheel / "pyproject.toml").read_text()
    assert "uv" not in tomllib.loads(text).get("tool", {}), "no checkout to point at"
    assert "# [tool.uv.sources]" in text, "the user is told what to add"
