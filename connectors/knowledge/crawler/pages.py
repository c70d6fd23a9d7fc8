"""What the crawler needs from an HTML page besides its text: links and robots meta."""

from __future__ import annotations

from dataclasses import dataclass

from bs4 import BeautifulSoup

from .urls import normalize


@dataclass(frozen=True, slots=True)
class PageLinks:
    links: tuple[str, ...]
    noindex: bool = False
    nofollow: bool = False


def page_links(html: str, url: str) -> PageLinks:
    soup = BeautifulSoup(html, "html.parser")
    base = url
    base_tag = soup.find("base", href=True)
    if base_tag is not None:
        base = normalize(str(base_tag["href"]), url) or url
    robots = ""
    for meta in soup.find_all("meta", attrs={"name": True, "content": True}):
        if str(meta["name"]).lower() in ("robots", "citebot"):
            robots += "," + str(meta["content"]).lower()
    directives = {d.strip() for d in robots.split(",")}
    found: dict[str, None] = {}
    for a in soup.find_all("a", href=True):
        if "nofollow" in str(a.get("rel") or "").lower():
            continue
        link = normalize(str(a["href"]), base)
        if link:
            found.setdefault(link, None)
    return PageLinks(
        tuple(found),
        noindex="noindex" in directives or "none" in directives,
        nofollow="nofollow" in directives or "none" in directives,
    )
