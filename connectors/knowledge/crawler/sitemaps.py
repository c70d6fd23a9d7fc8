"""Sitemaps (sitemaps.org 0.9): a URL set or an index of further sitemaps."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sitemap:
    pages: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()


def looks_like_sitemap(body: bytes) -> bool:
    head = _unzip(body)[:4096].lower()
    return b"<urlset" in head or b"<sitemapindex" in head


def parse_sitemap(body: bytes) -> Sitemap:
    """Parse a sitemap or sitemap index; raises ValueError when it is neither."""
    try:
        root = ET.fromstring(_unzip(body))
    except ET.ParseError as exc:
        raise ValueError(f"not a sitemap: {exc}") from None
    kind = _local(root.tag)
    if kind not in ("urlset", "sitemapindex"):
        raise ValueError(f"not a sitemap: root element <{kind}>")
    locs = tuple(
        el.text.strip()
        for el in root.iter()
        if _local(el.tag) == "loc" and el.text and el.text.strip()
    )
    return Sitemap(pages=locs) if kind == "urlset" else Sitemap(sitemaps=locs)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _unzip(body: bytes) -> bytes:
    if body[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(body)
        except OSError:
            return body
    return body
