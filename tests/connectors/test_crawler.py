"""The crawler against a real local HTTP site: politeness, bounds, and incremental re-crawls."""

from __future__ import annotations

import gzip
import itertools
import time
from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup

from connectors.knowledge.crawler import Crawler, CrawlResult, CrawlState
from connectors.knowledge.crawler.sitemaps import parse_sitemap
from connectors.knowledge.crawler.urls import SiteBounds, normalize
from connectors.knowledge.documents import Section
from connectors.knowledge.settings import CrawlSettings
from tests.fakes.website import Website, page

FAST = CrawlSettings(per_host_delay=0, timeout=1.0, concurrency=4)
ONE_BY_ONE = CrawlSettings(per_host_delay=0, timeout=1.0, concurrency=1)


def text_only(url: str, body: bytes, kind: str) -> tuple[str, tuple[Section, ...]]:
    """The crawler's own behaviour does not depend on the section parser; keep this one trivial."""
    soup = BeautifulSoup(body, "html.parser")
    title = soup.title.get_text() if soup.title else ""
    main = soup.find("main")
    return title, (Section((main or soup).get_text(" ", strip=True)),)


def build_site(site: Website) -> None:
    site.put(
        "/",
        page(
            "Home",
            ("Welcome", "Start here."),
            links=(
                "/guide",
                "/faq",
                "/old",
                "/private/secret",
                "/missing",
                "/file.zip",
                "https://elsewhere.example/x",
            ),
        ),
    )
    site.put("/guide", page("Guide", ("Install", "Run pip install."), links=("/",)))
    site.put("/faq", page("FAQ", ("Why", "Because."), links=("/slow",)))
    site.put("/new-home", page("Moved", ("Here", "The page moved here.")), in_sitemap=False)
    site.redirects["/old"] = "/new-home"
    site.put("/private/secret", page("Secret", ("Hidden", "Nobody may crawl this.")))
    site.put("/file.zip", b"PK\x03\x04 binary", "application/zip")
    site.slow.add("/slow")


async def crawl(
    site: Website, tmp_path: Path, seeds: list[str], settings: CrawlSettings = FAST, **kw: object
) -> CrawlResult:
    state = CrawlState.load(tmp_path, "docs")
    result = await Crawler(settings, parse=text_only, state=state, collection="docs", **kw).crawl(
        seeds
    )  # type: ignore[arg-type]
    assert result.state is not None
    result.state.save()
    return result


def keys(result: CrawlResult) -> set[str]:
    return {d.key for d in result.documents}


async def test_first_crawl_follows_links_within_the_rules(tmp_path: Path) -> None:
    async with Website() as site:
        build_site(site)
        result = await crawl(site, tmp_path, [site.url("/")])
        u = site.url
        assert keys(result) == {u("/"), u("/guide"), u("/faq"), u("/new-home")}
        assert result.added == keys(result)
        assert not site.requests_for("/private/secret"), "robots.txt Disallow was ignored"
        assert site.requests_for("/file.zip")  # fetched, then refused by content type
        reasons = dict(result.skipped)
        assert reasons[u("/private/secret")] == "disallowed by robots.txt"
        assert reasons[u("/missing")] == "HTTP 404"
        assert reasons[u("/file.zip")].startswith("not a page (application/zip")
        assert dict(result.errors) == {u("/slow"): "timed out"}
        assert all(d.collection == "docs" and d.kind == "html" for d in result.documents)
        home = next(d for d in result.documents if d.key == u("/"))
        assert home.title == "Home"
        assert "Copyright" not in home.sections[0].text
        assert all(not h.path.startswith("/x") for h in site.hits)  # off-site link not followed


