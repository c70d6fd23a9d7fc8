"""The commands every citebot has, registered like any other plugin's."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bots.plugins.commands import ChatCommand, CommandContext, CommandOption, CommandReply
from bots.plugins.hookspecs import hookimpl

log = logging.getLogger("citebot.plugins.builtin")


def command_prefix(context: CommandContext) -> str:
    """How a user types a command here: ``/ask NAME`` on Slack, ``/NAME`` on Discord."""
    if context.place.platform == "slack":
        return f"{context.runtime.settings.slack.slash_command} "
    return "/"


async def show_help(context: CommandContext) -> CommandReply:
    prefix = command_prefix(context)
    lines = ["Commands:"]
    for command in context.runtime.commands:
        lines.append(f"• `{command.usage(prefix)}`: {command.description}")
    ask = f"{context.runtime.settings.slack.slash_command} <question>" if prefix != "/" else "/ask <question>"
    lines.append(f"To ask a question, mention me, send me a direct message, or use `{ask}`.")
    return CommandReply("\n".join(lines))


async def show_sources(context: CommandContext) -> CommandReply:
    where = "this channel" if context.place.channel else "here"
    if context.scope is not None and not context.scope:
        return CommandReply(f"No knowledge collections are open to {where}.")
    try:
        listing = await asyncio.to_thread(_list_sources, context.runtime.settings, context.scope)
    except SourcesUnavailable as exc:
        return CommandReply(f"I can't list the knowledge base right now: {exc}")
    except Exception as exc:
        log.exception("listing sources failed")
        return CommandReply(f"I can't list the knowledge base right now ({type(exc).__name__}).")
    limit = max(1, int(context.options.get("limit") or 20))
    scope = "all collections" if context.scope is None else ", ".join(context.scope)
    if not listing:
        return CommandReply(f"The knowledge base open to {where} ({scope}) is empty.")
    lines = [f"The knowledge base open to {where} ({scope}) holds {len(listing)} sources:"]
    for item in listing[:limit]:
        lines.append(f"• {item['title'] or item['url']} ({item['collection']}) {item['url']}")
    if len(listing) > limit:
        lines.append(f"…and {len(listing) - limit} more.")
    return CommandReply("\n".join(lines))


class SourcesUnavailable(Exception):
    """The store cannot be listed (no store module in this install, nothing ingested yet)."""


def _list_sources(settings: Any, scope: tuple[str, ...] | None) -> list[dict[str, str]]:
    try:
        from connectors.factory import open_store  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise SourcesUnavailable("this install has no knowledge store.") from None
    store = open_store(settings)
    items = store.sources() if hasattr(store, "sources") else []
    found = []
    for item in items:
        collection = str(getattr(item, "collection", "default"))
        if scope is not None and collection not in scope:
            continue
        found.append(
            {
                "title": str(getattr(item, "title", "") or ""),
                "url": str(getattr(item, "url", "") or getattr(item, "key", "")),
                "collection": collection,
            }
        )
    return found


async def show_feedback_stats(context: CommandContext) -> CommandReply:
    store = context.runtime.feedback
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
        ChatCommand("feedback-stats", "Show how people rated the bot's answers.", show_feedback_stats),
    ]
