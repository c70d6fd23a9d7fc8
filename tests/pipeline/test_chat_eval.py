"""Questions typed as people type in chat are answered as well as the same questions written
out: with a typo, or wrapped in a greeting, thanks and emoji.

Chat is typed fast. Each of a development set's questions is asked again with one typo in its
rarest long word (two letters swapped, one dropped, one doubled, or a key next to the right
one), and ``citebot eval`` must still find the right section about as often. Measured on the
ten development sets when typos came to be read (session 23): cited right 85.9% as written,
47.8% with the typo left as typed, 82.9% with it read as meant; on Click's docs, the set here,
with these typos: 94.7%, 47.4% and 84.2% (fact stated 94.7% as written, 84.2% read as meant).

Chat is also friendly: "hey team :wave: quick q - … thx in advance :pray:". Each question is
asked again wrapped in a greeting or an opener and in thanks or an emoji (Slack's shortcodes,
Unicode), chosen by its hash. Measured on the ten development sets when the wrapping came to be
taken off (session 24): cited right 85.9% as written, 54.1% wrapped and read as typed, 85.9%
with the wrapping taken off; with a second list of wrappings the reader was not written
against, 55.7% and 85.9%. On Click's docs, the set here: 94.7%, 42.1% and 94.7%.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.evaluation import Case, RetrievalCheck, parse_cases, run_eval
from pipeline.evidence import Lexicon
from pipeline.ports import Corpus, Embedder
from pipeline.words import STOP_FORMS, stem
from tests.pipeline.devset_eval import ingest_devset
from tests.pipeline.devsets import DEVSETS

CLICK = DEVSETS["devset2"]
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_WORD = re.compile(r"(?<![\w./`-])[a-z]{6,}(?![\w/`-])")
_OPENING = (
    "hey team, ",
    "Hi all! ",
    "hello folks :wave: quick question: ",
    "morning! ",
    "yo ",
    "sorry if this is a dumb question, but ",
    "Hey everyone :wave::skin-tone-2: ",
    "not sure this is the right channel but ",
    "",
)
_CLOSING = (" thanks!", " thx in advance :pray:", " cheers", " 🙏", " :thinking_face:", " TIA", "")


def _next_key(letter: str) -> str:
    row = next(r for r in _ROWS if letter in r)
    at = row.index(letter)
    return row[at - 1] if at else row[at + 1]


def _typo(word: str, kind: int) -> str:
    k = len(word) // 2
    return (
        word[: k - 1] + word[k] + word[k - 1] + word[k + 1 :],  # two letters swapped
        word[:k] + word[k + 1 :],  # one dropped
        word[:k] + word[k] + word[k:],  # one pressed twice
        word[:k] + _next_key(word[k]) + word[k + 1 :],  # the key beside it
    )[kind]


def _mistyped(case: Case, lexicon: Lexicon) -> Case:
    """``case`` with a typo in its rarest word of six letters or more that the docs write."""
    words = [
        m
        for m in _WORD.finditer(case.question)
        if m[0] not in STOP_FORMS and lexicon.known(stem(m[0]))
    ]
    if not words:
        return case
    word = max(words, key=lambda m: lexicon.idf(stem(m[0])))
    kind = hashlib.md5(case.question.encode()).digest()[0] % 4
    question = case.question[: word.start()] + _typo(word[0], kind) + case.question[word.end() :]
    return dataclasses.replace(case, question=question)


#: long forms and the shorthand chat writes for them
_SHORTENED = (
    ("certificates", "certs"),
    ("certificate", "cert"),
    ("configuration", "config"),
    ("directory", "dir"),
    ("dependencies", "deps"),
    ("environment variable", "env var"),
    ("environment", "env"),
    ("database", "db"),
    ("repository", "repo"),
    ("without", "w/o"),
    ("with", "w/"),
    ("because", "b/c"),
    ("your", "ur"),
    ("you", "u"),
    ("are", "r"),
    ("production", "prod"),
    ("authentication", "auth"),
    ("permissions", "perms"),
    ("messages", "msgs"),
    ("message", "msg"),
    ("package", "pkg"),
    ("documentation", "docs"),
    ("information", "info"),
    ("application", "app"),
    ("parameters", "params"),
    ("arguments", "args"),
    ("argument", "arg"),
    ("variable", "var"),
    ("requests", "reqs"),
    ("request", "req"),
    ("maximum", "max"),
    ("seconds", "secs"),
    ("something", "smth"),
    ("number", "num"),
)


def _shortened(case: Case) -> Case:
    """``case`` with every word chat shortens shortened."""
    question = case.question
    for long, short in _SHORTENED:
        question = re.sub(rf"\b{long}\b", short, question, flags=re.I)
    return dataclasses.replace(case, question=question)


_BLOCK = re.compile(r"```[^\n]*\n(.*?)```", re.S)


def _pasted(case: Case, blocks: list[str]) -> Case:
    """``case`` with one of ``blocks`` pasted before or after its question."""
    digest = hashlib.md5(case.question.encode()).digest()
    block = "\n".join(blocks[digest[0] % len(blocks)].splitlines()[:8])
    question = (
        f"here's our config:\n```\n{block}\n```\n{case.question}"
        if digest[1] % 2
        else f"{case.question} this is what we have:\n```\n{block}\n```"
    )
    return dataclasses.replace(case, question=question)


def _wrapped(case: Case) -> Case:
    """``case`` with its question wrapped in chat: an opening, a closing, or both."""
    digest = hashlib.md5(case.question.encode()).digest()
    opening, closing = _OPENING[digest[0] % len(_OPENING)], _CLOSING[digest[1] % len(_CLOSING)]
    return dataclasses.replace(case, question=f"{opening}{case.question}{closing or ' ty!'}")


@pytest.fixture(scope="module")
def click_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_devset(CLICK.folder, CLICK.url_base, tmp_path_factory.mktemp("click"))
    yield kb
    kb.close()


def _standalone() -> list[Case]:
    cases = parse_cases((CLICK.folder / "questions.yaml").read_text(encoding="utf-8"), fmt="yaml")
    return [c for c in cases if not c.history]


def _evaluated(
    cases: list[Case], docs: KnowledgeStore, embedder: Embedder
) -> tuple[dict[str, Any], str]:
    """The offline pipeline's metrics on ``cases``, and the table that lists every miss."""
    settings = PipelineSettings()
    pipeline = Pipeline(docs, embedder=embedder, llm=None, web=None, settings=settings)
    report = asyncio.run(
        run_eval(cases, pipeline.answer, retrieval=RetrievalCheck(docs, top_k=settings.top_k))
    )
    return report.metrics(), report.table()


