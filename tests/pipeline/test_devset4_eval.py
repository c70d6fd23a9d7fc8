"""A fourth development set (Hatch's docs, ``tests/devset4``), held out from all tuning:
mkdocs-material Markdown (``!!!`` admonitions, ``===`` content tabs, tables, pages in
sub-folders), where devset3 is MyST and devset2 reST-ish Markdown."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_labelled
from tests.pipeline.devsets import DEVSETS

DEVSET4 = DEVSETS["devset4"].folder
URL_BASE = DEVSETS["devset4"].url_base


def test_the_fourth_devset_is_labelled_and_licensed() -> None:
    assert_labelled(DEVSET4, URL_BASE, answerable=50, uncovered=20)
    assert len(list((DEVSET4 / "docs").rglob("*.md"))) >= 40
    assert (DEVSET4 / "LICENSE.txt").is_file()
