"""A thirteenth development set (BorgBackup's documentation, ``tests/devset13``), held out from
all tuning: Sphinx reStructuredText sources of a backup tool's manual, whose command pages
``.. include::`` generated ``.rst.inc`` files that are not in the set (so most of them are a
lone ``Examples`` section of ``::`` literal blocks), with ``global.rst.inc`` link targets,
Borg's own ``:issue:`` role, ``rubric``/``container`` directives, simple tables and cross-page
``:ref:`` roles. The code and the documentation are under the BSD 3-clause licence
(``LICENSE``)."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_thirteenth_devset_is_sphinx_rst_labelled_and_licensed() -> None:
    docs = held_out_pages("devset13", ".rst")
    create = (docs / "usage/create.rst").read_text(encoding="utf-8")
    assert create.startswith(".. include:: create.rst.inc")
    assert not (docs / "usage/create.rst.inc").exists()
    faq = (docs / "faq.rst").read_text(encoding="utf-8")
    assert ".. include:: global.rst.inc" in faq and ".. rubric::" in faq
    assert ":issue:`" in (docs / "internals/security.rst").read_text(encoding="utf-8")
    licence = (DEVSETS["devset13"].folder / "LICENSE").read_text(encoding="utf-8")
    assert "The Borg Collective" in licence and "Redistribution and use" in licence
