"""The web crawler: pages and sitemaps in, ``Document``s with deep-linkable sections out."""

from .crawl import Crawler, CrawlResult, PageParser
from .state import CrawlState, PageState
from .urls import SiteBounds, normalize

__all__ = [
    "CrawlResult",
    "CrawlState",
    "Crawler",
    "PageParser",
    "PageState",
    "SiteBounds",
    "normalize",
]
