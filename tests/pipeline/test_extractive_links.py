"""Offline answers are verbatim, so every cited sentence deep-links to its words."""

from __future__ import annotations

from citations.render import render_discord
from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.ports import Embedder
from pipeline.question import Question
from tests.pipeline.test_end_to_end import KEYS_URL


async def test_extractive_sentences_link_to_their_text_fragments(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    pipeline = Pipeline(store, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    done = await pipeline.answer(Question("How do I rotate an API key?"))
    assert done.route is Route.KNOWLEDGE_BASE
    checks = [q for q in done.answer.quotes if q.reference == 1]
    assert checks and all(q.verified and q.kind == "sentence" for q in checks)
    assert all(q.deep_link and q.deep_link.startswith(KEYS_URL + ":~:text=") for q in checks)
    content = render_discord(done.answer)[0].content
    assert f"(<{checks[0].deep_link}>)" in content
