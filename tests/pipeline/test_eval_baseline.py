"""``citebot eval --baseline``: each metric's move and every question whose outcome changed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from pipeline.eval_baseline import BaselineError, compare, outcome, read_baseline
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


def test_the_table_shows_each_metrics_move_and_every_changed_question() -> None:
    before = report((asked("a"), NOT_FOUND), (asked("b"), answered(FACT, RIGHT))).data()
    after = report((asked("a"), answered(FACT, RIGHT)), (asked("b"), answered(FACT, RIGHT)))
    table = compare(before, after).table()
    for row in [
        r"^against the baseline:\n",
        r"\ncited right +50\.0% → 100\.0% \(\+50\.0 pt\)\n",
        r"\nfact stated +50\.0% → 100\.0% \(\+50\.0 pt\)\n",
        r"\nretrieval MRR +1\.000 → 1\.000 \(\+0\.000\)\n",
        r"\nlatency p50 +100 ms → 100 ms \(\+0 ms\)\n",
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
