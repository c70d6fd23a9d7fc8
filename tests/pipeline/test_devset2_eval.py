"""A second development set (Click's docs, ``tests/devset2``): the evidence check was fitted
on Starlette's docs, so it is measured (in ``test_devsets_eval.py``) on documentation it was
not tuned on."""

from __future__ import annotations

from pipeline.evaluation import parse_cases
from tests.pipeline.devsets import DEVSETS

DEVSET2 = DEVSETS["devset2"].folder


def test_the_second_devset_is_labelled_and_licensed() -> None:
    cases = parse_cases((DEVSET2 / "questions.yaml").read_text(encoding="utf-8"), fmt="yaml")
    assert len([c for c in cases if c.expect == "answer"]) >= 15
    assert len([c for c in cases if c.kind == "uncovered"]) >= 10
    assert (DEVSET2 / "LICENSE.txt").is_file()
