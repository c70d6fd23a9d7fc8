"""Tavily that is busy (429) or failing (5xx) is asked again after its Retry-After, within seconds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from connectors.errors import ServiceError
from connectors.providers.settings import WebSettings
from connectors.providers.web_search import TavilySearch
from tests.fakes.tavily_server import FakeTavily, page


@pytest.fixture
def tavily() -> Iterator[FakeTavily]:
    with FakeTavily() as server:
        server.default([page("https://example.com/a", "A", "Alpha text.")])
        yield server


def search(tavily: FakeTavily) -> TavilySearch:
    return TavilySearch(
        WebSettings.model_validate({"tavily_api_key": "tvly-test", "base_url": tavily.url})
    )


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
async def test_a_busy_or_failing_tavily_is_asked_again(tavily: FakeTavily, status: int) -> None:
    tavily.fail_with(status, "not now", times=2, retry_after="0")
    sources = await search(tavily).search("alpha")
    assert [s.url for s in sources] == ["https://example.com/a"]
    assert len(tavily.requests) == 3


async def test_it_gives_up_after_three_tries_with_a_clear_line(tavily: FakeTavily) -> None:
    tavily.fail_with(429, "slow down", retry_after="0")
    with pytest.raises(
        ServiceError, match=r"^web search failed: Tavily is rate limiting \(HTTP 429\)$"
    ):
        await search(tavily).search("alpha")
    assert len(tavily.requests) == 3


async def test_a_long_retry_after_is_not_waited_for(tavily: FakeTavily) -> None:
    tavily.fail_with(503, "maintenance", retry_after="3600")
    with pytest.raises(ServiceError, match=r"HTTP 503"):
        await search(tavily).search("alpha")
    assert len(tavily.requests) == 1


async def test_a_client_error_is_not_retried(tavily: FakeTavily) -> None:
    tavily.fail_with(400, "bad query")
    with pytest.raises(ServiceError):
        await search(tavily).search("alpha")
    assert len(tavily.requests) == 1
