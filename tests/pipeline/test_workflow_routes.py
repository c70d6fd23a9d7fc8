"""The route decide, check and retry take, pinned to their numbers and words.

The CRAG thresholds (``upper`` 0.7, ``lower`` 0.3) are strict on both sides, the
evidence threshold too; the trace each step writes is what ``/insights`` and
``citebot ask --trace`` show, so its wording and figures are asserted whole.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from pipeline.events import AnswerDelta, Done, Route, Status
from pipeline.passage_support import best_grade, strongest_support, supplemented
from pipeline.ports import Embedder, Hit
from pipeline.question import Question
from tests.pipeline.memory import MemoryRetriever, StubWeb, kb
from tests.pipeline.scripted import ScriptedLLM, by_keyword
from tests.pipeline.test_workflow import (
    GOOD,
    ROTATE,
    ROTATE_URL,
    UNGROUNDED,
    WEB_URL,
    collect,
    corpus,
    make,
    web_page,
)

ROTATE_KEY = "Rotate next to the key"  # in the rotation page only
DECLINE = "I couldn't find this in the sources."
NOT_FOUND = "I couldn't find this in the knowledge base."
WEB_OFF = "web search is off: no Tavily API key"
NOT_VERIFIED = (
    "The generated answer could not be verified against its sources, so these are the most "
    "relevant passages instead."
)
#: the rotation page, quoted by the extractive answer
ROTATION_TEXT = (
    "To rotate a key, open Settings › API keys and click Rotate next to the key. The old key "
    "keeps working for 24 hours so that running jobs can switch over; after that it is revoked. "
    "Rotation is logged in the audit trail. [1]"
)
#: no passage has its "30": an LLM's grade alone can call it answerable; it asks whether
#: something is so, so offline it needs the capability threshold (0.92)
THIRTY = Question("Do rotated API keys expire after 30 seconds?")


def script(grade: float, **replies: object) -> ScriptedLLM:
    """The rotation page graded ``grade``, every other passage 0.05; a grounded answer."""
    tasks: dict[str, object] = {
        "grade relevance": by_keyword({ROTATE_KEY: grade}),
        "rewrite for web search": "api key rotation interval",
        "answer with citations": "Click Rotate [1].",
        "check an answer": GOOD,
    }
    tasks.update({task.replace("_", " "): reply for task, reply in replies.items()})
    return ScriptedLLM(tasks)


def traced(done: Done, stage: str) -> list[tuple[str, dict[str, object]]]:
    return [(d.detail, dict(d.data)) for d in done.trace if d.stage == stage]


def no_evidence(
    best: object, support: float, threshold: float, *, lacking: bool = False
) -> list[tuple[str, dict[str, object]]]:
    """The decide trace of an offline refusal: no passage reaches ``threshold``, or none has
    the question's numbers (``lacking``)."""
    return [
        (
            f"incorrect: no evidence: best support {support:.2f} < {threshold}, and {WEB_OFF}",
            {
                "best": best,
                "upper": 0.7,
                "lower": 0.3,
                "support": support,
                "evidence_threshold": threshold,
                "kept": 0,
                "evidence": "no passage has the question's numbers or quoted names"
                if lacking
                else "no passage speaks to the question's terms",
                "web": WEB_OFF,
            },
        )
    ]


def streamed(events: Sequence[object]) -> str:
    return "".join(e.text for e in events if isinstance(e, AnswerDelta))


# -- decide --------------------------------------------------------------------------


class Demoted(MemoryRetriever):
    """Cosine ranking, but the page at ``url`` ranks ``at``-th."""

    def __init__(
        self, embedder: Embedder, url: str, docs: Sequence[object] = (), at: int = 5
    ) -> None:
        super().__init__(embedder, list(docs) or corpus())  # type: ignore[arg-type]
        self.url, self.at = url, at

    async def retrieve(self, query: str, *, top_k: int, scope: Sequence[str] | None) -> list[Hit]:
        hits = await super().retrieve(query, top_k=len(self.docs), scope=scope)
        demoted = next(h for h in hits if h.source.url == self.url)
        others = [h for h in hits if h is not demoted]
        return [*others[: self.at - 1], demoted, *others[self.at - 1 :]][:top_k]


