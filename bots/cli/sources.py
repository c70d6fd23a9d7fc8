"""``citebot sources``: see and prune what was ingested. Also teaches ``citebot ingest`` URLs and readers."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Collection
from typing import TYPE_CHECKING

import click

from bots.cli.base import cli, friendly, settings_from
from bots.cli.ingest import SOURCE_RESOLVERS, SourceSpec
from connectors.errors import SourceNotFound

if TYPE_CHECKING:
    from bots.settings import Settings
    from connectors.knowledge.ingest import Ingestor, IngestReport
    from connectors.knowledge.store import Entry

READER_PREFIX = "reader:"


def _settings() -> Settings:
    return settings_from(click.get_current_context())


def web_source(arg: str, url_base: str | None, collection: str) -> SourceSpec | None:
    """``https://…``: a site to crawl from that page, or a sitemap (index)."""
    # sources.web.is_web_source, asked before importing the crawler (httpx and all)
    if not arg.startswith(("http://", "https://")):
        return None
    from connectors.knowledge.crawler import normalize

    if normalize(arg) is None:
        raise SourceNotFound(f"not a crawlable URL: {arg}")
    crawl = _settings().ingest.crawl

    def run(ingestor: Ingestor) -> IngestReport:
        import asyncio

        from connectors.knowledge.sources.web import ingest_web

        report = asyncio.run(
            ingest_web([arg], ingestor=ingestor, settings=crawl, collection=collection)
        )
        for url, reason in report.crawl.errors:
            click.echo(f"citebot: warning: {url}: {reason} (kept as it was)", err=True)
        click.echo(f"{arg}: {report.summary()}", err=True)
        return report.ingest

    return SourceSpec(label=arg, source_id="web", documents=lambda: (), run=run)


def reader_source(arg: str, url_base: str | None, collection: str) -> SourceSpec | None:
    """``reader:NAME``: the LlamaHub reader configured as ``ingest.readers.NAME``."""
    if not arg.startswith(READER_PREFIX):
        return None
    name = arg[len(READER_PREFIX) :]
    readers = _settings().ingest.readers
    config = readers.get(name)
    if config is None:
        known = ", ".join(sorted(readers)) or "none configured"
        raise SourceNotFound(f"no reader named {name!r} in ingest.readers ({known})")
    target = config.collection or collection

    def run(ingestor: Ingestor) -> IngestReport:
        import asyncio

        from connectors.knowledge.sources.llamahub import read_documents

        docs = asyncio.run(read_documents(name, config, collection=target))
        return ingestor.ingest(docs, source=arg, collection=target, total=len(docs))

    return SourceSpec(label=arg, source_id=arg, documents=lambda: (), run=run)


# ahead of the folder resolver, which claims every argument left over
SOURCE_RESOLVERS[:0] = [web_source, reader_source]


@cli.group("sources")
def sources_group() -> None:
    """What the knowledge base holds, by collection and document."""


def _entries(settings: Settings, collection: str | None) -> list[Entry]:
    from connectors.knowledge.store import Manifest

    if not (settings.data_dir / "manifest.sqlite").exists():
        return []
    with Manifest(settings.data_dir, settings.store.kind) as manifest:
        return manifest.entries(collection)


def _matches(entry: Entry, prefixes: tuple[str, ...]) -> bool:
    return any(entry.key.startswith(p) or entry.url.startswith(p) for p in prefixes)


@sources_group.command("list")
@click.option("--collection", help="Only this collection.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
@friendly
def list_command(ctx: click.Context, collection: str | None, as_json: bool) -> None:
    """List ingested documents: collection, key, URL, chunks and when."""
    settings = settings_from(ctx)
    entries = _entries(settings, collection)
    if as_json:
        for e in entries:
            click.echo(json.dumps(_row(e)))
        return
    if not entries:
        click.echo("nothing ingested yet" + (f" in {collection!r}" if collection else ""))
        return
    entries.sort(key=lambda e: (natural(e.collection), natural(e.key)))
    rows = [
        [e.collection, e.key, str(e.chunks), str(_row(e)["updated"] or "pending"), e.url]
        for e in entries
    ]
    for line in table(["COLLECTION", "KEY", "CHUNKS", "UPDATED", "URL"], rows, right={2}):
        click.echo(line)
    collections = sorted({e.collection for e in entries})
    click.echo(
        f"{len(entries)} documents, {sum(e.chunks for e in entries)} chunks "
        f"in {len(collections)} collection(s): {', '.join(collections)}",
        err=True,
    )


def natural(text: str) -> list[tuple[int, int | str]]:
    """A sort key that puts ``page2`` before ``page10``."""
    return [
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", text)
        if part
    ]


def table(header: list[str], rows: list[list[str]], *, right: Collection[int] = ()) -> list[str]:
    """Columns padded to their widest cell; ``right`` holds the columns aligned right."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: list[str]) -> str:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return [line(header), *map(line, rows)]


def _row(entry: Entry) -> dict[str, object]:
    updated = entry.updated
    return {
        "collection": entry.collection,
        "key": entry.key,
        "url": entry.url,
        "title": entry.title,
        "chunks": entry.chunks,
        "source": entry.source,
        "updated": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(updated)) if updated else None,
        "pending": entry.pending,
    }


@sources_group.command("remove")
@click.argument("prefixes", nargs=-1, metavar="KEY_OR_URL_PREFIX...")
@click.option("--collection", help="Only in this collection; alone, removes the whole collection.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before removing a whole collection.")
@click.option("--dry-run", is_flag=True, help="Show what would be removed.")
@click.pass_context
@friendly
def remove_command(
    ctx: click.Context, prefixes: tuple[str, ...], collection: str | None, yes: bool, dry_run: bool
) -> None:
    """Remove documents by key or URL prefix, or a whole collection.

    A document goes when its key or URL starts with one of the prefixes; with
    --collection alone, the whole collection goes (after a question).
    """
    settings = settings_from(ctx)
    if not prefixes and not collection:
        raise click.UsageError("give a key or URL prefix, or --collection NAME")
    entries = _entries(settings, collection)
    doomed = [e for e in entries if not prefixes or _matches(e, prefixes)]
    if not doomed:
        click.echo("nothing matches; nothing removed")
        ctx.exit(1)
    if dry_run:
        for e in doomed:
            click.echo(f"would remove {e.collection}\t{e.key}")
        return
    if not prefixes and not yes:
        click.confirm(
            f"Remove all {len(doomed)} documents of collection {collection!r}?", abort=True
        )
    removed = _remove(settings, doomed)
    if not prefixes and collection:
        _forget_crawl(settings, collection)
    chunks = sum(e.chunks for e in doomed)
    click.echo(f"removed {removed} documents ({chunks} chunks)")


def _remove(settings: Settings, doomed: list[Entry]) -> int:
    from connectors.factory import open_store
    from connectors.knowledge.ingest import Ingestor

    by_collection: dict[str, list[str]] = {}
    for e in doomed:
        by_collection.setdefault(e.collection, []).append(e.key)
    removed = 0
    with (
        open_store(settings, llama_index=False) as store,
        Ingestor(store, settings.data_dir, progress=False) as ingestor,
    ):
        for collection, keys in by_collection.items():
            removed += ingestor.remove(keys, collection)
    return removed


def _forget_crawl(settings: Settings, collection: str) -> None:
    from connectors.knowledge.crawler import CrawlState

    path = CrawlState.load(settings.data_dir, collection).path
    path.unlink(missing_ok=True)
