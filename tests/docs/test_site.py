"""The documentation site builds strictly, and the README only links to things that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_site_builds_strictly_so_broken_links_and_anchors_fail(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = ["build", "--strict", "--quiet", "-f", "docs/mkdocs.yml", "-d", str(tmp_path / "site")]
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", *build],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "plugins" / "index.html").is_file()
    changelog = (tmp_path / "site" / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog, "the changelog page includes docs/CHANGELOG.md"


def test_the_readme_is_short_and_its_relative_links_exist() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 12 * 1024, "the README stays short; details go to docs/"
    targets = re.findall(r"\]\((?!https?://|#)([^)\s]+)\)", text)
    assert targets, "the README links to the docs"
    missing = [t for t in targets if not (ROOT / t.split("#", 1)[0]).exists()]
    assert not missing, f"README links to missing files: {missing}"


def test_every_path_the_docs_name_exists() -> None:
    tops = "bots|pipeline|citations|connectors|tests|deploy|docs|examples|\\.ci"
    pages = [README, ROOT / "docs" / "CHANGELOG.md", *(ROOT / "docs" / "pages").glob("*.md")]
    named = {
        (path.split("#", 1)[0], page.name)
        for page in pages
        for path in re.findall(rf"`((?:{tops})/[^`\s]*)`", page.read_text(encoding="utf-8"))
        if not any(mark in path for mark in "…*{")
    }
    missing = sorted(f"{path} ({page})" for path, page in named if not (ROOT / path).exists())
    assert not missing, f"the docs name paths that do not exist: {missing}"


def test_verbosity_flags_go_before_the_command() -> None:
    # -v and -vv are options of `citebot` itself: `citebot ingest … -v` is "No such option"
    pages = [README, *(ROOT / "docs" / "pages").glob("*.md")]
    wrong = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        commands = re.findall(r"`([^`\n]+)`", text) + text.splitlines()
        for command in commands:
            for call in re.findall(r"\bcitebot\s[^`;|&#\n]*", command):
                words = call.split()
                if any(w in ("-v", "-vv", "--verbose") for w in words[2:]):
                    wrong.append(f"{page.name}: {call.strip()}")
    assert not wrong, f"put -v right after `citebot`: {sorted(set(wrong))}"


def test_the_readme_lists_every_ask_json_outcome() -> None:
    from pipeline.events import Outcome

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert '"outcome"}' in text, "citebot ask --json prints the outcome"
    missing = [o.value for o in Outcome if f"`{o.value}`" not in text]
    assert not missing, f"the README's --json paragraph lacks outcomes {missing}"


def test_plugins_md_gives_the_command_name_rule_the_code_checks() -> None:
    from bots.plugins.commands import _NAME

    rule = _NAME.pattern.removeprefix("^").removesuffix("$")
    assert f"`{rule}`" in (ROOT / "docs" / "pages" / "plugins.md").read_text(encoding="utf-8")
