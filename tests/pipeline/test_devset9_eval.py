"""A ninth development set (the Prometheus documentation, ``tests/devset9``), held out from
all tuning: Markdown pages from two repositories (prometheus/docs, and the server's own
``docs/`` under ``prometheus/latest/`` as the site serves them), with YAML front matter,
flag tables whose cells hold ``<code class="text-nowrap">`` HTML, long YAML configuration
references, and PromQL examples in indented code blocks, about a metrics monitoring server
and its query language."""

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

DEVSET9 = Path(__file__).parents[1] / "devset9"
URL_BASE = (DEVSET9 / "URL_BASE").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def devset9_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET9, URL_BASE, tmp_path_factory.mktemp("devset9"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset9_report(devset9_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET9, devset9_store, embedder, PipelineSettings())


def test_the_ninth_devset_is_prometheus_markdown_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET9, URL_BASE)
    docs = DEVSET9 / "docs"
    assert not list(docs.rglob("*.html"))
    assert not list(docs.rglob("*.mdx"))
    assert all(p.suffix == ".md" for p in docs.rglob("*") if p.is_file())
    # two repositories' pages: the server's docs/ sit under prometheus/latest/ as on the site
    storage = (docs / "prometheus/latest/storage.md").read_text(encoding="utf-8")
    assert storage.startswith("---\ntitle: Storage\nsort_rank: 5\n---\n")
    assert "needed_disk_space = retention_time_seconds" in storage
    flags = (docs / "prometheus/latest/command-line/prometheus.md").read_text(encoding="utf-8")
    assert '| <code class="text-nowrap">--query.timeout</code> |' in flags
    faq = (docs / "introduction/faq.md").read_text(encoding="utf-8")
    assert "#### Is this cloud native?" in faq
    assert "Apache License" in (DEVSET9 / "LICENSE").read_text(encoding="utf-8")
    assert "Version 2.0, January 2004" in (DEVSET9 / "LICENSE").read_text(encoding="utf-8")
    assert (DEVSET9 / "NOTICE").is_file() and (DEVSET9 / "NOTICE.prometheus").is_file()


def test_every_ninth_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the folder
    # reader anchors it) and says every phrase the answer may be checked for.
    wrong = mislabelled(DEVSET9, URL_BASE)
    assert not wrong, "\n".join(wrong)


@pytest.mark.timeout(900)
def test_ninth_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset9_report: Report,
) -> None:
    # Measured when set (offline, MiniLM, main at eb4ee23, questions committed before the
    # first run): hit@6 88.1%, MRR 0.711, cited right 63.1%, fact stated 52.4%, 12/24
    # uncovered and 4/4 off-topic clean. The floors sit just under these figures; they catch
    # a regression, and the gap to issue 12's acceptance is the work (tests/devset9/ANALYSIS.md
    # classes every miss). Since answers quote up to eight sentences and read on to the end of
    # a picked sentence's paragraph (main at 10eefbe): cited 72.6%, fact 63.1%.
    m = devset9_report.metrics()
    table = devset9_report.table()
    assert m["hit_at_k"] >= 0.88, table
    assert m["cited_right"] >= 0.72, table
    assert m["fact_stated"] >= 0.63, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.5, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
