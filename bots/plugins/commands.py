"""Chat commands: written once, shown as a Slack slash subcommand and a Discord app command."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from bots.runtime import Runtime
    from pipeline.question import Place

OptionType = Literal["str", "int", "float", "bool"]


@dataclass(frozen=True, slots=True)
class CommandOption:
    name: str
    description: str
    type: OptionType = "str"
    required: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandContext:
    """Everything a command handler may look at; the same on every platform."""

    runtime: Runtime
    place: Place
    user: str
    options: dict[str, Any]
    scope: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class CommandReply:
    text: str
    ephemeral: bool = True


CommandHandler = Callable[[CommandContext], Awaitable[CommandReply]]


@dataclass(frozen=True, slots=True)
class ChatCommand:
    """``name`` is lowercase ``[a-z0-9-]{1,32}``, valid on both platforms.

    On Slack it is ``/ask NAME ...`` (options as ``key=value`` or positional in
    order); on Discord it is its own app command ``/NAME``.
    """

    name: str
    description: str
    handler: CommandHandler
    options: tuple[CommandOption, ...] = field(default_factory=tuple)
    plugin: str = ""
