"""A twelfth development set (Celery's documentation, ``tests/devset12``), held out from all
tuning: Sphinx reStructuredText sources, with local tables of contents (``.. contents::``),
sidebars, ``hlist`` and ``glossary`` directives, ``|version|`` substitutions, Celery's own
cross-reference directives (``.. setting::``, ``.. signal::``) and cross-page ``:ref:``
roles, about a distributed task queue. The code is under the BSD licence, the documentation
under CC BY-SA 4.0 (``LICENSE``)."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_twelfth_devset_is_sphinx_rst_labelled_and_licensed() -> None:
    docs = held_out_pages("devset12", ".rst")
    configuration = (docs / "userguide/configuration.rst").read_text(encoding="utf-8")
    assert ".. contents::" in configuration
    assert ".. setting:: task_acks_late" in configuration
    assert ".. sidebar::" in (docs / "getting-started/introduction.rst").read_text(encoding="utf-8")
    licence = (DEVSETS["devset12"].folder / "LICENSE").read_text(encoding="utf-8")
    assert "BSD" in licence and "Creative Commons" in licence
