"""A fifth development set (the Cargo Book, ``tests/devset5``), held out from all tuning:
mdBook Markdown (``> **Note**:`` quotes, ``{#id}`` heading ids, long reference pages with deep
heading trees, command pages whose options are raw HTML), about a Rust tool, where devset4 is
mkdocs-material and devset3 MyST."""

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

DEVSET5 = Path(__file__).parents[1] / "devset5"
URL_BASE = (DEVSET5 / "URL_BASE").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def devset5_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET5, URL_BASE, tmp_path_factory.mktemp("devset5"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset5_report(devset5_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET5, devset5_store, embedder, PipelineSettings())


def test_the_fifth_devset_is_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET5, URL_BASE)
    assert not list((DEVSET5 / "docs").rglob("*.html"))
    assert (DEVSET5 / "LICENSE-MIT").is_file()
    assert (DEVSET5 / "LICENSE-APACHE").is_file()


def test_every_fifth_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the folder
    # reader anchors it) and says every phrase the answer may be checked for.
    wrong = mislabelled(DEVSET5, URL_BASE)
    assert not wrong, "\n".join(wrong)


@pytest.mark.timeout(900)
def test_fifth_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset5_report: Report,
) -> None:
    # Measured when set (offline, MiniLM, main at 045acd8, questions committed before the
    # first run): hit@6 76.8%, MRR 0.556, cited right 60.0%, fact stated 36.8%, 12/23
    # uncovered and 4/4 off-topic clean. These floors catch a regression; the gap to issue
    # 12's acceptance is the work (tests/devset5/ANALYSIS.md classes every miss). Raised
    # after names only in code blocks, British spellings and the subject's hyphenated tools
    # (answerability, session 7): cited 63.2%, fact 45.3%, uncovered 17/23. With extraction
    # showing the example a sentence leads into, the block "This …" follows and how to change
    # a default (main 1feaec2 + feebfe8): fact 49.5%.
    m = devset5_report.metrics()
    table = devset5_report.table()
    assert m["hit_at_k"] >= 0.75, table
    assert m["cited_right"] >= 0.70, table
    # a name heading's description quoted with its name (session 8, extraction, main
    # 665bd1e): fact stated 51.6%
    assert m["fact_stated"] >= 0.66, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.73, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
