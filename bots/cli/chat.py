from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import click

from bots.cli.base import cli, friendly, settings_from
from bots.cli.loading import load_runtime

HISTORY_FILE = "chat_history"
HISTORY_LINES = 1000


@contextlib.contextmanager
def line_editing(history: Path) -> Iterator[None]:
    """Arrow keys, Emacs keys and a history kept across sessions, where readline exists."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input() still works
        yield
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(history)
    readline.set_history_length(HISTORY_LINES)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            readline.write_history_file(history)


@cli.command("chat")
@click.pass_context
@friendly
def chat_command(ctx: click.Context) -> None:
    """A conversation in the terminal, with follow-ups and /commands."""
    from bots.cli.ask import require_knowledge

    require_knowledge(ctx)
    runtime = load_runtime(ctx)
    import asyncio

    from bots.platforms.console import repl

    settings = settings_from(ctx)
    history = settings.data_dir / HISTORY_FILE
    with line_editing(history):
        asyncio.run(repl(runtime))