async def test_recrawl_is_conditional_and_reports_new_changed_and_removed(tmp_path: Path) -> None:
    async with Website() as site:
        build_site(site)
        first = await crawl(site, tmp_path, [site.url("/")])
        assert len(first.documents) == 4

        site.put(
            "/guide", page("Guide", ("Install", "Run uv sync instead."), links=("/", "/extra"))
        )
        site.put("/extra", page("Extra", ("More", "A new page.")))
        site.delete("/faq")
        site.hits.clear()
        second = await crawl(site, tmp_path, [site.url("/")])

        u = site.url
        assert second.added == {u("/extra")}
        assert second.changed == {u("/guide")}
        assert second.unchanged == {u("/"), u("/new-home")}
        assert second.removed == {u("/faq")}
        home = site.requests_for("/")
        assert home[0].status == 304 and home[0].headers.get("If-None-Match")
        # /slow was only linked from /faq, which is gone: it is not visited again
        assert not site.requests_for("/slow")

        third = await crawl(site, tmp_path, [site.url("/")])
        assert not third.documents and not third.removed
        assert len(third.unchanged) == 4


async def test_same_text_under_a_new_etag_is_unchanged(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("A", "Same words.")))
        await crawl(site, tmp_path, [site.url("/")])
        site.put("/", page("Home", ("A", "Same words."), extra="<meta name='build' content='2'>"))
        again = await crawl(site, tmp_path, [site.url("/")])
        assert site.requests_for("/")[-1].status == 200
        assert again.unchanged == {site.url("/")} and not again.documents


async def test_validators_are_not_sent_for_pages_the_store_lost(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("A", "Words.")))
        await crawl(site, tmp_path, [site.url("/")])
        again = await crawl(site, tmp_path, [site.url("/")], known=set())
        assert "If-None-Match" not in site.requests_for("/")[-1].headers
        assert again.added == {site.url("/")}


async def test_sitemap_index_defines_the_pages_and_drops_are_removed(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/a", page("A", ("One", "First."), links=("/unlisted",)))
        site.put("/b", page("B", ("Two", "Second.")))
        site.put("/unlisted", page("U", ("Three", "Not in the sitemap.")), in_sitemap=False)
        first = await crawl(site, tmp_path, [site.url("/sitemap.xml")])
        assert keys(first) == {site.url("/a"), site.url("/b")}

        site.resources["/b"].in_sitemap = False
        second = await crawl(site, tmp_path, [site.url("/sitemap.xml")])
        assert second.removed == {site.url("/b")}
        assert second.unchanged == {site.url("/a")}


async def test_page_cap_stops_the_crawl_and_removes_nothing(tmp_path: Path) -> None:
    async with Website() as site:
        links = tuple(f"/p{i}" for i in range(10))
        site.put("/", page("Home", ("A", "Index."), links=links))
        for path in links:
            site.put(path, page(path, ("S", f"Page {path}.")))
        await crawl(site, tmp_path, [site.url("/")])
        capped = await crawl(
            site, tmp_path, [site.url("/")], CrawlSettings(per_host_delay=0, max_pages=3)
        )
        assert capped.truncated
        assert len(capped.unchanged) + len(capped.documents) == 3
        assert not capped.removed
        # the next full crawl still knows every page
        full = await crawl(site, tmp_path, [site.url("/")])
        assert len(full.unchanged) == 11


async def test_gone_410_and_redirect_off_site_remove_the_page(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("A", "Index."), links=("/a", "/b")))
        site.put("/a", page("A", ("S", "a")))
        site.put("/b", page("B", ("S", "b")))
        await crawl(site, tmp_path, [site.url("/")])
        site.gone.add("/a")
        site.redirects["/b"] = "https://elsewhere.example/b"
        again = await crawl(site, tmp_path, [site.url("/")])
        assert again.removed == {site.url("/a"), site.url("/b")}
        assert CrawlState.load(tmp_path, "docs").pages.keys() == {site.url("/")}


class SendTimes(httpx.AsyncBaseTransport):
    """The real HTTP transport, noting when the crawler hands it each request.

    The site notes arrivals, which a busy machine can bunch up (a new connection takes
    longer to arrive than a reused one); the crawler's politeness is about when it sends.
    """

    def __init__(self) -> None:
        self.sent: list[tuple[str, float]] = []
        self._real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.url.path, time.monotonic()))
        return await self._real.handle_async_request(request)

    async def aclose(self) -> None:
        await self._real.aclose()


