"""LLM providers and Tavily web search, against the fake servers with the real clients."""

from __future__ import annotations

import time

import pytest
from llama_index.core.llms import ChatMessage
from pydantic import SecretStr

from citations.model import Origin
from connectors.errors import ConnectorError, ServiceError
from connectors.providers.llms import build_llm
from connectors.providers.settings import LLMSettings, WebSettings
from connectors.providers.web_search import TavilySearch, build_web_search
from pipeline.ports import WebSearch
from tests.fakes.openai_server import Fail, FakeOpenAI, Hang
from tests.fakes.tavily_server import FakeTavily, page

# -- LLM providers -----------------------------------------------------------------------


def test_none_means_no_llm() -> None:
    assert build_llm(LLMSettings()) is None


def test_openai_compatible_needs_a_base_url() -> None:
    with pytest.raises(ConnectorError, match="CITEBOT_LLM__BASE_URL"):
        build_llm(LLMSettings(provider="openai_compatible"))


def test_openai_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConnectorError, match="OPENAI_API_KEY"):
        build_llm(LLMSettings(provider="openai"))


def test_anthropic_is_built_with_its_key() -> None:
    llm = build_llm(
        LLMSettings(
            provider="anthropic", api_key=SecretStr("sk-ant-test"), model="claude-haiku-4-5"
        )
    )
    assert llm is not None and llm.metadata.model_name == "claude-haiku-4-5"
    with pytest.raises(ConnectorError, match="unknown anthropic model 'claude-x'"):
        build_llm(
            LLMSettings(provider="anthropic", api_key=SecretStr("sk-ant-test"), model="claude-x")
        )
    with pytest.raises(ConnectorError, match="CITEBOT_LLM__API_KEY"):
        build_llm(LLMSettings(provider="anthropic"))


async def test_openai_talks_to_the_configured_base_url(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = "sk-test"
    fake_openai.queue("hello from the fake")
    llm = build_llm(
        LLMSettings(
            provider="openai",
            base_url=fake_openai.base_url,
            api_key=SecretStr("sk-test"),
            model="gpt-4o-mini",
        )
    )
    assert llm is not None
    reply = await llm.achat([ChatMessage(role="user", content="hi")])
    assert reply.message.content == "hello from the fake"
    assert fake_openai.requests[0].headers["Authorization"] == "Bearer sk-test"


async def test_openai_compatible_streams_sse(fake_openai: FakeOpenAI) -> None:
    fake_openai.chunk_chars = 2
    fake_openai.queue("Streaming works [1].")
    llm = build_llm(
        LLMSettings(provider="openai_compatible", base_url=fake_openai.base_url, model="llama3")
    )
    assert llm is not None
    deltas = [
        chunk.delta
        async for chunk in await llm.astream_chat([ChatMessage(role="user", content="hi")])
    ]
    assert "".join(d or "" for d in deltas) == "Streaming works [1]."
    assert len([d for d in deltas if d]) >= 9
    body = fake_openai.requests[0].body
    assert body["stream"] is True and body["model"] == "llama3"


async def test_llm_timeout_comes_from_settings(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Hang())
    llm = build_llm(
        LLMSettings(
            provider="openai_compatible", base_url=fake_openai.base_url, timeout=0.3, max_retries=0
        )
    )
    assert llm is not None
    started = time.perf_counter()
    with pytest.raises(Exception, match=r"(?i)timed? ?out"):
        await llm.achat([ChatMessage(role="user", content="hi")])
    assert time.perf_counter() - started < 5


async def test_llm_server_error_is_raised_by_the_client(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue(Fail(503, "overloaded"))
    llm = build_llm(
        LLMSettings(provider="openai_compatible", base_url=fake_openai.base_url, max_retries=0)
    )
    assert llm is not None
    with pytest.raises(Exception, match="overloaded"):
        await llm.achat([ChatMessage(role="user", content="hi")])


# -- web search ------------------------------------------------------------------------------


def web_settings(tavily: FakeTavily, **options: object) -> WebSettings:
    values: dict[str, object] = {"tavily_api_key": "tvly-test", "base_url": tavily.url}
    values.update(options)
    return WebSettings.model_validate(values)


def test_without_a_key_web_search_is_off_and_says_why() -> None:
    web, reason = build_web_search(WebSettings())
    assert web is None and reason is not None and "no Tavily API key" in reason
    web, reason = build_web_search(WebSettings(enabled=False, tavily_api_key=SecretStr("tvly-x")))
    assert web is None and reason is not None and "disabled" in reason
    with pytest.raises(ValueError):
        TavilySearch(WebSettings())


async def test_results_become_web_sources_with_real_urls(fake_tavily: FakeTavily) -> None:
    fake_tavily.results(
        "rotation",
        [
            page("https://a.example.com/keys", "Rotating keys", "Rotate keys every 90 days."),
            page("https://b.example.org/x", "", "Untitled page text."),
            page("", "No URL", "dropped"),
            # a search index holds what pages link to: a browser would run these
            page("javascript:alert(document.cookie)", "Run me", "dropped"),
            page("data:text/html;base64,PHNjcmlwdD4=", "Run me too", "dropped"),
        ],
    )
    web, reason = build_web_search(
        web_settings(
            fake_tavily,
            search_depth="advanced",
            max_results=7,
            include_domains=["example.com", "example.org"],
            exclude_domains=["spam.example.com"],
        )
    )
    assert reason is None and isinstance(web, WebSearch)
    sources = await web.search("key rotation")
    assert [(s.url, s.title, s.text) for s in sources] == [
        ("https://a.example.com/keys", "Rotating keys", "Rotate keys every 90 days."),
        ("https://b.example.org/x", "https://b.example.org/x", "Untitled page text."),
    ]
    assert all(s.origin is Origin.WEB for s in sources)
    sent = fake_tavily.requests[0]
    assert sent["query"] == "key rotation"
    assert sent["search_depth"] == "advanced" and sent["max_results"] == 7
    assert sent["include_domains"] == ["example.com", "example.org"]
    assert sent["exclude_domains"] == ["spam.example.com"]
    assert fake_tavily.headers[0]["Authorization"] == "Bearer tvly-test"
    assert "X-Tavily-Access-Mode" not in fake_tavily.headers[0]  # never keyless


async def test_a_rejected_key_is_a_one_line_service_error(fake_tavily: FakeTavily) -> None:
    web = TavilySearch(web_settings(fake_tavily, tavily_api_key="tvly-wrong"))
    with pytest.raises(ServiceError, match=r"^web search failed: the Tavily API key was rejected$"):
        await web.search("anything")


async def test_server_errors_and_timeouts_are_service_errors(fake_tavily: FakeTavily) -> None:
    fake_tavily.fail_with(500, "boom", retry_after="0")
    with pytest.raises(ServiceError, match="web search failed"):
        await TavilySearch(web_settings(fake_tavily)).search("anything")
    fake_tavily.fail_with(429, "slow down", retry_after="0")
    with pytest.raises(ServiceError, match="rate limiting"):
        await TavilySearch(web_settings(fake_tavily)).search("anything")
    fake_tavily.hang()
    started = time.perf_counter()
    with pytest.raises(ServiceError, match=r"did not answer within 0\.3 s"):
        await TavilySearch(web_settings(fake_tavily, timeout=0.3)).search("anything")
    assert time.perf_counter() - started < 5
