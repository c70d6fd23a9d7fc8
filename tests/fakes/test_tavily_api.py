"""The fake Tavily refuses what the real search API refuses, through the real tavily-python client.

The schema is https://docs.tavily.com/api-reference/endpoint/search: ``query``
required, ``max_results`` 0–20, ``search_depth`` basic/advanced/fast/ultra-fast,
``topic`` general/news/finance, a Bearer key in ``Authorization``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tavily import AsyncTavilyClient
from tavily.errors import BadRequestError, InvalidAPIKeyError

from tests.fakes.tavily_server import FakeTavily, page


@pytest.fixture
def tavily() -> Iterator[FakeTavily]:
    with FakeTavily(api_key="tvly-test") as server:
        server.default([page("https://a.example.com/x", "A", "text")])
        yield server


def client(tavily: FakeTavily, key: str = "tvly-test") -> AsyncTavilyClient:
    return AsyncTavilyClient(api_key=key, api_base_url=tavily.url)


async def test_the_real_client_searches_with_every_documented_option(tavily: FakeTavily) -> None:
    reply = await client(tavily).search(
        "rotate keys",
        search_depth="advanced",
        topic="news",
        time_range="week",
        max_results=20,
        include_domains=["example.com"],
        exclude_domains=["spam.example.com"],
        include_answer="basic",
        include_raw_content="markdown",
        include_images=False,
        include_favicon=True,
        chunks_per_source=3,
    )
    assert [r["url"] for r in reply["results"]] == ["https://a.example.com/x"]
    assert tavily.requests[-1]["query"] == "rotate keys"
    reply = await client(tavily).search("rotate keys", max_results=0, search_depth="ultra-fast")
    assert reply["results"] == []


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"max_results": 21}, "Invalid max_results: must be an integer between 0 and 20."),
        ({"max_results": -1}, "Invalid max_results: must be an integer between 0 and 20."),
        ({"max_results": True}, "Invalid max_results: must be an integer between 0 and 20."),
        ({"max_results": "5"}, "Invalid max_results: must be an integer between 0 and 20."),
        (
            {"search_depth": "deep"},
            "Invalid search_depth: must be one of basic, advanced, fast, ultra-fast.",
        ),
        ({"topic": "sports"}, "Invalid topic: must be one of general, news, finance."),
        (
            {"time_range": "decade"},
            "Invalid time_range: must be one of day, week, month, year, d, w, m, y.",
        ),
        (
            {"chunks_per_source": 4},
            "Invalid chunks_per_source: must be an integer between 1 and 3.",
        ),
        ({"include_images": "yes"}, "Invalid include_images: must be a boolean."),
        ({"include_domains": "example.com"}, "Invalid include_domains: must be a list of strings."),
        ({"max_result": 5}, "Unknown parameter(s): max_result."),
    ],
)
async def test_a_body_off_the_schema_is_a_bad_request(
    tavily: FakeTavily, options: dict[str, Any], error: str
) -> None:
    with pytest.raises(BadRequestError) as caught:
        await client(tavily).search("rotate keys", **options)
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "Query is missing."),
        ({"query": 42}, "Query must be a non-empty string."),
        ({"query": "  "}, "Query must be a non-empty string."),
        ([1, 2], "The request body must be a JSON object."),
    ],
)
async def test_a_missing_or_non_string_query_is_a_bad_request(
    tavily: FakeTavily, body: object, error: str
) -> None:
    async with httpx.AsyncClient(base_url=tavily.url) as http:
        reply = await http.post("/search", json=body, headers={"Authorization": "Bearer tvly-test"})
    assert (reply.status_code, reply.json()) == (400, {"detail": {"error": error}})


async def test_a_request_without_the_right_key_is_unauthorized(tavily: FakeTavily) -> None:
    with pytest.raises(InvalidAPIKeyError):
        await client(tavily, key="tvly-wrong").search("rotate keys")
    async with httpx.AsyncClient(base_url=tavily.url) as http:
        bare = await http.post("/search", json={"query": "rotate keys"})
        in_body = await http.post("/search", json={"query": "rotate keys", "api_key": "tvly-test"})
    assert bare.status_code == 401
    assert in_body.status_code == 200  # the older clients' way, still accepted
