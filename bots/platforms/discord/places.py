"""Where a Discord message or interaction happened, and whether citebot may answer there."""

from __future__ import annotations

from typing import Any

import discord

from bots.settings.sections import DiscordSettings
from pipeline.question import Place

PLATFORM = "discord"

#: Send nothing that can ping: model output must never reach @everyone, roles or users.
NO_PINGS = discord.AllowedMentions.none()


def place_of(channel: Any, guild: discord.Guild | None) -> Place:
    """Threads report their parent as the channel, so scopes set per channel cover their threads."""
    if guild is None:
        return Place(PLATFORM, None, str(channel.id) if channel is not None else None, None)
    if isinstance(channel, discord.Thread):
        return Place(PLATFORM, str(guild.id), str(channel.parent_id), str(channel.id))
    return Place(PLATFORM, str(guild.id), str(channel.id) if channel is not None else None, None)


def is_allowed(settings: DiscordSettings, channel: Any, guild: discord.Guild | None) -> bool:
    if guild is None:
        return settings.allow_dms
    if settings.allowed_guilds and guild.id not in settings.allowed_guilds:
        return False
    if settings.allowed_channels:
        ids = {getattr(channel, "id", None), getattr(channel, "parent_id", None)}
        return not ids.isdisjoint(settings.allowed_channels)
    return True
