"""A fifth development set (the Cargo Book, ``tests/devset5``), held out from all tuning:
mdBook Markdown (``> **Note**:`` quotes, ``{#id}`` heading ids, long reference pages with deep
heading trees, command pages whose options are raw HTML), about a Rust tool, where devset4 is
mkdocs-material and devset3 MyST."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from connectors.knowledge.sources.folder import read_folder
from connectors.knowledge.store import KnowledgeStore
from pipeline.config import PipelineSettings
from pipeline.evaluation import Report, parse_cases, states
from pipeline.ports import Embedder
from tests.pipeline.test_devset_eval import eval_devset, ingest_devset

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
    text = (DEVSET5 / "questions.yaml").read_text(encoding="utf-8")
    cases = parse_cases(text, fmt="yaml")
    answerable = [c for c in cases if c.expect == "answer"]
    assert len(answerable) >= 60
    assert all(c.urls and c.contains for c in answerable)
    assert len([c for c in answerable if c.history]) >= 3
    assert len([c for c in cases if c.kind == "uncovered"]) >= 20
    assert 3 <= len([c for c in cases if c.kind == "off_topic"]) <= 5
    assert f"url_base: {URL_BASE}" in text
    assert len(list((DEVSET5 / "docs").rglob("*.md"))) >= 40
    assert (DEVSET5 / "LICENSE-MIT").is_file()
    assert (DEVSET5 / "LICENSE-APACHE").is_file()


def test_every_fifth_devset_label_names_a_section_that_states_its_phrases() -> None:
    # A label is only worth measuring against if the section it names exists (as the folder
    # reader anchors it) and says every phrase the answer may be checked for.
    sections: dict[str, str] = {}
    for doc in read_folder(DEVSET5 / "docs", url_base=URL_BASE):
        for s in getattr(doc, "sections", ()):
            sections[f"{doc.url}#{s.anchor}" if s.anchor else doc.url] = s.text
    cases = parse_cases((DEVSET5 / "questions.yaml").read_text(encoding="utf-8"), fmt="yaml")
    wrong: list[str] = []
    for case in (c for c in cases if c.expect == "answer"):
        named = [sections[u] for u in case.urls if u in sections]
        if not named:
            wrong.append(f"{case.question}: no such section {case.urls}")
        wrong += [
            f"{case.question}: {p!r} not in {case.urls}"
            for p in case.contains
            if not states("\n".join(named), [p])
        ]
    assert not wrong, "\n".join(wrong)
