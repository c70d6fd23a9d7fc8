from __future__ import annotations

import json

import click

from bots.cli.base import cli, friendly, settings_from


@cli.command("config")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of TOML.")
@click.option("--origin", is_flag=True, help="Say where each value came from.")
@click.option("--table", is_flag=True, help="Print every setting as a Markdown table and exit.")
@click.pass_context
@friendly
def config_command(ctx: click.Context, as_json: bool, origin: bool, table: bool) -> None:
    """Check the settings and print them as citebot.toml.

    Secrets are masked. --origin says where each value came from.
    """
    if table:
        from bots.settings.table import markdown_table

        click.echo(markdown_table())
        return
    from bots.ops.logging import RedactingFilter, secrets_of
    from bots.settings.dump import to_toml
    from connectors.providers.llms import build_llm

    settings = settings_from(ctx)
    # the start-up check ask and run make: an unknown model name or a missing key stops
    # here too (the LLM client is built, no request is sent)
    build_llm(settings.llm)
    redact = RedactingFilter(secrets_of(settings)).redact
    if as_json:
        click.echo(redact(json.dumps(settings.masked(), indent=2, sort_keys=True)))
        return
    click.echo(redact(to_toml(settings, settings.origins if origin else None)), nl=False)
    for line in readiness(settings):
        click.echo(f"# {line}")


def readiness(settings: object) -> list[str]:
    """What each ``citebot run`` command still lacks; ask and ingest need nothing more."""
    from bots.platforms.discord.client import require_token
    from bots.platforms.slack.bot import check_settings
    from bots.settings import Settings, SettingsError

    assert isinstance(settings, Settings)
    lines = []
    for command, check in (
        ("citebot run slack", lambda: check_settings(settings.slack)),
        ("citebot run discord", lambda: require_token(settings.discord)),
    ):
        try:
            check()
        except SettingsError as exc:
            lines.append(f"{command} would stop: " + "; ".join(exc.lines))
        else:
            lines.append(f"{command}: ready")
    return lines
