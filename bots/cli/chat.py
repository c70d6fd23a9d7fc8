from __future__ import annotations

import asyncio

import click

from bots.cli import cli, friendly, settings_from


@cli.command("chat")
@click.pass_context
@friendly
def chat_command(ctx: click.Context) -> None:
    """An interactive conversation in the terminal, with thread follow-ups."""
    from bots.app import build_runtime
    from bots.platforms.console import repl

    asyncio.run(repl(build_runtime(settings_from(ctx))))
