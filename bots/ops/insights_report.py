"""What the insights page shows, read from ``feedback.sqlite3`` in a few indexed queries.

Read-only: the page opens the file with ``mode=ro`` and never writes. Times are
UTC days. Knowledge gaps are the no-answer and 👎 questions, grouped by
rapidfuzz token-set similarity (cheap, no model to load) and ranked by count.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

DAY = 86400
#: The UTC day of an answer; the store indexes this exact expression so these queries use it.
DAY_OF = "CAST(created / 86400 AS INTEGER)"
#: distinct gap questions clustered (the most asked first); the rest are rarer than the list shows
GAP_QUESTIONS = 2000
#: token-set similarity (0–100) at which two questions are the same topic
SAME_TOPIC = 70


@dataclass(frozen=True, slots=True)
class Gap:
    """A topic the sources do not cover: how often asked, and what people asked."""

    count: int
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DownAnswer:
    when: float
    platform: str
    question: str
    answer: str
    sources: tuple[tuple[str, str], ...]  # (title, url)
    reasons: tuple[str, ...]


@dataclass(slots=True)
class Report:
    days: int
    answers: int = 0
    #: day → route → questions
    per_day: dict[int, Counter[str]] = field(default_factory=dict)
    #: day → (👍, votes)
    helpful: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: day → (p50 ms, p95 ms)
    latency: dict[int, tuple[float, float]] = field(default_factory=dict)
    gaps: list[Gap] = field(default_factory=list)
    cited: list[tuple[str, str, int]] = field(default_factory=list)  # title, url, answers
    disliked: list[tuple[str, str, int]] = field(default_factory=list)  # title, url, 👎
    down: list[DownAnswer] = field(default_factory=list)


def connect(path: Path) -> sqlite3.Connection:
    """A read-only connection; ``FileNotFoundError`` when nothing was stored yet."""
    if not path.exists():
        raise FileNotFoundError(path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


def build(db: sqlite3.Connection, *, days: int = 30, now: float | None = None) -> Report:
    """The last ``days`` UTC days, today included."""
    first = int((now or time.time()) // DAY) - days + 1
    since = first * DAY
    report = Report(days=days)
    for day, route, n in db.execute(
        f"SELECT {DAY_OF}, route, COUNT(*) FROM answers WHERE {DAY_OF} >= ? GROUP BY 1, 2",
        (first,),
    ):
        report.per_day.setdefault(day, Counter())[route] += n
        report.answers += n
    for day, up, total in db.execute(
        "SELECT CAST(voted / 86400 AS INTEGER), SUM(vote = 'up'), COUNT(*) FROM votes "
        "WHERE voted >= ? GROUP BY 1",
        (since,),
    ):
        report.helpful[day] = (int(up), int(total))
    _latency(db, first, report)
    _gaps(db, first, report)
    _sources(db, first, report)
    _down(db, first, report)
    return report


def _latency(db: sqlite3.Connection, first: int, report: Report) -> None:
    # percentiles by OFFSET along the (day, total_ms) index: no row is read into Python
    counts = db.execute(
        f"SELECT {DAY_OF}, COUNT(*) FROM answers WHERE {DAY_OF} >= ? AND total_ms > 0 GROUP BY 1",
        (first,),
    ).fetchall()
    nth = (
        f"SELECT total_ms FROM answers WHERE {DAY_OF} = ? AND total_ms > 0 "
        "ORDER BY total_ms LIMIT 1 OFFSET ?"
    )

    def at(day: int, n: int, q: float) -> float:
        offset = min(n - 1, max(0, round(q * (n - 1))))
        return float(db.execute(nth, (day, offset)).fetchone()[0])

    report.latency = {day: (at(day, n, 0.5), at(day, n, 0.95)) for day, n in counts}


_GAP_QUESTIONS = f"""
SELECT question FROM answers WHERE outcome = 'no_answer' AND {DAY_OF} >= ?1
UNION ALL
SELECT a.question FROM votes v JOIN answers a USING (answer_id)
WHERE v.vote = 'down' AND v.voted >= ?1 * 86400 AND a.outcome != 'no_answer'
"""


def _gaps(db: sqlite3.Connection, first: int, report: Report) -> None:
    counts: Counter[str] = Counter()
    wording: dict[str, str] = {}
    for (question,) in db.execute(_GAP_QUESTIONS, (first,)):
        key = " ".join(question.lower().split())
        counts[key] += 1
        wording.setdefault(key, question)
    reps: list[str] = []
    groups: list[tuple[list[int], list[str]]] = []
    for key, n in counts.most_common(GAP_QUESTIONS):
        found = process.extractOne(key, reps, scorer=fuzz.token_set_ratio, score_cutoff=SAME_TOPIC)
        if found is None:
            reps.append(key)
            groups.append(([n], [wording[key]]))
        else:
            sizes, examples = groups[found[2]]
            sizes.append(n)
            if len(examples) < 5:
                examples.append(wording[key])
    gaps = [Gap(sum(c), tuple(e)) for c, e in groups]
    gaps.sort(key=lambda g: -g.count)
    report.gaps = gaps[:25]


_DISLIKED = """
SELECT COALESCE(json_extract(j.value, '$.title'), ''), COALESCE(json_extract(j.value, '$.url'), ''),
       COUNT(*) AS n
FROM votes v JOIN answers a USING (answer_id), json_each(a.refs) j
WHERE v.vote = 'down' AND v.voted >= ?
GROUP BY 2, 1 ORDER BY n DESC LIMIT 15
"""


def _sources(db: sqlite3.Connection, first: int, report: Report) -> None:
    report.cited = db.execute(
        "SELECT title, url, SUM(n) AS total FROM source_days WHERE day >= ? "
        "GROUP BY url, title ORDER BY total DESC LIMIT 15",
        (first,),
    ).fetchall()
    report.disliked = db.execute(_DISLIKED, (first * DAY,)).fetchall()


def _down(db: sqlite3.Connection, first: int, report: Report, limit: int = 50) -> None:
    rows: list[Any] = db.execute(
        "SELECT a.created, a.platform, a.question, a.answer, a.refs, "
        "GROUP_CONCAT(TRIM(v.reason || ': ' || v.reason_text, ': '), char(10)) "
        "FROM votes v JOIN answers a USING (answer_id) "
        "WHERE v.vote = 'down' AND v.voted >= ? GROUP BY a.answer_id "
        "ORDER BY MAX(v.voted) DESC LIMIT ?",
        (first * DAY, limit),
    ).fetchall()
    for created, platform, question, answer, refs, reasons in rows:
        sources = tuple((r.get("title") or "", r.get("url") or "") for r in json.loads(refs))
        report.down.append(
            DownAnswer(
                created,
                platform,
                question,
                answer,
                sources,
                tuple(x for x in (reasons or "").split("\n") if x),
            )
        )
