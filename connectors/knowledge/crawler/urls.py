"""URL identity and site bounds: what counts as the same page and the same site."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urldefrag, urljoin, urlsplit

from citations.urls import canonical_url


def normalize(url: str, base: str | None = None) -> str | None:
    """The canonical form of an http(s) URL without its fragment, or None for anything else.

    The same canonical form the footnotes use (``citations.canonical_url``), so a
    page crawled under one spelling is one footnote under any other; only the
    trailing slash is kept, because a server may answer ``/docs`` and ``/docs/``
    differently and relative links resolve against it.
    """
    raw = urljoin(base, url.strip()) if base else url.strip()
    raw, _ = urldefrag(raw)
    parts = urlsplit(raw)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    try:
        parts.port  # noqa: B018 - a malformed port raises here
    except ValueError:
        return None
    return canonical_url(raw, merge_fragments=True, keep_slash=True)


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True, slots=True)
class SiteBounds:
    """The part of the web one crawl may visit: the start hosts, optionally under a path."""

    origins: frozenset[str]
    prefixes: tuple[str, ...] = ()

    @classmethod
    def around(cls, urls: list[str], *, same_prefix: bool = False) -> SiteBounds:
        prefixes: tuple[str, ...] = ()
        if same_prefix:
            prefixes = tuple(u if u.endswith("/") else u.rsplit("/", 1)[0] + "/" for u in urls)
        return cls(frozenset(origin(u) for u in urls), prefixes)

    def __contains__(self, url: object) -> bool:
        if not isinstance(url, str) or origin(url) not in self.origins:
            return False
        return not self.prefixes or any(url.startswith(p) for p in self.prefixes)