async def test_requests_to_one_host_are_spaced(tmp_path: Path) -> None:
    async with Website() as site:
        links = tuple(f"/p{i}" for i in range(4))
        site.put("/", page("Home", ("A", "Index."), links=links))
        for path in links:
            site.put(path, page(path, ("S", path)))
        sends = SendTimes()
        settings = CrawlSettings(per_host_delay=0.05, concurrency=8)
        await crawl(site, tmp_path, [site.url("/")], settings, transport=sends)
        pages = [path for path, _ in sends.sent if path != "/robots.txt"]
        assert sorted(pages) == ["/", *links], "every page asked once, robots.txt apart"
        starts = sorted(at for path, at in sends.sent if path != "/robots.txt")
        gaps = [b - a for a, b in itertools.pairwise(starts)]
        assert min(gaps) >= 0.04, gaps


async def test_noindex_and_nofollow_are_honoured(tmp_path: Path) -> None:
    async with Website() as site:
        site.put(
            "/",
            page(
                "Home",
                ("A", "Index."),
                links=("/hidden",),
                extra='<meta name="robots" content="noindex">',
            ),
        )
        site.put(
            "/hidden",
            page(
                "H",
                ("S", "Reached through a noindex page."),
                extra='<meta name="robots" content="nofollow">',
            ),
        )
        result = await crawl(site, tmp_path, [site.url("/")])
        assert keys(result) == {site.url("/hidden")}


def test_urls_are_canonical_and_bounded() -> None:
    assert normalize("HTTP://Example.COM:80/a#x") == "http://example.com/a"
    assert normalize("/b?q=1", "https://example.com/a") == "https://example.com/b?q=1"
    assert normalize("mailto:x@example.com") is None
    bounds = SiteBounds.around(["https://example.com/docs/intro"], same_prefix=True)
    assert "https://example.com/docs/other" in bounds
    assert "https://example.com/blog" not in bounds
    assert "https://other.example.com/docs/x" not in bounds


def test_sitemap_parsing_rejects_other_xml() -> None:
    assert parse_sitemap(b"<urlset><url><loc> https://x.test/a </loc></url></urlset>").pages == (
        "https://x.test/a",
    )
    with pytest.raises(ValueError):
        parse_sitemap(b"<rss></rss>")
    with pytest.raises(ValueError):
        parse_sitemap(b"not xml")


async def test_progress_counts_pages_as_the_crawl_goes(tmp_path: Path) -> None:
    from connectors.knowledge.crawler.crawl import CrawlProgress

    seen: list[CrawlProgress] = []
    async with Website() as site:
        links = tuple(f"/p{i}" for i in range(6))
        site.put("/", page("Home", ("A", "Index."), links=(*links, "/missing")))
        for path in links:
            site.put(path, page(path, ("S", f"Page {path}.")))
        await crawl(site, tmp_path, [site.url("/")], on_progress=seen.append)
    assert [p.fetched for p in seen] == list(range(1, 9))  # one report per page, in order
    assert seen[0].queued == 7  # the home page's links, queued before the next report
    assert seen[-1].queued == 0 and seen[-1].skipped == 1  # /missing is a 404


def _index(*paths: str, site: Website) -> bytes:
    locs = "".join(f"<sitemap><loc>{site.url(p)}</loc></sitemap>" for p in paths)
    return f"<sitemapindex>{locs}</sitemapindex>".encode()


