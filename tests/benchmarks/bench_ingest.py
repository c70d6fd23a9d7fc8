"""Ingestion throughput with the bundled MiniLM embedder, in chunks per second.

Chunks of about 200 words (English sentences from the bundled samples, shuffled)
go through the real path: chunking, embedding, LanceDB writes, manifest, FTS
index. Baselines in the same run: the same texts embedded one at a time
(unbatched, what a naive loop over ``get_text_embedding`` does) and batched
embedding alone (to show what the store costs on top). Target: >= 100 chunks/s
on 2 cores. Run with::

    uv run pytest tests/benchmarks/bench_ingest.py -m benchmark -s
"""

from __future__ import annotations

import os
import random
import re
import time
from importlib import resources
from pathlib import Path

import pytest

from connectors.knowledge.chunking import chunk_document
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import MiniLMEmbedding

pytestmark = [pytest.mark.benchmark, pytest.mark.timeout(1800)]

CHUNKS = 160
WORDS_PER_CHUNK = 200
CHUNK_CHARS = 1400


def _sentences() -> list[str]:
    folder = resources.files("bots") / "samples"
    text = " ".join(
        p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".md")
    )
    text = re.sub(r"[#`*]", "", text)
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 5]


def _documents(count: int) -> list[Document]:
    rng = random.Random(3)
    sentences = _sentences()
    documents = []
    for d in range(count // 4):
        sections = []
        pos = 0
        for s in range(4):
            words: list[str] = []
            picked = []
            while len(words) < WORDS_PER_CHUNK:
                sentence = rng.choice(sentences)
                picked.append(sentence)
                words.extend(sentence.split())
            text = " ".join(picked)
            sections.append(
                Section(
                    text=text,
                    heading=f"Part {s}",
                    anchor=f"part-{s}",
                    start=pos,
                    end=pos + len(text),
                )
            )
            pos += len(text) + 2
        documents.append(
            Document(
                key=f"doc{d}",
                url=f"https://docs.example.com/doc{d}.md",
                title=f"Doc {d}",
                sections=tuple(sections),
                kind="markdown",
                content_hash=f"h{d}",
            )
        )
    return documents


def test_ingest_throughput(tmp_path: Path) -> None:
    embedding = MiniLMEmbedding()
    embedding.load()
    documents = _documents(CHUNKS)
    texts = [c.text for d in documents for c in chunk_document(d, max_chars=CHUNK_CHARS)]
    words = sum(len(t.split()) for t in texts) / len(texts)
    print(f"\n{len(texts)} chunks, {words:.0f} words each on average, {os.cpu_count()} cores")

    embedding.get_text_embedding_batch(texts[:8])  # warm-up

    start = time.perf_counter()
    for text in texts[:40]:
        embedding.get_text_embedding(text)
    unbatched = 40 / (time.perf_counter() - start)

    start = time.perf_counter()
    embedding.get_text_embedding_batch(texts)
    batched = len(texts) / (time.perf_counter() - start)

    store = open_lancedb(tmp_path / "data", StoreSettings(), embedding)
    ingestor = Ingestor(store, tmp_path / "data", chunk_chars=CHUNK_CHARS, progress=False)
    start = time.perf_counter()
    report = ingestor.ingest(documents, source="bench", collection="default")
    elapsed = time.perf_counter() - start
    full = report.chunks / elapsed
    assert report.chunks == len(texts) == store.count()

    start = time.perf_counter()
    again = ingestor.ingest(documents, source="bench", collection="default")
    unchanged = len(documents) / (time.perf_counter() - start)
    assert again.unchanged == len(documents)

    print(f"baseline unbatched embedding        {unbatched:7.1f} chunks/s")
    print(
        f"batched embedding only              {batched:7.1f} chunks/s  ({batched / unbatched:.2f}x unbatched)"
    )
    print(
        f"full ingest (chunk+embed+LanceDB)   {full:7.1f} chunks/s  ({full / unbatched:.2f}x unbatched)"
    )
    print(f"re-ingest, all unchanged            {unchanged:7.1f} docs/s")
    print(f"target >= 100 chunks/s: {'met' if full >= 100 else 'MISSED'}")
