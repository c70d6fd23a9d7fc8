"""The ``citebot`` command line. Each command lives in its own module.

Nothing heavy is imported here or at the top of a command module: ``--help``
must not pay for pydantic, LlamaIndex or LanceDB (see tests/bots/test_cli_startup.py).
"""

from __future__ import annotations

from bots.cli.base import cli, fail, friendly, settings_from

__all__ = ["cli", "fail", "friendly", "main", "settings_from"]


def main() -> None:
    from bots.cli import commands  # noqa: F401  (registers every command)

    cli(prog_name="citebot")
