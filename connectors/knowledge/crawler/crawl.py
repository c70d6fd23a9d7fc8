"""The crawler: start URLs or sitemaps in, new and changed ``Document``s out.

It is polite (robots.txt per RFC 9309 and its Sitemap lines, a gap between
requests to one host, 429 and 5xx retried after the site's Retry-After, a page cap),
stays on the start sites, and is incremental: it sends the validators the
last crawl saw (ETag, Last-Modified), treats a 304 or an identical text hash
as unchanged, and reports pages that are gone (404/410, dropped from the
sitemap, no longer linked) so the caller can remove their chunks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field

import httpx

from connectors.knowledge.documents import Document, Section, full_text
from connectors.knowledge.settings import CrawlSettings
from connectors.retry import RETRY_STATUSES, Backoff, retry_after

from .pages import page_links
from .robots import RobotsCache, Unreachable
from .sitemaps import looks_like_sitemap, parse_sitemap
from .state import CrawlState, PageState
from .throttle import HostThrottle
from .urls import SiteBounds, normalize, origin

log = logging.getLogger("citebot.crawler")

#: ``(url, body, content_type) -> (title, sections)``; raises ValueError for an unreadable body.
PageParser = Callable[[str, bytes, str], tuple[str, tuple[Section, ...]]]

_HTML = ("text/html", "application/xhtml+xml")
_PDF = ("application/pdf",)
#: a sitemap, or a gzipped one (sitemap.xml.gz)
_XML = ("application/xml", "text/xml", "application/gzip", "application/x-gzip")
_MAX_REDIRECTS = 5


@dataclass(frozen=True, slots=True)
class CrawlProgress:
    """Counts as the crawl goes, for a person watching it."""

    fetched: int
    queued: int
    skipped: int
    failed: int


#: a crawl can wait for a busy site, but not for one that asks for minutes
_BACKOFF = Backoff(attempts=3, base=0.5, longest=10.0)


@dataclass(slots=True)
class CrawlResult:
    """What changed since the last crawl. ``state`` is saved by the caller once the store agrees."""

    collection: str
    documents: list[Document] = field(default_factory=list)
    added: set[str] = field(default_factory=set)
    unchanged: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    truncated: bool = False
    state: CrawlState | None = None

    @property
    def changed(self) -> set[str]:
        return {d.key for d in self.documents} - self.added

    def summary(self) -> str:
        parts = [
            f"{len(self.added)} new",
            f"{len(self.changed)} changed",
            f"{len(self.unchanged)} unchanged",
            f"{len(self.removed)} removed",
            f"{len(self.skipped)} skipped",
        ]
        if self.errors:
            parts.append(f"{len(self.errors)} failed")
        text = ", ".join(parts)
        return text + (" (page cap reached)" if self.truncated else "")


@dataclass(frozen=True, slots=True)
class _Visit:
    url: str
    depth: int
    follow: bool


class _Gone(Exception):
    pass


class _Skip(Exception):
    pass


class _Failed(Exception):
    pass


class Crawler:
    def __init__(
        self,
        settings: CrawlSettings,
        *,
        parse: PageParser,
        state: CrawlState,
        collection: str = "default",
        known: Container[str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        on_progress: Callable[[CrawlProgress], None] | None = None,
    ) -> None:
        self.settings = settings
        self._on_progress = on_progress
        self._parse = parse
        self._old = state
        self._collection = collection
        self._known = known
        self._transport = transport

    async def crawl(self, seeds: Sequence[str]) -> CrawlResult:
        starts = []
        for seed in seeds:
            url = normalize(seed)
            if url is None:
                raise ValueError(f"not an http(s) URL: {seed}")
            starts.append(url)
        self._bounds = SiteBounds.around(starts, same_prefix=self.settings.same_prefix)
        self._result = CrawlResult(self._collection)
        self._pages: dict[str, PageState] = {}
        self._kept: set[str] = set()
        self._seen: set[str] = set()
        #: a page's text hash -> the URL that keeps that text
        self._texts: dict[str, str] = {}
        self._budget = self.settings.max_pages
        #: the sitemaps an index named
        self._listed: set[str] = set()
        self._visited = 0
        self._queue: asyncio.Queue[_Visit] = asyncio.Queue()
        self._throttle = HostThrottle(self.settings.per_host_delay)
        async with httpx.AsyncClient(
            headers={"User-Agent": self.settings.user_agent},
            timeout=httpx.Timeout(self.settings.timeout),
            follow_redirects=False,
            transport=self._transport,
        ) as client:
            self._client = client
            self._robots = RobotsCache(client, self.settings.user_agent)
            for url in starts:
                self._enqueue(url, 0, self.settings.follow_links)
            if self.settings.follow_links:
                await self._robots_sitemaps(starts)
            workers = [asyncio.create_task(self._work()) for _ in range(self.settings.concurrency)]
            try:
                await self._queue.join()
            finally:
                for worker in workers:
                    worker.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
        return self._finish()

    async def _robots_sitemaps(self, starts: Sequence[str]) -> None:
        """Read the sitemaps a start site lists in its robots.txt, as if they were given."""
        for site in dict.fromkeys(origin(u) for u in starts):
            for listed in await self._robots.sitemaps(site):
                target = normalize(listed, site)
                if target:
                    self._enqueue(target, 0, False)

    def _enqueue(self, url: str, depth: int, follow: bool) -> None:
        if url in self._seen or url not in self._bounds:
            return
        self._seen.add(url)
        self._queue.put_nowait(_Visit(url, depth, follow))

    async def _work(self) -> None:
        while True:
            visit = await self._queue.get()
            try:
                await self._visit(visit)
            except Exception as exc:  # one bad page must not end the crawl
                log.warning("crawling %s failed: %s", visit.url, exc, exc_info=True)
                self._fail(visit.url, f"{type(exc).__name__}: {exc}")
            finally:
                self._visited += 1
                if self._on_progress is not None:
                    self._on_progress(
                        CrawlProgress(
                            fetched=self._visited,
                            queued=self._queue.qsize(),
                            skipped=len(self._result.skipped),
                            failed=len(self._result.errors),
                        )
                    )
                self._queue.task_done()

    async def _visit(self, visit: _Visit) -> None:
        url = visit.url
        try:
            response, url = await asyncio.wait_for(self._fetch(url), self.settings.timeout)
        except _Skip as skip:
            self._result.skipped.append((visit.url, str(skip)))
            return
        except _Gone as gone:
            self._gone(visit.url, str(gone))
            return
        except Unreachable as exc:
            self._fail(visit.url, str(exc))
            return
        except (TimeoutError, httpx.TimeoutException):
            self._fail(visit.url, "timed out")
            return
        except _Failed as exc:
            self._fail(visit.url, str(exc))
            return
        except httpx.HTTPError as exc:
            self._fail(visit.url, f"{type(exc).__name__}: {exc}")
            return
        status, headers, body = response
        old = self._old.pages.get(url)
        if status == 304:
            if old is None:
                self._fail(visit.url, "304 Not Modified for a page never seen")
                return
            self._follow(old.links, visit)
            if self._same_text(url, old.content_hash):
                return
            self._pages[url] = old
            self._result.unchanged.add(url)
            return
        kind = _kind(headers) or "text/html"
        if kind in _XML or (kind not in _HTML + _PDF and looks_like_sitemap(body)):
            self._budget += 1  # sitemaps are not pages
            self._sitemap(url, body, listed=visit.url in self._listed)
            return
        links: tuple[str, ...] = ()
        if kind in _HTML:
            found = page_links(body.decode(_charset(headers), "replace"), url)
            links = () if found.nofollow else found.links
            if found.noindex:
                self._follow(links, visit)
                self._drop(url, "noindex")
                return
        try:
            title, sections = self._parse(url, body, kind)
        except ValueError as exc:  # corrupt or unreadable: like a page that is not there
            self._follow(links, visit)
            self._drop(url, f"unreadable: {exc}")
            return
        if not any(s.text.strip() for s in sections):
            self._follow(links, visit)
            self._drop(url, "no text")
            return
        digest = Document.hash_of(title + "\n" + full_text(sections))
        if self._same_text(url, digest):
            self._follow(links, visit)
            return
        page = PageState(
            headers.get("etag"), headers.get("last-modified"), digest, list(links), title
        )
        self._pages[url] = page
        self._follow(links, visit)
        if old is not None and old.content_hash == digest and self._holds(url):
            self._result.unchanged.add(url)
            return
        if old is None or not self._holds(url):
            self._result.added.add(url)
        self._result.documents.append(
            Document(
                key=url,
                url=url,
                title=title or url,
                sections=sections,
                kind="pdf" if kind in _PDF else "html",
                collection=self._collection,
                content_hash=digest,
                metadata={"source": "web"},
            )
        )

    async def _fetch(self, url: str) -> tuple[tuple[int, httpx.Headers, bytes], str]:
        """GET with redirects followed only inside the site and past robots.txt."""
        start = url
        for _ in range(_MAX_REDIRECTS + 1):
            site = origin(url)
            if not await self._robots.allowed(url, site):
                raise _Gone("disallowed by robots.txt")
            if url != start and url in self._seen:
                raise _Skip(f"redirects to {url}, crawled already")
            if url != start:
                self._seen.add(url)
            await self._throttle.wait(site, await self._robots.delay(site))
            response = await self._get(url)
            status, headers, _ = response
            if status in (301, 302, 303, 307, 308) and "location" in headers:
                target = normalize(headers["location"], url)
                if target is None or target not in self._bounds:
                    raise _Gone(f"redirects off the site to {headers['location']}")
                url = target
                continue
            if status in (404, 410):
                raise _Gone(f"HTTP {status}")
            if status >= 400:
                raise _Failed(f"HTTP {status}")
            if self._budget <= 0:
                self._result.truncated = True
                raise _Skip("page cap reached")
            self._budget -= 1
            return response, url
        raise _Skip("too many redirects")

    async def _get(self, url: str) -> tuple[int, httpx.Headers, bytes]:
        """One page, asked again after a 429 or 5xx as long as the site's wait is reasonable."""
        attempt = 0
        while True:
            status, headers, body = await self._get_once(url)
            if status not in RETRY_STATUSES:
                return status, headers, body
            wait = _BACKOFF.wait(attempt, retry_after(headers.get("retry-after")))
            if wait is None:
                return status, headers, body
            log.info("%s answered %s; asking again in %.1f s", url, status, wait)
            # the site asked for this pause: it is the wait, not a poll
            await asyncio.sleep(wait)
            attempt += 1

    async def _get_once(self, url: str) -> tuple[int, httpx.Headers, bytes]:
        headers = {}
        old = self._old.pages.get(url)
        if old is not None and self._holds(url):
            if old.etag:
                headers["If-None-Match"] = old.etag
            if old.last_modified:
                headers["If-Modified-Since"] = old.last_modified
        async with self._client.stream("GET", url, headers=headers) as response:
            if response.status_code != 200:
                return response.status_code, response.headers, b""
            kind = _kind(response.headers)
            if kind and kind not in _HTML + _PDF + _XML:
                raise _Gone(f"not a page ({kind})")
            size = int(response.headers.get("content-length") or 0)
            if size > self.settings.max_bytes:
                raise _Skip(f"larger than {self.settings.max_bytes:,} bytes")
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > self.settings.max_bytes:
                    raise _Skip(f"larger than {self.settings.max_bytes:,} bytes")
            return 200, response.headers, bytes(body)

    def _sitemap(self, url: str, body: bytes, *, listed: bool) -> None:
        """``listed``: an index named this sitemap, and an index names sitemaps of pages only
        (sitemaps.org), so what this one lists is not read as further sitemaps."""
        try:
            found = parse_sitemap(body)
        except ValueError as exc:
            self._result.skipped.append((url, str(exc)))
            return
        if listed and found.sitemaps:
            self._result.skipped.append((url, "a sitemap index listed by a sitemap index"))
            return
        for child in found.sitemaps:
            target = normalize(child, url)
            if not target:
                continue
            if len(self._listed) >= self.settings.max_pages:
                # each lists a page at least: more of them than pages allowed is a trap
                self._result.skipped.append((url, "lists more sitemaps than crawl.max_pages"))
                break
            self._listed.add(target)
            self._enqueue(target, 0, False)
        for page in found.pages:
            target = normalize(page, url)
            if target:
                # the sitemap is the list of pages: what it drops is gone
                self._enqueue(target, 0, False)

    def _follow(self, links: Sequence[str], visit: _Visit) -> None:
        if visit.follow and visit.depth < self.settings.max_depth:
            for link in links:
                self._enqueue(link, visit.depth + 1, True)

    def _same_text(self, url: str, digest: str) -> bool:
        """Whether ``url`` gives way to a page of the same text (``/docs/``, ``/docs`` and
        ``/docs/index.html`` of one server), and is dropped; the page kept is the one the
        store holds already, else the shortest URL, so a second crawl keeps what the first did.
        """
        first = self._texts.setdefault(digest, url)
        if first == url:
            return False
        keep, drop = sorted((first, url), key=lambda u: (u not in self._old.pages, len(u), u))
        self._texts[digest] = keep
        result = self._result
        result.documents = [d for d in result.documents if d.key != drop]
        result.added.discard(drop)
        result.unchanged.discard(drop)
        self._drop(drop, f"the same text as {keep}")
        return drop == url

    def _holds(self, url: str) -> bool:
        return self._known is None or url in self._known

    def _gone(self, url: str, reason: str) -> None:
        if url in self._old.pages:
            self._result.removed.add(url)
        self._result.skipped.append((url, reason))

    def _drop(self, url: str, reason: str) -> None:
        self._pages.pop(url, None)
        self._gone(url, reason)

    def _fail(self, url: str, reason: str) -> None:
        self._result.errors.append((url, reason))
        old = self._old.pages.get(url)
        if old is not None:
            # a transient failure is not a deletion: keep the page and what it linked to
            self._kept.add(url)
            self._pages[url] = old

    def _finish(self) -> CrawlResult:
        result = self._result
        reached = set(self._pages)
        previous = {u for u in self._old.pages if u in self._bounds}
        if not result.truncated:
            result.removed |= previous - reached - self._kept
        # pages this crawl did not judge (other sites, or beyond the page cap) keep their state
        pages = {
            u: p
            for u, p in self._old.pages.items()
            if u not in self._bounds or (result.truncated and u not in result.removed)
        }
        pages.update({u: p for u, p in self._pages.items() if u not in result.removed})
        result.state = CrawlState(self._old.path, pages)
        return result


def _kind(headers: httpx.Headers) -> str:
    return str(headers.get("content-type", "")).split(";")[0].strip().lower()


def _charset(headers: httpx.Headers) -> str:
    for part in str(headers.get("content-type", "")).split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            return value.strip('"')
    return "utf-8"