def _clean(m: dict[str, Any], table: str) -> None:
    """Every uncovered and off-topic question was refused: chat is no reason to answer."""
    assert m["by_kind"]["uncovered"]["rate"] == 1.0, table
    assert m["by_kind"]["off_topic"]["rate"] == 1.0, table


def test_questions_with_a_typo_are_answered_from_the_right_section(
    click_docs: KnowledgeStore, embedder: Embedder
) -> None:
    assert isinstance(click_docs, Corpus)
    lexicon = Lexicon.build(click_docs.corpus_texts())
    alone = _standalone()
    typed = [_mistyped(c, lexicon) for c in alone]
    changed = [t for t, c in zip(typed, alone, strict=True) if t.question != c.question]
    assert len(changed) >= 25
    m, table = _evaluated(typed, click_docs, embedder)
    # 47.4% when typos were taken as written
    assert m["cited_right"] >= 0.80, table
    assert m["fact_stated"] >= 0.80, table
    _clean(m, table)


def test_questions_wrapped_in_chat_are_answered_as_if_asked_plainly(
    click_docs: KnowledgeStore, embedder: Embedder
) -> None:
    m, table = _evaluated([_wrapped(c) for c in _standalone()], click_docs, embedder)
    # 42.1% when the wrapping was read as part of the question
    assert m["cited_right"] >= 0.90, table
    # 17 of 19 with the 7-bit weights of x86 CPUs without VNNI (18 with 8 bits)
    assert m["fact_stated"] >= 0.89, table
    _clean(m, table)


def test_questions_with_a_pasted_block_are_answered_as_if_asked_plainly(
    click_docs: KnowledgeStore, embedder: Embedder
) -> None:
    assert isinstance(click_docs, Corpus)
    blocks = [b for t in click_docs.corpus_texts() for b in _BLOCK.findall(t) if b.count("\n") >= 2]
    assert len(blocks) >= 20
    m, table = _evaluated([_pasted(c, blocks) for c in _standalone()], click_docs, embedder)
    # 47.4% when the paste was read as part of the question
    assert m["cited_right"] >= 0.90, table
    # 17 of 19 with the 7-bit weights of x86 CPUs without VNNI (18 with 8 bits)
    assert m["fact_stated"] >= 0.89, table
    # a pasted block of the docs' own code is no reason to answer an off-topic question either
    _clean(m, table)


def test_questions_in_chat_shorthand_are_answered_as_if_spelt_out(
    click_docs: KnowledgeStore, embedder: Embedder
) -> None:
    alone = _standalone()
    short = [_shortened(c) for c in alone]
    assert sum(s.question != c.question for s, c in zip(short, alone, strict=True)) >= 8
    m, table = _evaluated(short, click_docs, embedder)
    # 84.2% when shorthand was read as typed
    assert m["cited_right"] >= 0.90, table
    _clean(m, table)