async def test_a_passage_ranked_after_top_k_never_decides_that_the_knowledge_base_answers(
    embedder: Embedder,
) -> None:
    # the rotation page, ranked 5th: read as a supplementary passage, it is graded but cannot
    # make the answer; ranked 5th of a top_k of 5, it does
    retriever = Demoted(embedder, ROTATE_URL)
    pipeline, _ = make(embedder, None, retriever=retriever, top_k=4, supplementary=1)
    _, done = await collect(pipeline, ROTATE)
    [(_, retrieved)] = traced(done, "retrieve")
    assert (retrieved["top_k"], retrieved["supplementary"]) == (4, 1)
    assert retriever.calls == [(ROTATE.text, None)] * 2
    [(_, graded)] = traced(done, "grade")
    grades = graded["grades"]
    assert isinstance(grades, list) and len(grades) == 5 and grades[-1] == max(grades)
    assert done.route is Route.NO_ANSWER and done.answer.references == ()
    pipeline, _ = make(embedder, None, retriever=retriever, top_k=5, supplementary=0)
    _, done = await collect(pipeline, ROTATE)
    assert done.route is Route.KNOWLEDGE_BASE
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


async def test_a_supplementary_passage_is_cited_in_an_answer_the_top_k_make(
    embedder: Embedder,
) -> None:
    cli = "https://docs.example.com/ops/cli-rotation"
    docs = [
        *corpus(),
        kb(
            cli,
            "Ops › Rotating API keys from the command line",
            "To rotate an API key from the command line, run `acme keys rotate KEY_ID`. The "
            "rotated key keeps working for 24 hours.",
            collection="ops",
        ),
    ]
    retriever = Demoted(embedder, cli, docs)
    pipeline, _ = make(embedder, None, retriever=retriever, top_k=4, supplementary=1)
    events, done = await collect(pipeline, ROTATE)
    assert done.route is Route.KNOWLEDGE_BASE
    assert {r.url for r in done.answer.references} == {ROTATE_URL, cli}
    # the extractive answer streams as it is shown, once
    assert streamed(events).count("acme keys rotate") == 1
    # not read, the answer is the rotation page's alone
    pipeline, _ = make(embedder, None, top_k=4, supplementary=0)
    _, done = await collect(pipeline, ROTATE)
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


@pytest.mark.parametrize(
    ("grade", "detail", "data", "asks_web"),
    [
        (
            0.7001,
            "correct: best grade 0.70 > upper 0.7",
            {"best": 0.7001, "support": 1.2001},
            False,
        ),
        (
            0.7,
            "ambiguous: 0.3 <= best grade 0.70 <= 0.7: knowledge base and web",
            {"best": 0.7, "support": 1.2},
            True,
        ),
        (
            0.3,
            "ambiguous: 0.3 <= best grade 0.30 <= 0.7: knowledge base and web",
            {"best": 0.3, "support": 0.8},
            True,
        ),
        (0.2999, "incorrect: best grade 0.30 < lower 0.3: web instead", {"best": 0.2999}, True),
        # a model's score may have any number of digits: the trace keeps four
        (
            0.712345,
            "correct: best grade 0.71 > upper 0.7",
            {"best": 0.7123, "support": 1.2123},
            False,
        ),
    ],
)
async def test_the_crag_thresholds_are_strict_at_0_7_and_0_3(
    embedder: Embedder, grade: float, detail: str, data: dict[str, object], asks_web: bool
) -> None:
    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, script(grade), web=web)
    _, done = await collect(pipeline, ROTATE)

    expected: dict[str, object] = {"upper": 0.7, "lower": 0.3, **data}
    if "support" in data:
        expected["evidence_threshold"] = 0.84
    # the web replaces the knowledge base only below lower
    expected["kept"] = 0 if grade < 0.3 else 1
    assert traced(done, "decide") == [(detail, expected)]
    assert web.queries == (["api key rotation interval"] if asks_web else [])
    assert [r.url for r in done.answer.references] == ([WEB_URL] if grade < 0.3 else [ROTATE_URL])


