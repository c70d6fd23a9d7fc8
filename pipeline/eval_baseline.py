"""An eval report beside an earlier one (``citebot eval FILE --baseline OLD.json``).

A setting that helps one question often hurts another, and the totals hide it: two answers
that gain their citation and two that lose theirs leave "cited right" where it was. So the
comparison lists every question whose outcome changed, better or worse, beside each
metric's move.

An outcome is what the reader was shown, ranked by trust: the right section with the fact,
the right section without it, "I couldn't find this", and last an answer whose footnotes
point elsewhere. A wrong answer with a footnote looks checked, so it ranks below no answer;
for a question the documents do not cover, any answer is a leak. Questions are matched by
their ``id`` when the file gives one, else by their text and how often it came before (two
follow-ups may ask the same words in different threads), so a question added above the
others leaves them matched.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pipeline.evaluation import Report, brief


class Shown(StrEnum):
    """What the reader was shown for one question."""

    RIGHT = "right"
    NO_FACT = "no_fact"
    NO_ANSWER = "no_answer"
    WRONG_SOURCE = "wrong_source"
    CLEAN = "clean"
    LEAK = "leak"

    @property
    def said(self) -> str:
        return _SAID[self]

    @property
    def trust(self) -> int:
        """Its place among its kind of question's outcomes, least trusted first."""
        return next(order.index(self) for order in _TRUST if self in order)


#: each kind of question's outcomes, least trusted first: a footnote on a wrong answer makes
#: it look checked, so it ranks below "I couldn't find this"
_TRUST: tuple[tuple[Shown, ...], ...] = (
    (Shown.WRONG_SOURCE, Shown.NO_ANSWER, Shown.NO_FACT, Shown.RIGHT),
    (Shown.LEAK, Shown.CLEAN),
)
_SAID = {
    Shown.RIGHT: "right section, fact stated",
    Shown.NO_FACT: "right section, fact missing",
    Shown.NO_ANSWER: "no answer",
    Shown.WRONG_SOURCE: "answered from other sections",
    Shown.CLEAN: "no answer (clean)",
    Shown.LEAK: "answered (leak)",
}
#: the metrics compared: a share, a score or a latency in both reports
_COMPARED: tuple[tuple[str, str], ...] = (
    ("hit_at_k", "retrieval hit@k"),
    ("mrr", "retrieval MRR"),
    ("cited_right", "cited right"),
    ("first_footnote_right", "  first footnote right"),
    ("footnote_precision", "  footnote precision"),
    ("fact_stated", "fact stated"),
    ("no_answer_precision", "no-answer precision"),
    ("no_answer_recall", "no-answer recall"),
    ("latency_p50_ms", "latency p50"),
    ("latency_p95_ms", "latency p95"),
)
#: misses without the right footnote; a refusal shows "Sorry, …", never a footnote
_NOT_CITED = frozenset({"retrieval", "grading", "not_cited", "refused"})


class BaselineError(ValueError):
    """A baseline that is not an earlier ``citebot eval --json`` report; says what is wrong."""


