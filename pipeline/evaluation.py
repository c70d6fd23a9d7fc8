"""``citebot eval``: how often the bot cites the right place, states the fact, and says
"I couldn't find this" when it should.

An eval file (YAML or JSON Lines) lists questions. Each answerable one names the
section(s) that answer it (``urls``) and phrases one of which the answer must contain
(``contains``); the others say ``expect: no_answer``. Every miss is put in one class:

- ``retrieval``: no expected section among the retrieved chunks;
- ``grading``: it was retrieved, but the bot did not answer;
- ``not_cited``: the bot answered but cited none of the expected sections;
- ``fact_missing``: the right section is cited but the answer lacks the phrase;
- ``leak``: a question the docs do not answer got an answer or a source;
- ``refused``: the bot turned the question away before answering it, as it would a user's
  (too long, empty, a plugin's rule).

Retrieval hit@k and MRR come from the metrics of LlamaIndex's ``RetrieverEvaluator`` over
the pipeline's own retriever.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.evaluation import RetrieverEvaluator
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from pipeline.events import Done, Outcome, Route
from pipeline.followup import condense_offline
from pipeline.markup import read
from pipeline.ports import Retriever
from pipeline.question import Question, Turn
from pipeline.text import plain

Expect = Literal["answer", "no_answer"]
Miss = Literal["retrieval", "grading", "not_cited", "fact_missing", "leak", "refused"]
MISSES: tuple[Miss, ...] = (
    "retrieval",
    "grading",
    "not_cited",
    "fact_missing",
    "leak",
    "refused",
)


class EvalFileError(ValueError):
    """An eval file that cannot be used; the message names the case and the problem."""


@dataclass(frozen=True, slots=True)
class Case:
    question: str
    expect: Expect = "answer"
    urls: tuple[str, ...] = ()
    contains: tuple[str, ...] = ()
    kind: str = "answerable"
    history: tuple[Turn, ...] = ()
    #: the file's ``url_base`` (a folder, ending in "/"), which the misses list leaves out
    base: str = ""
    #: the file's own id for the question, as given; "" when it gives none (a baseline then
    #: matches the question by its text, which survives questions added above it)
    id: str = ""


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    route: Route
    answer: str
    cited: tuple[str, ...]
    retrieved: tuple[str, ...]
    hit: bool | None
    reciprocal_rank: float | None
    seconds: float
    miss: Miss | None = None
    cited_right: bool = False
    fact_stated: bool = False
    judgements: dict[str, bool] = field(default_factory=dict)
    #: the bot's own answers that filled the thread's assistant turns written without text
    replies: tuple[str, ...] = ()
    #: how the question ended: a refusal (too long, empty, a plugin's rule) is no answer
    #: and no "I couldn't find this" either
    outcome: Outcome = Outcome.ANSWERED

    @property
    def refused(self) -> bool:
        return turned_away(self.outcome)

    @property
    def footnotes_right(self) -> tuple[bool, ...]:
        """For each footnote, in its number's order, whether it points at an expected section."""
        return tuple(any(same_place(c, e) for e in self.case.urls) for c in self.cited)

    def data(self) -> dict[str, Any]:
        return {
            # "" when the file gives none: a string either way, for readers of --json
            "id": self.case.id,
            "question": self.case.question,
            "kind": self.case.kind,
            "expect": self.case.expect,
            "route": self.route.value,
            "outcome": self.outcome.value,
            "miss": self.miss,
            "expected": list(self.case.urls),
            "cited": list(self.cited),
            "retrieved": list(self.retrieved),
            "answer": self.answer,
            "seconds": round(self.seconds, 3),
            **({"judgements": self.judgements} if self.judgements else {}),
            **({"replies": list(self.replies)} if self.replies else {}),
        }


# -- reading eval files ------------------------------------------------------------------


Format = Literal["yaml", "json", "jsonl"]


