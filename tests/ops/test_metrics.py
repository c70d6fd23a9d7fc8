from __future__ import annotations

from bots.ops import metrics
from citations.model import CitedAnswer
from pipeline.events import Decision, Done, Outcome, Reason, Route
from pipeline.question import Place, Question, Trigger


def sample(name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def question(platform: str = "slack") -> Question:
    return Question(
        "q?", asker="U1", place=Place(platform, "T1", "C1", "1.0"), trigger=Trigger.MENTION
    )


def test_answered_counts_route_latency_trace_and_tokens() -> None:
    q = question("metrics-test")
    before = {
        "q": sample(
            "citebot_questions_total", platform="metrics-test", trigger="mention", route="web"
        ),
        "graded": sample("citebot_grader_calls_total"),
        "web": sample("citebot_web_searches_total"),
        "prompt": sample("citebot_llm_tokens_total", kind="prompt"),
        "completion": sample("citebot_llm_tokens_total", kind="completion"),
    }
    trace = (
        Decision("grade", "graded 5 chunks", data={"graded": 5}),
        Decision("web", "searched the web"),
        Decision("generate", "wrote", data={"prompt_tokens": 900, "completion_tokens": 120}),
        Decision("check", "grounded", data={"prompt_tokens": 100, "completion_tokens": "n/a"}),
    )
    since = metrics.started(q)
    metrics.first_token(q, since)
    metrics.answered(q, Done(CitedAnswer.empty("a"), Route.WEB, trace), since)
    metrics.stopped(q)

    assert (
        sample("citebot_questions_total", platform="metrics-test", trigger="mention", route="web")
        == before["q"] + 1
    )
    assert sample("citebot_grader_calls_total") == before["graded"] + 5
    assert sample("citebot_web_searches_total") == before["web"] + 1
    assert sample("citebot_llm_tokens_total", kind="prompt") == before["prompt"] + 1000
    assert sample("citebot_llm_tokens_total", kind="completion") == before["completion"] + 120
    assert sample("citebot_answer_seconds_count", platform="metrics-test", route="web") == 1
    assert sample("citebot_first_token_seconds_count", platform="metrics-test") == 1
    assert sample("citebot_questions_in_flight", platform="metrics-test") == 0


def test_errors_are_counted_by_kind_with_bounded_labels() -> None:
    q = question("errors-test")
    before = sample("citebot_errors_total", kind="TimeoutError")
    other = sample("citebot_errors_total", kind="other")
    metrics.answered(
        q,
        Done(
            CitedAnswer.empty("x"),
            Route.NO_ANSWER,
            outcome=Outcome.FAILED,
            reason=Reason("TimeoutError", "read timed out"),
        ),
    )
    metrics.answered(
        q,
        Done(
            CitedAnswer.empty("x"),
            Route.NO_ANSWER,
            outcome=Outcome.FAILED,
            reason=Reason("something odd happened here"),
        ),
    )
    assert sample("citebot_errors_total", kind="TimeoutError") == before + 1
    assert sample("citebot_errors_total", kind="other") == other + 1
    limited = Done(
        CitedAnswer.empty("x"), Route.NO_ANSWER, outcome=Outcome.RATE_LIMITED, reason=Reason("user")
    )
    assert metrics.error_kind(limited) == "rate_limited"
    assert metrics.error_kind(Done(CitedAnswer.empty("x"), Route.NO_ANSWER)) is None


def test_small_recorders_and_text_format() -> None:
    metrics.feedback_vote("slack", "up")
    metrics.dedupe_hit("slack")
    metrics.rate_limited("slack", "user")
    metrics.thread_queued("slack")
    text = metrics.render().decode()
    for line in (
        'citebot_feedback_votes_total{platform="slack",vote="up"}',
        'citebot_dedupe_hits_total{platform="slack"}',
        'citebot_rate_limited_total{limit="user",platform="slack"}',
        'citebot_thread_queued_total{platform="slack"}',
        "# TYPE citebot_answer_seconds histogram",
        "process_resident_memory_bytes",
    ):
        assert line in text, line
