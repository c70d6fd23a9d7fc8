"""A fake OpenAI-compatible embeddings server (``POST /v1/embeddings``), as strict as the real ones.

What it enforces, from the OpenAI API reference and text-embeddings-inference's issues:

- only ``POST /v1/embeddings``; a JSON object with ``model`` (a non-empty string) and
  ``input`` (a non-empty string or a non-empty list of non-empty strings); the only other
  keys allowed are ``encoding_format`` (``float`` here: the client must ask for it, as
  TEI and Ollama do not all speak ``base64``), ``dimensions`` and ``user``;
- at most ``max_batch`` inputs per request: 413 ``batch size N > maximum allowed batch
  size M`` (TEI's ``--max-client-batch-size``, default 32);
- ``Authorization: Bearer KEY`` when started with a key: 401 otherwise;
- unknown model: 404, as OpenAI answers.

Vectors are deterministic (a hash of the text, un-normalised on purpose), returned in
reverse order with their ``index``. ``delay`` holds each request; ``max_in_flight`` is
the most requests it ever had open at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from typing import Any

from aiohttp import web

from bots.testing.http_server import ThreadedServer

ALLOWED_KEYS = {"model", "input", "encoding_format", "dimensions", "user"}


def fake_vector(text: str, dimensions: int) -> list[float]:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [(digest[i % len(digest)] - 128) / 16.0 for i in range(dimensions)]


class FakeEmbeddingsServer(ThreadedServer):
    def __init__(
        self,
        *,
        model: str = "fake-embedder",
        dimensions: int = 8,
        max_batch: int = 32,
        api_key: str | None = None,
        delay: float = 0.0,
    ) -> None:
        super().__init__()
        self.model = model
        self.dimensions = dimensions
        self.max_batch = max_batch
        self.api_key = api_key
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/embeddings", self._embeddings)

    async def _embeddings(self, request: web.Request) -> web.Response:
        if self.api_key is not None and request.headers.get("Authorization") != (
            f"Bearer {self.api_key}"
        ):
            return _error(401, "Incorrect API key provided", "invalid_api_key")
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "We could not parse the JSON body of your request.", None)
        problem = self._problem(body)
        if problem is not None:
            return problem
        texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
        with self._lock:
            self.requests.append(body)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
        finally:
            with self._lock:
                self.in_flight -= 1
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(t, self.dimensions)}
            for i, t in enumerate(texts)
        ]
        tokens = sum(len(t.split()) for t in texts)
        return web.json_response(
            {
                "object": "list",
                "data": data[::-1],
                "model": self.model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    def _problem(self, body: object) -> web.Response | None:
        if not isinstance(body, dict):
            return _error(400, "the request body must be a JSON object", None)
        unknown = sorted(set(body) - ALLOWED_KEYS)
        if unknown:
            return _error(400, f"Unrecognized request argument supplied: {unknown[0]}", None)
        model = body.get("model")
        if not isinstance(model, str) or not model:
            return _error(400, "you must provide a model parameter", None)
        if model != self.model:
            return _error(404, f"The model `{model}` does not exist", "model_not_found")
        if body.get("encoding_format", "float") != "float":
            return _error(400, "encoding_format must be 'float' on this server", None)
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if (
            not isinstance(texts, list)
            or not texts
            or not all(isinstance(t, str) and t for t in texts)
        ):
            return _error(400, "'$.input' is invalid: a non-empty string or list of them", None)
        if len(texts) > self.max_batch:
            return web.json_response(
                {
                    "message": f"batch size {len(texts)} > maximum allowed batch size "
                    f"{self.max_batch}",
                    "code": 413,
                    "type": "Validation",
                },
                status=413,
            )
        return None


def _error(status: int, message: str, code: str | None) -> web.Response:
    return web.json_response(
        {"error": {"message": message, "type": "invalid_request_error", "code": code}},
        status=status,
    )
