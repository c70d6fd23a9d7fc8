"""``citebot store``: operate on the knowledge store itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from bots.cli.base import cli, friendly, settings_from

if TYPE_CHECKING:
    from bots.settings import Settings

KINDS = click.Choice(["lancedb", "weaviate"])


@cli.group("store")
def store_group() -> None:
    """The knowledge store (LanceDB embedded, or Weaviate)."""


@store_group.command("migrate")
@click.option("--from", "source", type=KINDS, default="lancedb", show_default=True)
@click.option("--to", "target", type=KINDS, default="weaviate", show_default=True)
@click.option("--batch-size", type=click.IntRange(1, 10_000), default=500, show_default=True)
@click.pass_context
@friendly
def migrate_command(ctx: click.Context, source: str, target: str, batch_size: int) -> None:
    """Copy every chunk and its vector to another store kind.

    Both sides come from the same settings (CITEBOT_STORE__*); only the kind
    differs. Afterwards set CITEBOT_STORE__KIND to the new kind.
    """
    from connectors.factory import open_store
    from connectors.knowledge.migrate import migrate

    if source == target:
        raise click.BadParameter("--from and --to name the same store kind", param_hint="--to")
    settings = settings_from(ctx)

    def kind(name: str) -> Settings:
        return settings.model_copy(
            update={"store": settings.store.model_copy(update={"kind": name})}
        )

    with open_store(kind(source)) as src, open_store(kind(target)) as dst:
        report = migrate(src, dst, source_dir=settings.data_dir, batch_size=batch_size)
    click.echo(f"{source} → {target}: {report.summary()}")
    click.echo(f"now set CITEBOT_STORE__KIND={target}", err=True)
