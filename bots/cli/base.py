"""The ``citebot`` group and what every command shares: one-line failures and settings.

Command modules import from here, never from the ``bots.cli`` package, so no
command imports the package that imports every command (no import cycle).
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from connectors.errors import ConnectorError

if TYPE_CHECKING:
    from bots.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])

log = logging.getLogger("citebot.cli")


def fail(message: str, code: int = 1) -> None:
    click.echo(f"citebot: {message}", err=True)
    sys.exit(code)


def friendly(func: F) -> F:
    """Turn every failure into one line on stderr and a non-zero exit, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KeyboardInterrupt:
            fail("interrupted; nothing half-written was kept", 130)
        except BrokenPipeError:
            # the reader went away (``citebot config | head -1``): nothing left to say, and
            # Python's last flush of stdout must not complain about it either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except Exception as exc:
            _explain(exc)

    return wrapper  # type: ignore[return-value]


def _explain(exc: Exception) -> None:
    # bots.settings imports pydantic; a module not yet imported cannot have
    # raised, so looking it up costs nothing up front
    settings = sys.modules.get("bots.settings")
    if settings is not None and isinstance(exc, settings.SettingsError):
        for line in exc.lines:
            click.echo(f"citebot: {line}", err=True)
        sys.exit(2)
    if isinstance(exc, ConnectorError):
        fail(str(exc))
    log.debug("unexpected failure", exc_info=True)
    fail(f"unexpected error: {type(exc).__name__}: {exc}")


def settings_from(ctx: click.Context) -> Settings:
    obj = ctx.ensure_object(dict)
    if "settings" not in obj:
        from bots.ops.logging import guard_console
        from bots.settings import load_settings

        obj["settings"] = load_settings(**obj.get("overrides", {}))
        guard_console(obj["settings"])
    settings: Settings = obj["settings"]
    return settings


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--data-dir", type=click.Path(file_okay=False), help="Overrides CITEBOT_DATA_DIR.")
@click.option("-v", "--verbose", count=True, help="More logging (-vv for debug).")
@click.version_option(package_name="citebot")
@click.pass_context
def cli(ctx: click.Context, data_dir: str | None, verbose: int) -> None:
    """citebot: answers with numbered, verified footnotes.

    On Slack, Discord and here in the terminal.
    """
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    overrides: dict[str, Any] = {}
    if data_dir:
        overrides["data_dir"] = data_dir
    ctx.ensure_object(dict)["overrides"] = overrides
