"""Web pages and sitemaps as a knowledge source: crawl, then ingest what changed.

``ingest_web`` runs the crawler with the validators of the last crawl, hands
new and changed pages to the ``Ingestor``, removes the pages that are gone,
and only then saves the crawl state, so a failed write is redone next time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from connectors.knowledge.crawler import Crawler, CrawlResult, CrawlState
from connectors.knowledge.documents import Section
from connectors.knowledge.ingest import Ingestor, IngestReport
from connectors.knowledge.progress import CrawlBar
from connectors.knowledge.settings import CrawlSettings
from connectors.knowledge.store import Manifest

__all__ = ["WebReport", "ingest_web", "is_web_source", "parse_page"]

SOURCE = "web"


def is_web_source(arg: str) -> bool:
    return arg.startswith(("http://", "https://"))


def parse_page(url: str, body: bytes, kind: str) -> tuple[str, tuple[Section, ...]]:
    """An HTML page or a PDF, read by the same parsers as files in a folder."""
    if kind == "application/pdf":
        from connectors.knowledge.parsing.pdf import parse_pdf

        return parse_pdf(body, url.rstrip("/").rsplit("/", 1)[-1] or url)
    from connectors.knowledge.parsing.html import parse_html

    return parse_html(_decode(body), url)


@dataclass(slots=True)
class WebReport:
    crawl: CrawlResult
    ingest: IngestReport

    def summary(self) -> str:
        line = (
            f"{len(self.crawl.added)} new, {len(self.crawl.changed)} changed, "
            f"{len(self.crawl.unchanged)} unchanged, {self.ingest.removed} removed pages; "
            f"{self.ingest.chunks} chunks written"
        )
        notes = []
        if self.crawl.skipped:
            notes.append(f"{len(self.crawl.skipped)} skipped")
        if self.crawl.errors:
            notes.append(f"{len(self.crawl.errors)} failed")
        if self.crawl.truncated:
            notes.append("page cap reached")
        return line + (f" ({', '.join(notes)})" if notes else "")


async def ingest_web(
    seeds: Sequence[str],
    *,
    ingestor: Ingestor,
    settings: CrawlSettings,
    collection: str,
    transport: httpx.AsyncBaseTransport | None = None,
) -> WebReport:
    data_dir = ingestor.data_dir.path
    state = CrawlState.load(data_dir, collection)
    bar = CrawlBar(label=", ".join(seeds), enabled=ingestor.progress)
    crawler = Crawler(
        settings,
        parse=parse_page,
        state=state,
        collection=collection,
        known=_stored_keys(data_dir, ingestor.store.kind, collection),
        transport=transport,
        on_progress=bar,
    )
    try:
        crawl = await crawler.crawl(seeds)
    finally:
        bar.close()
    # each call takes the data dir's lock unless the caller holds it across several sources
    report = ingestor.ingest(crawl.documents, source=SOURCE, collection=collection, prune=False)
    report.removed += ingestor.remove(sorted(crawl.removed), collection)
    report.unchanged += len(crawl.unchanged)
    assert crawl.state is not None
    crawl.state.save()
    return WebReport(crawl, report)


def _stored_keys(data_dir: Path, store: str, collection: str) -> set[str]:
    if not (data_dir / "manifest.sqlite").exists():
        return set()
    with Manifest(data_dir, store) as manifest:
        return {e.key for e in manifest.entries(collection) if not e.pending}


def _decode(body: bytes) -> str:
    # the crawler has already refused non-text; a page in another charset still reads
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return body.decode(encoding)
        except UnicodeDecodeError:
            continue
    return body.decode("utf-8", "replace")
