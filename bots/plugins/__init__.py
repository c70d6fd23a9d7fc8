"""Plugins: chat commands, connectors, graders, citation styles and question/answer hooks.

Write a plugin as a module with ``@hookimpl`` functions named after the specs
in ``bots.plugins.hookspecs`` and expose it in the ``citebot`` entry point
group, or list it in ``settings.plugins.load``::

    from bots.plugins import ChatCommand, CommandReply, hookimpl

    @hookimpl
    def register_commands():
        return [ChatCommand("ping", "Check that the bot is alive.", pong)]
"""

from bots.plugins.commands import (
    ChatCommand,
    CommandContext,
    CommandOption,
    CommandReply,
    OptionError,
)
from bots.plugins.hookspecs import hookimpl, hookspec
from bots.plugins.refusal import Refusal

__all__ = [
    "ChatCommand",
    "CommandContext",
    "CommandOption",
    "CommandReply",
    "OptionError",
    "Refusal",
    "hookimpl",
    "hookspec",
]