async def test_a_sitemap_index_names_sitemaps_of_pages_not_more_indexes(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/a", page("A", ("One", "First.")), in_sitemap=False)
        # an index that names an index that names an index ...: a loop or a trap
        for n in range(50):
            site.put(f"/idx{n}.xml", _index(f"/idx{n + 1}.xml", site=site), "application/xml")
        result = await crawl(site, tmp_path, [site.url("/idx0.xml"), site.url("/a")])
        assert keys(result) == {site.url("/a")}
        assert (site.url("/idx1.xml"), "a sitemap index listed by a sitemap index") in (
            result.skipped
        )
        assert not site.requests_for("/idx2.xml")


async def test_no_more_sitemaps_are_read_than_pages_may_be(tmp_path: Path) -> None:
    async with Website() as site:
        many = [f"/s{n}.xml" for n in range(30)]
        site.put("/index.xml", _index(*many, site=site), "application/xml")
        for path in many:
            site.put(path, b"<urlset></urlset>", "application/xml")
        capped = CrawlSettings(per_host_delay=0, timeout=1.0, concurrency=4, max_pages=5)
        result = await crawl(site, tmp_path, [site.url("/index.xml")], capped)
        fetched = [p for p in many if site.requests_for(p)]
        assert len(fetched) == 5, "the page cap bounds the sitemaps read too"
        assert (site.url("/index.xml"), "lists more sitemaps than crawl.max_pages") in (
            result.skipped
        )


async def test_a_gzipped_sitemap_is_read_and_a_zip_bomb_is_not_unpacked(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/a", page("A", ("One", "First.")), in_sitemap=False)
        listing = f"<urlset><url><loc>{site.url('/a')}</loc></url></urlset>".encode()
        site.put("/sitemap.xml.gz", gzip.compress(listing), "application/gzip")
        result = await crawl(site, tmp_path, [site.url("/sitemap.xml.gz")])
        assert keys(result) == {site.url("/a")}
    # sitemaps.org's limit is 50 MB unpacked; this unpacks to 60 MB from 60 KB
    bomb = gzip.compress(b"<urlset>" + b" " * 60_000_000 + b"</urlset>")
    assert len(bomb) < 100_000
    with pytest.raises(ValueError, match="52,428,800 bytes"):
        parse_sitemap(bomb)


async def test_one_page_served_under_several_urls_is_one_document(tmp_path: Path) -> None:
    async with Website() as site:
        guide = page("Guide", ("Install", "Run pip install."), links=("/",))
        for path in ("/docs/index.html", "/docs", "/docs/"):
            site.put(path, guide, in_sitemap=False)
        u = site.url
        site.put("/", page("Home", ("Welcome", "Start."), links=("/docs/index.html", "/docs/")))
        # one at a time, in link order: the longer URL is read first and gives way
        first = await crawl(site, tmp_path, [u("/")], ONE_BY_ONE)
        assert keys(first) == first.added == {u("/"), u("/docs/")}  # the shorter URL
        assert (u("/docs/index.html"), f"the same text as {u('/docs/')}") in first.skipped

        # a link to an even shorter spelling: the store's page stays, nothing is re-added
        site.put(
            "/", page("Home", ("Welcome", "Start."), links=("/docs", "/docs/", "/docs/index.html"))
        )
        again = await crawl(site, tmp_path, [u("/")], ONE_BY_ONE)
        assert keys(again) == set() and not again.added
        assert again.unchanged == {u("/"), u("/docs/")} and not again.removed
        assert {url for url, _ in again.skipped} == {u("/docs"), u("/docs/index.html")}


async def test_two_stored_pages_that_come_to_read_the_same_become_one(tmp_path: Path) -> None:
    async with Website() as site:
        u = site.url
        site.put("/", page("Home", ("Welcome", "Start."), links=("/docs/", "/docs")))
        site.put("/docs/", page("Guide", ("Install", "Run pip install.")), in_sitemap=False)
        site.put("/docs", page("Old guide", ("Install", "Run setup.py.")), in_sitemap=False)
        first = await crawl(site, tmp_path, [u("/")], ONE_BY_ONE)
        assert keys(first) == {u("/"), u("/docs/"), u("/docs")}

        site.put("/docs", page("Guide", ("Install", "Run pip install.")), in_sitemap=False)
        again = await crawl(site, tmp_path, [u("/")], ONE_BY_ONE)
        # both are stored: the shorter stays, changed; the other was unchanged and goes
        assert keys(again) == {u("/docs")} and again.unchanged == {u("/")}
        assert again.removed == {u("/docs/")}
