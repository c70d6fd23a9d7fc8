"""URL identity and site bounds: what counts as the same page and the same site."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urldefrag, urljoin, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize(url: str, base: str | None = None) -> str | None:
    """The canonical form of an http(s) URL without its fragment, or None for anything else."""
    raw = urljoin(base, url.strip()) if base else url.strip()
    raw, _ = urldefrag(raw)
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    try:
        port = parts.port
    except ValueError:
        return None
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


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
