"""The bundled offline embedders as LlamaIndex embeddings (the plain encoders do the work)."""

from __future__ import annotations

import numpy as np
from pydantic import Field

from pipeline.ports import TokenStates

from .encoder import DIMENSION, MAX_TOKENS, MODEL_NAME, VOCAB, MiniLMEncoder, _Loaded
from .local import LocalEmbedding
from .static import DIMENSION as STATIC_DIMENSION
from .static import STATIC_MODEL_NAME, StaticEncoder

__all__ = [
    "DIMENSION",
    "MAX_TOKENS",
    "MODEL_NAME",
    "VOCAB",
    "MiniLMEmbedding",
    "StaticMiniLMEmbedding",
]


class MiniLMEmbedding(LocalEmbedding):
    """all-MiniLM-L6-v2: mean pooling over the tokens, then L2 normalisation."""

    model_name: str = MODEL_NAME
    threads: int = Field(
        0, ge=0, description="texts embedded at once, one core each; 0 = all cores"
    )
    quantized: bool = Field(
        True, description="int8 compute (built once from the bundled weights and cached)"
    )
    cache_dir: str = Field("", description="where the int8 model is cached; '' = ~/.cache/citebot")

    @classmethod
    def class_name(cls) -> str:
        return MiniLMEncoder.class_name()

    @property
    def dimension(self) -> int:
        return DIMENSION

    def encoder(self) -> MiniLMEncoder:
        """The model without LlamaIndex (sessions are shared: loading is cached per setting)."""
        return MiniLMEncoder(self.threads, self.quantized, self.cache_dir)

    def load(self) -> None:
        """Load the model now instead of on first use."""
        self.encoder().load()

    def _loaded(self) -> _Loaded:
        return self.encoder()._loaded()

    def fits(self, text: str) -> bool:
        """Whether the model reads all of ``text`` ([CLS] and [SEP] count towards its window)."""
        return self.encoder().fits(text)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` as a ``(len(texts), 384)`` float32 array."""
        return self.encoder().embed(texts)

    def embed_tokens(self, texts: list[str]) -> list[TokenStates]:
        """``MiniLMEncoder.embed_tokens``."""
        return self.encoder().embed_tokens(texts)


class StaticMiniLMEmbedding(LocalEmbedding):
    """The static model distilled from MiniLM (``static.py``): whole texts, no window."""

    model_name: str = STATIC_MODEL_NAME
    cache_dir: str = Field("", description="where the table is cached; '' = ~/.cache/citebot")

    @classmethod
    def class_name(cls) -> str:
        return StaticEncoder.class_name()

    @property
    def dimension(self) -> int:
        return STATIC_DIMENSION

    def encoder(self) -> StaticEncoder:
        """The model without LlamaIndex (the table is loaded once per process)."""
        return StaticEncoder(self.cache_dir)

    def load(self) -> None:
        self.encoder().load()

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.encoder().embed(texts)
