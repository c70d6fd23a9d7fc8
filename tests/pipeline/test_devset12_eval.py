"""A twelfth development set (Celery's documentation, ``tests/devset12``), held out from all
tuning: Sphinx reStructuredText sources, with local tables of contents (``.. contents::``),
sidebars, ``hlist`` and ``glossary`` directives, ``|version|`` substitutions, Celery's own
cross-reference directives (``.. setting::``, ``.. signal::``) and cross-page ``:ref:``
roles, about a distributed task queue."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET12 = DEVSETS["devset12"].folder
URL_BASE = DEVSETS["devset12"].url_base


def test_the_twelfth_devset_is_sphinx_rst_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET12, URL_BASE)
    docs = DEVSET12 / "docs"
    assert all(p.suffix == ".rst" for p in docs.rglob("*") if p.is_file())
    configuration = (docs / "userguide/configuration.rst").read_text(encoding="utf-8")
    assert ".. contents::" in configuration
    assert ".. setting:: task_acks_late" in configuration
    assert ".. sidebar::" in (docs / "getting-started/introduction.rst").read_text(encoding="utf-8")
    licence = (DEVSET12 / "LICENSE").read_text(encoding="utf-8")
    assert "BSD" in licence and "Creative Commons" in licence
