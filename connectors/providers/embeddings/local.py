"""What the embedders that run in this process share: LlamaIndex's calls over one ``embed``."""

from __future__ import annotations

import asyncio

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding

__all__ = ["LocalEmbedding"]


class LocalEmbedding(BaseEmbedding):
    """A LlamaIndex embedding whose subclass supplies ``embed`` (unit vectors, one row a text)."""

    def embed(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def _get_query_embedding(self, query: str) -> list[float]:
        vector: list[float] = self.embed([query])[0].tolist()
        return vector

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_query_embedding(text)

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        result: list[list[float]] = self.embed(texts).tolist()
        return result

    # The work releases the GIL (onnxruntime, numpy), so a worker thread keeps the loop free.
    async def _aget_query_embedding(self, query: str) -> list[float]:
        return await asyncio.to_thread(self._get_query_embedding, query)

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return await asyncio.to_thread(self._get_text_embedding, text)

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self._get_text_embeddings, texts)