async def test_a_correct_grade_keeps_only_the_passages_above_upper(embedder: Embedder) -> None:
    # the rotation page graded 0.9, every other passage 0.5: between lower and upper
    llm = script(0.9, grade_relevance=by_keyword({ROTATE_KEY: 0.9}, default=0.5))
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    assert [(d, data["kept"]) for d, data in traced(done, "decide")] == [
        ("correct: best grade 0.90 > upper 0.7", 1)
    ]
    prompt = llm.calls("answer with citations")[0]
    assert "\n[1] Ops › Rotating API keys" in prompt and "\n[2] " not in prompt


async def test_nothing_retrieved_grades_zero_and_goes_to_the_web(embedder: Embedder) -> None:
    web = StubWeb([web_page()])
    pipeline, retriever = make(embedder, script(0.9), web=web)
    _, done = await collect(pipeline, Question(ROTATE.text, scope=("no-such-collection",)))

    assert retriever.calls == [(ROTATE.text, ("no-such-collection",))]
    assert traced(done, "decide") == [
        (
            "incorrect: best grade 0.00 < lower 0.3: web instead",
            {"best": 0.0, "upper": 0.7, "lower": 0.3, "kept": 0},
        )
    ]
    assert done.route is Route.WEB


async def test_without_the_web_an_ambiguous_grade_needs_the_evidence_threshold_itself(
    embedder: Embedder,
) -> None:
    """Support is the grade plus half the question's coverage (1.0 here): 0.375 → 0.875."""
    pipeline, _ = make(embedder, script(0.375), evidence_threshold=0.875)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "decide") == [
        (
            f"ambiguous, but {WEB_OFF}: knowledge base only",
            {
                "best": 0.375,
                "upper": 0.7,
                "lower": 0.3,
                "support": 0.875,
                "evidence_threshold": 0.875,
                "kept": 1,
                "web": WEB_OFF,
            },
        )
    ]
    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.text == "Click Rotate [1]."

    llm = script(0.37)
    pipeline, _ = make(embedder, llm, evidence_threshold=0.875)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "decide") == no_evidence(0.37, 0.87, 0.875)
    assert done.route is Route.NO_ANSWER
    assert done.answer.references == ()
    assert done.answer.text == NOT_FOUND
    assert llm.calls("answer with citations") == []


async def test_a_question_whether_it_can_be_done_needs_the_capability_threshold(
    embedder: Embedder,
) -> None:
    """Documentation says what a tool does and seldom what it does not: "can I …?" needs more
    support than "how do I …?" (0.92 by default) for the same passage."""
    can = Question("Can I rotate the API keys?")
    pipeline, _ = make(embedder, script(0.375), evidence_threshold=0.875)
    _, done = await collect(pipeline, can)
    assert traced(done, "decide") == no_evidence(0.375, 0.875, 0.92)
    assert done.route is Route.NO_ANSWER and done.answer.references == ()

    pipeline, _ = make(
        embedder, script(0.375), evidence_threshold=0.875, evidence_capability_threshold=0.875
    )
    _, done = await collect(pipeline, can)
    assert done.route is Route.KNOWLEDGE_BASE
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


async def test_an_llm_grade_above_upper_is_trusted_over_weak_evidence(embedder: Embedder) -> None:
    pipeline, _ = make(embedder, script(0.9))
    _, done = await collect(pipeline, THIRTY)
    [(detail, data)] = traced(done, "decide")
    assert detail == "correct: best grade 0.90 > upper 0.7"
    support = data.pop("support")
    assert isinstance(support, float) and support < 0.84  # the evidence alone would refuse
    assert data == {
        "best": 0.9,
        "upper": 0.7,
        "lower": 0.3,
        # "Do … expire …?" asks whether it is so: the capability threshold
        "evidence_threshold": 0.92,
        "kept": 1,
        "web": WEB_OFF,
    }
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


