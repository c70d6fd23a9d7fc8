"""The int8 MiniLM built from the bundled weights against the bundled model itself."""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from connectors.knowledge.chunking import chunk_document
from connectors.knowledge.documents import Document
from connectors.knowledge.sources.folder import read_folder
from connectors.knowledge.store.base import KnowledgeStore
from connectors.providers.embeddings import MiniLMEmbedding


def _sample_chunks() -> list[str]:
    folder = Path(str(resources.files("bots") / "samples"))
    documents = [d for d in read_folder(folder) if isinstance(d, Document)]
    chunks = [c for d in documents for c in chunk_document(d, max_chars=1200)]
    return KnowledgeStore.embed_texts(chunks)


def test_int8_vectors_match_the_bundled_model_on_real_text(minilm: MiniLMEmbedding) -> None:
    texts = _sample_chunks()
    assert len(texts) >= 20
    reference = MiniLMEmbedding(quantized=False)
    assert minilm._loaded().int8 and not reference._loaded().int8
    cosines = (minilm.embed(texts) * reference.embed(texts)).sum(axis=1)
    assert cosines.min() >= 0.99, sorted(cosines)[:3]
    assert cosines.mean() >= 0.995


def test_each_text_gets_its_own_vector_in_order(minilm: MiniLMEmbedding) -> None:
    # same-length texts share a call, the rest run one per call on a pool
    texts = ["refund policy", "refund policx", "how do I rotate an API key?", "a " * 300]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)
    assert together[0] @ together[1] < 0.9999  # not the same vector twice


def test_a_vector_does_not_depend_on_the_texts_embedded_with_it(
    minilm: MiniLMEmbedding,
) -> None:
    # int8 activations are scaled per call: texts that shared one moved each other's
    # vectors, so a grade changed with the order in which a cache filled
    question = "how do I add the machine's hostname to every log entry?"
    tokenizer = minilm._loaded().tokenizer
    length = len(tokenizer.encode(question).ids)
    words = " ".join(_sample_chunks()).split()
    peers = [
        " ".join(words[at : at + n])
        for at in range(0, 4000, 7)
        for n in range(4, 16)
        if len(tokenizer.encode(" ".join(words[at : at + n])).ids) == length
    ][:7]
    assert len(peers) == 7
    alone = minilm.embed([question])[0]
    assert np.array_equal(minilm.embed([question, *peers])[0], alone)
    assert np.array_equal(minilm.embed([*peers[3:], question])[-1], alone)


def test_an_unwritable_cache_falls_back_to_the_bundled_model(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    embedding = MiniLMEmbedding(cache_dir=str(blocker / "cache"), threads=1)
    with caplog.at_level(logging.WARNING, logger="citebot.embeddings"):
        vector = embedding.get_text_embedding("refunds")
    assert len(vector) == 384 and not embedding._loaded().int8
    assert "cannot cache the int8 embedding model" in caplog.text
    assert len(caplog.records) == 1 and "\n" not in caplog.records[0].getMessage()
