"""Issue 12's acceptance, offline, on a real documentation set nobody here wrote.

``tests/devset/`` holds Starlette's docs and labelled questions (see its README).
The thresholds are the issue's: the right section cited, the fact stated, and
"I couldn't find this" with no source for what the docs do not cover.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline.config import PipelineSettings
from pipeline.evaluation import Report, parse_cases
from pipeline.ports import Embedder
from tests.pipeline.devset_eval import eval_devset, ingest_devset

DEVSET = Path(__file__).parents[1] / "devset"
URL_BASE = "https://www.starlette.io/"


@pytest.fixture(scope="module")
def devset_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET, URL_BASE, tmp_path_factory.mktemp("devset"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset_report(devset_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET, devset_store, embedder, PipelineSettings())


def test_the_devset_is_big_enough_and_labelled() -> None:
    cases = parse_cases((DEVSET / "questions.yaml").read_text(encoding="utf-8"), fmt="yaml")
    answerable = [c for c in cases if c.expect == "answer"]
    uncovered = [c for c in cases if c.kind == "uncovered"]
    assert len(answerable) >= 40 and len(uncovered) >= 15
    assert all(c.contains for c in answerable)
    assert len(list((DEVSET / "docs").glob("*.md"))) >= 20
    assert (DEVSET / "LICENSE.md").is_file()


@pytest.mark.timeout(900)
def test_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset_report: Report,
) -> None:
    # Measured when set (offline, MiniLM): hit@6 98%, cited right 90%, fact stated 86.7%,
    # 20/20 uncovered and 5/5 off-topic clean (18/20 before numbers had to be in the cited
    # passage). Before the evidence check: 83%, 68%, 0/20, 3/5; before extraction read on
    # past the chunk and showed code: 90%, 71.7%. Since extraction reads documentation markup
    # and irregular past forms stem with their verbs ("wrote"): cited 91.7%, fact 88.3%.
    # Since code/table answers and a passage's support in sentence choice: 95.0%, 93.3%.
    # Since code naming a good share of a question not asking how is shown: cited 96.7%.
    m = devset_report.metrics()
    table = devset_report.table()
    assert m["hit_at_k"] >= 0.95, table
    assert m["cited_right"] >= 0.98, table
    assert m["fact_stated"] >= 0.93, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.9, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
