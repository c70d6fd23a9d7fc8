"""A third development set (structlog's docs, ``tests/devset3``), held out from tuning:
the evidence check and the extraction are fitted on ``tests/devset`` and checked on
``tests/devset2``, so a change that only fits those two shows here."""

from __future__ import annotations

from pipeline.evaluation import parse_cases
from tests.pipeline.devsets import DEVSETS

DEVSET3 = DEVSETS["devset3"].folder
URL_BASE = DEVSETS["devset3"].url_base


def test_the_third_devset_is_labelled_and_licensed() -> None:
    text = (DEVSET3 / "questions.yaml").read_text(encoding="utf-8")
    cases = parse_cases(text, fmt="yaml")
    answerable = [c for c in cases if c.expect == "answer"]
    assert len(answerable) >= 40
    assert all(c.urls and c.contains for c in answerable)
    assert len([c for c in cases if c.kind == "uncovered"]) >= 15
    assert 3 <= len([c for c in cases if c.kind == "off_topic"]) <= 5
    assert f"url_base: {URL_BASE}" in text
    assert 12 <= len(list((DEVSET3 / "docs").glob("*.md"))) <= 25
    assert (DEVSET3 / "LICENSE-MIT").is_file() and (DEVSET3 / "LICENSE-APACHE").is_file()
