"""Cost of the evidence check and the evidence-aware extraction per question, at 10k chunks.

Baseline in the same run: the embedding-only grade plus the similarity-only
extraction of four sentences from the same six passages, as before issue 12. New: the
same grade, each passage's support (IDF-weighted coverage and unknown terms against term
statistics of 10k chunks), and the extraction scored by coverage too, of as many sentences
as an answer quotes by default (``pipeline.extractive_sentences``). Embeddings come from a cheap hashing
embedder in both arms, so the difference is the new work itself (model time is
the same for both: the same sentences are embedded). Rounds are interleaved.
The new arm also reads each question's closed compounds and typos (``pipeline/typos.py``), half
of the questions carrying a typo, against the documents' words and as many again (the bundled model's whole
words), as a large knowledge base has, and reads each question as chat writes it: without its
greeting, thanks and emoji (a third are wrapped so), pastes, and with its shorthand read out
(``pipeline/chatter.py``, ``pasted.py``, ``shorthand.py``). Target: at most +20 ms p50. A second test measures, with the bundled model in both arms, what
reading the passages token by token for their closeness (``pipeline/closeness.py``) adds to
their grade: the two together must stay within the +20 ms. Run with::

    uv run pytest tests/benchmarks/bench_evidence.py -m benchmark -s
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from citations.model import Source
from connectors.providers.embeddings import AsyncEmbedder
from connectors.providers.embeddings.encoder import MiniLMEncoder, whole_words
from pipeline.asked import asked
from pipeline.chatter import unwrapped
from pipeline.closeness import read_closeness
from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicon, evidence, support
from pipeline.extractive import extract
from pipeline.graders import CachedEmbedder, EmbeddingGrader
from pipeline.pasted import prose
from pipeline.shorthand import spell_out, spelled_out
from pipeline.typos import Speller, apart, respelled, typos
from tests.benchmarks.bench_query import WORDS, _percentile
from tests.benchmarks.summary import spread, summary

pytestmark = pytest.mark.benchmark

ROOT = Path(__file__).resolve().parents[2]

CHUNKS = 10_000
QUESTIONS = 60
DIM = 384


class HashEmbedder:
    """Deterministic unit vectors from a hash of the text: no model behind them."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
            v = np.random.default_rng(seed).standard_normal(DIM)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


def _chunk(rng: random.Random) -> str:
    sentences = []
    for _ in range(rng.randint(4, 9)):
        words = rng.choices(WORDS, k=rng.randint(6, 16))
        sentences.append(" ".join(words).capitalize() + ".")
    if rng.random() < 0.3:
        sentences.append("\n* `option` - " + " ".join(rng.choices(WORDS, k=8)) + ".")
    if rng.random() < 0.3:
        sentences.append("\n```python\nclient.rotate(key)\n```\n")
    return " ".join(sentences)


async def _interleaved(
    count: int, measure: Callable[[int, bool], Awaitable[None]]
) -> tuple[list[float], list[float]]:
    """Milliseconds of ``measure(i, new)`` for each of ``count`` questions, the baseline
    (``new`` False) and the new arm alternating which goes first."""
    base_ms: list[float] = []
    new_ms: list[float] = []
    for i in range(count):
        arms = [(False, base_ms), (True, new_ms)]
        if i % 2:
            arms.reverse()
        for new, sink in arms:
            t0 = time.perf_counter()
            await measure(i, new)
            sink.append((time.perf_counter() - t0) * 1000)
    return base_ms, new_ms


def _shown(name: str, ms: list[float]) -> str:
    return f"{name}: min {min(ms):.1f} p50 {statistics.median(ms):.1f} max {max(ms):.1f} ms"


