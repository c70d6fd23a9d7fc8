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
from connectors.providers.embeddings.quantize import int8_model, int8_saturates


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


def test_no_pair_of_7bit_products_overflows_int16_so_every_cpu_computes_alike() -> None:
    # x86 without VNNI multiplies u8 activations by s8 weights and adds each pair of
    # products into a saturating int16 (vpmaddubsw); a pair that overflows gives that
    # CPU other vectors than a VNNI one, and other answers from the same store
    import onnx
    from onnx import numpy_helper

    def largest_weight(seven_bit: bool) -> int:
        model = onnx.load(str(int8_model(seven_bit=seven_bit)))
        weights = [
            numpy_helper.to_array(i)
            for i in model.graph.initializer
            if i.data_type == onnx.TensorProto.INT8 and len(i.dims) == 2
        ]
        assert len(weights) >= 30  # the 6 layers' projections, bar those kept in float
        return max(int(np.abs(w.astype(np.int32)).max()) for w in weights)

    assert 2 * 255 * largest_weight(seven_bit=False) > 32767
    seven = largest_weight(seven_bit=True)
    assert 2 * 255 * seven <= 32767
    assert seven >= 60  # the 7 bits are used, not given away


CPUINFO = "processor\t: 0\nvendor_id\t: {vendor}\nflags\t\t: fpu sse2 avx avx2 {extra}\n"


def test_x86_without_vnni_is_the_cpu_whose_int8_sums_saturate() -> None:
    assert int8_saturates("x86_64", CPUINFO.format(vendor="AuthenticAMD", extra="fma"))
    assert not int8_saturates("x86_64", CPUINFO.format(vendor="GenuineIntel", extra="avx512_vnni"))
    # Alder Lake and later have VNNI on AVX2 only
    assert not int8_saturates("AMD64", CPUINFO.format(vendor="GenuineIntel", extra="avx_vnni"))
    # a flag's name inside another's is not that flag
    assert int8_saturates("x86_64", CPUINFO.format(vendor="x", extra="avx512_vnnix vnni"))
    # arm's int8 dot products do not saturate; an x86 that cannot tell is taken as one that does
    assert int8_saturates("aarch64", None) is False
    assert int8_saturates("x86_64", None)
