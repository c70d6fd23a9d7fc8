"""A fake Tavily API: ``POST /search`` with the real request and reply shapes.

    with FakeTavily(api_key="tvly-test") as tavily:
        tavily.results("rotate keys", [page("https://example.com/a", "A", "text…")])
        settings = WebSettings(tavily_api_key="tvly-test", base_url=tavily.url)

A wrong key gets a 401 like the real service; ``fail_with`` scripts other
errors and ``hang`` a service that never answers.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from aiohttp import web

from bots.testing.http_server import ThreadedServer


def page(url: str, title: str, content: str, *, score: float = 0.8) -> dict[str, Any]:
    return {"url": url, "title": title, "content": content, "score": score, "raw_content": None}


class FakeTavily(ThreadedServer):
    def __init__(self, *, api_key: str = "tvly-test") -> None:
        super().__init__()
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._rules: list[tuple[str, list[dict[str, Any]]]] = []
        self._default: list[dict[str, Any]] = []
        self._fail: tuple[int, str] | None = None
        self._fail_times: int | None = None
        self._retry_after: str | None = None
        self._hang = False
        self._lock = threading.Lock()

    def results(self, contains: str, pages: list[dict[str, Any]]) -> FakeTavily:
        """Reply with ``pages`` when the query contains ``contains`` (case-insensitive)."""
        with self._lock:
            self._rules.append((contains.casefold(), pages))
        return self

    def default(self, pages: list[dict[str, Any]]) -> FakeTavily:
        self._default = pages
        return self

    def fail_with(
        self,
        status: int,
        message: str = "internal error",
        *,
        times: int | None = None,
        retry_after: str | None = None,
    ) -> FakeTavily:
        """Answer ``status`` (every time, or the next ``times`` requests), with ``Retry-After``."""
        self._fail = (status, message)
        self._fail_times = times
        self._retry_after = retry_after
        return self

    def hang(self, value: bool = True) -> FakeTavily:
        self._hang = value
        return self

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/search", self._search)

    async def _search(self, request: web.Request) -> web.Response:
        raw = await request.text()
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            return _detail(400, "Invalid JSON body")
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(request.headers))
        if request.headers.get("Authorization") != f"Bearer {self.api_key}":
            return _detail(401, "Unauthorized: missing or invalid API key.")
        if self._hang:
            await self.stall()
        if self._fail is not None:
            failure = _detail(*self._fail)
            if self._retry_after is not None:
                failure.headers["Retry-After"] = self._retry_after
            if self._fail_times is not None:
                self._fail_times -= 1
                if self._fail_times <= 0:
                    self._fail = None
            return failure
        query = str(body.get("query") or "")
        if not query:
            return _detail(400, "Query is missing.")
        pages = self._default
        for contains, scripted in self._rules:
            if contains in query.casefold():
                pages = scripted
                break
        include = body.get("include_domains") or []
        exclude = body.get("exclude_domains") or []
        pages = [p for p in pages if _allowed(p["url"], include, exclude)]
        limit = int(body.get("max_results") or 5)
        return web.json_response(
            {
                "query": query,
                "answer": None,
                "images": [],
                "results": pages[:limit],
                "response_time": 0.01,
                "request_id": f"req-{len(self.requests)}",
            }
        )


def _allowed(url: str, include: list[str], exclude: list[str]) -> bool:
    host = url.split("//", 1)[-1].split("/", 1)[0]
    if include and not any(host == d or host.endswith("." + d) for d in include):
        return False
    return not any(host == d or host.endswith("." + d) for d in exclude)


def _detail(status: int, error: str) -> web.Response:
    return web.json_response({"detail": {"error": error}}, status=status)
