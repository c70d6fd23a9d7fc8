"""Ingesting a development set, running ``citebot eval`` on it offline, and checking its labels:
what every set's eval and every set's shape test share (the sets themselves are in
``devsets.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

from connectors.knowledge.documents import Document
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.parsing import kind_of
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.sources.folder import folder_files, read_folder
from connectors.knowledge.store import KnowledgeStore
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import MiniLMEmbedding
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.evaluation import Case, Report, RetrievalCheck, parse_cases, run_eval, states
from pipeline.ports import Embedder
from tests.pipeline.devsets import DEVSETS


def ingest_devset(folder: Path, url_base: str, data_dir: Path) -> KnowledgeStore:
    """A store of ``folder/docs``, every page ingested."""
    kb = open_lancedb(data_dir, StoreSettings(), MiniLMEmbedding())
    report = Ingestor(kb, data_dir, progress=False).ingest(
        read_folder(folder / "docs", url_base=url_base), source=folder.name
    )
    assert report.added == len(pages(folder))
    return kb


def ingest_pages(pages: dict[str, str], root: Path, data_dir: Path) -> KnowledgeStore:
    """A store of ``pages`` (file name → Markdown), written under ``root`` and read as
    https://docs.example.com/ pages."""
    for name, text in pages.items():
        (root / name).write_text(text, encoding="utf-8")
    kb = open_lancedb(data_dir, StoreSettings(), MiniLMEmbedding())
    Ingestor(kb, data_dir, progress=False).ingest(
        read_folder(root, url_base="https://docs.example.com/"), source="test"
    )
    return kb


def pages(folder: Path) -> list[Path]:
    """The set's pages: every file under ``docs/`` of a kind the folder reader reads
    (Markdown sources, MDX once the reader knows it, or the HTML a site generator built)."""
    return sorted(p for p in folder_files(folder / "docs") if kind_of(p.name) is not None)


def assert_labelled(folder: Path, url_base: str, answerable: int, uncovered: int) -> list[Case]:
    """``folder/questions.yaml`` has at least ``answerable`` questions labelled with the
    sections to cite and the phrases to state, at least ``uncovered`` the docs do not cover,
    3 to 5 off-topic ones, and the set's URL base; returns the labelled questions."""
    text = (folder / "questions.yaml").read_text(encoding="utf-8")
    cases = parse_cases(text, fmt="yaml")
    labelled = [c for c in cases if c.expect == "answer"]
    assert len(labelled) >= answerable
    assert all(c.urls and c.contains for c in labelled)
    assert len([c for c in cases if c.kind == "uncovered"]) >= uncovered
    assert 3 <= len([c for c in cases if c.kind == "off_topic"]) <= 5
    assert f"url_base: {url_base}" in text
    return labelled


def held_out_pages(name: str, suffix: str) -> Path:
    """The ``docs/`` folder of the held-out set ``name``, checked for its shape
    (:func:`assert_held_out_shape`) and for holding pages of one kind only (``suffix``)."""
    devset = DEVSETS[name]
    assert_held_out_shape(devset.folder, devset.url_base)
    docs = devset.folder / "docs"
    assert all(p.suffix == suffix for p in docs.rglob("*") if p.is_file())
    return docs


def assert_held_out_shape(folder: Path, url_base: str) -> None:
    """A held-out set's size and kinds (devset5 on): 60 answerable questions with labels,
    a few follow-ups, 20 uncovered, 3 to 5 off-topic, 40 pages."""
    labelled = assert_labelled(folder, url_base, answerable=60, uncovered=20)
    assert len([c for c in labelled if c.history]) >= 3
    assert len(pages(folder)) >= 40


def mislabelled(docs: Path, questions: Path, url_base: str) -> list[str]:
    """Labels of the ``questions`` file that name no section the folder reader produces from
    ``docs``, or a phrase the named sections do not state."""
    sections: dict[str, str] = {}
    for doc in read_folder(docs, url_base=url_base):
        assert isinstance(doc, Document), doc
        for s in doc.sections:
            # a URL names every section the reader gives that anchor (citing any is right)
            url = f"{doc.url}#{s.anchor}" if s.anchor else doc.url
            sections[url] = f"{sections[url]}\n{s.text}" if url in sections else s.text
    cases = parse_cases(questions.read_text(encoding="utf-8"), fmt="yaml")
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
    return wrong


def eval_devset(
    folder: Path,
    store: KnowledgeStore,
    embedder: Embedder,
    settings: PipelineSettings,
    url_map: Callable[[str], str] | None = None,
) -> Report:
    """``citebot eval`` of ``folder/questions.yaml``, offline; ``url_map`` turns each expected
    URL into the one the store's copy of the page has (the built HTML of Markdown pages)."""
    pipeline = Pipeline(store, embedder=embedder, llm=None, web=None, settings=settings)
    cases = parse_cases((folder / "questions.yaml").read_text(encoding="utf-8"), fmt="yaml")
    if url_map is not None:
        cases = [dataclasses.replace(c, urls=tuple(map(url_map, c.urls))) for c in cases]
    retrieval = RetrievalCheck(store, top_k=settings.top_k)
    return asyncio.run(run_eval(cases, pipeline.answer, retrieval=retrieval))
