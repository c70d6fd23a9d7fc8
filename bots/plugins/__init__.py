"""The plugin API: everything a citebot plugin needs, in one import.

Write a plugin as a module with ``@hookimpl`` functions named after the hooks
in ``bots.plugins.hookspecs`` and expose it in the ``citebot`` entry point
group, or list it in ``settings.plugins.load``::

    from bots.plugins import ChatCommand, CommandReply, PluginContext, hookimpl

    async def pong(context: PluginContext) -> CommandReply:
        return CommandReply(f"pong from {context.place.platform}")

    @hookimpl
    def register_commands():
        return [ChatCommand("ping", "Check that the bot is alive.", pong)]

Hooks and command handlers get a :class:`PluginContext` (the place, the asker,
their knowledge scope, read-only settings), never the bot's runtime. Test a
plugin against a real bot and fake Slack and Discord servers with
:mod:`bots.testing`.
"""

from bots.plugins.answers import add_note, unanswered
from bots.plugins.commands import ChatCommand, CommandOption, CommandReply, OptionError
from bots.plugins.context import PluginContext
from bots.plugins.hookspecs import ConnectorFactory, GraderFactory, hookimpl, hookspec
from bots.plugins.refusal import Refusal
from citations.model import CitedAnswer, Segment, Source
from citations.render.style import CitationStyle
from connectors.knowledge.documents import Document, Section
from pipeline.events import Done, Outcome, Reason, Route
from pipeline.ports import Grader
from pipeline.question import Place, Question, Trigger, Turn

__all__ = [
    "ChatCommand",
    "CitationStyle",
    "CitedAnswer",
    "CommandOption",
    "CommandReply",
    "ConnectorFactory",
    "Document",
    "Done",
    "Grader",
    "GraderFactory",
    "OptionError",
    "Outcome",
    "Place",
    "PluginContext",
    "Question",
    "Reason",
    "Refusal",
    "Route",
    "Section",
    "Segment",
    "Source",
    "Trigger",
    "Turn",
    "add_note",
    "hookimpl",
    "hookspec",
    "unanswered",
]
