from __future__ import annotations

import asyncio

import click

from bots.cli import cli, friendly, settings_from


@cli.command("chat")
@click.pass_context
@friendly
def chat_command(ctx: click.Context) -> None:
    """An interactive conversation in the terminal, with thread follow-ups."""
    from bots.console import repl
    from bots.wiring import build_runtime

    asyncio.run(repl(build_runtime(settings_from(ctx))))
