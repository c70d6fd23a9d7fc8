"""A tenth development set (the Traefik Proxy documentation, ``tests/devset10``), held out from
all tuning: Markdown pages of an MkDocs site with YAML front matter, option tables whose first
cells hold ``<a id="opt-…">`` HTML anchors, configuration examples as tabbed code fences
(```` ```yaml tab="Labels" ````), admonitions (``!!! info``, ``??? example``) and a Jinja
``{% include-markdown %}`` line on most pages, about a reverse proxy and load balancer."""

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

DEVSET10 = Path(__file__).parents[1] / "devset10"
URL_BASE = (DEVSET10 / "URL_BASE").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def devset10_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(DEVSET10, URL_BASE, tmp_path_factory.mktemp("devset10"))
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def devset10_report(devset10_store: KnowledgeStore, embedder: Embedder) -> Report:
    return eval_devset(DEVSET10, devset10_store, embedder, PipelineSettings())


def test_the_tenth_devset_is_traefik_markdown_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET10, URL_BASE)
    docs = DEVSET10 / "docs"
    assert not list(docs.rglob("*.html"))
    assert not list(docs.rglob("*.mdx"))
    assert all(p.suffix == ".md" for p in docs.rglob("*") if p.is_file())
    # MkDocs pages: front matter, tabbed fences, option tables with HTML anchors, Jinja includes
    basicauth = (docs / "reference/routing-configuration/http/middlewares/basicauth.md").read_text(
        encoding="utf-8"
    )
    assert basicauth.startswith('---\ntitle: "Traefik BasicAuth Documentation"\n')
    assert '```yaml tab="Labels"' in basicauth
    assert '<a id="opt-realm" href="#opt-realm"' in basicauth
    assert '{% include-markdown "includes/traefik-for-business-applications.md" %}' in basicauth
    faq = (docs / "getting-started/faq.md").read_text(encoding="utf-8")
    assert "### `503 Service Unavailable`" in faq
    licence = (DEVSET10 / "LICENSE.md").read_text(encoding="utf-8")
    assert "The MIT License (MIT)" in licence
    assert "Traefik Labs" in licence


def test_every_tenth_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the folder
    # reader anchors it) and says every phrase the answer may be checked for.
    wrong = mislabelled(DEVSET10, URL_BASE)
    assert not wrong, "\n".join(wrong)


@pytest.mark.timeout(900)
def test_tenth_devset_answers_are_cited_and_uncovered_questions_get_no_answer(
    devset10_report: Report,
) -> None:
    # Measured when set (offline, MiniLM, questions committed before the first run): at main
    # eb4ee23 (with 920cb6a's fix, without which a question on these pages hung for minutes)
    # hit@6 85.7%, MRR 0.700, cited right 65.5%, fact stated 56.0%, 14/24 uncovered and 4/4
    # off-topic clean; at main 920cb6a cited 66.7%, fact 65.5%, the rest the same. The floors
    # sit just under these figures (tests/devset10/ANALYSIS.md classes every miss).
    m = devset10_report.metrics()
    table = devset10_report.table()
    assert m["hit_at_k"] >= 0.85, table
    assert m["cited_right"] >= 0.66, table
    assert m["fact_stated"] >= 0.65, table
    assert m["by_kind"]["uncovered"]["rate"] >= 0.58, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table
