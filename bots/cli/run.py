from __future__ import annotations

from bots.cli.base import cli


@cli.group("run")
def run_group() -> None:
    """Run a bot on a chat platform (slack, discord)."""
