"""``citebot plugins``, and ``citebot ingest plugin:NAME`` for connectors that plugins register."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import AsyncIterable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import click

from bots.cli.base import cli, fail, friendly, settings_from
from bots.cli.ingest import SOURCE_RESOLVERS, SourceSpec
from connectors.errors import ConnectorError, SourceNotFound

if TYPE_CHECKING:
    from bots.plugins.manager import PluginInfo
    from connectors.knowledge.documents import Document, Skipped

PLUGIN_SOURCE = "plugin:"


@cli.group("plugins", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--check", is_flag=True, help="Exit with status 1 if a plugin is broken or has problems."
)
@click.pass_context
@friendly
def plugins_command(ctx: click.Context, as_json: bool, check: bool) -> None:
    """List the installed plugins, their hooks and what they register.

    `citebot plugins new NAME` starts a new plugin package.
    """
    if ctx.invoked_subcommand is not None:
        return
    from bots.plugins.manager import PluginHost

    settings = settings_from(ctx)
    quiet = logging.getLogger().getEffectiveLevel() > logging.INFO
    plugin_log = logging.getLogger("citebot.plugins")
    if quiet:  # the report below says it all; -v adds the tracebacks
        plugin_log.disabled = True
    try:
        infos = PluginHost(settings.plugins).describe()
    finally:
        plugin_log.disabled = False
    if as_json:
        click.echo(json.dumps([i.to_json() for i in infos], indent=2, ensure_ascii=False))
    else:
        for i, info in enumerate(infos):
            if i:
                click.echo()
            _show(info)
    troubled = any(info.status == "broken" or info.problems for info in infos)
    if troubled and quiet and not as_json:
        click.echo("\n(run `citebot -v plugins` to see the tracebacks)", err=True)
    if check and troubled:
        sys.exit(1)


@plugins_command.command("new")
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Where to create the package.",
)
@friendly
def new_plugin(name: str, parent: Path) -> None:
    """Start a plugin package: entry point, one command, one hook and a test."""
    from bots.plugins.scaffold import ScaffoldError, scaffold

    try:
        root = scaffold(name, parent)
    except ScaffoldError as exc:
        fail(str(exc), 2)
        return
    click.echo(f"Created {root}/ (the citebot-{name} package).")
    click.echo(f"Test it:    cd {root} && uv run pytest")
    click.echo(f"Use it:     uv pip install -e {root}   (then: citebot plugins)")


def _show(info: PluginInfo) -> None:
    origin = info.source + (f", {info.distribution}" if info.distribution else "")
    status: str = info.status
    if info.status == "loaded" and info.problems:
        status = f"loaded with {len(info.problems)} problem{'s' if len(info.problems) > 1 else ''}"
    click.echo(f"{info.name}  [{status}]  {info.module} ({origin})")
    if info.hooks:
        click.echo(f"  hooks: {', '.join(info.hooks)}")
    for kind, names in info.provides.items():
        click.echo(f"  {kind.replace('_', ' ')}: {', '.join(names)}")
    for problem in info.problems:
        click.echo(f"  problem: {problem}")


def plugin_source(arg: str, url_base: str | None, collection: str) -> SourceSpec | None:
    """``plugin:NAME`` or ``plugin:NAME?key=value&…``: a connector a plugin registered."""
    if not arg.startswith(PLUGIN_SOURCE):
        return None
    name, _, query = arg[len(PLUGIN_SOURCE) :].partition("?")
    options = dict(parse_qsl(query, keep_blank_values=True))
    from bots.plugins.manager import PluginHost

    connectors = PluginHost(settings_from(click.get_current_context()).plugins).connectors()
    factory = connectors.get(name)
    if factory is None:
        known = ", ".join(sorted(connectors)) or "none are installed"
        raise SourceNotFound(f"no plugin connector named {name!r} (known: {known})")
    return SourceSpec(
        label=arg,
        source_id=f"{PLUGIN_SOURCE}{name}",
        documents=lambda: _documents(name, factory, options),
    )


def _documents(
    name: str, factory: Callable[..., Any], options: dict[str, str]
) -> Iterator[Document | Skipped]:
    try:
        produced = factory(**options)
        if isinstance(produced, AsyncIterable):
            import asyncio

            yield from asyncio.run(_collect(produced))
        else:
            yield from produced
    except ConnectorError:
        raise
    except Exception as exc:
        raise ConnectorError(
            f"plugin connector {name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc


async def _collect(produced: AsyncIterable[Document | Skipped]) -> list[Document | Skipped]:
    return [item async for item in produced]


SOURCE_RESOLVERS.append(plugin_source)
