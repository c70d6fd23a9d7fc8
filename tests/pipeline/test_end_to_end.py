"""End to end: Markdown ingested into a real LanceDB store, the real openai client streaming
SSE from the fake OpenAI-compatible server, and tavily-python talking to the fake Tavily."""

from __future__ import annotations

import json

import pytest
from pydantic import SecretStr

from connectors.knowledge.store import KnowledgeStore
from connectors.providers.llms import build_llm
from connectors.providers.settings import LLMSettings, WebSettings
from connectors.providers.web_search import build_web_search
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import AnswerDelta, Done, Route
from pipeline.ports import Embedder
from pipeline.question import Question
from tests.fakes.openai_server import SERVER_KINDS, Fail, FakeOpenAI
from tests.fakes.tavily_server import FakeTavily, page

BASE = "https://docs.example.com/"

DOCS = {
    "ops/keys.md": """# API keys

## Rotating API keys

To rotate a key, open Settings › API keys and click Rotate next to the key. The old key keeps
working for 24 hours so that running jobs can switch over; after that it is revoked.

## Scopes

Every key has scopes. A read-only key can list projects but cannot deploy them.
""",
    "ops/backups.md": """# Backups

Run `acme backup create` to take a consistent snapshot of the database. Snapshots are written to
the backup bucket configured in `storage.backups`. We recommend a daily backup kept for 30 days.
""",
    "hr/leave.md": """# Time off

## Paid vacation

Full-time employees accrue 25 days of paid vacation per year, starting on their first day.
""",
}

KEYS_URL = BASE + "ops/keys.md#rotating-api-keys"
WEB_URL = "https://security.example.org/key-rotation"

GOOD = '{"grounded": true, "useful": true, "unsupported": []}'

# the pipeline's LLM paths run against the fake as strict as each real server
every_server = pytest.mark.parametrize("fake_openai", SERVER_KINDS, indirect=True)


def grades(pairs: dict[str, float], default: float = 0.05) -> object:
    """A grader reply for the fake server: the score of the first phrase in the passage."""

    def reply(prompt: str) -> str:
        passage = prompt.split("Passage:", 1)[-1]
        score = next((s for phrase, s in pairs.items() if phrase in passage), default)
        return json.dumps({"score": score, "reason": "scripted"})

    return reply


def pipeline(
    store: KnowledgeStore,
    embedder: Embedder,
    openai: FakeOpenAI | None,
    tavily: FakeTavily | None,
    structured: str = "auto",
    **settings: object,
) -> Pipeline:
    llm = None
    if openai is not None:
        llm = build_llm(
            LLMSettings.model_validate(
                {
                    "provider": "openai_compatible",
                    "base_url": openai.base_url,
                    "model": "fake",
                    "max_retries": 0,
                    "structured": structured,
                }
            )
        )
    web_settings = WebSettings(
        tavily_api_key=SecretStr("tvly-test") if tavily else None,
        base_url=tavily.url if tavily else "http://127.0.0.1:9",
    )
    web, why = build_web_search(web_settings)
    options: dict[str, object] = {"grader": "llm" if llm else "embedding", "top_k": 4}
    options.update(settings)
    return Pipeline(
        store,
        embedder=embedder,
        llm=llm,
        web=web,
        settings=PipelineSettings.model_validate(options),
        web_disabled_reason=why,
    )


def web_pages() -> list[dict[str, object]]:
    return [
        page(
            WEB_URL,
            "How often to rotate API keys",
            "Security teams recommend rotating API keys at least every 90 days. Rotate a key at once "
            "if it may have leaked.",
        ),
        page(
            "https://blog.example.net/misc", "Unrelated", "Our cafeteria serves soup on Tuesdays."
        ),
    ]


async def run(p: Pipeline, text: str) -> tuple[str, Done]:
    streamed = ""
    done: Done | None = None
    async for event in p.stream(Question(text)):
        if isinstance(event, AnswerDelta):
            streamed += event.text
        elif isinstance(event, Done):
            done = event
    assert done is not None
    return streamed, done


