"""Every branch of the corrective workflow, driven by a scripted LLM.

The retriever is in memory, the embedder is the real bundled MiniLM, and the
LLM is a real LlamaIndex ``CustomLLM`` whose replies are scripted per task.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping

import pytest

from citations.model import Locator, Origin, Source
from connectors.errors import ServiceError
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import AnswerDelta, Done, Outcome, Progress, Route, Status
from pipeline.ports import Embedder, Grader
from pipeline.question import Question, Trigger, Turn
from tests.pipeline.calibration import PAIRS
from tests.pipeline.memory import MemoryRetriever, StubWeb, kb
from tests.pipeline.scripted import HANG, Broken, ScriptedLLM, by_keyword

ROTATE_URL = "https://docs.example.com/ops/keys#rotating-api-keys"
WEB_URL = "https://www.example.org/blog/key-rotation"

GOOD = '{"grounded": true, "useful": true, "unsupported": []}'
UNGROUNDED = '{"grounded": false, "useful": true, "unsupported": ["keys rotate every 7 days"]}'


def corpus() -> list[tuple[Source, str]]:
    docs = [kb(ROTATE_URL, "Ops › Rotating API keys", PAIRS[0][2], collection="ops")]
    docs += [
        kb(f"https://docs.example.com/{subject}/{i}", question, text, collection=subject)
        for i, (subject, question, text) in enumerate(PAIRS[1:], start=1)
    ]
    return docs


def web_page() -> Source:
    text = (
        "Key rotation best practices. Rotate API keys at least every 90 days and immediately "
        "after a suspected leak. Keep the old key valid for a short overlap so running jobs can switch."
    )
    return Source(
        id=0,
        url=WEB_URL,
        title="Key rotation best practices",
        text=text,
        locator=Locator(start=0, end=len(text)),
        origin=Origin.WEB,
    )


def make(
    embedder: Embedder,
    llm: ScriptedLLM | None,
    *,
    web: StubWeb | None = None,
    graders: Mapping[str, Grader] | None = None,
    retriever: MemoryRetriever | None = None,
    **settings: object,
) -> tuple[Pipeline, MemoryRetriever]:
    retriever = retriever or MemoryRetriever(embedder, corpus())
    # four passages and no supplementary ones: the traces below are pinned to that count
    options: dict[str, object] = {
        "grader": "llm" if llm is not None else "embedding",
        "top_k": 4,
        "supplementary": 0,
    }
    options.update(settings)
    pipeline = Pipeline(
        retriever,
        embedder=embedder,
        llm=llm,
        web=web,
        settings=PipelineSettings.model_validate(options),
        graders=graders,
        web_disabled_reason=None if web else "web search is off: no Tavily API key",
    )
    return pipeline, retriever


async def collect(pipeline: Pipeline, question: Question) -> tuple[list[Progress], Done]:
    events = [event async for event in pipeline.stream(question)]
    assert isinstance(events[-1], Done)
    assert sum(isinstance(e, Done) for e in events) == 1
    return events, events[-1]


def stages(done: Done) -> list[str]:
    return [d.stage for d in done.trace]


def decision(done: Done, stage: str) -> str:
    return " | ".join(d.detail for d in done.trace if d.stage == stage)


ROTATE = Question("How do I rotate the API keys?")


def rotating(answer: str) -> ScriptedLLM:
    """A model that grades the key-rotation passage relevant, answers ``answer`` and finds the
    answer grounded and useful."""
    return ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.92}),
            "answer with citations": answer,
            "check an answer": GOOD,
        }
    )


async def test_correct_answers_from_the_knowledge_base(embedder: Embedder) -> None:
    llm = rotating(
        "Open Settings › API keys and click Rotate [1]. The old key works for 24 hours [1]."
    )
    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, llm, web=web)
    events, done = await collect(pipeline, ROTATE)

    assert done.route is Route.KNOWLEDGE_BASE
    assert (
        done.answer.text
        == "Open Settings › API keys and click Rotate [1]. The old key works for 24 hours [1]."
    )
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    assert web.queries == []
    assert "correct" in decision(done, "decide")
    statuses = [e.text for e in events if isinstance(e, Status)]
    assert statuses[0] == "Searching the knowledge base…"
    assert "Checking the answer…" in statuses
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert streamed == done.answer.text
    # the model saw short ids and titles, never a URL
    prompt = llm.calls("answer with citations")[0]
    assert "[1] Ops › Rotating API keys" in prompt
    assert "http" not in prompt


async def test_a_stray_backtick_in_the_models_answer_hides_no_footnote(
    embedder: Embedder,
) -> None:
    # nothing closes the backtick before "Rotate", so it is text and both markers resolve
    written = "Click `Rotate next to the key [1]. The old key works for 24 hours [1]."
    llm = rotating(written)
    pipeline, _ = make(embedder, llm)
    events, done = await collect(pipeline, ROTATE)

    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.text == written
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert streamed == done.answer.text


async def test_ambiguous_combines_knowledge_base_and_web(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.55}),
            "rewrite for web search": "api key rotation interval",
            "answer with citations": "Click Rotate in Settings [1]. Rotate keys at least every 90 days [2].",
            "check an answer": GOOD,
        }
    )
    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, llm, web=web)
    _, done = await collect(pipeline, ROTATE)

    assert done.route is Route.MIXED
    assert [r.url for r in done.answer.references] == [ROTATE_URL, WEB_URL]
    assert [r.origin for r in done.answer.references] == [Origin.KB, Origin.WEB]
    assert web.queries == ["api key rotation interval"]
    assert "ambiguous" in decision(done, "decide")
    assert "knowledge strips" in decision(done, "refine")


async def test_incorrect_replaces_the_knowledge_base_with_the_web(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({}, default=0.1),
            "rewrite for web search": "api key rotation interval",
            "answer with citations": "Rotate API keys at least every 90 days [1].",
            "check an answer": GOOD,
        }
    )
    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, llm, web=web)
    _, done = await collect(pipeline, Question("How often should API keys be rotated?"))

    assert done.route is Route.WEB
    assert [r.url for r in done.answer.references] == [WEB_URL]
    assert "incorrect" in decision(done, "decide")
    # the knowledge base chunks were dropped, not shown to the model
    prompt = llm.calls("answer with citations")[0]
    assert "Rotating API keys\n\nTo rotate a key" not in prompt


async def test_incorrect_without_web_is_an_honest_no_answer(embedder: Embedder) -> None:
    pipeline, _ = make(embedder, None)
    _, done = await collect(pipeline, Question("What is the capital of Peru?"))

    assert done.route is Route.NO_ANSWER
    assert done.answer.references == ()
    assert "couldn't find" in done.answer.text
    assert "no Tavily API key" in " ".join(str(d.data) + d.detail for d in done.trace)


async def test_hallucination_is_caught_and_regenerated(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": [
                "Keys rotate automatically every 7 days [1].",
                "Click Rotate next to the key in Settings › API keys [1].",
            ],
            "check an answer": [UNGROUNDED, GOOD],
        }
    )
    pipeline, _ = make(embedder, llm)
    events, done = await collect(pipeline, ROTATE)

    assert done.answer.text == "Click Rotate next to the key in Settings › API keys [1]."
    assert "7 days" not in done.answer.text
    assert len(llm.calls("answer with citations")) == 2
    assert "previous answer made claims" in llm.calls("answer with citations")[1]
    assert "regenerate" in decision(done, "retry")
    # only the first attempt streams; Done carries the checked answer
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert streamed == "Keys rotate automatically every 7 days [1]."
    assert "Revising the answer…" in [e.text for e in events if isinstance(e, Status)]


async def test_not_useful_answer_rewrites_and_retrieves_again(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": [
                "I couldn't find the answer in the sources.",
                "Click Rotate next to the key [1].",
            ],
            "rewrite for the knowledge base": "rotate API key settings",
            "check an answer": GOOD,
        }
    )
    pipeline, retriever = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)

    assert [q for q, _ in retriever.calls] == [ROTATE.text, "rotate API key settings"]
    assert done.answer.text == "Click Rotate next to the key [1]."
    assert done.route is Route.KNOWLEDGE_BASE
    assert "rewrite and search again" in decision(done, "retry")


async def test_retries_exhausted_never_return_the_unchecked_claim(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": "Keys rotate automatically every 7 days [1].",
            "check an answer": UNGROUNDED,
        }
    )
    pipeline, _ = make(embedder, llm, max_retries=2)
    _, done = await collect(pipeline, ROTATE)

    assert len(llm.calls("answer with citations")) == 3  # first try + 2 retries
    assert "7 days" not in done.answer.text
    assert "could not be verified" in done.answer.text
    # what is left is quoted from the source, with its footnote
    assert "Rotate next to the key" in done.answer.text
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    assert "retries exhausted" in decision(done, "retry")


async def test_llm_timeout_answers_from_the_knowledge_base_with_a_note(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": HANG,
            "check an answer": GOOD,
        }
    )
    pipeline, _ = make(embedder, llm, generate_timeout=0.3)
    _, done = await collect(pipeline, ROTATE)

    assert done.route is Route.KNOWLEDGE_BASE
    # the model graded, so it is not called unavailable: the note says what happened
    assert (
        "This answer is put together from the sources directly: "
        "the model did not answer within 0.3 s." in done.answer.text
    )
    assert "unavailable" not in done.answer.text
    assert "Rotate next to the key" in done.answer.text
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    assert llm.calls("check an answer") == []  # the LLM is not asked again in this run
    assert done.outcome is Outcome.ANSWERED


async def test_a_model_that_breaks_off_mid_answer_is_not_called_unavailable(
    embedder: Embedder,
) -> None:
    partial = "Rotate next to the key [1]. The old"
    llm = ScriptedLLM({"answer with citations": Broken(partial), "check an answer": GOOD})
    pipeline, _ = make(embedder, llm, grader="embedding")
    events, done = await collect(pipeline, ROTATE)

    assert "unavailable" not in done.answer.text
    assert "the model failed (ConnectionError" in done.answer.text
    # the broken answer was shown as it came; what replaces it is not run on after it
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert streamed.startswith("Rotate next to the key") and "The old" in streamed
    assert "Note:" not in streamed and "audit trail" not in streamed
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


async def test_grader_timeout_falls_back_to_the_embedding_grader(embedder: Embedder) -> None:
    llm = ScriptedLLM({"grade relevance": HANG, "answer with citations": HANG})
    pipeline, _ = make(embedder, llm, grade_timeout=0.3)
    _, done = await collect(pipeline, ROTATE)

    grade = next(d for d in done.trace if d.stage == "grade" and "grades" in d.data)
    assert grade.data["grader"] == "embedding"
    assert done.route is Route.KNOWLEDGE_BASE
    # once the LLM is down the run does not wait for it again
    assert llm.calls("answer with citations") == []
    assert "the model did not answer within 0.3 s" in done.answer.text


def grading_with(grade: Callable[[str], str]) -> ScriptedLLM:
    """A model that grades with ``grade``, answers "Click Rotate [1]." and finds it good."""
    return ScriptedLLM(
        {
            "grade relevance": grade,
            "answer with citations": "Click Rotate [1].",
            "check an answer": GOOD,
        }
    )


async def test_malformed_grader_reply_is_graded_by_the_fallback(embedder: Embedder) -> None:
    def grade(prompt: str) -> str:
        if "Rotate next to the key" in prompt:
            return "Sure! This passage is very relevant."  # no JSON at all
        return json.dumps({"score": 0.05})

    llm = grading_with(grade)
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)

    grades = next(d for d in done.trace if d.stage == "grade").data["grades"]
    assert max(grades) > 0.9  # the embedding grader's verdict on the right chunk
    assert sorted(grades)[-2] == 0.05
    assert done.route is Route.KNOWLEDGE_BASE
    assert pipeline.graders["llm"].malformed == 1  # type: ignore[attr-defined]


async def test_grades_that_all_fail_to_parse_say_so_and_one_that_does_not_stays_quiet(
    embedder: Embedder,
) -> None:
    broken = True

    def grade(prompt: str) -> str:
        if broken:
            return "Sure! This passage is very relevant."
        return json.dumps({"score": 0.95 if "Rotate next to the key" in prompt else 0.05})

    llm = grading_with(grade)
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)

    assert done.answer.text.startswith(
        "Note: The sources were ranked by similarity instead of by the model: "
        "the model's grades did not parse."
    )
    assert done.route is Route.KNOWLEDGE_BASE
    # a second question whose grades parse gets no note from the first one's
    broken = False
    _, done = await collect(pipeline, ROTATE)
    assert "did not parse" not in done.answer.text


async def test_out_of_range_grades_are_clamped(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 7.5}, default=-2),
            "answer with citations": "Click Rotate [1].",
            "check an answer": GOOD,
        }
    )
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    grades = next(d for d in done.trace if d.stage == "grade").data["grades"]
    assert max(grades) == 1.0 and min(grades) == 0.0


async def test_a_retry_storm_is_bounded(embedder: Embedder) -> None:
    counter = iter(range(100))
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": "I couldn't find this in the sources.",
            "rewrite for the knowledge base": lambda _: f"query {next(counter)}",
            "rewrite for web search": "web query",
            "check an answer": GOOD,
        }
    )
    web = StubWeb([web_page()])
    pipeline, retriever = make(embedder, llm, web=web, max_retries=3)
    _, done = await collect(pipeline, ROTATE)

    assert (
        len(llm.calls("answer with citations")) == 3
    )  # the first, after one rewrite, from the web
    assert len(retriever.calls) == 2  # one rewrite per run
    assert len(web.queries) == 1  # the web is tried once
    assert done.route is Route.NO_ANSWER
    assert done.answer.references == ()


async def test_web_failure_answers_from_the_knowledge_base_with_a_note(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.5}),
            "rewrite for web search": "rotation",
            "answer with citations": "Click Rotate [1].",
            "check an answer": GOOD,
        }
    )
    web = StubWeb(fail=ServiceError("web search failed: the Tavily API key was rejected"))
    pipeline, _ = make(embedder, llm, web=web)
    _, done = await collect(pipeline, ROTATE)

    assert done.route is Route.KNOWLEDGE_BASE
    assert (
        "Web search failed (ServiceError: web search failed: the Tavily API key was rejected)"
        in done.answer.text
    )
    assert done.answer.text.endswith("Click Rotate [1].")


async def test_knowledge_base_failure_is_a_note_not_a_crash(embedder: Embedder) -> None:
    retriever = MemoryRetriever(embedder, corpus(), fail=OSError("store is locked"))
    pipeline, _ = make(embedder, None, retriever=retriever)
    _, done = await collect(pipeline, ROTATE)

    assert done.route is Route.NO_ANSWER
    assert "knowledge base could not be searched (OSError: store is locked)" in done.answer.text


async def test_an_unexpected_failure_still_ends_in_done(embedder: Embedder) -> None:
    class Broken:
        async def search(self, query: str) -> list[Source]:
            return ["not a source"]  # type: ignore[list-item]

    pipeline, _ = make(embedder, None, web=Broken())  # type: ignore[arg-type]
    _, done = await collect(pipeline, Question("What is the capital of Peru?"))
    assert done.outcome is Outcome.FAILED and done.reason is not None
    assert done.reason.code == "AttributeError"
    assert done.answer.text.startswith("Sorry, something went wrong")
    assert done.route is Route.NO_ANSWER


async def test_a_failed_run_still_answers_only_what_the_evidence_carries(
    embedder: Embedder,
) -> None:
    class Broken:
        async def search(self, query: str) -> list[Source]:
            return ["not a source"]  # type: ignore[list-item]

    pipeline, _ = make(embedder, None, web=Broken())  # type: ignore[arg-type]
    # on the topic of the rotation page, but its "30 seconds" is in no passage: the run
    # asks the web, the web breaks, and the fallback must not cite the rotation page
    _, done = await collect(pipeline, Question("Do rotated API keys expire after 30 seconds?"))
    assert done.outcome is Outcome.FAILED
    assert done.route is Route.NO_ANSWER and done.answer.references == ()

    # a question the rotation page does answer is still answered from it
    _, done = await collect(pipeline, ROTATE)
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


def follow_up(text: str) -> Question:
    """A thread reply after the bot answered how to rotate API keys."""
    return Question(
        text,
        trigger=Trigger.THREAD_FOLLOWUP,
        history=(
            Turn("user", "How do I rotate the API keys?"),
            Turn("assistant", "Click Rotate [1]."),
        ),
    )


async def test_offline_follow_up_keeps_its_words_and_the_threads_topic(
    embedder: Embedder,
) -> None:
    pipeline, retriever = make(embedder, None)
    question = follow_up("and how long does the old one keep working?")
    _, done = await collect(pipeline, question)
    assert retriever.calls[0][0] == "and how long does the old one keep working? rotate API keys"
    assert done.route is Route.KNOWLEDGE_BASE
    assert "24 hours" in done.answer.text


async def test_llm_condenses_a_follow_up(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "condense a follow-up": "How long does an old API key keep working after rotation?",
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": "For 24 hours [1].",
            "check an answer": GOOD,
        }
    )
    pipeline, retriever = make(embedder, llm)
    question = follow_up("and the old one?")
    _, done = await collect(pipeline, question)
    assert retriever.calls[0][0] == "How long does an old API key keep working after rotation?"
    assert "user: How do I rotate the API keys?" in llm.calls("condense a follow-up")[0]
    assert done.answer.text == "For 24 hours [1]."


async def test_scope_reaches_the_retriever(embedder: Embedder) -> None:
    pipeline, retriever = make(embedder, None)
    _, done = await collect(pipeline, Question("How do I rotate the API keys?", scope=("hr",)))
    assert retriever.calls[0][1] == ("hr",)
    assert all("ops" not in r.url for r in done.answer.references)
    assert done.route is Route.NO_ANSWER


async def test_answer_returns_the_done(embedder: Embedder) -> None:
    pipeline, _ = make(embedder, None)
    done = await pipeline.answer(ROTATE)
    assert isinstance(done, Done)
    assert done.question == ROTATE.text


@pytest.mark.parametrize("name", ["keyword", "nope"])
async def test_plugin_graders_are_selected_by_name(embedder: Embedder, name: str) -> None:
    class Keyword:
        name = "keyword"

        async def grade(self, question: str, texts: list[str]) -> list[float]:
            return [1.0 if "Rotate" in t else 0.0 for t in texts]

    pipeline, _ = make(embedder, None, graders={"keyword": Keyword()}, grader=name)
    _, done = await collect(pipeline, ROTATE)
    grade = next(d for d in done.trace if d.stage == "grade")
    if name == "keyword":
        assert grade.data["grader"] == "keyword"
        assert sorted(grade.data["grades"]) == [0.0, 0.0, 0.0, 1.0]
    else:
        assert grade.data["grader"] == "embedding"
        assert "'nope' is not available" in grade.data["note"]


async def test_concurrent_questions_do_not_share_state(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword(
                {"Rotate next to the key": 0.9, "25 days of paid vacation": 0.9}
            ),
            "answer with citations": lambda p: (
                "Click Rotate [1]." if "rotate" in p.split("Question:")[-1] else "25 days [1]."
            ),
            "check an answer": GOOD,
        }
    )
    pipeline, _ = make(embedder, llm)
    asked = [ROTATE, Question("How many vacation days do new employees get?")] * 3
    results = await asyncio.gather(*(pipeline.answer(q) for q in asked))
    for question, done in zip(asked, results, strict=True):
        assert done.question == question.text
        expected = "Click Rotate [1]." if question is ROTATE else "25 days [1]."
        assert done.answer.text == expected
        assert sum(d.stage == "finalize" for d in done.trace) == 1


async def test_a_consumer_that_stops_early_cancels_the_run(embedder: Embedder) -> None:
    llm = ScriptedLLM({"grade relevance": HANG})
    pipeline, _ = make(embedder, llm)
    stream = pipeline.stream(ROTATE)
    first = await anext(stream)
    assert isinstance(first, Status)
    await stream.aclose()  # must not hang on the stuck grader, nor raise


class _StatusError(Exception):
    """Shaped like the openai SDK's APIStatusError: a message and a ``status_code``."""

    def __init__(self, status_code: int) -> None:
        super().__init__(f"Error code: {status_code}")
        self.status_code = status_code


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (400, "the model rejected the request (400)"),
        (503, "the model failed (_StatusError 503)"),
    ],
)
async def test_a_failed_check_names_its_stage_and_never_calls_a_model_that_answered_unavailable(
    embedder: Embedder, status: int, reason: str
) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.9}),
            "answer with citations": "Click Rotate next to the key [1].",
            "check an answer": _StatusError(status),
        }
    )
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)

    assert done.answer.text.startswith(
        f"Note: The answer could not be checked against its sources: {reason}.\n\n"
    )
    assert done.answer.text.endswith("Click Rotate next to the key [1].")
    assert "unavailable" not in done.answer.text
    assert "not checked against its sources" in done.answer.warnings


async def test_a_model_that_never_answered_is_called_unavailable(embedder: Embedder) -> None:
    llm = ScriptedLLM(
        {
            "grade relevance": _StatusError(502),
            "answer with citations": "never asked [1].",
        }
    )
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)

    assert (
        "Note: This answer is put together from the sources directly: the language model is "
        "unavailable (_StatusError 502)." in done.answer.text
    )
    assert done.answer.text.count("Note:") == 1
    assert llm.calls("answer with citations") == []