def test_evidence_and_extraction_cost_per_question() -> None:
    rng = random.Random(7)
    corpus = [_chunk(rng) for _ in range(CHUNKS)]
    started = time.perf_counter()
    lexicon = Lexicon.build(corpus)
    build_ms = (time.perf_counter() - started) * 1000
    questions = [
        # a name and a number in every question, so the must-match check runs on each passage,
        # and every other one asks whether there is a thing, so the thing's check runs too
        (
            ("is there a " if i % 2 else "")
            + " ".join(rng.choices(WORDS, k=rng.randint(4, 9)))
            + f" in Redis {rng.randint(10, 99)}?",
            rng.sample(corpus, 6),
        )
        for i in range(QUESTIONS)
    ]

    settings = PipelineSettings()
    # the bundled model's words: unreadable question words weigh as names
    vocabulary = whole_words()
    started = time.perf_counter()
    speller = Speller.of({**{w: 2 for w in vocabulary}, **lexicon.speller.uses})
    speller_ms = (time.perf_counter() - started) * 1000
    for i in range(0, QUESTIONS, 2):
        # one typo, two letters swapped in the question's longest word
        question, texts = questions[i]
        word = max(question.split(), key=len)
        k = len(word) // 2
        questions[i] = (
            question.replace(word, word[: k - 1] + word[k] + word[k - 1] + word[k + 1 :]),
            texts,
        )

    for i in range(1, QUESTIONS, 3):
        question, texts = questions[i]
        questions[i] = (f"hey team :wave: quick q - {question} thx in advance :pray:", texts)

    async def measure(i: int, new: bool) -> None:
        question, texts = questions[i]
        sources = [
            Source(id=n, url=f"https://d/{n}", title=f"T{n}", text=t)
            for n, t in enumerate(texts, 1)
        ]
        # a fresh cache per arm, so both embed the same texts
        grader = EmbeddingGrader(CachedEmbedder(HashEmbedder()))
        grades = await grader.grade(question, texts)
        if not new:
            await extract(question, sources, grader, limit=4)
            return
        question = prose(unwrapped(question))
        question = spell_out(question, spelled_out(question, lambda w: speller.uses.get(w, 0)))
        question = respelled(question, apart(question, lexicon.writes, lexicon.writes_apart))
        question = respelled(question, typos(question, speller, lexicon.writes, vocabulary))
        wanted = asked(question, vocabulary=vocabulary)
        [
            support(
                g,
                evidence(wanted, t, lexicon),
                coverage_weight=settings.evidence_coverage_weight,
                unknown_weight=settings.evidence_unknown_weight,
                word_factor=settings.evidence_word_factor,
            )
            for g, t in zip(grades, texts, strict=True)
        ]
        await extract(
            question, sources, grader, limit=settings.extractive_sentences, lexicon=lexicon
        )

    base_ms, new_ms = asyncio.run(_interleaved(len(questions), measure))
    base_p50, new_p50 = statistics.median(base_ms), statistics.median(new_ms)
    read = sum(bool(typos(q, speller, lexicon.writes, vocabulary)) for q, _ in questions)
    print(
        f"\nterm statistics over {CHUNKS} chunks: built once in {build_ms:.0f} ms"
        f"\nthe words typos are read against ({len(speller.uses)}): built once in"
        f" {speller_ms:.0f} ms; a typo read in {read} of {len(questions)} questions"
        f"\nembedding-only grade + extraction: min {min(base_ms):.1f} p50 {base_p50:.1f}"
        f" max {max(base_ms):.1f} p95 {_percentile(base_ms, 0.95):.1f} ms"
        f"\nwith evidence + coverage extraction: min {min(new_ms):.1f} p50 {new_p50:.1f}"
        f" max {max(new_ms):.1f} p95 {_percentile(new_ms, 0.95):.1f} ms"
        f"\nadded p50 {new_p50 - base_p50:+.1f} ms, ratio {new_p50 / base_p50:.2f}x"
    )
    summary(
        f"evidence grading + extraction, {CHUNKS:,} chunks",
        f"+{new_p50 - base_p50:.1f} ms p50 ({spread(new_ms)})",
        f"embedding-only grader p50 {base_p50:.1f} ms",
        new_p50 / base_p50,
        "<= +20 ms p50",
        new_p50 - base_p50 <= 20.0,
    )
    assert new_p50 - base_p50 <= 20.0


def _doc_passages() -> list[tuple[str, str]]:
    """(title, text) passages of about a chunk's size from a real documentation set."""
    passages = []
    for path in sorted((ROOT / "tests" / "devset9" / "docs").rglob("*.md")):
        for part in path.read_text(encoding="utf-8").split("\n## ")[1:]:
            title, _, text = part.partition("\n")
            if len(text) > 300:
                passages.append((title.strip(), text.strip()[:1200]))
    return passages