@every_server
async def test_a_clear_question_is_answered_from_the_knowledge_base(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI, fake_tavily: FakeTavily
) -> None:
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.93}))
    fake_openai.when(
        "Task: answer with citations", "Open Settings › API keys and click Rotate [1]."
    )
    fake_openai.when("Task: check an answer", GOOD)
    streamed, done = await run(
        pipeline(store, embedder, fake_openai, fake_tavily), "How do I rotate an API key?"
    )

    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.text == "Open Settings › API keys and click Rotate [1]."
    assert done.answer.warnings == ()
    assert streamed == done.answer.text
    assert [r.rejected for r in fake_openai.requests] == [None] * len(fake_openai.requests)
    assert fake_openai.calls("Task: check an answer"), "the answer was checked"
    assert [r.url for r in done.answer.references] == [KEYS_URL]
    assert fake_tavily.requests == []
    answer_request = fake_openai.calls("Task: answer with citations")[0]
    assert answer_request.body["stream"] is True
    assert "docs.example.com" not in answer_request.prompt


@every_server
async def test_an_unanswerable_question_goes_to_the_web(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI, fake_tavily: FakeTavily
) -> None:
    fake_tavily.default(web_pages())
    fake_openai.when("Task: grade relevance", grades({}, default=0.1))
    fake_openai.when("Task: rewrite for web search", "API key rotation frequency")
    fake_openai.when("Task: answer with citations", "Rotate API keys at least every 90 days [1].")
    fake_openai.when("Task: check an answer", GOOD)
    _, done = await run(
        pipeline(store, embedder, fake_openai, fake_tavily), "How often should API keys be rotated?"
    )

    assert done.route is Route.WEB
    assert [(r.number, r.url, r.title) for r in done.answer.references] == [
        (1, WEB_URL, "How often to rotate API keys")
    ]
    assert fake_tavily.requests[0]["query"] == "API key rotation frequency"
    # the cafeteria page did not survive knowledge refinement
    prompt = fake_openai.calls("Task: answer with citations")[0].prompt
    assert "soup" not in prompt and "90 days" in prompt


async def test_an_ambiguous_question_mixes_both(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI, fake_tavily: FakeTavily
) -> None:
    fake_tavily.default(web_pages())
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.5}))
    fake_openai.when("Task: rewrite for web search", "API key rotation")
    fake_openai.when(
        "Task: answer with citations",
        "Click Rotate in Settings › API keys [1]. Rotate keys at least every 90 days [2].",
    )
    fake_openai.when("Task: check an answer", GOOD)
    _, done = await run(
        pipeline(store, embedder, fake_openai, fake_tavily),
        "How and how often do I rotate API keys?",
    )

    assert done.route is Route.MIXED
    assert [r.url for r in done.answer.references] == [KEYS_URL, WEB_URL]


@every_server
async def test_a_claim_absent_from_the_sources_never_reaches_the_user_unmarked(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.93}))
    fake_openai.when(
        "Task: answer with citations", "Keys are rotated automatically every 7 days [1]."
    )
    fake_openai.when(
        "Task: check an answer",
        '{"grounded": false, "useful": true, "unsupported": ["rotated automatically every 7 days"]}',
    )
    _, done = await run(
        pipeline(store, embedder, fake_openai, None, max_retries=1), "How do I rotate an API key?"
    )

    assert len(fake_openai.calls("Task: answer with citations")) == 2
    assert "7 days" not in done.answer.text
    assert done.answer.text.startswith("Note: The generated answer could not be verified")
    assert "click Rotate next to the key" in done.answer.text
    assert [r.url for r in done.answer.references] == [KEYS_URL]


