"""``pipeline.speculate``: with the LLM grader, the answer starts while the model grades.

It is used only when the grade keeps exactly the passages it was started over, so the
answer, its sources and its self-check are what they would have been without it.
"""

from __future__ import annotations

from pipeline.events import AnswerDelta, Route
from pipeline.ports import Embedder
from tests.pipeline.scripted import HANG, ScriptedLLM, by_keyword
from tests.pipeline.test_workflow import GOOD, ROTATE, ROTATE_URL, collect, make, rotating

ANSWER = "Open Settings › API keys and click Rotate [1]. The old key works for 24 hours [1]."


def generated(done_trace: object) -> dict[str, object]:
    return next(d.data for d in done_trace if d.stage == "generate")  # type: ignore[attr-defined]


async def test_an_answer_started_while_grading_is_used_when_the_grade_agrees(
    embedder: Embedder,
) -> None:
    llm = rotating(ANSWER)
    pipeline, _ = make(embedder, llm, speculate=True)
    events, done = await collect(pipeline, ROTATE)

    assert generated(done.trace).get("started_while_grading") is True
    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.text == ANSWER
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    assert "".join(e.text for e in events if isinstance(e, AnswerDelta)) == ANSWER
    # one answer call, not two; the self-check still ran on it
    assert len(llm.calls("answer with citations")) == 1
    assert len(llm.calls("check an answer")) == 1


async def test_an_answer_started_over_other_passages_is_thrown_away(embedder: Embedder) -> None:
    # the model grades the rotation passage irrelevant and the others relevant: the early
    # answer (over the rotation passage) must not be shown; the answer is written again
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({"Rotate next to the key": 0.1}, default=0.95),
            "answer with citations": ["Early [1].", "From the kept passage [1]."],
            "check an answer": GOOD,
        }
    )
    pipeline, _ = make(embedder, llm, speculate=True)
    events, done = await collect(pipeline, ROTATE)

    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert "Early" not in streamed and "Early" not in done.answer.text
    assert done.answer.text == "From the kept passage [1]."
    assert [r.url for r in done.answer.references] != [ROTATE_URL]
    assert "started_while_grading" not in generated(done.trace)
    early, kept = llm.calls("answer with citations")
    assert "Rotate next to the key" in early
    assert "Rotate next to the key" not in kept


async def test_a_grade_that_times_out_cancels_the_early_answer(embedder: Embedder) -> None:
    llm = ScriptedLLM({"grade relevance": HANG, "answer with citations": HANG})
    pipeline, _ = make(embedder, llm, grade_timeout=0.3, speculate=True)
    _, done = await collect(pipeline, ROTATE)

    assert done.route is Route.KNOWLEDGE_BASE  # extractive, from the knowledge base
    assert "the model did not answer within 0.3 s" in done.answer.text
    assert all("started_while_grading" not in d.data for d in done.trace)


async def test_off_by_default(embedder: Embedder) -> None:
    llm = rotating(ANSWER)
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    assert "started_while_grading" not in generated(done.trace)
    assert done.answer.text == ANSWER
