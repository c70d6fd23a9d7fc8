"""Against real vendors, when their keys are set; otherwise skipped with the reason.

The suite clears vendor variables so it never calls out by accident, so these
read their own: LIVE_OPENAI_API_KEY (+ optional LIVE_OPENAI_MODEL) and LIVE_TAVILY_API_KEY.
"""

from __future__ import annotations

import os

import pytest
from pydantic import SecretStr

from connectors.knowledge.store import KnowledgeStore
from connectors.providers.llms import build_llm
from connectors.providers.settings import LLMSettings, WebSettings
from connectors.providers.web_search import build_web_search
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Outcome, Route
from pipeline.ports import Embedder
from pipeline.question import Question
from tests.pipeline.test_end_to_end import KEYS_URL

OPENAI_KEY = os.environ.get("LIVE_OPENAI_API_KEY")
TAVILY_KEY = os.environ.get("LIVE_TAVILY_API_KEY")


@pytest.mark.live_llm
@pytest.mark.skipif(not OPENAI_KEY, reason="LIVE_OPENAI_API_KEY is not set: no real LLM to call")
async def test_a_real_llm_answers_from_the_knowledge_base_with_footnotes(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    llm = build_llm(
        LLMSettings(
            provider="openai",
            model=os.environ.get("LIVE_OPENAI_MODEL", "gpt-4o-mini"),
            api_key=SecretStr(OPENAI_KEY or ""),
        )
    )
    pipeline = Pipeline(
        store,
        embedder=embedder,
        llm=llm,
        web=None,
        settings=PipelineSettings(grader="llm"),
    )
    done = await pipeline.answer(
        Question(text="How long does an old API key keep working after rotation?")
    )
    assert done.outcome is Outcome.ANSWERED
    assert done.route is Route.KNOWLEDGE_BASE
    assert KEYS_URL in [ref.url for ref in done.answer.references]
    assert "[1]" in done.answer.text


@pytest.mark.skipif(not TAVILY_KEY, reason="LIVE_TAVILY_API_KEY is not set: no real Tavily to call")
async def test_real_tavily_results_keep_their_urls() -> None:
    web, off = build_web_search(WebSettings(tavily_api_key=SecretStr(TAVILY_KEY or "")))
    assert web is not None, off
    sources = await web.search("LlamaIndex workflows documentation")
    assert sources and all(s.url.startswith("http") and s.title for s in sources)
