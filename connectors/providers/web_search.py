"""Web search through Tavily, as ``pipeline.ports.WebSearch``.

Results keep their real URL and title: the model only ever sees short source
ids, and the footnotes are drawn from what Tavily returned.
"""

from __future__ import annotations

import logging
from typing import Any

from citations.model import Locator, Origin, Source
from connectors.errors import ServiceError, one_line
from connectors.providers.settings import WebSettings

log = logging.getLogger("citebot.web")


class TavilySearch:
    """``WebSearch`` backed by tavily-python's ``AsyncTavilyClient``."""

    name = "tavily"

    def __init__(self, settings: WebSettings) -> None:
        from tavily import AsyncTavilyClient

        if settings.tavily_api_key is None:
            # without a key the client silently switches to keyless mode
            raise ValueError("TavilySearch needs a Tavily API key")
        self._settings = settings
        self._client = AsyncTavilyClient(
            api_key=settings.tavily_api_key.get_secret_value(),
            api_base_url=settings.base_url,
            client_source="citebot",
        )

    async def search(self, query: str) -> list[Source]:
        from tavily import errors

        settings = self._settings
        try:
            reply: dict[str, Any] = await self._client.search(
                query,
                search_depth=settings.search_depth,
                max_results=settings.max_results,
                include_domains=settings.include_domains or None,
                exclude_domains=settings.exclude_domains or None,
                timeout=settings.timeout,
            )
        except errors.InvalidAPIKeyError as exc:
            raise ServiceError("web search failed: the Tavily API key was rejected") from exc
        except errors.UsageLimitExceededError as exc:
            raise ServiceError("web search failed: the Tavily usage limit is exhausted") from exc
        except (errors.TimeoutError, TimeoutError) as exc:
            raise ServiceError(
                f"web search failed: Tavily did not answer within {settings.timeout:g} s"
            ) from exc
        except Exception as exc:  # tavily raises httpx and its own error types alike
            raise ServiceError(f"web search failed: {one_line(exc)}") from exc
        return sources_from(reply)


def sources_from(reply: dict[str, Any]) -> list[Source]:
    """Turn a Tavily ``/search`` reply into web sources; results without a URL are dropped."""
    sources: list[Source] = []
    for result in reply.get("results") or ():
        if not isinstance(result, dict):
            continue
        url = str(result.get("url") or "").strip()
        text = str(result.get("raw_content") or result.get("content") or "").strip()
        if not url or not text:
            continue
        title = str(result.get("title") or "").strip() or url
        sources.append(
            Source(
                id=len(sources) + 1,
                url=url,
                title=title,
                text=text,
                locator=Locator(start=0, end=len(text)),
                origin=Origin.WEB,
            )
        )
    return sources


def build_web_search(settings: WebSettings) -> tuple[TavilySearch | None, str | None]:
    """The web search to use, or ``None`` and the reason it is off."""
    if not settings.enabled:
        return None, "web search is disabled in settings (CITEBOT_WEB__ENABLED)"
    if settings.tavily_api_key is None or not settings.tavily_api_key.get_secret_value():
        return None, "web search is off: no Tavily API key (CITEBOT_WEB__TAVILY_API_KEY)"
    return TavilySearch(settings), None