def parse_cases(text: str, *, fmt: Format) -> list[Case]:
    """The cases of an eval file: a list of questions, or ``{url_base, questions}`` (YAML or
    a JSON document), or one question per line (JSON Lines)."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    loaded = _yaml(text) if fmt == "yaml" else _json(text) if fmt == "json" else _json_lines(text)
    base = ""
    if isinstance(loaded, dict):
        _known_keys(loaded, ("url_base", "questions"), "the file")
        if not isinstance(loaded.get("url_base") or "", str):
            raise EvalFileError(f"url_base must be text, not a {_named(loaded['url_base'])}")
        base = _folder(loaded.get("url_base") or "")
        loaded = loaded.get("questions")
    if not isinstance(loaded, list):
        raise EvalFileError("expected a list of questions (or a mapping with 'questions')")
    cases = [_case(item, n, base) for n, item in enumerate(loaded, start=1)]
    if not cases:
        raise EvalFileError("the file has no questions")
    _unique_ids(cases)
    return cases


def _unique_ids(cases: Sequence[Case]) -> None:
    """Refuse an id two questions share: a --baseline report is matched to the file by id,
    and one id would pair both questions with the same earlier outcome."""
    first: dict[str, int] = {}
    for n, case in enumerate(cases, start=1):
        if not case.id:
            continue
        if case.id in first:
            raise EvalFileError(
                f"question {n}: id {case.id!r} is question {first[case.id]}'s too "
                "(ids must be unique: a --baseline report is matched by id)"
            )
        first[case.id] = n


def _yaml(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        # the problem and where, whole: the full message repeats the file's text around it
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = " ".join(str(exc.problem or exc.context or "").split())
        raise EvalFileError(f"not valid YAML{where}: {problem}") from None
    except yaml.YAMLError as exc:
        raise EvalFileError(f"not valid YAML: {' '.join(str(exc).split())}") from None


def _json(text: str) -> Any:
    """A ``.json`` file: one JSON document, or (as before) one object per line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":
            return _json_lines(text)
        raise EvalFileError(
            f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} (a .json "
            "eval file holds a list of questions, or one question object per line)"
        ) from None


def _json_lines(text: str) -> list[Any]:
    items = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise EvalFileError(f"line {n} is not JSON: {exc.msg}") from None
    return items


def _known_keys(item: dict[Any, Any], known: Sequence[str], where: str) -> None:
    """Reject a key the format does not have (a typo would silently drop what it sets),
    naming the known key it is closest to."""
    unknown = sorted(str(k) for k in item if k not in known)
    if not unknown:
        return
    close = difflib.get_close_matches(unknown[0].replace("-", "_"), known, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(known)})"
    raise EvalFileError(f"{where}: unknown key(s) {', '.join(unknown)}{hint}")


def _folder(base: str) -> str:
    """``url_base`` as the folder ingest reads it as (``--url-base …/docs`` publishes
    ``…/docs/guide.md``), so a base written without its trailing slash keeps its last part."""
    base = base.strip()
    return base if not base or base.endswith("/") else base + "/"


def _scalar(value: Any) -> bool:
    """Text as YAML may read it: a string, or a number written bare (``contains: 401``)."""
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _named(value: Any) -> str:
    return {"list": "list", "dict": "mapping"}.get(type(value).__name__, type(value).__name__)


def _text(value: Any, what: str, n: int) -> str:
    """One text field of a question, stripped; "" when absent. A list or a mapping would
    otherwise be asked or shown as its Python repr."""
    if value is None:
        return ""
    if not _scalar(value):
        raise EvalFileError(f"question {n}: {what} must be text, not a {_named(value)}")
    return str(value).strip()


def _strings(value: Any, what: str, n: int) -> tuple[str, ...]:
    if value is None:
        return ()
    values = value if isinstance(value, list) else [value]
    if not all(_scalar(v) for v in values):
        raise EvalFileError(f"question {n}: {what} must be text or a list of texts")
    return tuple(str(v) for v in values)


