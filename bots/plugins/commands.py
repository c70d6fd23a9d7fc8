"""Chat commands: written once, shown as a Slack slash subcommand and a Discord app command.

Adapters share everything here so a command behaves the same on every
platform: ``parse_options`` turns Slack's ``/ask NAME …`` text into options,
``coerce_options`` checks and completes options that arrive typed (Discord),
and ``invoke`` runs the handler so that a failing command answers with one
line instead of breaking the adapter.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import shlex
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from bots.plugins.context import PluginContext

OptionType = Literal["str", "int", "float", "bool"]


@dataclass(frozen=True, slots=True)
class CommandOption:
    name: str
    description: str
    type: OptionType = "str"
    required: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None


@dataclass(frozen=True, slots=True)
class CommandReply:
    """What a command answers. ``text`` is plain text: a link is written ``<https://…>``
    and shown as a link on every platform; anything else that would be a link or a
    mention there (``[label](url)``, a bare URL, ``@here``) is shown as text."""

    text: str
    ephemeral: bool = True

    def parts(self) -> list[tuple[str, bool]]:
        """The text in order, each part with whether it is a link (``<https://…>``)."""
        return [(part, bool(_LINK.fullmatch(part))) for part in _LINK.split(self.text) if part]


#: a link as a command writes it
_LINK = re.compile(r"(<https?://[^<>\s]+>)")


CommandHandler = Callable[["PluginContext"], Awaitable[CommandReply]]


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

    def option(self, name: str) -> CommandOption | None:
        return next((o for o in self.options if o.name == name), None)

    def usage(self, prefix: str = "/") -> str:
        """``/ask glossary term:<text> [limit:<int>]``; ``prefix`` ends with a space or ``/``."""
        parts = [f"{prefix}{self.name}"]
        for opt in self.options:
            if opt.choices:
                shown = "|".join(opt.choices)
            elif opt.type == "bool":
                shown = "yes|no"
            else:
                shown = f"<{_TYPE_WORDS.get(opt.type, opt.type)}>"
            parts.append(f"{opt.name}:{shown}" if opt.required else f"[{opt.name}:{shown}]")
        return " ".join(parts)


#: Names the adapters use themselves (Discord's ``/ask`` is the question command).
RESERVED_NAMES = frozenset({"ask"})
MAX_OPTIONS = 25
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_TYPE_WORDS: dict[str, str] = {"str": "text", "int": "int", "float": "number", "bool": "yes|no"}
_TRUE = frozenset({"true", "yes", "y", "on", "1"})
_FALSE = frozenset({"false", "no", "n", "off", "0"})

log = logging.getLogger("citebot.plugins")


class OptionError(ValueError):
    """Options the user typed that do not fit the command; the message is shown as is."""


def problems(command: ChatCommand) -> list[str]:
    """Why ``command`` cannot be offered on both platforms; empty when it can."""
    found: list[str] = []
    if not isinstance(command, ChatCommand):
        return [f"not a ChatCommand: {command!r}"]
    if not _NAME.match(command.name):
        found.append(f"command name {command.name!r} must match [a-z0-9][a-z0-9_-]{{0,31}}")
    if command.name in RESERVED_NAMES:
        found.append(f"command name {command.name!r} is reserved")
    if not 1 <= len(command.description) <= 100:
        found.append(f"/{command.name}: description must be 1-100 characters")
    if not callable(command.handler):
        found.append(f"/{command.name}: handler is not callable")
    if len(command.options) > MAX_OPTIONS:
        found.append(f"/{command.name}: at most {MAX_OPTIONS} options")
    seen: set[str] = set()
    optional_seen = False
    for opt in command.options:
        where = f"/{command.name} option {opt.name!r}"
        if not _NAME.match(opt.name):
            found.append(f"{where}: name must match [a-z0-9][a-z0-9_-]{{0,31}}")
        if opt.name in seen:
            found.append(f"{where}: duplicate")
        seen.add(opt.name)
        if opt.type not in _TYPE_WORDS:
            found.append(f"{where}: type must be one of str, int, float, bool")
        if not 1 <= len(opt.description) <= 100:
            found.append(f"{where}: description must be 1-100 characters")
        if opt.choices and (opt.type != "str" or len(opt.choices) > MAX_OPTIONS):
            found.append(f"{where}: choices need type str and at most {MAX_OPTIONS}")
        # Discord rejects a required option after an optional one
        if opt.required and optional_seen:
            found.append(f"{where}: required options must come before optional ones")
        optional_seen = optional_seen or not opt.required
    return found


def find(commands: Iterable[ChatCommand], name: str) -> ChatCommand | None:
    wanted = name.strip().lower()
    return next((c for c in commands if c.name == wanted), None)


def _convert(opt: CommandOption, value: Any) -> Any:
    if opt.type == "bool":
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise OptionError(f"{opt.name} must be yes or no, not {value!r}")
    if opt.type == "int":
        if isinstance(value, bool):
            raise OptionError(f"{opt.name} must be a whole number, not {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise OptionError(f"{opt.name} must be a whole number, not {value!r}") from None
    if opt.type == "float":
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise OptionError(f"{opt.name} must be a number, not {value!r}") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise OptionError(f"{opt.name} must be a finite number")
        return number
    text = str(value)
    if opt.choices and text not in opt.choices:
        raise OptionError(f"{opt.name} must be one of {', '.join(opt.choices)}, not {text!r}")
    return text


def coerce_options(command: ChatCommand, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check typed options and fill in defaults: every option name is present in the result."""
    unknown = [k for k in raw if command.option(k) is None]
    if unknown:
        raise OptionError(
            f"/{command.name} has no option {unknown[0]!r}"
            + (
                f" (options: {', '.join(o.name for o in command.options)})"
                if command.options
                else ""
            )
        )
    values: dict[str, Any] = {}
    for opt in command.options:
        value = raw.get(opt.name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if opt.required:
                raise OptionError(f"/{command.name} needs {opt.name}: usage {command.usage()}")
            values[opt.name] = opt.default
            continue
        values[opt.name] = _convert(opt, value)
    return values


def parse_options(command: ChatCommand, text: str) -> dict[str, Any]:
    """Options from free text, as typed after ``/ask NAME``.

    ``name:value`` and ``name=value`` set an option; bare words fill the
    other options in order. A word that does not fit the next option (or
    comes after the last one) continues the text option before it, so
    ``/ask glossary vector store`` works without quotes.
    """
    try:
        words = shlex.split(text)
    except ValueError:  # an unbalanced quote: take the words as typed
        words = text.split()
    named: dict[str, Any] = {}
    bare: list[str] = []
    for word in words:
        key, sep, value = _split_named(word)
        if sep and command.option(key) is not None:
            if key in named:
                raise OptionError(f"{key} is given twice")
            named[key] = value
        else:
            bare.append(word)
    free = [o for o in command.options if o.name not in named]
    text_option: CommandOption | None = None  # the free-text option the last word went to
    for word in bare:
        upcoming = free[0] if free else None
        if text_option is not None and (upcoming is None or not _fits(upcoming, word)):
            named[text_option.name] += " " + word
            continue
        if upcoming is None:
            raise OptionError(f"too many values for /{command.name}: usage {command.usage()}")
        named[upcoming.name] = word
        free.pop(0)
        text_option = upcoming if upcoming.type == "str" and not upcoming.choices else None
    return coerce_options(command, named)


def _fits(opt: CommandOption, word: str) -> bool:
    try:
        _convert(opt, word)
    except OptionError:
        return False
    return True


def _split_named(word: str) -> tuple[str, str, str]:
    for sep in ("=", ":"):
        key, found, value = word.partition(sep)
        if found and _NAME.match(key.lower()):
            return key.lower(), found, value
    return word, "", ""


async def invoke(command: ChatCommand, context: PluginContext) -> CommandReply:
    """Run a command's handler; never raises, so adapters can always answer the user.

    A handler gets ``settings.plugins.command_timeout`` seconds.
    """
    timeout = context.settings.plugins.command_timeout
    try:
        # adapters parse differently; the handler always sees checked options with defaults
        context = replace(context, options=coerce_options(command, context.options))
        result: Any = command.handler(context)
        if inspect.isawaitable(result):
            async with asyncio.timeout(timeout):
                result = await result
    except TimeoutError:
        log.warning(
            "command /%s (plugin %s) timed out after %ss", command.name, command.plugin, timeout
        )
        return CommandReply(f"Sorry, /{command.name} took too long and was stopped.")
    except OptionError as exc:
        return CommandReply(str(exc))
    except Exception:
        log.exception("command /%s (plugin %s) failed", command.name, command.plugin or "?")
        return CommandReply(
            f"Sorry, /{command.name} failed. The error was logged for the operators."
        )
    if isinstance(result, CommandReply) and isinstance(result.text, str):
        return result
    if isinstance(result, str):
        return CommandReply(result)
    shown = type(result.text if isinstance(result, CommandReply) else result).__name__
    log.error("command /%s returned %s, not a CommandReply with text", command.name, shown)
    return CommandReply(f"Sorry, /{command.name} failed. The error was logged for the operators.")