async def test_weak_evidence_settles_an_ambiguous_llm_grade_only_when_the_web_cannot_help(
    embedder: Embedder,
) -> None:
    pipeline, _ = make(embedder, script(0.5))
    _, done = await collect(pipeline, THIRTY)
    [(detail, data)] = traced(done, "decide")
    assert detail == (
        f"incorrect: no evidence: best support {data['support']:.2f} < 0.92, and {WEB_OFF}"
    )
    assert data["kept"] == 0 and data["evidence"] == "no passage speaks to the question's terms"
    assert done.route is Route.NO_ANSWER and done.answer.references == ()

    web = StubWeb([web_page()])
    pipeline, _ = make(embedder, script(0.5), web=web)
    _, done = await collect(pipeline, THIRTY)
    [(detail, data)] = traced(done, "decide")
    assert detail == "ambiguous: 0.3 <= best grade 0.50 <= 0.7: knowledge base and web"
    assert data["kept"] == 1 and data["support"] < 0.84  # type: ignore[operator]
    assert web.queries == ["api key rotation interval"]


async def test_offline_a_passage_without_the_questions_numbers_never_answers(
    embedder: Embedder,
) -> None:
    pipeline, _ = make(embedder, None)
    question = Question("Does the old API key keep working for 48 hours after rotation?")
    _, done = await collect(pipeline, question)
    # best 0.98 (its last digits vary with the CPU): on the topic, the embedding grade alone
    # would answer; "Does …" asks whether it is so: the capability threshold
    best = pytest.approx(0.983, abs=0.003)
    assert traced(done, "decide") == no_evidence(best, -1.0, 0.92, lacking=True)
    assert done.route is Route.NO_ANSWER and done.answer.references == ()
    assert done.answer.text == (
        f"{NOT_FOUND}\n\nClosest match, which may not answer it: “Ops › Rotating API keys”."
    )


async def test_after_the_web_was_tried_decide_never_asks_it_again(embedder: Embedder) -> None:
    # graded off topic: the web answers, the answer declines, the rewritten search is off
    # topic again, and the web was already tried
    web = StubWeb([web_page()])
    llm = script(0.1, answer_with_citations=DECLINE, rewrite_for_the_knowledge_base="key settings")
    pipeline, _ = make(embedder, llm, web=web)
    _, done = await collect(pipeline, ROTATE)
    assert [d for d, _ in traced(done, "decide")] == [
        "incorrect: best grade 0.10 < lower 0.3: web instead",
        "incorrect: best grade 0.10 < lower 0.3, and web search already tried",
    ]
    assert traced(done, "decide")[1][1] == {
        "best": 0.1,
        "upper": 0.7,
        "lower": 0.3,
        "kept": 0,
        "web": "web search already tried",
    }
    assert web.queries == ["api key rotation interval"]
    assert done.route is Route.NO_ANSWER and done.answer.text == NOT_FOUND

    # graded ambiguous: the second time round the knowledge base answers alone
    web = StubWeb([web_page()])
    llm = script(
        0.5,
        answer_with_citations=[DECLINE, "Click Rotate [1]."],
        rewrite_for_the_knowledge_base="key settings",
    )
    pipeline, _ = make(embedder, llm, web=web)
    _, done = await collect(pipeline, ROTATE)
    second, data = traced(done, "decide")[1]
    assert second == "ambiguous, but web search already tried: knowledge base only"
    assert data["web"] == "web search already tried" and data["kept"] == 1
    assert web.queries == ["api key rotation interval"]
    assert done.route is Route.KNOWLEDGE_BASE and done.answer.text == "Click Rotate [1]."


# -- check ---------------------------------------------------------------------------


