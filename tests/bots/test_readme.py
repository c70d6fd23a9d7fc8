"""The README stays true: its settings table is the one the code generates."""

from __future__ import annotations

from pathlib import Path

from bots.settings.table import markdown_table

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_settings_table_matches_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = "<!-- settings-table:start -->", "<!-- settings-table:end -->"
    table = text[text.index(start) + len(start) : text.index(end)].strip()
    assert table == markdown_table(), (
        "README's settings table is stale: regenerate it with `citebot config --table`"
    )


def test_the_readme_names_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(line for line in ci.splitlines() if "pytest" in line)
    assert test_command in text, ".ci/run must run exactly the README's test command"
    assert "citebot demo" in text
