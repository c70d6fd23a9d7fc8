"""What Discord's cogs and extensions need of the bot, as a Protocol.

Each cog module is a discord.py extension whose ``setup(bot)`` adds it; it
types the bot by :class:`DiscordAdapter`, never by the concrete client class,
so no cog imports the client that loads it.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bots.core.runtime import Runtime
from bots.settings import Settings


class ThreadMemory(Protocol):
    """Threads the bot answered in, so plain follow-ups there are questions."""

    def add(self, item: int) -> None: ...

    def __contains__(self, item: object) -> bool: ...


class DiscordAdapter(Protocol):
    settings: Settings
    runtime: Runtime
    answered_threads: ThreadMemory
    plugin_commands: list[str]

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...
