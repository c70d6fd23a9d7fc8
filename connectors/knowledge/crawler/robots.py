"""robots.txt, fetched once per origin and cached for the crawl.

Read with protego, which follows RFC 9309 (``*`` and ``$`` patterns, the longest
match wins, ``Allow`` included) where the standard library's parser does not.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
from protego import Protego

log = logging.getLogger("citebot.crawler")


class Unreachable(Exception):
    """robots.txt could not be read, so the origin must not be crawled this time."""


class RobotsCache:
    def __init__(self, client: httpx.AsyncClient, user_agent: str) -> None:
        self._client = client
        self._agent = user_agent
        self._rules: dict[str, Protego | Unreachable] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def rules(self, origin: str) -> Protego:
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin not in self._rules:
                self._rules[origin] = await self._fetch(origin)
        found = self._rules[origin]
        if isinstance(found, Unreachable):
            raise found
        return found

    async def allowed(self, url: str, origin: str) -> bool:
        return bool((await self.rules(origin)).can_fetch(url, self._agent))

    async def delay(self, origin: str) -> float:
        try:
            value = (await self.rules(origin)).crawl_delay(self._agent)
        except Unreachable:
            return 0.0
        return float(value) if value else 0.0

    async def sitemaps(self, origin: str) -> list[str]:
        """The ``Sitemap:`` lines of the origin's robots.txt (none if it is unreachable)."""
        try:
            return list((await self.rules(origin)).sitemaps)
        except Unreachable:
            return []

    async def _fetch(self, origin: str) -> Protego | Unreachable:
        try:
            response = await self._client.get(origin + "/robots.txt", follow_redirects=True)
        except httpx.HTTPError as exc:
            log.warning("robots.txt of %s unreachable (%s); not crawling it", origin, exc)
            return Unreachable(f"robots.txt unreachable: {type(exc).__name__}")
        if response.status_code >= 500:
            return Unreachable(f"robots.txt answered {response.status_code}")
        # RFC 9309: a 4xx robots.txt means no restrictions
        return Protego.parse(response.text if response.status_code < 400 else "")
