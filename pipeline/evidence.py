"""Lexical evidence that a passage answers a question, beyond "its embedding is close".

An embedding says a passage is *on the topic*; it cannot say that the passage
mentions what the question is about. Two signals can:

- **coverage**: the share of the question's content terms, each weighted by its
  inverse document frequency (IDF) in the knowledge base, that the passage
  contains. Terms found only in the passage's code count half: code supports an
  answer but is not prose that states it.
- **unknown share**: the weight of the question's terms that *no* chunk of the
  knowledge base contains. A question about "Cloud Run" where no chunk says
  "cloud" is not answerable from it, however close an embedding comes.

Terms are lower-cased words without stop words, cut to a crude stem so that
"cookie" finds "cookies" and "paginate" finds "pagination".

A passage's **support** is ``grade + 0.5 * coverage - 0.5 * unknown``; the knowledge
base answers only when its best passage reaches 0.84 (``PipelineSettings.evidence_*``).
Fitted on the development set in ``tests/devset`` (Starlette's docs, 252 chunks): at
0.84 about 95 % of the answerable questions pass while 92 % of the uncovered and
off-topic ones do not; no threshold on the grade alone separated them (uncovered
questions graded up to 0.94, answerable ones down to 0.77). Passages within 0.1 of the
threshold also contribute sentences. An LLM grader's grade is used as it is; the
evidence then only settles an ambiguous grade when the web cannot be asked.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.ports import Corpus

log = logging.getLogger("citebot.pipeline.evidence")

_WORD = re.compile(r"[^\W_]+")
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
# mkdocstrings directives and admonition titles: API listings, not prose
_LISTING = re.compile(r"^[ \t]*(?::::|\?\?\?|!!!).*$", re.M)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")

_STOP_WORDS = """
    a about above after again against all also am an and any anything are as at away
    be because been before being below best between both but by can cannot could did do
    does doing done down during each either else even ever every few for from further
    get gets getting go goes going got had has have having he her here hers him his how
    however i if in instead into is it its itself just keep kind know let like ll lot m
    make makes making may me might mine more most much must my myself need needs no nor
    not now of off ok okay on once one only or other our ours out over own please put
    quite rather re really right s same say see shall she should so some something still
    such sure t than that the their theirs them then there these they thing things this
    those through thus to too try trying under until up upon us use used uses using ve
    very want wants was way ways we well were what whats when where whether which while
    who whom whose why will with within without would yes yet you your yours d don doesn
    isn aren wasn weren won wouldn shouldn couldn didn hasn haven hadn let s anyone
    someone everyone somebody tell give show find work works long many happen happens
    back end ends ever able possible okay thanks hi hello
"""
STOP = frozenset(_STOP_WORDS.split())


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A crude, stable stem: enough to join plurals and -ing/-ed/-ion forms of one word."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "i"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, repl in (
        ("ization", "iz"),
        ("ational", "at"),
        ("ation", "at"),
        ("ate", "at"),
        ("ness", ""),
        ("ment", ""),
        ("ing", ""),
        ("ion", ""),
        ("ed", ""),
        ("er", ""),
        ("ly", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: len(w) - len(suffix)] + repl
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    elif w.endswith("y") and len(w) > 3:
        w = w[:-1] + "i"
    return w


_STOP_STEMS = frozenset(stem(w) for w in STOP if len(w) > 3)


def terms(text: str) -> list[str]:
    """The content terms of a text, stemmed, in order, without stop words."""
    found = (stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOP)
    return [t for t in found if t not in _STOP_STEMS]


@dataclass(frozen=True, slots=True)
class Parts:
    """A passage split into prose (what may be quoted) and code (what may only support)."""

    prose: str
    code: str


def split_code(text: str) -> Parts:
    """Fenced blocks and API listings are code; everything else is prose."""
    code: list[str] = []

    def take(match: re.Match[str]) -> str:
        code.append(match.group(0))
        return "\n"

    prose = _FENCE.sub(take, text)
    prose = _LISTING.sub(take, prose)
    return Parts(prose=prose, code="\n".join(code))


class Lexicon:
    """Document frequencies of terms over the knowledge base's chunks."""

    def __init__(self, frequencies: Counter[str], documents: int) -> None:
        self.df = frequencies
        self.n = documents

    @classmethod
    def build(cls, texts: Iterable[str]) -> Lexicon:
        df: Counter[str] = Counter()
        n = 0
        for text in texts:
            # a chunk counts once per term: the set of its distinct words, stemmed
            words = set(_WORD.findall(text.lower()))
            df.update({stem(w) for w in words if len(w) > 1 and w not in STOP} - _STOP_STEMS)
            n += 1
        return cls(df, n)

    def including(self, texts: Iterable[str]) -> Lexicon:
        """These statistics with ``texts`` counted as more chunks."""
        extra = Lexicon.build(texts)
        return Lexicon(self.df + extra.df, self.n + extra.n)

    def idf(self, term: str) -> float:
        """BM25's IDF: about ln(N) for a term no chunk has, near 0 for one every chunk has."""
        df = self.df.get(term, 0)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def known(self, term: str) -> bool:
        return self.df.get(term, 0) > 0


@dataclass(frozen=True, slots=True)
class Evidence:
    """How much of a question one passage speaks to (0..1 each)."""

    coverage: float
    unknown: float


def question_terms(question: str) -> list[str]:
    return list(dict.fromkeys(terms(question)))


def evidence(question: Sequence[str], passage: str, lexicon: Lexicon) -> Evidence:
    """``question`` is :func:`question_terms` of the question."""
    if not question:
        return Evidence(coverage=0.0, unknown=0.0)
    parts = split_code(passage)
    prose = set(terms(parts.prose))
    prose.update(terms(" ".join(_INLINE_CODE.findall(parts.prose))))
    code = set(terms(parts.code))
    weights = {t: lexicon.idf(t) for t in question}
    total = sum(weights.values()) or 1.0
    covered = sum(w if t in prose else w / 2 if t in code else 0.0 for t, w in weights.items())
    unknown = sum(w for t, w in weights.items() if not lexicon.known(t))
    return Evidence(coverage=covered / total, unknown=unknown / total)


def support(
    grade: float, found: Evidence, *, coverage_weight: float, unknown_weight: float
) -> float:
    """One passage's support for answering: its grade, plus coverage, minus unknown terms."""
    return grade + coverage_weight * found.coverage - unknown_weight * found.unknown


class Lexicons:
    """The knowledge base's term statistics, built on first use and again when it changes.

    Without a ``Corpus`` (a retriever that cannot list its texts) there are none,
    and callers fall back to statistics over the passages they have.
    """

    def __init__(self, corpus: Corpus | None) -> None:
        self._corpus = corpus
        self._version: str | None = None
        self._lexicon: Lexicon | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> Lexicon | None:
        corpus = self._corpus
        if corpus is None:
            return None
        async with self._lock:
            try:
                version = await asyncio.to_thread(corpus.corpus_version)
                if version != self._version or self._lexicon is None:
                    texts = await asyncio.to_thread(corpus.corpus_texts)
                    self._lexicon = await asyncio.to_thread(Lexicon.build, texts)
                    self._version = version
            except Exception as exc:
                log.warning("term statistics unavailable, using the retrieved passages: %s", exc)
                return None
            return self._lexicon
