"""Plugin chat commands, each offered as its own Discord app command with typed options.

A discord.py extension: ``setup(bot)`` adds every valid plugin command to the tree.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Literal

import discord
from discord import app_commands

from bots.platforms.discord.places import NO_PINGS, is_allowed, place_of
from bots.platforms.discord.ports import DiscordAdapter
from bots.platforms.discord.render import CONTENT_LIMIT
from bots.plugins.commands import (
    ChatCommand,
    CommandOption,
    CommandReply,
    OptionError,
    coerce_options,
    invoke,
    problems,
)
from bots.plugins.context import plugin_context
from bots.plugins.manager import commands_of
from citations.render.pieces import Piece, join, outside_code, pack
from citations.render.safe import defang
from pipeline.question import Trigger

log = logging.getLogger("citebot.discord")

_TYPES: dict[str, type] = {"str": str, "int": int, "float": float, "bool": bool}
#: A handler slower than this gets a deferred ("thinking…") response first.
DEFER_AFTER = 2.0


def _annotation(option: CommandOption) -> Any:
    if option.choices:
        return Literal[option.choices]
    return _TYPES[option.type]


def app_command(bot: DiscordAdapter, chat: ChatCommand) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: discord.Interaction[Any], **options: Any) -> None:
        await run_chat_command(bot, chat, interaction, options)

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for option in chat.options:
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = chat.name.replace("-", "_")
    described: Callable[..., Coroutine[Any, Any, None]] = app_commands.describe(
        **{o.name: o.description for o in chat.options}
    )(callback)
    return app_commands.Command(name=chat.name, description=chat.description, callback=described)


async def setup(bot: DiscordAdapter) -> None:
    bot.plugin_commands = add_chat_commands(bot, commands_of(bot.runtime.plugins))


def add_chat_commands(bot: DiscordAdapter, chats: Any) -> list[str]:
    """Add every valid plugin command to the tree; returns the names added."""
    added: list[str] = []
    for chat in chats or ():
        found = problems(chat)
        if bot.tree.get_command(getattr(chat, "name", "")) is not None:
            found.append(f"/{chat.name} already exists")
        if found:
            log.warning("skipping a plugin command: %s", "; ".join(found))
            continue
        try:
            bot.tree.add_command(app_command(bot, chat))
        except (TypeError, ValueError, app_commands.AppCommandError) as exc:
            log.warning("skipping plugin command /%s: %s", chat.name, exc)
            continue
        added.append(chat.name)
    return added


async def run_chat_command(
    bot: DiscordAdapter,
    chat: ChatCommand,
    interaction: discord.Interaction[Any],
    options: dict[str, Any],
) -> None:
    if not is_allowed(bot.settings.discord, interaction.channel, interaction.guild):
        await interaction.response.send_message(
            "Sorry, I don't answer commands in this channel.",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
        return
    try:
        values = coerce_options(chat, {k: v for k, v in options.items() if v is not None})
    except OptionError as exc:
        await interaction.response.send_message(str(exc), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    place = place_of(interaction.channel, interaction.guild)
    runtime = bot.runtime
    context = plugin_context(
        runtime,
        place,
        user=str(interaction.user.id),
        options=values,
        scope=runtime.scope_for(place, Trigger.SLASH),
    )
    task = asyncio.ensure_future(invoke(chat, context))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if done:
        reply = task.result()
        first, *rest = _chunks(reply)
        await interaction.response.send_message(
            first, ephemeral=reply.ephemeral, allowed_mentions=NO_PINGS
        )
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await task
        first, *rest = _chunks(reply)
        if reply.ephemeral:
            await interaction.edit_original_response(content=first, allowed_mentions=NO_PINGS)
        else:
            # the deferred response stays private, and the first followup would only replace
            # it: settle it first, so the public reply is a message of its own, then drop it
            await interaction.edit_original_response(content="Done.", allowed_mentions=NO_PINGS)
            await interaction.followup.send(first, ephemeral=False, allowed_mentions=NO_PINGS)
            await interaction.delete_original_response()
    for more in rest:
        await interaction.followup.send(more, ephemeral=reply.ephemeral, allowed_mentions=NO_PINGS)


def _chunks(reply: CommandReply) -> list[str]:
    """The reply in messages Discord takes, cut between lines or words, never in a link
    (cut through, ``<https://…>`` would link what is left of it)."""
    pieces = [
        # code links and pings nothing, and a command's usage (``limit:<int>``) is copied as is
        Piece(part, atom=True) if link else Piece(outside_code(part, defang))
        for part, link in reply.parts()
    ]
    return [join(chunk) for chunk in pack(pieces, CONTENT_LIMIT)] or ["Done."]