@dataclass(frozen=True, slots=True)
class Change:
    """One question whose outcome differs from the baseline's."""

    question: str
    before: Shown
    after: Shown

    @property
    def better(self) -> bool:
        return self.after.trust > self.before.trust

    def data(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "before": self.before.value,
            "after": self.after.value,
            "better": self.better,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    #: each compared metric: (baseline, this run), either None where a report has none
    metrics: dict[str, tuple[float | None, float | None]]
    changes: tuple[Change, ...]
    #: questions of the baseline that this run did not ask, and the reverse
    dropped: int
    added: int
    #: hit@k's k in the baseline and in this run, when each checked retrieval
    k: tuple[int | None, int | None] = (None, None)

    @property
    def better(self) -> list[Change]:
        return [c for c in self.changes if c.better]

    @property
    def worse(self) -> list[Change]:
        # a question's outcomes never tie (:data:`_TRUST`): a change is better or worse
        return [c for c in self.changes if not c.better]

    def data(self) -> dict[str, Any]:
        return {
            "metrics": {k: {"baseline": b, "now": a} for k, (b, a) in self.metrics.items()},
            "changes": [c.data() for c in self.changes],
            "better": len(self.better),
            "worse": len(self.worse),
            "dropped": self.dropped,
            "added": self.added,
            "k": {"baseline": self.k[0], "now": self.k[1]},
        }

    def _label(self, name: str, label: str) -> str:
        """hit@k says its k, and both when the runs read different numbers of chunks."""
        if name != "hit_at_k":
            return label
        before, after = self.k
        if before == after:
            return label if after is None else f"retrieval hit@{after}"
        return f"retrieval hit@k ({before or '?'} → {after or '?'})"

    def table(self) -> str:
        rows = [
            (self._label(name, label), _moved(name, *self.metrics[name]))
            for name, label in _COMPARED
            if name in self.metrics
        ]
        width = max(len(label) for label, _ in rows)
        lines = ["against the baseline:"]
        lines += [f"{label.ljust(width)}  {moved}" for label, moved in rows]
        if self.dropped or self.added:
            lines.append(
                f"{self.dropped} baseline question(s) not asked now, "
                f"{self.added} question(s) new since"
            )
        if not self.changes:
            lines.append("no question's outcome changed")
        for title, group in (("better", self.better), ("worse", self.worse)):
            if group:
                lines.append(f"{title} ({len(group)}):")
                lines += [
                    f"  {brief(c.question)}  ({c.before.said} → {c.after.said})" for c in group
                ]
        return "\n".join(lines)


def read_baseline(text: str) -> dict[str, Any]:
    """An earlier report, as ``citebot eval --json`` printed it."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BaselineError(f"not JSON ({exc})") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("metrics"), dict)
        or not isinstance(data.get("results"), list)
    ):
        raise BaselineError("not a report of citebot eval --json (no metrics and results)")
    for n, result in enumerate(data["results"], start=1):
        if not isinstance(result, dict) or not isinstance(result.get("question"), str):
            raise BaselineError(f"result {n} has no question")
    return data


def compare(baseline: Mapping[str, Any], report: Report) -> Comparison:
    """This run's ``report`` against ``baseline`` (:func:`read_baseline`)."""
    now = report.data()
    ids_now = {str(r["id"]) for r in now["results"] if r["id"]}
    before = dict(_keyed(baseline["results"], ids_now))
    after = dict(_keyed(now["results"]))
    changes = tuple(
        Change(question=result["question"], before=was, after=now_shown)
        for key, result in after.items()
        if key in before
        for was, now_shown in [(outcome(before[key]), outcome(result))]
        if was != now_shown
    )
    metrics = {
        name: (_number(baseline["metrics"].get(name)), _number(now["metrics"].get(name)))
        for name, _ in _COMPARED
    }
    k = _number(baseline["metrics"].get("k"))
    return Comparison(
        metrics=metrics,
        changes=changes,
        dropped=len(before.keys() - after.keys()),
        added=len(after.keys() - before.keys()),
        k=(None if k is None or not k.is_integer() else int(k), report.k),
    )


def outcome(result: Mapping[str, Any]) -> Shown:
    """What the reader was shown for one result of a report's ``results``."""
    miss = result.get("miss")
    answered = result.get("route") != "no_answer" or bool(result.get("cited"))
    if result.get("expect") == "no_answer":
        return Shown.LEAK if answered else Shown.CLEAN
    if miss is None:
        return Shown.RIGHT
    if miss not in _NOT_CITED:
        return Shown.NO_FACT
    return Shown.WRONG_SOURCE if answered else Shown.NO_ANSWER


def _keyed(
    results: Iterable[Mapping[str, Any]], ids_now: Collection[str] | None = None
) -> Iterable[tuple[tuple[str, str, int], Any]]:
    """Each result under its id when it has one, else its text, and how often that came before.

    ``ids_now`` (reading a baseline): the ids this run's questions have. Reports written
    before session 46 gave a question without an id its position ("3"); such an id that
    this run does not use is read as that, and the question matched by its text.
    """
    seen: Counter[tuple[str, str]] = Counter()
    for position, result in enumerate(results, start=1):
        given = result.get("id")
        given = None if given is None or given == "" else str(given)
        positional = ids_now is not None and given == str(position) and given not in ids_now
        name = ("text", result["question"]) if given is None or positional else ("id", given)
        yield (*name, seen[name]), result
        seen[name] += 1


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _moved(name: str, before: float | None, after: float | None) -> str:
    def shown(value: float | None, sign: str = "") -> str:
        if value is None:
            return "-"
        if name.endswith("_ms"):
            return f"{value:{sign}.0f} ms"
        return f"{value:{sign}.3f}" if name == "mrr" else f"{value * 100:{sign}.1f}%"

    if before is None or after is None:
        return f"{shown(before)} → {shown(after)}"
    step = shown(after - before, "+")
    # a change of a share is in points, not a share of its own
    step = step[:-1] + " pt" if step.endswith("%") else step
    return f"{shown(before)} → {shown(after)} ({step})"
