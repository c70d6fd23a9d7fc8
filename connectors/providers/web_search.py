"""Web search through Tavily, as ``pipeline.ports.WebSearch``.

Results keep their real URL and title: the model only ever sees short source
ids, and the footnotes are drawn from what Tavily returned. A 429 or 5xx is
asked again after Tavily's ``Retry-After`` (or a short backoff), within a few
seconds: someone is waiting for the answer.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from citations.model import Locator, Origin, Source
from connectors.errors import ServiceError, one_line
from connectors.providers.settings import WebSettings
from connectors.retry import RETRY_STATUSES, Backoff, retry_after

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("citebot.web")

_BACKOFF = Backoff(attempts=3, base=0.5, longest=5.0)
_DEFAULT_BASE_URL = "https://api.tavily.com"


class TavilySearch:
    """``WebSearch`` backed by tavily-python's ``AsyncTavilyClient``."""

    name = "tavily"

    def __init__(self, settings: WebSettings) -> None:
        # httpx (with rich, which its CLI pulls in) loads only when the web is on
        import httpx
        from tavily import AsyncTavilyClient

        if settings.tavily_api_key is None:
            # without a key the client silently switches to keyless mode
            raise ValueError("TavilySearch needs a Tavily API key")
        self._settings = settings
        self._retry_after: str | None = None
        # our own httpx client (the SDK's ``client=``) so a 429's Retry-After is readable
        http = httpx.AsyncClient(
            base_url=settings.base_url or _DEFAULT_BASE_URL,
            event_hooks={"response": [self._note_retry_after]},
        )
        self._client = AsyncTavilyClient(
            api_key=settings.tavily_api_key.get_secret_value(),
            api_base_url=settings.base_url,
            client_source="citebot",
            client=http,
        )

    async def _note_retry_after(self, response: httpx.Response) -> None:
        self._retry_after = response.headers.get("retry-after")

    async def search(self, query: str) -> list[Source]:
        import httpx
        from tavily import errors

        attempt = 0
        while True:
            try:
                return await self._search_once(query)
            except (errors.UsageLimitExceededError, httpx.HTTPStatusError) as exc:
                status = exc.response.status_code if isinstance(exc, httpx.HTTPStatusError) else 429
                if isinstance(exc, errors.TavilyKeylessLimitError) or status not in RETRY_STATUSES:
                    raise ServiceError(f"web search failed: {_status_reason(status)}") from exc
                wait = _BACKOFF.wait(attempt, retry_after(self._retry_after))
                if wait is None:
                    raise ServiceError(f"web search failed: {_status_reason(status)}") from exc
                log.info("Tavily answered %s; asking again in %.1f s", status, wait)
                # Tavily asked for this pause: it is the wait, not a poll
                await asyncio.sleep(wait)
                attempt += 1

    async def _search_once(self, query: str) -> list[Source]:
        import httpx
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
        except errors.UsageLimitExceededError:
            raise  # a 429: ``search`` asks again
        except errors.ForbiddenError as exc:
            raise ServiceError("web search failed: the Tavily usage limit is exhausted") from exc
        except (errors.TimeoutError, TimeoutError) as exc:
            raise ServiceError(
                f"web search failed: Tavily did not answer within {settings.timeout:g} s"
            ) from exc
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code in RETRY_STATUSES:
                raise  # ``search`` asks again
            raise ServiceError(
                f"web search failed: {_status_reason(exc.response.status_code)}"
            ) from exc
        except Exception as exc:  # tavily raises httpx and its own error types alike
            raise ServiceError(f"web search failed: {one_line(exc)}") from exc
        return sources_from(reply)


def _status_reason(status: int) -> str:
    if status == 429:
        return "Tavily is rate limiting (HTTP 429)"
    return f"Tavily answered HTTP {status}"


def sources_from(reply: dict[str, Any]) -> list[Source]:
    """Turn a Tavily ``/search`` reply into web sources; results without an http(s) URL
    are dropped."""
    sources: list[Source] = []
    for result in reply.get("results") or ():
        if not isinstance(result, dict):
            continue
        url = str(result.get("url") or "").strip()
        text = str(result.get("raw_content") or result.get("content") or "").strip()
        # a web result is a web page: a ``javascript:`` or ``data:`` one is an attack
        if not url.lower().startswith(("http://", "https://")) or not text:
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