async def test_a_fabricated_quote_is_regenerated_even_when_the_model_calls_it_grounded(
    embedder: Embedder,
) -> None:
    llm = script(
        0.9,
        answer_with_citations=['The docs say "keys never expire" [1].', "Click Rotate [1]."],
    )
    pipeline, _ = make(embedder, llm)
    events, done = await collect(pipeline, ROTATE)

    assert done.answer.text == "Click Rotate [1]."
    assert "never expire" not in done.answer.text
    assert traced(done, "check") == [
        (
            "grounded=False useful=True",
            {
                "grounded": True,
                "useful": True,
                "unsupported": [],
                "quotes": 1,
                "unverified_quotes": 1,
            },
        ),
        (
            "grounded=True useful=True",
            {
                "grounded": True,
                "useful": True,
                "unsupported": [],
                "quotes": 0,
                "unverified_quotes": 0,
            },
        ),
    ]
    assert traced(done, "retry") == [
        (
            "retry 1/2: regenerate, the answer is not grounded",
            {"unsupported": ["keys never expire"]},
        )
    ]
    assert "previous answer made claims" in llm.calls("answer with citations")[1]
    assert [(e.text, e.stage) for e in events if isinstance(e, Status)][-2:] == [
        ("Revising the answer…", "generate"),
        ("Checking the answer…", "check"),
    ]


async def test_an_answer_that_cites_nothing_is_regenerated(embedder: Embedder) -> None:
    llm = script(0.9, answer_with_citations=["Click Rotate in Settings.", "Click Rotate [1]."])
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    assert [d for d, _ in traced(done, "check")] == [
        "the answer cites no source",
        "grounded=True useful=True",
    ]
    assert traced(done, "check")[0][1] == {"quotes": 0, "unverified_quotes": 0}
    assert [d for d, _ in traced(done, "retry")] == [
        "retry 1/2: regenerate, the answer is not grounded"
    ]
    assert llm.calls("rewrite for the knowledge base") == []
    assert done.answer.text == "Click Rotate [1]."


async def test_the_check_sees_only_the_sources_the_answer_cites(embedder: Embedder) -> None:
    llm = script(0.9, grade_relevance=by_keyword({}, default=0.9))  # every passage kept
    pipeline, _ = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    shown = llm.calls("answer with citations")[0]
    assert "[1] Ops › Rotating API keys" in shown and "\n[4] " in shown
    check = llm.calls("check an answer")[0]
    assert "[1] Ops › Rotating API keys" in check
    assert all(f"\n[{n}] " not in check for n in (2, 3, 4))
    assert [r.url for r in done.answer.references] == [ROTATE_URL]


async def test_an_extractive_answer_is_grounded_by_construction(embedder: Embedder) -> None:
    pipeline, _ = make(embedder, None)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "check") == [
        ("extractive: grounded by construction", {"quotes": 1, "unverified_quotes": 0})
    ]
    assert done.answer.text == ROTATION_TEXT


async def test_a_check_reply_that_does_not_parse_is_a_note_and_a_warning(
    embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline, _ = make(embedder, script(0.9, check_an_answer="Looks fine to me."))
    with caplog.at_level(logging.WARNING, logger="citebot.pipeline"):
        _, done = await collect(pipeline, ROTATE)

    error = "ValueError: Could not extract json string from output: Looks fine to me."
    assert traced(done, "check") == [
        ("malformed check reply", {"error": error, "quotes": 0, "unverified_quotes": 0})
    ]
    assert done.answer.text == (
        "Note: The answer could not be checked against its sources: the model's verdict did "
        "not parse.\n\nClick Rotate [1]."
    )
    assert done.answer.warnings[0] == "not checked against its sources"
    [logged] = [r for r in caplog.records if r.getMessage().startswith("malformed answer check")]
    assert logged.levelno == logging.WARNING and logged.getMessage().endswith(f": {error}")


# -- retry ---------------------------------------------------------------------------


async def test_a_cited_but_useless_answer_rewrites_the_search_once(embedder: Embedder) -> None:
    useless = '{"grounded": true, "useful": false, "unsupported": []}'
    llm = script(
        0.9,
        check_an_answer=[useless, GOOD],
        answer_with_citations=["Keys exist [1].", "Click Rotate [1]."],
        rewrite_for_the_knowledge_base="rotate key settings",
    )
    pipeline, retriever = make(embedder, llm)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "check")[0][0] == "grounded=True useful=False"
    assert traced(done, "retry") == [
        ("retry 1/2: not useful; rewrite and search again", {"query": "rotate key settings"})
    ]
    assert "kb-rewrite" in [d.stage for d in done.trace]
    assert [q for q, _ in retriever.calls] == [ROTATE.text, "rotate key settings"]
    assert done.answer.text == "Click Rotate [1]."


