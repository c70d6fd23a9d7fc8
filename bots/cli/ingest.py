"""``citebot ingest``: put documents into the knowledge base, incrementally."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bots.cli.base import cli, friendly, settings_from
from bots.cli.loading import LOADING, spinner, start_warming

if TYPE_CHECKING:
    from connectors.knowledge.documents import Document, Skipped
    from connectors.knowledge.ingest import Ingestor, IngestReport
    from connectors.knowledge.settings import UrlStyle

__all__ = ["SOURCE_RESOLVERS", "SourceSpec", "resolve_source"]


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """One thing to ingest, resolved before anything is written."""

    label: str
    source_id: str
    documents: Callable[[], Iterable[Document | Skipped]]
    total: int | None = None
    #: a source that drives the ingestor itself (a crawl removes pages, keeps 304s)
    run: Callable[[Ingestor], IngestReport] | None = None


#: Tried in order; each returns a spec for an argument it recognises, else None.
#: The folder resolver comes last and claims every remaining argument.
Resolver = Callable[[str, str | None, str], SourceSpec | None]
SOURCE_RESOLVERS: list[Resolver] = []


def _folder(arg: str, url_base: str | None, collection: str, url_style: UrlStyle) -> SourceSpec:
    from connectors.knowledge.sources.folder import folder_files, folder_source_id, read_folder

    files = folder_files(arg)  # SourceNotFound for a missing path
    return SourceSpec(
        label=arg,
        source_id=folder_source_id(arg),
        documents=lambda: read_folder(
            arg, url_base=url_base, collection=collection, url_style=url_style
        ),
        total=len(files),
    )


def resolve_source(
    arg: str, *, url_base: str | None, collection: str, url_style: UrlStyle = "path"
) -> SourceSpec:
    for resolver in SOURCE_RESOLVERS:
        spec = resolver(arg, url_base, collection)
        if spec is not None:
            return spec
    return _folder(arg, url_base, collection, url_style)


def _distinct(args: Iterable[str]) -> list[str]:
    """The arguments less those another one covers: the same path or URL again, or a path
    inside a folder also given (``docs/a.md docs``). Each would be ingested, and counted, a
    second time, and filed under two sources, so a page removed from the folder could stay."""
    given = list(dict.fromkeys(args))
    paths = {arg: Path(arg).resolve() for arg in given if Path(arg).exists()}
    folders = {path: arg for arg, path in reversed(paths.items()) if path.is_dir()}
    kept: list[str] = []
    seen: set[Path] = set()
    for arg in given:
        path = paths.get(arg)
        if path is None:
            kept.append(arg)
            continue
        inside = next((f for f in folders if f in path.parents), None)
        if inside is not None or path in seen:
            what = f"inside {folders[inside]}" if inside is not None else "given twice"
            click.echo(f"citebot: note: {arg} is {what}; it is ingested once", err=True)
            continue
        seen.add(path)
        kept.append(arg)
    return kept


@cli.command("ingest")
@click.argument("sources", nargs=-1, required=True, metavar="PATH|URL|reader:NAME|plugin:NAME...")
@click.option("--url-base", help="Public URL of the folder's root; chunks link to URL/path#anchor.")
@click.option(
    "--url-style",
    type=click.Choice(["path", "html", "clean", "directory"]),
    help="How a page's path is published under --url-base: path (guide/a.md, the default), "
    "html (guide/a.html), clean (guide/a) or directory (guide/a/).",
)
@click.option(
    "--collection", help="Collection to ingest into (default: ingest.default_collection)."
)
@click.pass_context
@friendly
def ingest_command(
    ctx: click.Context,
    sources: tuple[str, ...],
    url_base: str | None,
    url_style: UrlStyle | None,
    collection: str | None,
) -> None:
    """Ingest files, folders, web sites, readers' or plugins' documents.

    Folders and files (.md, .mdx, .rst, .txt, .html, .pdf), web sites and
    sitemaps (http(s) URLs), a configured LlamaHub reader (reader:NAME) or a
    plugin's connector (plugin:NAME).

    Re-running is incremental: unchanged documents are skipped, changed ones
    replaced, and documents gone from a folder removed.
    """
    with spinner(LOADING):
        settings = settings_from(ctx)
        start_warming(settings, pipeline=False)
        from connectors.factory import open_store
        from connectors.knowledge.ingest import Ingestor, IngestReport

    collection = collection if collection is not None else settings.ingest.default_collection
    if not collection.strip():
        raise click.BadParameter("must not be empty", param_hint="--collection")
    if url_base:
        from connectors.knowledge.settings import check_url_base

        try:
            check_url_base(url_base)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--url-base") from None
    url_base = url_base or settings.ingest.url_base
    url_style = url_style or settings.ingest.url_style
    # Every argument is resolved before the store is opened: a typo touches nothing.
    specs = [
        resolve_source(arg, url_base=url_base, collection=collection, url_style=url_style)
        for arg in _distinct(sources)
    ]

    def warn(skipped: Skipped) -> None:
        click.echo(f"citebot: warning: {skipped}", err=True)

    total = IngestReport()
    with (
        # the bundled models as plain encoders: ingesting needs no LlamaIndex
        open_store(settings, llama_index=False) as store,
        Ingestor(
            store,
            settings.data_dir,
            chunk_chars=settings.ingest.chunk_chars,
            overlap_sentences=settings.ingest.chunk_overlap_sentences,
            on_skip=warn,
        ) as ingestor,
    ):
        for spec in specs:
            if spec.run is not None:
                total.merge(spec.run(ingestor))
                continue
            total.merge(
                ingestor.ingest(
                    spec.documents(),
                    source=spec.source_id,
                    collection=collection,
                    total=spec.total,
                )
            )
    click.echo(f"ingested into {collection!r}: {total.summary()}")
    if total.skipped:
        ctx.exit(1)
