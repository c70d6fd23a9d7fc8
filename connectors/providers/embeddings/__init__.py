"""Embeddings: the bundled offline MiniLM, or any LlamaIndex embedding by settings."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from connectors.errors import ConnectorError, one_line

from .encoder import DIMENSION, MODEL_FAMILY, MODEL_NAME, MiniLMEncoder, whole_words

if TYPE_CHECKING:
    from llama_index.core.base.embeddings.base import BaseEmbedding

    from connectors.providers.settings import EmbeddingSettings
    from pipeline.ports import TokenStates

    from .minilm import MiniLMEmbedding, StaticMiniLMEmbedding

__all__ = [
    "BUNDLED",
    "DIMENSION",
    "MODEL_NAME",
    "AsyncEmbedder",
    "Embedding",
    "MiniLMEmbedding",
    "MiniLMEncoder",
    "StaticMiniLMEmbedding",
    "build_embedding",
    "embedding_id",
]


class Embedding(Protocol):
    """What the stores and the pipeline call on an embedding: any LlamaIndex embedding,
    or a ``PlainEncoder`` (a bundled model without importing LlamaIndex)."""

    model_name: str

    @classmethod
    def class_name(cls) -> str: ...

    def get_text_embedding_batch(self, texts: list[str]) -> list[list[float]]: ...

    async def aget_query_embedding(self, query: str) -> list[float]: ...

    async def aget_text_embedding_batch(self, texts: list[str]) -> list[list[float]]: ...


def __getattr__(name: str) -> Any:
    # the LlamaIndex embeddings load LlamaIndex (over a CPU second): only when asked for
    if name in {"MiniLMEmbedding", "StaticMiniLMEmbedding"}:
        from . import minilm

        return getattr(minilm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Providers that run here from the installed package (nothing to reach, a model to load).
BUNDLED = frozenset({"minilm", "minilm-static"})
_ENCODER_OPTIONS = frozenset({"embed_batch_size", "threads", "quantized", "cache_dir"})


def build_embedding(
    settings: EmbeddingSettings, *, documents: bool = False, llama_index: bool = True
) -> Embedding:
    """``'minilm'``, ``'minilm-static'`` or ``'package.module:Class'`` of any LlamaIndex
    embedding; with ``documents``, the one for the store's vectors (``settings.documents``).
    Without ``llama_index``, the bundled models come as plain encoders (same vectors,
    same store id, LlamaIndex not imported): what answering questions and ingesting need."""
    if documents and settings.documents.strip():
        settings = settings.model_copy(update={"provider": settings.documents})
    provider = settings.provider.strip()
    if provider.lower() == "openai_compatible":
        return _remote(settings)
    if provider.lower() == "minilm-static":
        cache_dir = str(settings.cache_dir or "")
        if not llama_index:
            from .static import StaticEncoder

            return StaticEncoder(cache_dir)
        from .minilm import StaticMiniLMEmbedding

        return StaticMiniLMEmbedding(cache_dir=cache_dir)
    if provider.lower() == "minilm":
        options: dict[str, Any] = {
            "embed_batch_size": settings.batch_size,
            "threads": settings.threads,
            "quantized": settings.quantized,
            "cache_dir": str(settings.cache_dir or ""),
            **settings.options,
        }
        if not llama_index and set(options) <= _ENCODER_OPTIONS:
            del options["embed_batch_size"]
            return MiniLMEncoder(**options)
        from .minilm import MiniLMEmbedding

        return MiniLMEmbedding(**options)
    module_name, _, class_name = provider.partition(":")
    if not module_name or not class_name:
        raise ConnectorError(
            f"embedding provider {provider!r} is not 'minilm', 'minilm-static', 'openai_compatible' or 'module:Class' "
            "[env CITEBOT_EMBEDDINGS__PROVIDER]"
        )
    from llama_index.core.base.embeddings.base import BaseEmbedding

    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConnectorError(
            f"embedding provider {provider!r}: cannot import {module_name!r} ({exc})"
        ) from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseEmbedding)):
        raise ConnectorError(
            f"embedding provider {provider!r}: {class_name!r} is not a LlamaIndex embedding class"
        )
    options = dict[str, Any](settings.options)
    options.setdefault("embed_batch_size", settings.batch_size)
    try:
        return cls(**options)
    except Exception as exc:
        raise ConnectorError(
            f"embedding provider {provider!r}: bad options ({one_line(exc)})"
        ) from None


def _remote(settings: EmbeddingSettings) -> BaseEmbedding:
    from .remote import RemoteEmbedding

    if not settings.base_url:
        raise ConnectorError(
            "embeddings.provider is 'openai_compatible' but embeddings.base_url is not set "
            "[env CITEBOT_EMBEDDINGS__BASE_URL]"
        )
    if not settings.model.strip():
        raise ConnectorError(
            "embeddings.provider is 'openai_compatible' but embeddings.model is not set "
            "[env CITEBOT_EMBEDDINGS__MODEL]"
        )
    return RemoteEmbedding(
        model_name=settings.model,
        base_url=settings.base_url,
        api_key=settings.api_key,
        batch_size=settings.batch_size,
        concurrency=settings.concurrency,
        timeout=settings.timeout,
    )


def embedding_id(embedding: Embedding) -> str:
    """What a store records so that vectors from another model are never mixed in."""
    return f"{embedding.class_name()}:{embedding.model_name}"


class AsyncEmbedder:
    """``pipeline.ports.Embedder`` over any ``Embedding`` (and ``pipeline.ports.Vocabulary``)."""

    def __init__(self, embedding: Embedding) -> None:
        self.embedding = embedding

    @property
    def vocabulary(self) -> frozenset[str] | None:
        """The bundled models' whole words; None for another model (its tokenizer is unknown)."""
        name = str(getattr(self.embedding, "model_name", ""))
        return whole_words() if name.startswith(MODEL_FAMILY) else None

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return await self.embedding.aget_text_embedding_batch(list(texts))

    async def embed_tokens(self, texts: Sequence[str]) -> list[TokenStates] | None:
        """``pipeline.ports.TokenEmbedder``: the bundled MiniLM's token states; None from a
        model that gives none."""
        read = getattr(self.embedding, "embed_tokens", None)
        if read is None:
            return None
        if not texts:
            return []
        states: list[TokenStates] = await asyncio.to_thread(read, list(texts))
        return states
