"""What a channel's settings change in the pipeline: the persona in the answer prompt, and
web search switched off for one question (``Question.persona``, ``Question.web``)."""

from __future__ import annotations

from dataclasses import replace

from pipeline.events import Route
from pipeline.ports import Embedder
from pipeline.prompts import ANSWER_SYSTEM
from pipeline.question import Question
from tests.pipeline.memory import StubWeb
from tests.pipeline.scripted import ScriptedLLM, by_keyword
from tests.pipeline.test_workflow import GOOD, ROTATE, collect, make, rotating, web_page

PERSONA = "Answer for support engineers; name the setting to change."


async def test_a_persona_joins_the_system_prompt_after_the_rules(embedder: Embedder) -> None:
    llm = rotating("Open Settings › API keys and click Rotate [1].")
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, replace(ROTATE, persona=f"  {PERSONA}\n"))
    assert done.route is Route.KNOWLEDGE_BASE
    prompt = llm.calls("answer with citations")[0]
    assert ANSWER_SYSTEM in prompt and PERSONA in prompt
    assert prompt.index(ANSWER_SYSTEM) < prompt.index(PERSONA), "the rules come first"

    _, _ = await collect(pipeline, ROTATE)
    assert PERSONA not in llm.calls("answer with citations")[1]


async def test_web_off_for_a_question_keeps_it_to_the_knowledge_base(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({}, default=0.1),
            "rewrite for web search": "api key rotation interval",
            "rewrite for the knowledge base": "api key rotation interval",
            "answer with citations": "Rotate API keys at least every 90 days [1].",
            "check an answer": GOOD,
        }
    )
    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, llm, web=web)
    question = Question("How often should API keys be rotated?")

    _, done = await collect(pipeline, replace(question, web=False))
    assert done.route is Route.NO_ANSWER and web.queries == []
    trace = " ".join(str(d.data) + d.detail for d in done.trace)
    assert "web search is off in this channel" in trace

    _, done = await collect(pipeline, question)  # the same pipeline, a channel with web on
    assert done.route is Route.WEB and web.queries == ["api key rotation interval"]
