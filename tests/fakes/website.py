"""A small website on 127.0.0.1 for crawler tests, speaking real HTTP (aiohttp).

Pages can be added, changed and deleted between crawls. It answers
conditional requests (ETag / Last-Modified → 304), serves robots.txt and a
sitemap index generated from its pages, redirects, and has a page that never
answers until the site is closed (for timeouts).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime

from aiohttp import web


@dataclass
class Resource:
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    modified: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    in_sitemap: bool = True

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha1(self.body).hexdigest()[:16] + '"'


@dataclass(frozen=True)
class Hit:
    path: str
    status: int
    headers: dict[str, str]
    at: float


def page(
    title: str, *sections: tuple[str, str], links: tuple[str, ...] = (), extra: str = ""
) -> bytes:
    """An HTML page with a nav (boilerplate the crawler must drop) and one h2 per section."""
    nav = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    body = "".join(f"<h2>{heading}</h2><p>{text}</p>" for heading, text in sections)
    return (
        f"<!doctype html><html><head><title>{title}</title>{extra}</head><body>"
        f"<nav>{nav}</nav><main><h1>{title}</h1>{body}</main>"
        f"<footer>Copyright Example Corp</footer><script>var x = 1;</script></body></html>"
    ).encode()


class Website:
    def __init__(self, robots: str = "User-agent: *\nDisallow: /private/\n") -> None:
        self.resources: dict[str, Resource] = {}
        self.redirects: dict[str, str] = {}
        self.gone: set[str] = set()
        self.slow: set[str] = set()
        #: path -> (status, Retry-After) answers to give, in order, before the page itself
        self.failures: dict[str, list[tuple[int, str | None]]] = {}
        self.robots = robots
        self.hits: list[Hit] = []
        self._release = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.base = ""
        self._clock = datetime(2026, 1, 1, tzinfo=UTC)

    def put(
        self,
        path: str,
        body: bytes,
        content_type: str = "text/html; charset=utf-8",
        *,
        in_sitemap: bool = True,
    ) -> None:
        self._clock += timedelta(minutes=1)
        self.resources[path] = Resource(body, content_type, self._clock, in_sitemap)

    def delete(self, path: str) -> None:
        self.resources.pop(path, None)

    def url(self, path: str) -> str:
        return self.base + path

    def requests_for(self, path: str) -> list[Hit]:
        return [h for h in self.hits if h.path == path]

    async def __aenter__(self) -> Website:
        app = web.Application()
        app.router.add_route("GET", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._release.set()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        arrived = asyncio.get_running_loop().time()
        response = await self._respond(request)
        self.hits.append(Hit(request.path_qs, response.status, dict(request.headers), arrived))
        return response

    async def _respond(self, request: web.Request) -> web.StreamResponse:
        path = request.path_qs
        if path == "/robots.txt":
            return web.Response(text=self.robots, content_type="text/plain")
        if path == "/sitemap.xml":
            return self._xml(self._index())
        if path == "/sitemap-pages.xml":
            return self._xml(self._urlset())
        if self.failures.get(path):
            status, after = self.failures[path].pop(0)
            headers = {"Retry-After": after} if after is not None else {}
            return web.Response(status=status, text="not now", headers=headers)
        if path in self.slow:
            await self._release.wait()
            return web.Response(text="too late", content_type="text/html")
        if path in self.redirects:
            raise web.HTTPMovedPermanently(location=self.redirects[path])
        if path in self.gone:
            return web.Response(status=410, text="gone")
        resource = self.resources.get(path)
        if resource is None:
            return web.Response(status=404, text="not found")
        last_modified = format_datetime(resource.modified, usegmt=True)
        headers = {"ETag": resource.etag, "Last-Modified": last_modified}
        if request.headers.get("If-None-Match") == resource.etag:
            return web.Response(status=304, headers=headers)
        since = request.headers.get("If-Modified-Since")
        if (
            since
            and "If-None-Match" not in request.headers
            and parsedate_to_datetime(since) >= resource.modified
        ):
            return web.Response(status=304, headers=headers)
        return web.Response(
            body=resource.body, headers={**headers, "Content-Type": resource.content_type}
        )

    def _xml(self, text: str) -> web.Response:
        return web.Response(text=text, content_type="application/xml")

    def _index(self) -> str:
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<sitemap><loc>{self.base}/sitemap-pages.xml</loc></sitemap></sitemapindex>"
        )

    def _urlset(self) -> str:
        locs = "".join(
            f"<url><loc>{self.base}{path}</loc></url>"
            for path, resource in sorted(self.resources.items())
            if resource.in_sitemap
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
        )


@contextlib.contextmanager
def running_in_thread(site: Website) -> Iterator[Website]:
    """Serve ``site`` from its own event loop, for synchronous callers such as CliRunner."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        asyncio.run_coroutine_threadsafe(site.__aenter__(), loop).result(10)
        yield site
    finally:
        asyncio.run_coroutine_threadsafe(site.__aexit__(None, None, None), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