async def test_a_rewrite_that_changes_nothing_falls_back_to_the_web_with_the_kb_sources(
    embedder: Embedder,
) -> None:
    web = StubWeb([web_page()])
    llm = script(
        0.9,
        answer_with_citations=[DECLINE, "Click Rotate [1]. Rotate every 90 days [2]."],
        rewrite_for_the_knowledge_base=ROTATE.text,
    )
    pipeline, retriever = make(embedder, llm, web=web)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "retry") == [("retry 1/2: not useful; fall back to the web", {})]
    assert len(retriever.calls) == 1
    assert web.queries == ["api key rotation interval"]
    # the knowledge base's passage stays, and comes first
    prompt = llm.calls("answer with citations")[1]
    assert "[1] Ops › Rotating API keys" in prompt and "[2] Key rotation best practices" in prompt
    assert done.route is Route.MIXED
    assert [r.url for r in done.answer.references] == [ROTATE_URL, WEB_URL]


async def test_a_declined_answer_with_nothing_else_to_try_is_an_honest_no_answer(
    embedder: Embedder,
) -> None:
    llm = script(0.9, answer_with_citations=DECLINE, rewrite_for_the_knowledge_base=ROTATE.text)
    pipeline, _ = make(embedder, llm)
    events, done = await collect(pipeline, ROTATE)
    assert traced(done, "check") == [("the answer declines", {"quotes": 0, "unverified_quotes": 0})]
    assert traced(done, "retry") == [("retry 1/2: not useful, and nothing else to try", {})]
    assert len(llm.calls("rewrite for the knowledge base")) == 1
    assert len(llm.calls("answer with citations")) == 1
    assert streamed(events) == DECLINE
    assert done.route is Route.NO_ANSWER
    assert done.answer.text == NOT_FOUND and done.answer.references == ()


async def test_a_cited_answer_that_could_not_find_more_is_an_answer(embedder: Embedder) -> None:
    llm = script(0.9, answer_with_citations="Click Rotate [1]. I couldn't find more.")
    pipeline, _ = make(embedder, llm)
    events, done = await collect(pipeline, ROTATE)
    # checked as an answer, not retried as a declined one, and its source is listed
    assert [d for d, _ in traced(done, "check")] == ["grounded=True useful=True"]
    assert traced(done, "retry") == []
    assert len(llm.calls("answer with citations")) == 1
    assert done.route is Route.KNOWLEDGE_BASE
    assert streamed(events) == done.answer.text == "Click Rotate [1]. I couldn't find more."
    assert [r.url for r in done.answer.references] == [ROTATE_URL]
    assert not any("declines" in w for w in done.answer.warnings)


@pytest.mark.parametrize("max_retries", [0, 1])
async def test_retries_stop_at_max_retries_and_quote_the_sources_instead(
    embedder: Embedder, max_retries: int
) -> None:
    llm = script(0.9, check_an_answer=UNGROUNDED)
    pipeline, _ = make(embedder, llm, max_retries=max_retries)
    events, done = await collect(pipeline, ROTATE)

    assert len(llm.calls("answer with citations")) == 1 + max_retries
    assert [d for d, _ in traced(done, "retry")] == [
        *(f"retry {n}/{max_retries}: regenerate, the answer is not grounded" for n in range(1, max_retries + 1)),
        f"retries exhausted ({max_retries}); last problem: ungrounded",
    ]  # fmt: skip
    assert done.answer.text == f"Note: {NOT_VERIFIED}\n\n{ROTATION_TEXT}"
    assert done.route is Route.KNOWLEDGE_BASE
    # only the first attempt streams: the quoted passage arrives with Done
    assert streamed(events) == "Click Rotate [1]."


