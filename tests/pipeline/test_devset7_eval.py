"""A seventh development set (the QuestDB documentation, ``tests/devset7``), held out from all
tuning and the first written for Docusaurus: Markdown and MDX sources as they sit in the
project's repository (front matter, ``:::note`` admonitions, ``import`` lines, JSX such as
``<Tabs>``/``<TabItem>`` and ``<Screenshot />``, code blocks with ``title=``), about a
time-series database written in Java, C++ and Rust."""

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

DEVSET7 = Path(__file__).parents[1] / "devset7"
URL_BASE = (DEVSET7 / "URL_BASE").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def devset7_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET7, URL_BASE, tmp_path_factory.mktemp("devset7"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset7_report(devset7_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET7, devset7_store, embedder, PipelineSettings())


def test_the_seventh_devset_is_docusaurus_source_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET7, URL_BASE)
    docs = DEVSET7 / "docs"
    assert not list(docs.rglob("*.html"))
    # two pages are MDX proper; pages() counts them once the folder reader reads .mdx
    assert len(list(docs.rglob("*.mdx"))) == 2
    # the pages are Docusaurus sources, not Markdown that any renderer reads the same way
    overview = (docs / "configuration" / "overview.md").read_text(encoding="utf-8")
    assert overview.startswith("---\ntitle: Configuration\n")
    assert 'import Tabs from "@theme/Tabs"' in overview
    assert '<TabItem value="macos">' in overview
    assert ":::note" in overview
    assert '```ini title="server.conf"' in overview
    assert "<Screenshot" in (docs / "concepts" / "ttl.md").read_text(encoding="utf-8")
    assert "Apache License" in (DEVSET7 / "LICENSE.txt").read_text(encoding="utf-8")


def test_every_seventh_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the folder
    # reader anchors it) and says every phrase the answer may be checked for.
    wrong = mislabelled(DEVSET7, URL_BASE)
    assert not wrong, "\n".join(wrong)


@pytest.mark.timeout(900)
def test_seventh_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset7_report: Report,
) -> None:
    # Measured when set (offline, MiniLM, main at 4d11659, questions committed before the
    # first run): hit@6 92.1%, MRR 0.743, cited right 73.3%, fact stated 56.4%, 17/24
    # uncovered and 4/4 off-topic clean. At b3740a6 (.mdx read): 91.1%, 0.740, 74.3%, 59.4%,
    # 17/24. At 7b68b64 (a .md page written for an MDX site read as MDX): 92.1%, 0.743,
    # 74.3%, 58.4%, 18/24, 4/4 (one fact lost, one leak fixed; ANALYSIS.md). The floors are
    # from 7b68b64, the newest main measured; they catch a regression, and the gap to issue
    # 12's acceptance is the work (tests/devset7/ANALYSIS.md classes every miss). Since code
    # is found in any chunk of its section, with its lead-in, and a stated problem asks how:
    # fact stated 61.4% (TZ=UTC, backups(), QDB_CAIRO_SQL_COPY_ROOT). With a key heading's
    # description quoted with its key (4636cb2): 93.1%, 0.759, 75.2%, 65.3%, 18/24, 4/4. The
    # asker's estimates, machine and dates as their situation, names only in links' text and
    # "what's the most …" as an amount question: +4 cited with fact, +2 clean (20/24).
    m = devset7_report.metrics()
    table = devset7_report.table()
    assert m["hit_at_k"] >= 0.92, table
    assert m["cited_right"] >= 0.81, table
    assert m["fact_stated"] >= 0.76, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.83, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