def _case(item: Any, n: int, base: str) -> Case:
    if not isinstance(item, dict):
        raise EvalFileError(f"question {n}: expected a mapping, got {type(item).__name__}")
    _known_keys(
        item,
        ("id", "question", "expect", "urls", "url", "contains", "kind", "history"),
        f"question {n}",
    )
    question = _text(item.get("question"), "question", n)
    if not question:
        raise EvalFileError(f"question {n}: 'question' is missing or empty")
    expect = item.get("expect", "answer")
    if expect not in ("answer", "no_answer"):
        raise EvalFileError(f"question {n}: expect must be 'answer' or 'no_answer', not {expect!r}")
    urls = _strings(item.get("urls", item.get("url")), "urls", n)
    contains = _strings(item.get("contains"), "contains", n)
    if expect == "no_answer":
        # they would be ignored, and a label that says both is a mistake in one of them
        given = [key for key in ("urls", "url", "contains") if item.get(key) not in (None, "", [])]
        if given:
            raise EvalFileError(
                f"question {n}: expect: no_answer takes no {given[0]} (a question the "
                "documents do not answer has no right section or phrase)"
            )
    if expect == "answer" and not urls:
        raise EvalFileError(f"question {n}: an answerable question needs 'urls'")
    relative = next((u for u in urls if not base and not urlsplit(u).scheme), None)
    if relative is not None:
        # a cited source's URL is always absolute (ingest publishes url_base + path, or file://)
        raise EvalFileError(
            f"question {n}: url {relative!r} is not a full URL and the file sets no url_base, "
            "so it can never match a cited source"
        )
    turns = item.get("history")
    if turns is not None and not isinstance(turns, list):
        raise EvalFileError(
            f"question {n}: history must be a list of turns ({{role, text}}), not a {_named(turns)}"
        )
    history = tuple(_turn(t, n, k) for k, t in enumerate(turns or (), start=1))
    for before, turn in zip((None, *history), history, strict=False):
        if turn == OWN_ANSWER and (before is None or before.role != "user"):
            raise EvalFileError(
                f"question {n}: an assistant turn without text is the bot's answer to the "
                "user turn right before it, and there is none"
            )
    return Case(
        question=question,
        expect=expect,
        urls=tuple(urljoin(base, u) if base else u for u in urls),
        contains=contains,
        kind=_text(item.get("kind"), "kind", n)
        or ("answerable" if expect == "answer" else "uncovered"),
        history=history,
        base=base,
        id=_id(item.get("id"), n),
    )


def _id(value: Any, n: int) -> str:
    """The question's id as the file gives it (``0`` included), or "" when it gives none."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        raise EvalFileError(f"question {n}: id must be a non-empty text or a whole number")
    return str(value).strip()


#: an assistant turn written without text: the bot's own answer to the user turn before it,
#: asked when the case is, as a real thread carries what the bot said
OWN_ANSWER = Turn(role="assistant", text="")


def _turn(value: Any, n: int, k: int) -> Turn:
    if not isinstance(value, dict) or value.get("role") not in ("user", "assistant"):
        raise EvalFileError(f"question {n}: history items need role (user|assistant) and text")
    _known_keys(value, ("role", "text"), f"question {n}: history turn {k}")
    text = _text(value.get("text"), f"history turn {k}'s text", n)
    if value["role"] == "user" and not text:
        raise EvalFileError(f"question {n}: history turn {k} is a user turn without text")
    return Turn(role=value["role"], text=text)


# -- judging ---------------------------------------------------------------------------------


def turned_away(outcome: Outcome) -> bool:
    """The bot refused the question before answering it (too long, empty, a plugin's rule,
    a rate limit), as it would a user's."""
    return not outcome.is_answer and not outcome.is_failure


def same_place(cited: str, expected: str) -> bool:
    """Whether a cited URL is the expected section (a text fragment or trailing slash aside)."""
    return _bare(cited) == _bare(expected)


def _bare(url: str) -> str:
    url = url.split(":~:", 1)[0].rstrip("#")
    head, sep, anchor = url.partition("#")
    return head.rstrip("/") + (sep + anchor if anchor else "")


# italics written with underscores ("_once_"), which ``plain`` keeps (scoring reads them as
# written); never a name's own underscores (``_private``, ``log_level``)
_UNDERSCORED = re.compile(r"(?<!\w)_(?=[^\W_])([^_\n]+?)(?<=[^\W_])_(?!\w)")


def _folded(text: str) -> str:
    return " ".join(text.casefold().replace("`", "").split())


def _readings(text: str) -> set[str]:
    """``text`` folded (case, spacing and code ticks aside) as written, and as the page reads
    it (:func:`pipeline.markup.read`: no inline HTML or template tags; :func:`pipeline.text.plain`:
    links as their text, no emphasis marks)."""
    return {_folded(text), _folded(_UNDERSCORED.sub(r"\1", plain(read(text))))}


def states(answer: str, phrases: Sequence[str]) -> bool:
    """The answer contains one of the phrases, as written or as the page reads both: a phrase
    copied from the page's source ("falls back to using <em>Rouge</em>") or from its rendering
    ("the engines field is not read") is stated by an answer that quotes the words ("The
    `engines` field is **not** read")."""
    if not phrases:
        return True
    bodies = _readings(answer)
    return any(p in body for phrase in phrases for p in _readings(phrase) for body in bodies)


