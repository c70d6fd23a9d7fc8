"""``citebot run discord`` and ``citebot discord invite-url``."""

from __future__ import annotations

import click

from bots.cli.base import cli, fail, friendly, settings_from
from bots.cli.run import run_group


@run_group.command("discord")
@click.pass_context
@friendly
def run_discord(ctx: click.Context) -> None:
    """Answer on Discord: /ask, @mentions, thread follow-ups and DMs."""
    import asyncio

    from bots.platforms.discord import serve
    from bots.platforms.discord.client import require_token

    settings = settings_from(ctx)
    require_token(settings.discord)
    quiet_voice()
    from bots.app import build_runtime  # heavy: the store and LLM clients

    runtime = build_runtime(settings)

    async def main() -> None:
        from bots.ops.server import serving

        async with serving(settings):
            await serve(settings, runtime)

    try:
        asyncio.run(main())
    finally:
        if runtime.feedback is not None:
            runtime.feedback.close()


def quiet_voice() -> None:
    """A text bot needs no voice: discord.py's "voice will NOT be supported" warnings
    (PyNaCl, davey not installed) only alarm the operator."""
    from discord import VoiceClient

    VoiceClient.warn_nacl = False
    if hasattr(VoiceClient, "warn_dave"):
        VoiceClient.warn_dave = False


@cli.group("discord")
def discord_group() -> None:
    """Discord app setup."""


@discord_group.command("invite-url")
@click.option(
    "--client-id",
    type=int,
    default=None,
    help="The application id (default: from settings or the token).",
)
@click.pass_context
@friendly
def invite_url_command(ctx: click.Context, client_id: int | None) -> None:
    """Print the URL that adds the bot to a server.

    It asks for exactly the OAuth2 scopes and permissions the bot needs.
    """
    from bots.platforms.discord.invite import application_id_from_token, invite_url

    settings = settings_from(ctx).discord
    if client_id is None:
        client_id = settings.application_id
    if client_id is None and settings.token is not None:
        client_id = application_id_from_token(settings.token.get_secret_value())
    if client_id is None:
        fail(
            "no application id: pass --client-id, set CITEBOT_DISCORD__APPLICATION_ID, "
            "or set the bot token (CITEBOT_DISCORD__TOKEN) to read it from there"
        )
        return
    click.echo(invite_url(client_id))