async def test_a_useless_answer_at_the_last_retry_is_no_answer_or_kept_if_it_cites(
    embedder: Embedder,
) -> None:
    pipeline, _ = make(embedder, script(0.9, answer_with_citations=DECLINE), max_retries=0)
    _, done = await collect(pipeline, ROTATE)
    assert traced(done, "retry") == [("retries exhausted (0); last problem: not_useful", {})]
    assert done.route is Route.NO_ANSWER and done.answer.text == NOT_FOUND

    useless = '{"grounded": true, "useful": false, "unsupported": []}'
    pipeline, _ = make(embedder, script(0.9, check_an_answer=useless), max_retries=0)
    _, done = await collect(pipeline, ROTATE)
    assert done.route is Route.KNOWLEDGE_BASE and done.answer.text == "Click Rotate [1]."


async def test_an_unverified_answer_no_passage_backs_is_never_shown(embedder: Embedder) -> None:
    """Retries exhausted and no sentence of the sources speaks to the question: the claim
    is not shown (it was, cited, under a note calling it the sources' passages)."""
    llm = ScriptedLLM(
        {
            "grade relevance": by_keyword({}, default=0.9),
            "answer with citations": 'Tungsten boils at "5555 degrees" [1].',
            "check an answer": UNGROUNDED,
        }
    )
    pipeline, _ = make(embedder, llm, max_retries=0)
    _, done = await collect(pipeline, Question("What is the boiling point of tungsten?"))

    assert done.route is Route.NO_ANSWER and done.answer.references == ()
    assert done.answer.text == (
        "Note: The generated answer could not be verified against its sources.\n\n" + NOT_FOUND
    )
    assert "unverified claims: keys rotate every 7 days; 5555 degrees" in done.answer.warnings


async def test_an_answer_quoting_only_supplementary_passages_is_no_answer(
    embedder: Embedder,
) -> None:
    # a passage of the first top_k carries the question (its title says it all) but has no
    # sentence worth quoting; every quote would come from the rotation page, ranked after them
    stub = kb("https://docs.example.com/ops/keys", "Ops › Rotating API keys", "Rotation.")
    docs = [*corpus(), (stub[0], "ops")]
    retriever = Demoted(embedder, ROTATE_URL, docs)
    pipeline, _ = make(embedder, None, retriever=retriever, top_k=4, supplementary=1)
    _, done = await collect(pipeline, ROTATE)
    [(decided, _)] = traced(done, "decide")
    assert decided == f"ambiguous, but {WEB_OFF}: knowledge base only"
    [(generated, _)] = traced(done, "generate")
    assert generated.endswith(", all of passages after the first top_k: none")
    assert done.route is Route.NO_ANSWER and done.answer.references == ()
    # the same page among the first top_k makes the answer
    pipeline, _ = make(embedder, None, retriever=retriever, top_k=5, supplementary=0)
    _, done = await collect(pipeline, ROTATE)
    assert done.route is Route.KNOWLEDGE_BASE
    assert ROTATE_URL in [r.url for r in done.answer.references]


def test_supplementary_passages_follow_the_deciding_ones_and_never_decide() -> None:
    a, b, c, d, e, f = (
        Hit(source=kb(f"https://docs.example.com/{n}", n, n)[0], score=0.5) for n in "abcdef"
    )
    marked = supplemented([a, b, c], [a, d, b, c, e])
    assert [h.source.title for h in marked] == list("abcde")
    assert [h.supplementary for h in marked] == [False] * 3 + [True] * 2
    # the deeper search may rank a deciding passage lower still: as many are added as it has
    # beyond top_k
    assert [h.source.title for h in supplemented([a, b, c], [a, b, d, e, f])] == list("abcde")
    assert supplemented([a, b], [a, b]) == [a, b]
    # a deeper search that found fewer adds nothing
    assert supplemented([a, b], [c]) == [a, b]
    more = supplemented([a], [b, a])
    assert more[1].supplementary and best_grade(more, [0.2, 0.9]) == 0.2
    assert best_grade([], []) == 0.0
    assert strongest_support(more, [0.5, 0.9], [True, True]) == 0.5
    assert strongest_support(more, [0.5, 0.9], [False, True]) == -1.0
    assert strongest_support(more, [0.5, 0.9], []) == 0.5
    assert strongest_support([a, b], [0.5, 0.9], [True, False]) == 0.5
    assert strongest_support([a, b], [0.5, 0.9], [True, True]) == 0.9