def test_closeness_cost_per_question() -> None:
    """The bundled model itself, both arms: the grade of six passages, against closeness
    (each passage read token by token) then the same grade. The passages' and their
    sentences' vectors come from the closeness's run, so the grade reuses them: what is added
    is the token states kept and the matching."""
    rng = random.Random(11)
    passages = _doc_passages()
    questions = [
        (" ".join(rng.choices(WORDS, k=rng.randint(5, 10))) + "?", rng.sample(passages, 6))
        for _ in range(40)
    ]
    encoder = MiniLMEncoder()
    encoder.load()

    async def measure(i: int, new: bool) -> None:
        question, chosen = questions[i]
        texts = [t for _, t in chosen]
        cached = CachedEmbedder(AsyncEmbedder(encoder))
        if new:
            assert await read_closeness(cached, question, texts) is not None
        await EmbeddingGrader(cached).grade(question, texts)

    base_ms, new_ms = asyncio.run(_interleaved(len(questions), measure))
    base_p50, new_p50 = statistics.median(base_ms), statistics.median(new_ms)
    print(
        "\n" + _shown("bundled model, grade of 6 passages", base_ms),
        "\n" + _shown("with closeness first", new_ms),
        f"\nadded p50 {new_p50 - base_p50:+.1f} ms, ratio {new_p50 / base_p50:.2f}x",
    )
    summary(
        "closeness (token states) before the grade, bundled model",
        f"+{new_p50 - base_p50:.1f} ms p50 ({spread(new_ms)})",
        f"grade alone p50 {base_p50:.1f} ms",
        new_p50 / base_p50,
        "<= +17 ms p50 (the issue's +20 ms less the evidence's +3 ms above)",
        new_p50 - base_p50 <= 17.0,
    )
    assert new_p50 - base_p50 <= 17.0


#: supplementary passages in the measured arm (``pipeline.supplementary``, off by default)
SUPPLEMENTARY = 2


def test_supplementary_passages_cost_per_question() -> None:
    """The bundled model, closeness then grade, both arms: of ``top_k`` passages (the
    default, ``pipeline.supplementary`` 0) against ``top_k`` plus two supplementary ones, as
    docs/pages/knowledge.md measured them. Reading is linear in the passages read, so the
    ratio is about (top_k + 2) / top_k: what turning them on costs an offline answer."""
    deciding = PipelineSettings().top_k
    read = deciding + SUPPLEMENTARY
    rng = random.Random(13)
    passages = _doc_passages()
    questions = [
        (" ".join(rng.choices(WORDS, k=rng.randint(5, 10))) + "?", rng.sample(passages, read))
        for _ in range(40)
    ]
    encoder = MiniLMEncoder()
    encoder.load()

    async def measure(i: int, new: bool) -> None:
        question, chosen = questions[i]
        texts = [t for _, t in chosen][: read if new else deciding]
        cached = CachedEmbedder(AsyncEmbedder(encoder))
        assert await read_closeness(cached, question, texts) is not None
        await EmbeddingGrader(cached).grade(question, texts)

    base_ms, new_ms = asyncio.run(_interleaved(len(questions), measure))
    base_p50, new_p50 = statistics.median(base_ms), statistics.median(new_ms)
    ratio = new_p50 / base_p50
    print(
        "\n" + _shown(f"closeness and grade of {deciding} passages", base_ms),
        "\n" + _shown(f"of {read}", new_ms),
        f"\nadded p50 {new_p50 - base_p50:+.1f} ms, ratio {ratio:.2f}x",
    )
    summary(
        f"{SUPPLEMENTARY} supplementary passages read, bundled model",
        f"+{new_p50 - base_p50:.1f} ms p50 ({spread(new_ms)})",
        f"{deciding} passages p50 {base_p50:.1f} ms",
        ratio,
        f"<= {read / deciding + 0.1:.2f}x (linear in the passages read)",
        ratio <= read / deciding + 0.1,
    )
    assert ratio <= read / deciding + 0.1
