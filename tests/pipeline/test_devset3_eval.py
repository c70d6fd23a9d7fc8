"""A third development set (structlog's docs, ``tests/devset3``), held out from tuning:
the evidence check and the extraction are fitted on ``tests/devset`` and checked on
``tests/devset2``, so a change that only fits those two shows here."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_labelled
from tests.pipeline.devsets import DEVSETS

DEVSET3 = DEVSETS["devset3"].folder
URL_BASE = DEVSETS["devset3"].url_base


def test_the_third_devset_is_labelled_and_licensed() -> None:
    assert_labelled(DEVSET3, URL_BASE, answerable=40, uncovered=15)
    assert 12 <= len(list((DEVSET3 / "docs").glob("*.md"))) <= 25
    assert (DEVSET3 / "LICENSE-MIT").is_file() and (DEVSET3 / "LICENSE-APACHE").is_file()
