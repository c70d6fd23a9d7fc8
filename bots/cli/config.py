from __future__ import annotations

import json

import click

from bots.cli import cli, friendly, settings_from


@cli.command("config")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of TOML-like lines.")
@click.option("--table", is_flag=True, help="Print every setting as a Markdown table and exit.")
@click.pass_context
@friendly
def config_command(ctx: click.Context, as_json: bool, table: bool) -> None:
    """Print the effective settings, secrets masked."""
    if table:
        from bots.settings.table import markdown_table

        click.echo(markdown_table())
        return
    data = settings_from(ctx).masked()
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    for section, values in data.items():
        if not isinstance(values, dict):
            click.echo(f"{section} = {json.dumps(values)}")
    for section, values in data.items():
        if isinstance(values, dict):
            click.echo(f"\n[{section}]")
            for key, value in values.items():
                click.echo(f"{key} = {json.dumps(value)}")
