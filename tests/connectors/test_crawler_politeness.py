"""The crawler respects sites: RFC 9309 robots.txt, its Sitemap lines, Retry-After, and URL identity."""

from __future__ import annotations

from pathlib import Path

from connectors.knowledge.crawler.urls import normalize
from tests.connectors.test_crawler import FAST, crawl, keys
from tests.fakes.website import Website, page


async def test_robots_txt_follows_rfc_9309(tmp_path: Path) -> None:
    # Longest match wins (Allow beats the shorter Disallow), "*" and "$" are patterns.
    robots = (
        "User-agent: *\n"
        "Disallow: /docs/\n"
        "Allow: /docs/public/\n"
        "Disallow: /*.pdf$\n"
        "Disallow: /*?print=\n"
    )
    async with Website(robots) as site:
        links = ("/docs/private", "/docs/public/a", "/file.pdf", "/file.pdf.html", "/p?print=1")
        site.put("/", page("Home", ("Hi", "Start."), links=links))
        for path in links:
            site.put(path, page(path, ("S", f"Text of {path}.")))
        result = await crawl(site, tmp_path, [site.url("/")])
    fetched = keys(result)
    assert site.url("/docs/public/a") in fetched
    assert site.url("/file.pdf.html") in fetched
    assert site.url("/docs/private") not in fetched
    assert site.url("/file.pdf") not in fetched
    assert not site.requests_for("/file.pdf") and not site.requests_for("/p?print=1")


async def test_sitemap_lines_in_robots_txt_are_followed(tmp_path: Path) -> None:
    async with Website() as site:
        site.robots = f"User-agent: *\nAllow: /\nSitemap: {site.url('/sitemap.xml')}\n"
        site.put("/", page("Home", ("Hi", "No links here.")))
        site.put("/only-in-sitemap", page("Hidden", ("S", "Reachable from the sitemap.")))
        result = await crawl(site, tmp_path, [site.url("/")])
    assert site.url("/only-in-sitemap") in keys(result)


async def test_no_sitemap_discovery_when_links_are_not_followed(tmp_path: Path) -> None:
    async with Website() as site:
        site.robots = f"User-agent: *\nAllow: /\nSitemap: {site.url('/sitemap.xml')}\n"
        site.put("/", page("Home", ("Hi", "No links here.")))
        site.put("/other", page("Other", ("S", "Not asked for.")))
        settings = FAST.model_copy(update={"follow_links": False})
        result = await crawl(site, tmp_path, [site.url("/")], settings)
    assert keys(result) == {site.url("/")}


async def test_429_and_503_are_retried_after_the_time_the_site_asks(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("Hi", "Start."), links=("/busy", "/down")))
        site.put("/busy", page("Busy", ("S", "Worth the wait.")))
        site.put("/down", page("Down", ("S", "Back soon.")))
        site.failures["/busy"] = [(429, "0"), (429, "0")]
        site.failures["/down"] = [(503, "0")]
        result = await crawl(site, tmp_path, [site.url("/")])
    assert {site.url("/busy"), site.url("/down")} <= keys(result)
    assert [h.status for h in site.requests_for("/busy")] == [429, 429, 200]
    assert [h.status for h in site.requests_for("/down")] == [503, 200]
    assert not result.errors


async def test_a_site_that_stays_down_is_an_error_not_a_removal(tmp_path: Path) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("Hi", "Start."), links=("/down",)))
        site.put("/down", page("Down", ("S", "Gone for a while.")))
        site.failures["/down"] = [(503, "0")] * 10
        result = await crawl(site, tmp_path, [site.url("/")])
    assert [u for u, _ in result.errors] == [site.url("/down")]
    assert "503" in result.errors[0][1]
    assert len(site.requests_for("/down")) == 3


async def test_a_retry_after_longer_than_the_crawl_will_wait_is_not_waited_for(
    tmp_path: Path,
) -> None:
    async with Website() as site:
        site.put("/", page("Home", ("Hi", "Start."), links=("/later",)))
        site.put("/later", page("Later", ("S", "Tomorrow.")))
        site.failures["/later"] = [(429, "86400")]
        result = await crawl(site, tmp_path, [site.url("/")])
    assert [u for u, _ in result.errors] == [site.url("/later")]
    assert len(site.requests_for("/later")) == 1


async def test_one_page_under_several_spellings_is_fetched_once(tmp_path: Path) -> None:
    async with Website() as site:
        links = ("/caf%C3%A9", "/caf%c3%a9", "/café", "/x/../caf%C3%A9", "/./caf%C3%A9")
        site.put("/", page("Home", ("Hi", "Start."), links=links))
        site.put("/caf%C3%A9", page("Café", ("Menu", "Coffee.")))
        result = await crawl(site, tmp_path, [site.url("/")])
    assert site.url("/caf%C3%A9") in keys(result)
    assert len(site.requests_for("/caf%C3%A9")) == 1


def test_crawler_identity_is_the_citation_canonical_form() -> None:
    assert normalize("https://Example.com/a/../café?utm_source=x#top") == (
        "https://example.com/caf%C3%A9"
    )
    assert normalize("https://example.com/docs/") == "https://example.com/docs/"
    assert normalize("mailto:x@example.com") is None
