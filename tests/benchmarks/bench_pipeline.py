"""Pipeline framework overhead per question at 10k chunks, with model time taken out.

The store is real LanceDB (hybrid query) holding 10k chunks with synthetic vectors,
as in bench_query.py. The LLM is the scripted in-process ``CustomLLM`` that
answers instantly, so what is left is the workflow itself: events and steps,
prompt building, LlamaIndex's structured-output parsing, the citation stream,
quote verification and the trace. Retrieval is timed from the trace and reported
on its own.

Baseline in the same run: the same calls (retrieve, grade every chunk, stream the
answer through ``CitationStream``, check it) made directly, with no workflow. The arms
take turns question by question, and the event loop's own CPU per question is reported
beside the wall time (the load of a shared machine stretches the one, not the other).
Target: <= 30 ms p50 beyond retrieval. Run with::

    uv run pytest tests/benchmarks/bench_pipeline.py -m benchmark -s
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from llama_index.core.embeddings import MockEmbedding

from citations.model import Locator, Origin, Source
from citations.stream import CitationStream
from connectors.knowledge.store.lancedb import LanceKnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Done
from pipeline.graders import GRADE_PROMPT, Relevance
from pipeline.prompts import CHECK_PROMPT, AnswerCheck, answer_messages, source_block
from pipeline.question import Question
from tests.benchmarks.bench_query import WORDS, _build, _percentile
from tests.benchmarks.summary import spread, summary
from tests.pipeline.scripted import ScriptedLLM

pytestmark = pytest.mark.benchmark

CHUNKS = 10_000
BASELINE = "baseline: the same calls without the workflow"
QUESTIONS = 100
DIM = 384


class InstantEmbedder:
    """Unit vectors with no model behind them: embedding is model time, not overhead."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * (DIM - 1) for _ in texts]


class Retriever:
    """The store's own ``retrieve`` (query embedding + LanceDB hybrid search)."""

    def __init__(self, store: LanceKnowledgeStore) -> None:
        self.store = store

    async def retrieve(self, query: str, *, top_k: int, scope: Sequence[str] | None):  # type: ignore[no-untyped-def]
        return await self.store.retrieve(query, top_k=top_k, scope=scope)


class InstantWeb:
    async def search(self, query: str) -> list[Source]:
        text = "Rotate API keys at least every 90 days. Rotate a key at once if it may have leaked."
        return [
            Source(
                0,
                "https://example.org/rotation",
                "Key rotation",
                text,
                Locator(0, None, 0, len(text)),
                Origin.WEB,
            )
        ]


