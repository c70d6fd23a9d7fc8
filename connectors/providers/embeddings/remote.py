"""Embeddings from an OpenAI-compatible server: text-embeddings-inference, vLLM,
infinity, Ollama, or OpenAI itself (``POST /v1/embeddings``).

Texts go in batches of ``batch_size`` (servers cap a request: TEI's default
``--max-client-batch-size`` is 32, OpenAI's 2048 inputs) and at most
``concurrency`` requests are in flight, so that several ingest workers can
share one server without flooding it. Vectors are placed by the ``index`` the
server returns, not by reply order, and L2-normalised (the pipeline's cosine
grades assume unit vectors; not every server normalises).
"""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import Field, PrivateAttr, SecretStr

from connectors.errors import ConnectorError, one_line

__all__ = ["RemoteEmbedding"]


class RemoteEmbedding(BaseEmbedding):
    """A LlamaIndex embedding over any server speaking OpenAI's embeddings API."""

    base_url: str
    api_key: SecretStr | None = None
    batch_size: int = Field(32, ge=1, le=2048)
    concurrency: int = Field(4, ge=1, le=64)
    timeout: float = Field(60.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    # LlamaIndex hands whole lists over; batching is done here, concurrently.
    embed_batch_size: int = 2048

    _client: Any = PrivateAttr(default=None)
    _aclient: Any = PrivateAttr(default=None)
    _pool: ThreadPoolExecutor | None = PrivateAttr(default=None)

    @classmethod
    def class_name(cls) -> str:
        return "RemoteEmbedding"

    @property
    def parallel_texts(self) -> int:
        """How many texts one round of requests embeds (what ingest groups by)."""
        return self.batch_size * self.concurrency

    def _options(self) -> dict[str, Any]:
        key = self.api_key.get_secret_value() if self.api_key is not None else "not-needed"
        return {
            "base_url": self.base_url,
            "api_key": key,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }

    def _batches(self, texts: list[str]) -> list[list[str]]:
        # An empty input is a 400 on OpenAI and TEI; a space embeds as "nothing".
        cleaned = [t if t.strip() else " " for t in texts]
        return [
            cleaned[at : at + self.batch_size] for at in range(0, len(cleaned), self.batch_size)
        ]

    def _vectors(self, response: Any, count: int) -> list[list[float]]:
        data = sorted(response.data, key=lambda d: d.index)
        if len(data) != count or [d.index for d in data] != list(range(count)):
            raise ConnectorError(
                f"the embeddings server at {self.base_url} answered {len(data)} vectors "
                f"for {count} texts"
            )
        vectors = []
        for item in data:
            vector = [float(x) for x in item.embedding]
            norm = math.sqrt(sum(x * x for x in vector)) or 1.0
            vectors.append([x / norm for x in vector])
        return vectors

    def _failed(self, exc: Exception) -> ConnectorError:
        return ConnectorError(f"the embeddings server at {self.base_url} failed: {one_line(exc)}")

    # -- sync (ingest's embedding thread) -------------------------------------

    def _one(self, batch: list[str]) -> list[list[float]]:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(**self._options())
        try:
            response = self._client.embeddings.create(
                model=self.model_name, input=batch, encoding_format="float"
            )
        except Exception as exc:
            raise self._failed(exc) from None
        return self._vectors(response, len(batch))

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        batches = self._batches(texts)
        if len(batches) == 1:
            return self._one(batches[0])
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="embeddings")
        return [v for part in self._pool.map(self._one, batches) for v in part]

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embeddings([text])[0]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    # -- async (the pipeline) -------------------------------------------------

    async def _aone(self, batch: list[str], gate: asyncio.Semaphore) -> list[list[float]]:
        if self._aclient is None:
            from openai import AsyncOpenAI

            self._aclient = AsyncOpenAI(**self._options())
        async with gate:
            try:
                response = await self._aclient.embeddings.create(
                    model=self.model_name, input=batch, encoding_format="float"
                )
            except Exception as exc:
                raise self._failed(exc) from None
        return self._vectors(response, len(batch))

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        gate = asyncio.Semaphore(self.concurrency)
        parts = await asyncio.gather(*(self._aone(b, gate) for b in self._batches(texts)))
        return [v for part in parts for v in part]

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return (await self._aget_text_embeddings([text]))[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return await self._aget_text_embedding(query)
