"""Crawl the local site into a real LanceDB store, twice: only what changed is written."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding

from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import CrawlSettings, StoreSettings
from connectors.knowledge.sources.web import ingest_web
from connectors.knowledge.store import Manifest
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import build_embedding
from connectors.providers.settings import EmbeddingSettings
from tests.fakes.website import Website, page

FAST = CrawlSettings(per_host_delay=0, timeout=0.5)


@pytest.fixture(scope="module")
def embedding() -> Iterator[BaseEmbedding]:
    yield build_embedding(EmbeddingSettings())


def build(site: Website) -> None:
    site.put(
        "/",
        page(
            "Docs",
            ("Overview", "The widget service renders widgets."),
            links=("/install", "/faq", "/old", "/slow", "/private/x", "/logo.png"),
        ),
    )
    site.put(
        "/install",
        page(
            "Install",
            ("Requirements", "Python 3.11 is required."),
            ("Steps", "Run uv sync, then start the widget daemon."),
        ),
    )
    site.put("/faq", page("FAQ", ("Billing", "Invoices are sent monthly.")))
    site.put("/moved", page("Moved", ("Where", "The changelog lives here now.")), in_sitemap=False)
    site.redirects["/old"] = "/moved"
    site.slow.add("/slow")
    site.put("/private/x", page("Private", ("No", "Never crawled.")))
    site.put("/logo.png", b"\x89PNG\r\n", "image/png")


async def test_crawling_twice_writes_new_and_changed_pages_and_removes_deleted_ones(
    tmp_path: Path, embedding: BaseEmbedding
) -> None:
    store = open_lancedb(tmp_path, StoreSettings(), embedding)
    ingestor = Ingestor(store, tmp_path, progress=False)
    async with Website() as site:
        build(site)
        first = await ingest_web(
            [site.url("/")], ingestor=ingestor, settings=FAST, collection="docs"
        )
        assert (first.ingest.added, first.ingest.updated, first.ingest.removed) == (4, 0, 0)
        assert len(first.crawl.errors) == 1 and len(first.crawl.skipped) >= 2
        chunks_after_first = store.count()

        hits = await store.retrieve("Which Python version is required?", top_k=1, scope=["docs"])
        assert hits[0].source.url == site.url("/install#requirements")
        assert hits[0].source.title == "Install › Requirements"

        site.put(
            "/install",
            page(
                "Install",
                ("Requirements", "Python 3.12 is required."),
                ("Steps", "Run uv sync, then start the widget daemon."),
            ),
        )
        site.put("/api", page("API", ("Tokens", "Create an API token in settings.")))
        site.put(
            "/",
            page(
                "Docs",
                ("Overview", "The widget service renders widgets."),
                links=("/install", "/api", "/old"),
            ),
        )
        site.delete("/faq")
        second = await ingest_web(
            [site.url("/")], ingestor=ingestor, settings=FAST, collection="docs"
        )

        assert second.ingest.added == 1  # /api
        assert second.ingest.updated == 1  # /install
        # /moved answered 304; / has new links but the same text
        assert second.ingest.unchanged == 2
        assert second.ingest.removed == 1  # /faq
        assert {h.status for h in site.requests_for("/moved")} == {200, 304}

    with Manifest(tmp_path, store.kind) as manifest:
        keys = {e.key.removeprefix(site.base) for e in manifest.entries("docs")}
    assert keys == {"/", "/install", "/api", "/moved"}
    hits = await store.retrieve("When are invoices sent?", top_k=10, scope=None)
    assert all("/faq" not in h.source.url for h in hits)
    hits = await store.retrieve("Which Python version is required?", top_k=1, scope=["docs"])
    assert "3.12" in hits[0].source.text
    assert store.count() == chunks_after_first - 1 + 1 + 0  # faq out, api in, install rewritten


async def test_a_failed_write_keeps_the_crawl_state_so_the_page_is_retried(
    tmp_path: Path, embedding: BaseEmbedding
) -> None:
    store = open_lancedb(tmp_path, StoreSettings(), embedding)
    ingestor = Ingestor(store, tmp_path, progress=False)
    async with Website() as site:
        site.put("/", page("Docs", ("A", "Alpha.")))
        locked = Ingestor(store, tmp_path, progress=False)
        with locked, pytest.raises(Exception, match="locked"):
            await ingest_web([site.url("/")], ingestor=ingestor, settings=FAST, collection="docs")
        assert not (tmp_path / "crawl" / "docs.json").exists()
        again = await ingest_web(
            [site.url("/")], ingestor=ingestor, settings=FAST, collection="docs"
        )
        assert again.ingest.added == 1
