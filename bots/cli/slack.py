"""``citebot run slack`` and ``citebot slack manifest``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from bots.cli.base import cli, fail, friendly, settings_from
from bots.cli.run import run_group

if TYPE_CHECKING:
    from bots.settings import Settings


def _with_slack(settings: Settings, **changes: Any) -> Settings:
    changes = {k: v for k, v in changes.items() if v is not None}
    if not changes:
        return settings
    return settings.model_copy(update={"slack": settings.slack.model_copy(update=changes)})


@run_group.command("slack")
@click.option(
    "--http", "mode", flag_value="http", help="Serve POST /slack/events (needs the signing secret)."
)
@click.option(
    "--socket", "mode", flag_value="socket", help="Connect in Socket Mode (needs the app token)."
)
@click.option("--host", default=None, help="HTTP mode: the address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="HTTP mode: the port.")
@click.pass_context
@friendly
def run_slack(ctx: click.Context, mode: str | None, host: str | None, port: int | None) -> None:
    """Answer on Slack: mentions, DMs, /ask and thread follow-ups."""
    import asyncio

    from bots.platforms.slack.bot import SlackBot, check_settings
    from bots.platforms.slack.server import serve_http, serve_socket

    if port is not None and mode is None:
        mode = "http"
    settings = _with_slack(settings_from(ctx), mode=mode, host=host, port=port)
    check_settings(settings.slack)
    from bots.app import build_runtime

    async def main() -> None:
        from bots.ops.server import serving

        bot = SlackBot(build_runtime(settings))
        async with serving(settings):
            if settings.slack.mode == "http":
                await serve_http(bot, settings.slack.host, settings.slack.port)
            else:
                await serve_socket(bot)

    asyncio.run(main())


@cli.group("slack")
def slack_group() -> None:
    """Slack app setup."""


@slack_group.command("manifest")
@click.option("--http", "mode", flag_value="http", help="A manifest for HTTP mode (request URLs).")
@click.option("--socket", "mode", flag_value="socket", help="A manifest for Socket Mode.")
@click.option("--url", "public_url", default=None, help="HTTP mode: the public HTTPS base URL.")
@click.option("--json", "as_json", is_flag=True, help="JSON instead of YAML.")
@click.pass_context
@friendly
def manifest(ctx: click.Context, mode: str | None, public_url: str | None, as_json: bool) -> None:
    """Print a Slack app manifest generated from the settings."""
    import sys

    from bots.platforms.slack.manifest import build_manifest, manifest_yaml

    slack = _with_slack(settings_from(ctx), mode=mode).slack
    if slack.mode == "http" and not (public_url or slack.public_url):
        if not sys.stdin.isatty():
            fail(
                "an HTTP-mode manifest needs the public HTTPS URL Slack will reach: "
                "pass --url https://… or set slack.public_url",
                2,
            )
        public_url = click.prompt(
            "The public HTTPS URL Slack will reach (e.g. https://bot.example.com)"
        )
    if public_url is not None and not public_url.startswith("https://"):
        fail(f"--url must be an https:// URL (Slack only calls HTTPS), got {public_url!r}", 2)
    if as_json:
        click.echo(json.dumps(build_manifest(slack, public_url=public_url), indent=2))
    else:
        click.echo(manifest_yaml(slack, public_url=public_url), nl=False)