def judge(
    case: Case,
    done: Done,
    retrieved: Sequence[str],
    seconds: float,
    *,
    hit: bool | None,
    rr: float | None,
) -> CaseResult:
    cited = tuple(ref.url for ref in done.answer.references)
    answer = done.answer.plain_text.strip()
    answered = done.route is not Route.NO_ANSWER or bool(cited)
    miss: Miss | None = None
    cited_right = fact = False
    # turned away before answering: for an answerable question no fault of retrieval or
    # grading, and for one the docs do not cover no leak
    if turned_away(done.outcome) and case.expect == "answer":
        miss = "refused"
    elif case.expect == "no_answer":
        if answered:
            miss = "leak"
    else:
        cited_right = any(same_place(c, e) for c in cited for e in case.urls)
        fact = answered and states(answer, case.contains)
        if not cited_right:
            if hit is False:
                miss = "retrieval"
            elif not answered:
                miss = "grading"
            else:
                miss = "not_cited"
        elif not fact:
            miss = "fact_missing"
    return CaseResult(
        case=case,
        route=done.route,
        answer=answer,
        cited=cited,
        retrieved=tuple(retrieved),
        hit=hit,
        reciprocal_rank=rr,
        seconds=seconds,
        miss=miss,
        cited_right=cited_right,
        fact_stated=fact,
        outcome=done.outcome,
    )


# -- retrieval through LlamaIndex's evaluator ---------------------------------------------------


class _PortRetriever(BaseRetriever):
    """Our ``Retriever`` port as a LlamaIndex retriever whose node ids are the chunks' URLs."""

    def __init__(self, port: Retriever, *, top_k: int, scope: Sequence[str] | None) -> None:
        super().__init__()
        self._port = port
        self._top_k = top_k
        self._scope = scope

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        raise NotImplementedError("the evaluation retrieves asynchronously")

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = await self._port.retrieve(
            query_bundle.query_str, top_k=self._top_k, scope=self._scope
        )
        return [
            NodeWithScore(node=TextNode(id_=_bare(h.source.url), text=h.source.text), score=h.score)
            for h in hits
        ]


class RetrievalCheck:
    """hit@k and MRR of the expected sections among what the retriever returns."""

    def __init__(self, port: Retriever, *, top_k: int, scope: Sequence[str] | None = None) -> None:
        self.top_k = top_k
        self._retriever = _PortRetriever(port, top_k=top_k, scope=scope)
        self._evaluator = RetrieverEvaluator.from_metric_names(
            ["hit_rate", "mrr"], retriever=self._retriever
        )

    async def check(self, query: str, expected: Sequence[str]) -> tuple[list[str], bool, float]:
        nodes = await self._retriever.aretrieve(query)
        retrieved = [n.node.node_id for n in nodes]
        if not retrieved:
            # LlamaIndex's metrics refuse an empty list (ValueError); nothing retrieved (a
            # scope without documents) is a retrieval miss, rank 0
            return [], False, 0.0
        expected_ids = [_bare(u) for u in expected]
        scores = {
            metric.metric_name: metric.compute(
                query=query, expected_ids=expected_ids, retrieved_ids=retrieved
            ).score
            for metric in self._evaluator.metrics
        }
        return retrieved, float(scores["hit_rate"] or 0.0) > 0, float(scores["mrr"] or 0.0)


# -- the run ---------------------------------------------------------------------------------

Answer = Callable[[Question], Awaitable[Done]]
Judge = Callable[[Case, Done], Awaitable[dict[str, bool]]]


