"""``citebot eval --baseline``: each metric's move and every question whose outcome changed."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from pipeline.eval_baseline import BaselineError, Shown, compare, outcome, read_baseline
from pipeline.evaluation import Case, Report, judge
from tests.pipeline.test_evaluation import CASE, NOT_FOUND, answered

RIGHT, OTHER = CASE.urls[0], "https://d.example/other.md#x"
FACT = "Keys last 24 hours."
UNCOVERED = Case(question="Cloud Run?", expect="no_answer", kind="uncovered")


def report(*pairs: tuple[Case, object]) -> Report:
    return Report([judge(case, done, [], 0.1, hit=True, rr=1.0) for case, done in pairs])  # type: ignore[arg-type]


def asked(question: str, *, id: str = "") -> Case:
    return Case(question=question, urls=CASE.urls, contains=CASE.contains, id=id)


def test_outcomes_rank_a_wrong_footnote_below_no_answer() -> None:
    shown = {
        "right": answered(FACT, RIGHT),
        "no_fact": answered("Keys rotate.", RIGHT),
        "no_answer": NOT_FOUND,
        "wrong_source": answered(FACT, OTHER),
    }
    for expected, done in shown.items():
        result = report((CASE, done)).data()["results"][0]
        assert outcome(result) == expected
    assert outcome(report((UNCOVERED, NOT_FOUND)).data()["results"][0]) == "clean"
    assert outcome(report((UNCOVERED, answered("Go.", OTHER))).data()["results"][0]) == "leak"

    before = report(
        (asked("a"), answered(FACT, OTHER)),  # wrong source → no answer: better
        (asked("b"), answered(FACT, RIGHT)),  # right → no answer: worse
        (asked("c"), answered("Keys rotate.", RIGHT)),  # unchanged
        (UNCOVERED, answered("Go.", OTHER)),  # leak → clean: better
    ).data()
    after = report(
        (asked("a"), NOT_FOUND),
        (asked("b"), NOT_FOUND),
        (asked("c"), answered("Keys rotate.", RIGHT)),
        (UNCOVERED, NOT_FOUND),
    )
    moved = compare(before, after)
    assert [(c.question, c.before, c.after) for c in moved.better] == [
        ("a", "wrong_source", "no_answer"),
        ("Cloud Run?", "leak", "clean"),
    ]
    assert [(c.question, c.before, c.after) for c in moved.worse] == [("b", "right", "no_answer")]
    assert moved.dropped == moved.added == 0
    assert moved.data()["changes"][0] == {
        "question": "a",
        "before": "wrong_source",
        "after": "no_answer",
        "better": True,
    }
    assert re.search(
        r"\nbetter \(2\):\n  a  \(answered from other sections → no answer\)\n"
        r"  Cloud Run\?  \(answered \(leak\) → no answer \(clean\)\)\n"
        r"worse \(1\):\n  b  \(right section, fact stated → no answer\)$",
        moved.table(),
    ), moved.table()
    assert re.search(r"\nno-answer recall +0\.0% → 100\.0% \(\+100\.0 pt\)\n", moved.table())
    fact_found = compare(
        report((asked("c"), answered("Keys rotate.", RIGHT))).data(),
        report((asked("c"), answered(FACT, RIGHT))),
    )
    assert fact_found.table().endswith(
        "\nbetter (1):\n  c  (right section, fact missing → right section, fact stated)"
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (Shown.WRONG_SOURCE, Shown.NO_ANSWER),
        (Shown.NO_ANSWER, Shown.NO_FACT),
        (Shown.NO_FACT, Shown.RIGHT),
        (Shown.WRONG_SOURCE, Shown.RIGHT),
        (Shown.LEAK, Shown.CLEAN),
    ],
)
def test_each_step_up_in_trust_is_better_and_back_down_is_worse(
    before: Shown, after: Shown
) -> None:
    up = compare(_one(before), _report_of(after))
    down = compare(_one(after), _report_of(before))
    assert [c.after for c in up.better] == [after] and not up.worse
    assert [c.after for c in down.worse] == [before] and not down.better


_SHOWN = {
    Shown.RIGHT: (CASE, answered(FACT, RIGHT)),
    Shown.NO_FACT: (CASE, answered("Keys rotate.", RIGHT)),
    Shown.NO_ANSWER: (CASE, NOT_FOUND),
    Shown.WRONG_SOURCE: (CASE, answered(FACT, OTHER)),
    Shown.CLEAN: (UNCOVERED, NOT_FOUND),
    Shown.LEAK: (UNCOVERED, answered("Go.", OTHER)),
}


def _report_of(shown: Shown) -> Report:
    return report(_SHOWN[shown])


def _one(shown: Shown) -> dict[str, object]:
    return _report_of(shown).data()


def test_a_footnote_is_an_answer_even_under_i_could_not_find_this() -> None:
    # "I couldn't find this" with a source listed still shows the reader a footnote
    listed = {"expect": "answer", "route": "no_answer", "cited": [OTHER], "miss": "not_cited"}
    assert outcome(listed) is Shown.WRONG_SOURCE
    assert outcome({**listed, "expect": "no_answer", "miss": "leak"}) is Shown.LEAK
    unretrieved = {"expect": "answer", "route": "knowledge_base", "cited": [OTHER]}
    assert outcome({**unretrieved, "miss": "retrieval"}) is Shown.WRONG_SOURCE
    assert outcome({**unretrieved, "miss": "grading"}) is Shown.WRONG_SOURCE
    assert outcome(
        {"expect": "answer", "route": "no_answer", "cited": [], "miss": "retrieval"}
    ) is (Shown.NO_ANSWER)


def test_questions_match_by_id_else_by_text_and_occurrence() -> None:
    # the same follow-up words in two threads: the second is matched with the second
    before = report(
        (asked("and undo it?"), answered(FACT, RIGHT)),
        (asked("and undo it?"), NOT_FOUND),
        (asked("old wording", id="q7"), NOT_FOUND),
        (asked("gone"), NOT_FOUND),
    ).data()
    after = report(
        (asked("and undo it?"), answered(FACT, RIGHT)),
        (asked("and undo it?"), answered(FACT, RIGHT)),
        (asked("new wording", id="q7"), answered(FACT, RIGHT)),
        (asked("new"), NOT_FOUND),
    )
    moved = compare(before, after)
    assert [(c.question, c.before, c.after) for c in moved.changes] == [
        ("and undo it?", "no_answer", "right"),
        ("new wording", "no_answer", "right"),
    ]
    assert (moved.dropped, moved.added) == (1, 1)
    assert "1 baseline question(s) not asked now, 1 question(s) new since" in moved.table()
    fewer = compare(before, report((asked("and undo it?"), answered(FACT, RIGHT))))
    assert (fewer.dropped, fewer.added) == (3, 0)
    assert "3 baseline question(s) not asked now, 0 question(s) new since" in fewer.table()
    assert (fewer.data()["dropped"], fewer.data()["added"]) == (3, 0)


def test_the_table_shows_each_metrics_move_and_every_changed_question() -> None:
    before = report((asked("a"), NOT_FOUND), (asked("b"), answered(FACT, RIGHT))).data()
    after = report((asked("a"), answered(FACT, RIGHT)), (asked("b"), answered(FACT, RIGHT)))
    table = compare(before, after).table()
    for row in [
        r"^against the baseline:\n",
        r"\ncited right +50\.0% → 100\.0% \(\+50\.0 pt\)\n",
        r"\nfact stated +50\.0% → 100\.0% \(\+50\.0 pt\)\n",
        r"\nretrieval MRR +1\.000 → 1\.000 \(\+0\.000\)\n",
        r"\nretrieval hit@k +100\.0% → 100\.0% \(\+0\.0 pt\)\n",
        r"\n  first footnote right +50\.0% → 100\.0% \(\+50\.0 pt\)\n",
        r"\n  footnote precision +100\.0% → 100\.0% \(\+0\.0 pt\)\n",
        r"\nno-answer precision +0\.0% → -\n",
        r"\nno-answer recall +- → -\n",
        r"\nlatency p50 +100 ms → 100 ms \(\+0 ms\)\n",
        r"\nlatency p95 +100 ms → 100 ms \(\+0 ms\)\n",
        r"\nbetter \(1\):\n  a  \(no answer → right section, fact stated\)$",
    ]:
        assert re.search(row, table), (row, table)
    assert "worse" not in table
    same = compare(before, report((asked("a"), NOT_FOUND), (asked("b"), answered(FACT, RIGHT))))
    assert same.changes == () and same.table().endswith("\nno question's outcome changed")
    # a metric one report lacks (no retrieval check, or no answerable question) shows as "-"
    data = compare({"metrics": {}, "results": []}, after).data()
    assert data["metrics"]["cited_right"] == {"baseline": None, "now": 1.0}
    assert re.search(
        r"\ncited right +- → 100\.0%\n", compare({"metrics": {}, "results": []}, after).table()
    )
    assert (data["better"], data["worse"], data["added"]) == (0, 0, 2)


def test_hit_at_k_says_its_k_and_both_when_they_differ() -> None:
    before = report((asked("a"), answered(FACT, RIGHT))).data()
    before["metrics"]["k"] = 6
    now = report((asked("a"), answered(FACT, RIGHT)))
    same, more = Report(now.results, k=6), Report(now.results, k=8)
    assert re.search(
        r"\nretrieval hit@6 +100\.0% → 100\.0% \(\+0\.0 pt\)\nretrieval MRR ",
        compare(before, same).table(),
    )
    assert re.search(
        r"\nretrieval hit@k \(6 → 8\) +100\.0% → 100\.0%", compare(before, more).table()
    )
    # a report from before the check ran, or one that never checked retrieval
    before["metrics"]["k"] = None
    assert "\nretrieval hit@k (? → 8) " in compare(before, more).table()
    assert compare(before, more).data()["k"] == {"baseline": None, "now": 8}
    before["metrics"]["k"] = "6"  # not a count: as if unknown
    assert compare(before, more).k == (None, 8)
    before["metrics"]["k"] = 6
    assert "\nretrieval hit@k (6 → ?) " in compare(before, now).table()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not JSON"),
        ('{"metrics": {}}', "no metrics and results"),
        ("[]", "no metrics and results"),
        ('{"metrics": {}, "results": [{"answer": "x"}]}', "result 1 has no question"),
    ],
)
def test_a_baseline_that_is_no_report_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(BaselineError, match=problem):
        read_baseline(text)


def test_citebot_eval_checks_the_baseline_before_it_runs(tmp_path: Path) -> None:
    questions = tmp_path / "q.yaml"
    questions.write_text("- question: how?\n  urls: [https://d/x]\n", encoding="utf-8")
    bad = tmp_path / "old.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    runner = CliRunner()
    env = {"CITEBOT_DATA_DIR": str(tmp_path / "data")}
    missing = runner.invoke(cli, ["eval", str(questions), "--baseline", "nowhere.json"], env=env)
    assert missing.exit_code == 2
    assert missing.output.strip() == "citebot: no such baseline report: nowhere.json"
    wrong = runner.invoke(cli, ["eval", str(questions), "--baseline", str(bad)], env=env)
    assert wrong.exit_code == 2
    assert wrong.output.strip() == (
        f"citebot: {bad}: not a report of citebot eval --json (no metrics and results)"
    )
    bad.write_bytes(b"\xff\xfe{")
    undecodable = runner.invoke(cli, ["eval", str(questions), "--baseline", str(bad)], env=env)
    assert undecodable.exit_code == 2
    assert undecodable.output.startswith(f"citebot: cannot read {bad}: 'utf-8' codec")
    assert len(undecodable.output.strip().splitlines()) == 1
    # nothing was run: no store was opened under the data dir
    assert not (tmp_path / "data").exists()


def test_a_report_compared_with_itself_changes_nothing(tmp_path: Path) -> None:
    cases = [asked("a"), asked("b"), UNCOVERED]
    done = [answered(FACT, RIGHT), NOT_FOUND, NOT_FOUND]
    first = report(*zip(cases, done, strict=True))
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(first.data()), encoding="utf-8")
    moved = compare(read_baseline(saved.read_text(encoding="utf-8")), first)
    assert moved.changes == () and moved.dropped == moved.added == 0
    assert all(b == a for b, a in moved.metrics.values())


def _parsed_report(yaml_text: str, outcomes: Mapping[str, object]) -> Report:
    from pipeline.evaluation import parse_cases

    cases = parse_cases(yaml_text, fmt="yaml")
    return report(*((case, outcomes[case.question]) for case in cases))


_FILE = "- {question: 'a?', urls: ['https://d/x']}\n- {question: 'b?', urls: ['https://d/x']}\n"
_OUTCOMES = {"a?": answered(FACT, RIGHT), "b?": NOT_FOUND, "new?": NOT_FOUND}


def test_a_question_added_at_the_top_leaves_the_others_matched_by_their_text() -> None:
    before = _parsed_report(_FILE, _OUTCOMES).data()
    after = _parsed_report("- {question: 'new?', urls: ['https://d/x']}\n" + _FILE, _OUTCOMES)
    moved = compare(before, after)
    assert (moved.changes, moved.dropped, moved.added) == ((), 0, 1)
    assert [r["id"] for r in after.data()["results"]] == ["", "", ""]


def test_a_baseline_written_when_every_question_had_its_position_as_id_still_matches() -> None:
    # reports before session 46 gave a question without an id its position
    legacy = _parsed_report(_FILE, _OUTCOMES).data()
    for n, result in enumerate(legacy["results"], start=1):
        result["id"] = str(n)
    after = _parsed_report("- {question: 'new?', urls: ['https://d/x']}\n" + _FILE, _OUTCOMES)
    moved = compare(legacy, after)
    assert (moved.changes, moved.dropped, moved.added) == ((), 0, 1)
    # and ids the file gives, 0 among them, match by id whatever their place
    given = "- {id: 0, question: 'a?', urls: ['https://d/x']}\n- {id: 1, question: 'b?', urls: ['https://d/x']}\n"
    moved_up = "- {id: 1, question: 'new?', urls: ['https://d/x']}\n- {id: 0, question: 'a?', urls: ['https://d/x']}\n"
    moved = compare(_parsed_report(given, _OUTCOMES).data(), _parsed_report(moved_up, _OUTCOMES))
    assert (moved.dropped, moved.added) == (0, 0) and moved.changes == ()
