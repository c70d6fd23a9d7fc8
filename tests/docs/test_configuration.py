"""The configuration page stays true: its settings table is the one the code generates."""

from __future__ import annotations

import re
from pathlib import Path

from bots.settings.origins import NOT_SETTINGS
from bots.settings.table import markdown_table, rows

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "pages" / "configuration.md"


def test_the_settings_table_matches_the_code() -> None:
    text = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- settings-table:start -->", "<!-- settings-table:end -->"
    table = text[text.index(start) + len(start) : text.index(end)].strip()
    assert table == markdown_table(), (
        "docs/pages/configuration.md's settings table is stale: "
        "paste the output of `citebot config --table` between its markers"
    )


def test_every_setting_the_docs_name_exists() -> None:
    known = {env.split(" ", 1)[0] for env, _, _ in rows()} | NOT_SETTINGS
    sections = {name.rsplit("__", 1)[0] for name in known if "__" in name}
    named: dict[str, set[str]] = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs" / "pages").glob("*.md"))]:
        for line in page.read_text(encoding="utf-8").splitlines():
            if "did you mean" in line:  # an example of a typo
                continue
            for name in re.findall(r"CITEBOT_[A-Z0-9_]*[A-Z0-9]", line):
                named.setdefault(name, set()).add(page.name)
    unknown = {
        name: sorted(pages)
        for name, pages in named.items()
        if name not in known and name not in sections and not name.endswith("__")
    }
    assert not unknown, f"the docs name settings the code does not have: {unknown}"
