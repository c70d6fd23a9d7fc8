"""Sitemaps (sitemaps.org 0.9): a URL set or an index of further sitemaps."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sitemap:
    pages: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()


#: sitemaps.org: "no larger than 50MB (52,428,800 bytes)" uncompressed
MAX_SITEMAP_BYTES = 52_428_800


def looks_like_sitemap(body: bytes) -> bool:
    head = _unzip(body, 4096)[:4096].lower()
    return b"<urlset" in head or b"<sitemapindex" in head


def parse_sitemap(body: bytes) -> Sitemap:
    """Parse a sitemap or sitemap index; raises ValueError when it is neither."""
    text = _unzip(body, MAX_SITEMAP_BYTES + 1)
    if len(text) > MAX_SITEMAP_BYTES:
        raise ValueError(f"larger than the {MAX_SITEMAP_BYTES:,} bytes sitemaps.org allows")
    try:
        root = ET.fromstring(text)
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


def _unzip(body: bytes, limit: int) -> bytes:
    """``body`` unzipped when it is gzip, at most ``limit`` bytes of it: a small file can
    unzip to gigabytes."""
    if body[:2] != b"\x1f\x8b":
        return body
    try:
        return zlib.decompressobj(wbits=31).decompress(body, limit)
    except zlib.error:
        return body