@every_server
async def test_a_failing_llm_still_answers_from_the_knowledge_base(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    fake_openai.default = Fail(500, "the model crashed")
    _, done = await run(pipeline(store, embedder, fake_openai, None), "How do I rotate an API key?")

    assert done.route is Route.KNOWLEDGE_BASE
    assert "the language model is unavailable (InternalServerError 500)" in done.answer.text
    assert KEYS_URL in [r.url for r in done.answer.references]
    # the grader noticed first; nothing else waited on the dead model. The hits are graded
    # at once, so how many grade requests left before the first failure came back is timing
    retrieved = len(next(d for d in done.trace if d.stage == "retrieve").data["scores"])
    tasks = [r.prompt.split("\n", 1)[0] for r in fake_openai.requests]
    assert set(tasks) == {"Task: grade relevance."}
    assert 1 <= len(tasks) <= retrieved  # one request per hit at most, never a retry


async def test_a_model_lost_before_an_unanswered_question_is_named_by_its_stage(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    fake_openai.default = Fail(500, "the model crashed")
    _, done = await run(
        pipeline(store, embedder, fake_openai, None), "What is the boiling point of tungsten?"
    )

    assert done.route is Route.NO_ANSWER
    assert (
        "Note: The sources were ranked by similarity instead of by the model: "
        "the language model is unavailable (InternalServerError 500)."
    ) in done.answer.text


async def test_an_empty_answer_is_said_to_be_empty_and_the_sources_answer_instead(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.93}))
    fake_openai.when("Task: answer with citations", "")
    _, done = await run(pipeline(store, embedder, fake_openai, None), "How do I rotate an API key?")

    assert done.answer.text.startswith(
        "Note: This answer is put together from the sources directly: "
        "the model returned an empty answer."
    )
    assert "could not be verified" not in done.answer.text
    assert [r.url for r in done.answer.references] == [KEYS_URL]
    assert len(fake_openai.calls("Task: answer with citations")) == 1


async def test_a_rejected_request_says_which_stage_lost_the_model_and_why(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    # LM Studio refuses JSON mode (lmstudio-bug-tracker#189) but streams answers
    with FakeOpenAI(server="lmstudio") as lmstudio:
        lmstudio.when(
            "Task: answer with citations", "Open Settings › API keys and click Rotate [1]."
        )
        p = pipeline(store, embedder, lmstudio, None, structured="json_object")
        _, done = await run(p, "How do I rotate an API key?")

    text = done.answer.text
    assert (
        "The answer could not be checked against its sources: the model rejected the request (400)."
        in text
    )
    assert (
        "The sources were ranked by similarity instead of by the model: the model rejected" in text
    )
    assert "unavailable" not in text
    assert text.endswith("Open Settings › API keys and click Rotate [1].")
    assert done.route is Route.KNOWLEDGE_BASE


async def test_offline_answers_cite_the_section_and_admit_ignorance(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    p = pipeline(store, embedder, None, None)
    _, done = await run(p, "How do I rotate an API key?")
    assert done.route is Route.KNOWLEDGE_BASE
    assert [r.url for r in done.answer.references] == [KEYS_URL]
    assert "[1]" in done.answer.text and "Rotate" in done.answer.text

    _, done = await run(p, "What is the boiling point of tungsten?")
    assert done.route is Route.NO_ANSWER
    assert done.answer.references == ()
    assert "couldn't find" in done.answer.text
    assert any("no Tavily API key" in str(d.data) for d in done.trace)


async def test_a_rejected_tavily_key_answers_from_the_knowledge_base_with_a_note(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI, fake_tavily: FakeTavily
) -> None:
    fake_tavily.api_key = "tvly-other"
    fake_openai.when("Task: grade relevance", grades({"click Rotate next to the key": 0.5}))
    fake_openai.when("Task: rewrite for web search", "API key rotation")
    fake_openai.when("Task: answer with citations", "Click Rotate [1].")
    fake_openai.when("Task: check an answer", GOOD)
    _, done = await run(
        pipeline(store, embedder, fake_openai, fake_tavily), "How do I rotate an API key?"
    )

    assert done.route is Route.KNOWLEDGE_BASE
    assert "the Tavily API key was rejected" in done.answer.text
    assert [r.url for r in done.answer.references] == [KEYS_URL]