def scripted(grade: float) -> ScriptedLLM:
    return ScriptedLLM(
        {
            "grade relevance": f'{{"score": {grade}, "reason": "instant"}}',
            "rewrite for web search": "key rotation",
            "answer with citations": "Rotate keys in Settings [1]. The old key keeps working for a day [2].",
            "check an answer": '{"grounded": true, "useful": true, "unsupported": []}',
        },
        token_chars=4,
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> LanceKnowledgeStore:
    start = time.perf_counter()
    built, _, _ = _build(Path(tmp_path_factory.mktemp("pipe")) / "data", CHUNKS)
    print(f"\nbuilt {CHUNKS} chunks in {time.perf_counter() - start:.1f} s")
    # the store embeds questions with the mock model: query embedding is model time
    assert isinstance(built.embedding, MockEmbedding)
    return built


def questions() -> list[str]:
    words = random.Random(5)
    return [" ".join(words.choices(WORDS, k=7)) + "?" for _ in range(QUESTIONS)]


async def direct(store: LanceKnowledgeStore, llm: ScriptedLLM, text: str) -> tuple[float, float]:
    """The baseline: the same calls, made in a row, with no workflow around them."""
    start = time.perf_counter()
    hits = await store.retrieve(text, top_k=6, scope=None)
    retrieved = time.perf_counter()
    grades = await asyncio.gather(
        *(
            llm.astructured_predict(Relevance, GRADE_PROMPT, question=text, passage=h.source.text)
            for h in hits
        )
    )
    sources = [
        Source(i, h.source.url, h.source.title, h.source.text, h.source.locator)
        for i, (h, g) in enumerate(zip(hits, grades, strict=True), start=1)
        if g.score >= 0
    ]
    stream = CitationStream(sources)
    raw = ""
    async for chunk in await llm.astream_chat(answer_messages(text, sources, stricter=False)):
        raw += chunk.delta or ""
        stream.feed(chunk.delta or "")
    stream.close()
    await llm.astructured_predict(
        AnswerCheck, CHECK_PROMPT, sources=source_block(sources), question=text, answer=raw
    )
    assert stream.answer.references
    end = time.perf_counter()
    return (retrieved - start) * 1000, (end - retrieved) * 1000


async def through_pipeline(pipeline: Pipeline, text: str) -> tuple[float, float, Done]:
    start = time.perf_counter()
    done: Done | None = None
    async for event in pipeline.stream(Question(text)):
        if isinstance(event, Done):
            done = event
    total = (time.perf_counter() - start) * 1000
    assert done is not None
    retrieval = sum(d.ms for d in done.trace if d.stage == "retrieve")
    return retrieval, total - retrieval, done


def line(name: str, samples: list[float]) -> str:
    return f"{name:<44} p50 {statistics.median(samples):7.2f} ms   p95 {_percentile(samples, 0.95):7.2f} ms"


async def test_pipeline_overhead_beyond_retrieval(store: LanceKnowledgeStore) -> None:
    asked = questions()
    settings = PipelineSettings(grader="llm", top_k=6)
    pipelines = {
        name: Pipeline(
            Retriever(store), embedder=InstantEmbedder(), llm=llm, web=web, settings=settings
        )
        for name, (llm, web) in {
            "correct (knowledge base)": (scripted(0.9), None),
            "ambiguous (knowledge base + web)": (scripted(0.5), InstantWeb()),
        }.items()
    }
    base_llm = scripted(0.9)
    for pipeline in pipelines.values():
        await through_pipeline(pipeline, asked[0])  # warm-up: imports, first LanceDB query
    await direct(store, base_llm, asked[0])
    arms = [*pipelines, BASELINE]
    retrieval: dict[str, list[float]] = {arm: [] for arm in arms}
    rest: dict[str, list[float]] = {arm: [] for arm in arms}
    #: CPU of the event loop's thread per question: the workflow's own work, which the
    #: machine's load does not stretch (the LanceDB search runs in a worker thread)
    loop_cpu: dict[str, list[float]] = {arm: [] for arm in arms}
    for i, text in enumerate(asked):  # interleaved, question by question, order rotating
        for arm in arms[i % len(arms) :] + arms[: i % len(arms)]:
            began = time.thread_time()
            if arm == BASELINE:
                r, o = await direct(store, base_llm, text)
            else:
                r, o, done = await through_pipeline(pipelines[arm], text)
                assert done.route.value in ("knowledge_base", "mixed"), done.answer.text
            loop_cpu[arm].append((time.thread_time() - began) * 1000)
            retrieval[arm].append(r)
            rest[arm].append(o)
    for arm in arms:
        print(f"\n--- {arm}, {CHUNKS} chunks, {QUESTIONS} questions, interleaved ---")
        print(line("retrieval (embed + LanceDB hybrid)", retrieval[arm]))
        print(line("everything else (workflow overhead)", rest[arm]))
        print(line("CPU of the event loop's thread, whole question", loop_cpu[arm]))
    correct = statistics.median(rest["correct (knowledge base)"])
    base = statistics.median(rest[BASELINE])
    cpu = statistics.median(loop_cpu["correct (knowledge base)"])
    base_cpu = statistics.median(loop_cpu[BASELINE])
    print(f"ratio workflow/direct, beyond retrieval, p50: {correct / base:.2f}x")
    print(f"ratio workflow/direct, event loop CPU, p50: {cpu / base_cpu:.2f}x")
    print(
        f"target <= 30 ms p50 beyond retrieval: {'met' if correct <= 30 else 'MISSED'} ({correct:.1f} ms)"
    )
    summary(
        f"pipeline overhead beyond retrieval, {CHUNKS:,} chunks",
        f"p50 {correct:.1f} ms ({spread(rest['correct (knowledge base)'])}; loop CPU p50 "
        f"{cpu:.1f} ms)",
        f"same calls without the workflow p50 {base:.1f} ms (loop CPU {base_cpu:.1f} ms)",
        correct / base,
        "<= 30 ms p50",
        correct <= 30,
    )
    assert correct <= 30
