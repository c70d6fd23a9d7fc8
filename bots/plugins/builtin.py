"""The commands every citebot has, registered like any other plugin's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bots.plugins.commands import ChatCommand, CommandOption, CommandReply
from bots.plugins.context import PluginContext
from bots.plugins.hookspecs import hookimpl
from citations.model import CitedAnswer
from citations.render import CitationStyle, render_html, render_markdown, render_text
from citations.render.safe import defang
from connectors.errors import ConnectorError

if TYPE_CHECKING:
    from connectors.knowledge.store.manifest import Entry

log = logging.getLogger("citebot.plugins.builtin")


async def show_help(context: PluginContext) -> CommandReply:
    prefix = context.command_prefix
    lines = ["Commands:"]
    for command in context.commands:
        lines.append(f"• `{command.usage(prefix)}`: {command.description}")
    ask = f"{prefix}<question>" if prefix != "/" else "/ask <question>"
    lines.append(f"To ask a question, mention me, send me a direct message, or use `{ask}`.")
    return CommandReply("\n".join(lines))


async def show_sources(context: PluginContext) -> CommandReply:
    where = "this channel" if context.place.channel else "here"
    if context.scope is not None and not context.scope:
        return CommandReply(f"No knowledge collections are open to {where}.")
    try:
        entries = await context.sources()
    except Exception as exc:  # a ConnectorError says what is wrong in one line
        log.exception("listing sources failed")
        detail = str(exc) if isinstance(exc, ConnectorError) else type(exc).__name__
        return CommandReply(f"I can't list the knowledge base right now ({detail}).")
    scope = "all collections" if context.scope is None else ", ".join(context.scope)
    if not entries:
        return CommandReply(
            f"Nothing has been ingested into the knowledge base open to {where} ({scope})."
        )
    by_collection: dict[str, list[Entry]] = {}
    for entry in entries:
        by_collection.setdefault(entry.collection, []).append(entry)
    limit = max(1, int(context.options.get("limit") or 20))
    lines = [
        f"The knowledge base open to {where} holds {len(entries):,} "
        f"document{'s' if len(entries) != 1 else ''} ({scope}):"
    ]
    shown = 0
    for collection, items in sorted(by_collection.items()):
        lines.append(f"*{collection}* ({len(items):,})")
        for entry in items[: max(0, limit - shown)]:
            # a title is the document's own text: it may name a link, never be one
            title = defang(entry.title or entry.key)
            lines.append(f"• {title} <{entry.url}>" if entry.url else f"• {title}")
            shown += 1
    if shown < len(entries):
        lines.append(f"…and {len(entries) - shown:,} more.")
    return CommandReply("\n".join(lines))


async def show_feedback_stats(context: PluginContext) -> CommandReply:
    store = context.feedback
    if store is None:
        return CommandReply("Feedback is not recorded on this bot.")
    try:
        overall = await asyncio.to_thread(store.stats)
        here = await asyncio.to_thread(store.stats, platform=context.place.platform)
    except Exception as exc:
        log.exception("reading feedback stats failed")
        return CommandReply(f"I can't read the feedback right now ({type(exc).__name__}).")
    lines = [f"Feedback: {_summary(overall)}"]
    if here != overall:
        lines.append(f"On {context.place.platform}: {_summary(here)}")
    return CommandReply("\n".join(lines))


def _summary(stats: Any) -> str:
    answers = f"{stats.answers:,} answer{'s' if stats.answers != 1 else ''}"
    if not stats.total:
        return f"no votes yet on {answers}."
    share = round(100 * stats.up / stats.total)
    return f"{stats.up:,} 👍 and {stats.down:,} 👎 ({share}% helpful) on {answers}."


@hookimpl
def register_commands() -> list[ChatCommand]:
    return [
        ChatCommand("help", "List the commands this bot understands.", show_help),
        ChatCommand(
            "sources",
            "Show what the knowledge base open to this channel contains.",
            show_sources,
            options=(CommandOption("limit", "How many sources to list", type="int", default=20),),
        ),
        ChatCommand(
            "feedback-stats", "Show how people rated the bot's answers.", show_feedback_stats
        ),
    ]


class _Style:
    def __init__(self, name: str, render: Callable[[CitedAnswer], object]) -> None:
        self.name = name
        self._render = render

    def render(self, answer: CitedAnswer) -> object:
        return self._render(answer)


def default_styles() -> list[CitationStyle]:
    return [
        _Style("text", render_text),
        _Style("markdown", render_markdown),
        _Style("html", render_html),
    ]


@hookimpl
def register_citation_styles() -> list[CitationStyle]:
    """The console styles; plugins add their own the same way (``citebot ask --style NAME``)."""
    return default_styles()