async def run_eval(
    cases: Iterable[Case],
    answer: Answer,
    *,
    retrieval: RetrievalCheck | None = None,
    extra: Judge | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> Report:
    """Ask every case in turn (latency is per question, as a user waits for it)."""
    results: list[CaseResult] = []
    for case in cases:
        history, replies = await _thread(case.history, answer)
        query = case.question
        if history:
            # a follow-up's retrieval is judged on what it means with its thread, as the
            # pipeline reads it without a model
            query = condense_offline(case.question, history)
        retrieved: list[str] = []
        hit: bool | None = None
        rr: float | None = None
        if retrieval is not None and case.expect == "answer":
            retrieved, hit, rr = await retrieval.check(query, case.urls)
        started = time.perf_counter()
        done = await answer(Question(text=case.question, history=history))
        seconds = time.perf_counter() - started
        result = replace(judge(case, done, retrieved, seconds, hit=hit, rr=rr), replies=replies)
        if extra is not None and done.route is not Route.NO_ANSWER:
            result.judgements.update(await extra(case, done))
        results.append(result)
        if on_result is not None:
            on_result(result)
    return Report(results, k=None if retrieval is None else retrieval.top_k)


async def _thread(
    history: Sequence[Turn], answer: Answer
) -> tuple[tuple[Turn, ...], tuple[str, ...]]:
    """``history`` with each ``OWN_ANSWER`` the bot's answer to the turns before it (asked
    then, in order), and those answers."""
    turns: list[Turn] = []
    replies: list[str] = []
    for turn in history:
        if turn == OWN_ANSWER:
            asked = Question(text=turns[-1].text, history=tuple(turns[:-1]))
            replies.append((await answer(asked)).answer.text)
            turn = Turn(role="assistant", text=replies[-1])
        turns.append(turn)
    return tuple(turns), tuple(replies)


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, math.ceil(q * len(ordered)) - 1)
    return ordered[rank]


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass
class Report:
    results: list[CaseResult]
    #: how many chunks the retrieval check read per question (hit@k's k), when it ran
    k: int | None = None

    @property
    def answerable(self) -> list[CaseResult]:
        return [r for r in self.results if r.case.expect == "answer"]

    @property
    def unanswerable(self) -> list[CaseResult]:
        return [r for r in self.results if r.case.expect == "no_answer"]

    def metrics(self) -> dict[str, Any]:
        answerable, unanswerable = self.answerable, self.unanswerable
        checked = [r for r in answerable if r.hit is not None]
        said_no = [r for r in self.results if _no_answer(r)]
        kinds: dict[str, dict[str, Any]] = {}
        for kind in sorted({r.case.kind for r in unanswerable}):
            group = [r for r in unanswerable if r.case.kind == kind]
            clean = sum(1 for r in group if r.miss is None)
            kinds[kind] = {"clean": clean, "of": len(group), "rate": _ratio(clean, len(group))}
        judged: dict[str, float | None] = {}
        for name in sorted({k for r in self.results for k in r.judgements}):
            votes = [r.judgements[name] for r in self.results if name in r.judgements]
            judged[name] = _ratio(sum(votes), len(votes))
        seconds = [r.seconds for r in self.results]
        return {
            "questions": len(self.results),
            "k": self.k,
            "answerable": len(answerable),
            "unanswerable": len(unanswerable),
            "hit_at_k": _ratio(sum(1 for r in checked if r.hit), len(checked)),
            "mrr": (sum(r.reciprocal_rank or 0.0 for r in checked) / len(checked))
            if checked
            else None,
            "cited_right": _ratio(sum(r.cited_right for r in answerable), len(answerable)),
            # "cited right" counts an answer whose any footnote is right, so more footnotes
            # raise it; these two say how much of what the reader is shown first, and in all,
            # points at a labelled section (a lower bound: labels seldom list every section
            # that answers)
            "first_footnote_right": _ratio(
                sum(r.footnotes_right[:1] == (True,) for r in answerable), len(answerable)
            ),
            "footnote_precision": _ratio(
                sum(sum(r.footnotes_right) for r in answerable),
                sum(len(r.cited) for r in answerable),
            ),
            "fact_stated": _ratio(sum(r.fact_stated for r in answerable), len(answerable)),
            "no_answer_precision": _ratio(
                sum(1 for r in said_no if r.case.expect == "no_answer"), len(said_no)
            ),
            "no_answer_recall": _ratio(
                sum(1 for r in unanswerable if r.miss is None), len(unanswerable)
            ),
            "by_kind": kinds,
            "routes": dict(Counter(r.route.value for r in self.results)),
            "latency_p50_ms": round(_percentile(seconds, 0.5) * 1000, 1),
            "latency_p95_ms": round(_percentile(seconds, 0.95) * 1000, 1),
            "misses": dict(Counter(r.miss for r in self.results if r.miss)),
            **({"judged": judged} if judged else {}),
        }

    def data(self) -> dict[str, Any]:
        return {
            "metrics": self.metrics(),
            "misses": [r.data() for r in self.results if r.miss],
            "results": [r.data() for r in self.results],
        }

    def table(self) -> str:
        m = self.metrics()
        rows: list[tuple[str, str]] = [
            ("questions", f"{m['questions']} ({m['answerable']} answerable)"),
            (f"retrieval hit@{self.k or 'k'}", _pct(m["hit_at_k"])),
            ("retrieval MRR", "-" if m["mrr"] is None else f"{m['mrr']:.3f}"),
            ("cited right", _pct(m["cited_right"])),
            ("  first footnote right", _pct(m["first_footnote_right"])),
            ("  footnote precision", _pct(m["footnote_precision"])),
            ("fact stated", _pct(m["fact_stated"])),
            ("no-answer precision", _pct(m["no_answer_precision"])),
            ("no-answer recall", _pct(m["no_answer_recall"])),
        ]
        for kind, k in m["by_kind"].items():
            rows.append((f"  {kind} clean", f"{k['clean']}/{k['of']}"))
        for name, rate in m.get("judged", {}).items():
            rows.append((name, _pct(rate)))
        rows.append(("routes", ", ".join(f"{k} {v}" for k, v in sorted(m["routes"].items()))))
        rows.append(
            ("latency p50 / p95", f"{m['latency_p50_ms']:.0f} / {m['latency_p95_ms']:.0f} ms")
        )
        width = max(len(k) for k, _ in rows)
        lines = [f"{k.ljust(width)}  {v}" for k, v in rows]
        misses = [r for r in self.results if r.miss]
        if misses:
            lines.append("")
            lines.append(f"misses ({len(misses)}):")
            for r in misses:
                lines.append(f"  [{r.miss}] {brief(r.case.question)}  ({_where(r)})")
        return "\n".join(lines)


