"""A fourth development set (Hatch's docs, ``tests/devset4``), held out from all tuning:
mkdocs-material Markdown (``!!!`` admonitions, ``===`` content tabs, tables, pages in
sub-folders), where devset3 is MyST and devset2 reST-ish Markdown."""

from __future__ import annotations

from pipeline.evaluation import parse_cases
from tests.pipeline.devsets import DEVSETS

DEVSET4 = DEVSETS["devset4"].folder
URL_BASE = DEVSETS["devset4"].url_base


def test_the_fourth_devset_is_labelled_and_licensed() -> None:
    text = (DEVSET4 / "questions.yaml").read_text(encoding="utf-8")
    cases = parse_cases(text, fmt="yaml")
    answerable = [c for c in cases if c.expect == "answer"]
    assert len(answerable) >= 50
    assert all(c.urls and c.contains for c in answerable)
    assert len([c for c in cases if c.kind == "uncovered"]) >= 20
    assert 3 <= len([c for c in cases if c.kind == "off_topic"]) <= 5
    assert f"url_base: {URL_BASE}" in text
    assert len(list((DEVSET4 / "docs").rglob("*.md"))) >= 40
    assert (DEVSET4 / "LICENSE.txt").is_file()
