"""A fake Tavily API: ``POST /search`` with the real request and reply shapes.

    with FakeTavily(api_key="tvly-test") as tavily:
        tavily.results("rotate keys", [page("https://example.com/a", "A", "text…")])
        settings = WebSettings(tavily_api_key="tvly-test", base_url=tavily.url)

A wrong or missing key gets a 401 like the real service; ``fail_with`` scripts
other errors and ``hang`` a service that never answers.

The request body is checked against the schema of https://docs.tavily.com/api-reference/endpoint/search:
``query`` is a required string, ``max_results`` an integer from 0 to 20,
``search_depth``, ``topic``, ``time_range`` and ``chunks_per_source`` take only
their documented values, and a bad body gets a 400 ``{"detail": {"error": …}}``,
which tavily-python raises as ``BadRequestError``. A field that is neither
documented nor sent by tavily-python is refused too, so a misspelt parameter
fails here instead of being ignored.
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
        if not isinstance(body, dict):
            return _detail(400, "The request body must be a JSON object.")
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(request.headers))
        # older clients send the key in the body; the documented way is the header
        key = request.headers.get("Authorization") or (
            f"Bearer {body['api_key']}" if isinstance(body.get("api_key"), str) else None
        )
        if key != f"Bearer {self.api_key}":
            return _detail(401, "Unauthorized: missing or invalid API key.")
        invalid = _invalid(body)
        if invalid:
            return _detail(400, invalid)
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
        query: str = body["query"]
        pages = self._default
        for contains, scripted in self._rules:
            if contains in query.casefold():
                pages = scripted
                break
        include = body.get("include_domains") or []
        exclude = body.get("exclude_domains") or []
        pages = [p for p in pages if _allowed(p["url"], include, exclude)]
        limit = body.get("max_results", 5)
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


# https://docs.tavily.com/api-reference/endpoint/search, and what tavily-python sends
_CHOICES: dict[str, tuple[object, ...]] = {
    "search_depth": ("basic", "advanced", "fast", "ultra-fast"),
    "topic": ("general", "news", "finance"),
    "time_range": ("day", "week", "month", "year", "d", "w", "m", "y"),
    "include_answer": (True, False, "basic", "advanced"),
    "include_raw_content": (True, False, "markdown", "text"),
    "include_domains_mode": ("restrict", "prefer"),
}
_RANGES = {"max_results": (0, 20), "chunks_per_source": (1, 3), "days": (1, None)}
_FLAGS = ("include_images", "include_image_descriptions", "include_favicon", "include_usage",
          "auto_parameters", "exact_match", "cache_fallback", "filter_by_language")  # fmt: skip
_LISTS = ("include_domains", "exclude_domains")
_TEXTS = ("api_key", "start_date", "end_date", "country", "language")
_NUMBERS = ("max_age_hours", "fetch_timeout")
_KNOWN = {"query", *_CHOICES, *_RANGES, *_FLAGS, *_LISTS, *_TEXTS, *_NUMBERS}


def _invalid(body: dict[str, Any]) -> str:
    """Why the real API would refuse ``body``, or ``""``."""
    unknown = sorted(set(body) - _KNOWN)
    if unknown:
        return f"Unknown parameter(s): {', '.join(unknown)}."
    query = body.get("query")
    if query is None:
        return "Query is missing."
    if not isinstance(query, str) or not query.strip():
        return "Query must be a non-empty string."
    for name, choices in _CHOICES.items():
        value = body.get(name, choices[0])
        # True == 1 in Python, not in JSON: compare the types too
        if not any(type(value) is type(c) and value == c for c in choices):
            return f"Invalid {name}: must be one of {', '.join(map(str, choices))}."
    for name, (low, high) in _RANGES.items():
        if name not in body:
            continue
        value = body[name]
        if type(value) is not int or value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            return f"Invalid {name}: must be an integer {bound}."
    for name in _FLAGS:
        if name in body and not isinstance(body[name], bool):
            return f"Invalid {name}: must be a boolean."
    for name in _LISTS:
        value = body.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"Invalid {name}: must be a list of strings."
    for name in _TEXTS:
        if name in body and not isinstance(body[name], str):
            return f"Invalid {name}: must be a string."
    for name in _NUMBERS:
        if name in body and (
            isinstance(body[name], bool) or not isinstance(body[name], int | float)
        ):
            return f"Invalid {name}: must be a number."
    return ""


def _allowed(url: str, include: list[str], exclude: list[str]) -> bool:
    host = url.split("//", 1)[-1].split("/", 1)[0]
    if include and not any(host == d or host.endswith("." + d) for d in include):
        return False
    return not any(host == d or host.endswith("." + d) for d in exclude)


def _detail(status: int, error: str) -> web.Response:
    return web.json_response({"detail": {"error": error}}, status=status)
