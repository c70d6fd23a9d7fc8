"""Streaming citation throughput: citebot's CitationStream vs langchain-references 1.0.0.

Both engines get the same token streams with markers in langchain-references'
own ``【K†source】`` form. langchain-references is driven through its internal
state machine directly (no LangChain Runnable around it), which is the fastest
it can run.

The two engines are timed in alternating rounds, in CPU time rather than wall
time, each side repeated until a sample lasts about as long as the other's, and
the headline ratio is the median of the per-round ratios: a busy machine slows
both sides of a round alike, so the ratio holds still while the absolute
numbers move. Run with::

    uv run pytest tests/benchmarks/bench_citations_stream.py -m benchmark -s -o addopts=''
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence

import pytest

from citations import CitationStream, Source
from tests.benchmarks.summary import summary

lr = pytest.importorskip("langchain_references.references")
from langchain_core.documents import Document  # noqa: E402
from langchain_core.messages import AIMessageChunk  # noqa: E402

pytestmark = pytest.mark.benchmark

_WORDS = [
    "the",
    "service",
    "stores",
    "audit",
    "logs",
    "for",
    "ninety",
    "days",
    "and",
    "deletes",
    "them",
    "afterwards",
    "while",
    "requests",
    "above",
    "the",
    "limit",
    "are",
    "rejected",
    "with",
    "a",
    "clear",
    "error",
    "message",
    "for",
    "the",
    "caller",
]


def _sources(n: int, distinct: int) -> list[Source]:
    return [
        Source(i + 1, f"https://docs.example.com/page{i % distinct}", f"Page {i % distinct}", "t")
        for i in range(n)
    ]


def _documents(sources: Sequence[Source]) -> list[Document]:
    return [
        Document(page_content=s.text, metadata={"source": s.url, "title": s.title}) for s in sources
    ]


def _answer(rng: random.Random, words: int, n_sources: int, invalid: float = 0.0) -> str:
    out: list[str] = []
    for i in range(words):
        out.append(rng.choice(_WORDS))
        if i % 15 == 14:
            sid = rng.randint(1, n_sources) if rng.random() >= invalid else n_sources + 7
            out[-1] += f"【{sid}†source】"
    return " ".join(out) + "."


def _tokens(text: str, rng: random.Random, size: tuple[int, int] = (2, 6)) -> list[str]:
    out, i = [], 0
    while i < len(text):
        step = rng.randint(*size)
        out.append(text[i : i + step])
        i += step
    return out


def run_citebot(tokens: Sequence[str], sources: Sequence[Source]) -> str:
    stream = CitationStream(sources)
    out = [stream.feed(t) for t in tokens]
    out.append(stream.close())
    return "".join(out)


def run_langchain_references(tokens: Sequence[str], docs: Sequence[Document]) -> str:
    fsm = lr._manage_references(style=lr.TextReferenceStyle(), medium=docs)
    fsm.send(None)
    out: list[str] = []
    chunk = None
    for token in tokens:
        chunk = fsm.send(token)
        if chunk:
            out.append(str(chunk.content))
    while chunk:  # drain exactly as langchain-references' own runnable does
        chunk = fsm.send(AIMessageChunk(content=""))
        if chunk:
            out.append(str(chunk.content))
    chunk = fsm.send(None)
    if chunk:
        out.append(str(chunk.content))
    return "".join(out)


def _cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    began = time.process_time()
    fn()
    return time.process_time() - began


def _rounds(
    ours: Callable[[], object], theirs: Callable[[], object], rounds: int
) -> tuple[list[float], list[float]]:
    """Seconds per call of each engine over ``rounds`` interleaved rounds.

    The faster side runs several times per sample so that both samples span a
    similar stretch of time and see the same background load.
    """
    reps = max(1, round(_cpu(theirs) / max(_cpu(ours), 1e-6)))

    def many() -> None:
        for _ in range(reps):
            ours()

    t_ours: list[float] = []
    t_theirs: list[float] = []
    for r in range(rounds):
        if r % 2:
            t_theirs.append(_cpu(theirs))
            t_ours.append(_cpu(many) / reps)
        else:
            t_ours.append(_cpu(many) / reps)
            t_theirs.append(_cpu(theirs))
    return t_ours, t_theirs


def test_streaming_throughput() -> None:
    rng = random.Random(42)
    sources = _sources(20, 12)
    docs = _documents(sources)
    streams = [_tokens(_answer(rng, 1500, 20), rng) for _ in range(20)]
    chars = sum(len("".join(t)) for t in streams)

    def ours() -> None:
        for tokens in streams:
            run_citebot(tokens, sources)

    def ours_with_answer() -> None:
        # langchain-references streams its reference list at the end; here the
        # references come from ``.answer``, which also runs the refusal check.
        for tokens in streams:
            stream = CitationStream(sources)
            for token in tokens:
                stream.feed(token)
            stream.close()
            assert stream.answer.references

    def theirs() -> None:
        for tokens in streams:
            run_langchain_references(tokens, docs)

    ours()
    theirs()
    t_ours, t_theirs = _rounds(ours, theirs, 7)
    ratios = sorted(b / a for a, b in zip(t_ours, t_theirs, strict=True))
    ratio = statistics.median(ratios)
    best_ours, best_theirs = min(t_ours), min(t_theirs)
    t_full, t_theirs_full = _rounds(ours_with_answer, theirs, 3)
    full = statistics.median(b / a for a, b in zip(t_full, t_theirs_full, strict=True))
    t_answer = max(0.0, statistics.median(t_full) - statistics.median(t_ours))
    print(
        f"\nstreaming throughput on {len(streams)} answers, {chars:,} chars, "
        f"{sum(map(len, streams)):,} tokens ({len(t_ours)} interleaved rounds, CPU time, best):"
    )
    print(
        f"  citebot CitationStream      {chars / best_ours / 1e6:8.2f} M chars/s  "
        f"({best_ours * 1e3:.1f} ms, median {statistics.median(t_ours) * 1e3:.1f})"
    )
    print(
        f"  langchain-references 1.0.0  {chars / best_theirs / 1e6:8.2f} M chars/s  "
        f"({best_theirs * 1e3:.1f} ms, median {statistics.median(t_theirs) * 1e3:.1f})"
    )
    print(
        f"  ratio: citebot is {ratio:.1f}x faster (median of rounds; "
        f"range {ratios[0]:.1f}-{ratios[-1]:.1f}; target >= 10x)"
    )
    print(
        f"  + .answer after close (references and refusal check): "
        f"{t_answer / len(streams) * 1e3:.2f} ms per answer; {full:.1f}x including it"
    )
    summary(
        "streaming citations (199k chars, CPU)",
        f"{chars / statistics.median(t_ours) / 1e6:.2f} M chars/s median "
        f"({min(t_ours) * 1e3:.1f} / {statistics.median(t_ours) * 1e3:.1f} / {max(t_ours) * 1e3:.1f} ms)",
        f"langchain-references {chars / statistics.median(t_theirs) / 1e6:.2f} M chars/s",
        ratio,
        ">= 10x (median of round ratios)",
        ratio >= 10,
        faster=True,
    )
    assert ratio >= 10


def _edge_cases() -> list[tuple[str, str, list[Source], str]]:
    """(name, text, sources, expected citebot output)."""
    rng = random.Random(7)
    six = _sources(6, 6)
    repeated = [
        Source(i + 1, "https://x.com/same" if i % 2 else f"https://x.com/{i}", "T", "t")
        for i in range(6)
    ]
    many = _sources(500, 500)
    many_text = " ".join(f"w{i}【{rng.randint(1, 500)}†source】" for i in range(400))
    return [
        ("split markers", "alpha【2†source】 beta【3†source】.", six, "alpha[1] beta[2]."),
        (
            "invalid ids",
            "alpha【9†source】 beta【0†source】 gamma【2†source】.",
            six,
            "alpha beta gamma[1].",
        ),
        (
            "repeated URLs",
            "a【2†source】 b【4†source】 c【1†source】.",
            repeated,
            "a[1] b[1] c[2].",
        ),
        (
            "markers in code",
            "run `x【2†source】` then【2†source】",
            six,
            "run `x【2†source】` then[1]",
        ),
        ("500 sources", many_text, many, ""),
    ]


def test_edge_case_table() -> None:
    rows = []
    for name, text, sources, expected in _edge_cases():
        docs = _documents(sources)
        whole_ours = run_citebot([text], sources)
        split_ours = run_citebot(list(text), sources)
        whole_theirs = run_langchain_references([text], docs)
        split_theirs = run_langchain_references(list(text), docs)
        chars = list(text)
        ours, theirs = _rounds(
            lambda chars=chars, sources=sources: run_citebot(chars, sources),
            lambda chars=chars, docs=docs: run_langchain_references(chars, docs),
            5,
        )
        ours_ok = whole_ours == split_ours and (not expected or whole_ours == expected)
        theirs_body = whole_theirs.split("\n\n- [", 1)[0]
        theirs_ok = whole_theirs == split_theirs and (not expected or theirs_body == expected)
        speed = statistics.median(b / a for a, b in zip(ours, theirs, strict=True))
        rows.append((name, ours_ok, theirs_ok, speed, whole_ours, theirs_body))
    print("\nedge cases (char-by-char stream vs whole; 'ok' = split-invariant and expected output)")
    print(
        f"  {'case':<16} {'citebot':<8} {'lc-refs':<8} {'speed':>7}   citebot output | langchain-references output"
    )
    for name, ours_ok, theirs_ok, ratio, ours_out, theirs_out in rows:
        print(
            f"  {name:<16} {'ok' if ours_ok else 'WRONG':<8} {'ok' if theirs_ok else 'WRONG':<8} "
            f"{ratio:6.1f}x   {ours_out[:44]!r} | {theirs_out[:44]!r}"
        )
    assert all(row[1] for row in rows)
