"""What the embedders that run in this process answer without LlamaIndex (over a CPU
second to import): the calls the stores and the pipeline make, over one ``embed``."""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np

__all__ = ["PlainEncoder"]


class PlainEncoder:
    """A subclass supplies ``embed`` (unit vectors, one row a text), ``model_name`` and
    ``class_name`` (the store id, the same as its LlamaIndex embedding's)."""

    model_name: str

    @classmethod
    def class_name(cls) -> str:
        raise NotImplementedError

    def embed(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    # The work releases the GIL (onnxruntime, numpy), so a worker thread keeps the loop free.
    def get_text_embedding_batch(self, texts: list[str], **_: Any) -> list[list[float]]:
        vectors: list[list[float]] = self.embed(list(texts)).tolist()
        return vectors

    async def aget_query_embedding(self, query: str) -> list[float]:
        vectors = await asyncio.to_thread(self.get_text_embedding_batch, [query])
        return vectors[0]

    async def aget_text_embedding_batch(self, texts: list[str], **_: Any) -> list[list[float]]:
        return await asyncio.to_thread(self.get_text_embedding_batch, texts)
