"""A sixth development set (the Syncthing documentation, ``tests/devset6``), held out from all
tuning and the first of built HTML: 53 pages as Sphinx and the alabaster theme generate them,
site chrome included (sidebar navigation, search box, "Edit this page" footer), with ``¶``
permalinks in every heading, ``<section id>`` anchors, admonitions and a configuration
reference of ``<dt>``/``<dd>`` options, about a file synchronisation service written in Go."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline.config import PipelineSettings
from pipeline.evaluation import Report
from pipeline.ports import Embedder
from tests.pipeline.devset_eval import (
    assert_held_out_shape,
    eval_devset,
    ingest_devset,
    mislabelled,
)

DEVSET6 = Path(__file__).parents[1] / "devset6"
URL_BASE = (DEVSET6 / "URL_BASE").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def devset6_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET6, URL_BASE, tmp_path_factory.mktemp("devset6"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset6_report(devset6_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET6, devset6_store, embedder, PipelineSettings())


def test_the_sixth_devset_is_built_html_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET6, URL_BASE)
    assert not list((DEVSET6 / "docs").rglob("*.md"))
    # the pages are as a site serves them: the generator's chrome is still around the content
    page = (DEVSET6 / "docs" / "users" / "faq.html").read_text(encoding="utf-8")
    assert 'class="sphinxsidebar" role="navigation"' in page
    assert 'class="headerlink"' in page
    assert "Creative Commons Attribution 4.0" in (DEVSET6 / "LICENSE.txt").read_text("utf-8")


def test_every_sixth_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the HTML
    # reader anchors it) and says every phrase the answer may be checked for.
    wrong = mislabelled(DEVSET6, URL_BASE)
    assert not wrong, "\n".join(wrong)


@pytest.mark.timeout(900)
def test_sixth_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset6_report: Report,
) -> None:
    # Measured when set (offline, MiniLM, main at 70e43a1, questions committed before the
    # first run): hit@6 95.4%, MRR 0.818, cited right 79.3%, fact stated 47.1%, 19/22
    # uncovered and 4/4 off-topic clean. These floors catch a regression; the gap to issue
    # 12's acceptance is the work (tests/devset6/ANALYSIS.md classes every miss).
    # With HTML read as the Markdown it stands for (session 7, the lead, who reads this
    # set; the reader's author did not): hit@6 94.3% (one question fewer), MRR 0.809, cited
    # right 81.6%, fact stated 59.8%, 19/22 and 4/4 clean. A setting's name in a <dt>
    # read as the term of its description (session 8, formats): cited 82.8%, fact 64.4%.
    # Since a passage's clear lead in support counts twice in sentence choice: fact 65.5%.
    # An amount the asker says they have ("has 512MB of RAM") is no number to match, and a
    # rough count ("a few hundred KB/s") no term (answerability, measured at 7b68b64 before the
    # sentence choice): cited 85.1%, fact 65.5%; both together (main e0edf87): 85.1%, 69.0%.
    m = devset6_report.metrics()
    table = devset6_report.table()
    assert m["hit_at_k"] >= 0.94, table
    assert m["cited_right"] >= 0.89, table
    # option descriptions quoted with their names, run-on bullets, "what do I change" as a
    # how-to (session 8, extraction, main 665bd1e): fact stated 67.8%, cited 82.8%
    assert m["fact_stated"] >= 0.78, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.86, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