def _no_answer(result: CaseResult) -> bool:
    """Said "I couldn't find this" (a refusal says something else)."""
    return result.route is Route.NO_ANSWER and not result.cited and not result.refused


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


#: the misses list shows a question on one line of about this many characters (--json
#: keeps it whole)
QUESTION_SHOWN = 120


def brief(text: str) -> str:
    """``text`` on one line, cut at a word near :data:`QUESTION_SHOWN` characters."""
    text = " ".join(text.split())
    if len(text) <= QUESTION_SHOWN:
        return text
    return text[: QUESTION_SHOWN - 1].rsplit(" ", 1)[0] + "…"


def _where(result: CaseResult) -> str:
    """What a miss cited and, for an answerable question, what it should have, each URL
    relative to the file's ``url_base``: enough to tell two sections of one page apart; for
    a refusal, what the bot said instead."""
    if result.miss == "refused":
        return "the bot said: " + brief(result.answer)
    base = result.case.base

    def shown(url: str) -> str:
        return url[len(base) :] if base and url.startswith(base) and url != base else url

    where = "cited: " + (", ".join(shown(c) for c in result.cited) or "no source")
    if result.case.expect == "answer":
        where += "; expected: " + ", ".join(shown(u) for u in result.case.urls)
    return where


# -- drafting questions with an LLM ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Passage:
    url: str
    title: str
    text: str


async def draft_questions(
    passages: Sequence[Passage], llm: Any, *, per_passage: int = 2
) -> list[dict[str, Any]]:
    """Questions an LLM drafts from each passage (LlamaIndex's question generation).

    Each draft names the passage it came from as its expected URL; a person reviews
    the drafts and adds the phrase the answer must contain before they count.
    """
    import warnings

    from llama_index.core.evaluation import DatasetGenerator

    drafts: list[dict[str, Any]] = []
    for passage in passages:
        node = TextNode(text=passage.text, metadata={"title": passage.title})
        with warnings.catch_warnings():
            # deprecated in favour of RagDatasetGenerator, which core no longer ships
            warnings.simplefilter("ignore", DeprecationWarning)
            generator = DatasetGenerator(nodes=[node], llm=llm, num_questions_per_chunk=per_passage)
            questions = await generator.agenerate_questions_from_nodes(num=per_passage)
        for text in questions[:per_passage]:
            question = " ".join(str(text).split()).strip()
            if question:
                drafts.append({"question": question, "urls": [passage.url], "contains": ""})
    return drafts
