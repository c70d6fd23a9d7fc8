"""The configuration page stays true: its settings table is the one the code generates."""

from __future__ import annotations

from pathlib import Path

from bots.settings.table import markdown_table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "pages" / "configuration.md"


def test_the_settings_table_matches_the_code() -> None:
    text = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- settings-table:start -->", "<!-- settings-table:end -->"
    table = text[text.index(start) + len(start) : text.index(end)].strip()
    assert table == markdown_table(), (
        "docs/pages/configuration.md's settings table is stale: "
        "paste the output of `citebot config --table` between its markers"
    )
