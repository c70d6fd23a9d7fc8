"""Where a Discord message or interaction happened, and whether citebot may answer there."""

from __future__ import annotations

from typing import Any

import discord

from bots.settings.sections import DiscordSettings
from pipeline.question import Place, PlaceKind

PLATFORM = "discord"

#: Send nothing that can ping: model output must never reach @everyone, roles or users.
NO_PINGS = discord.AllowedMentions.none()


def place_of(channel: Any, guild: discord.Guild | None) -> Place:
    """Threads report their parent as the channel, so scopes set per channel cover their threads."""
    channel_id = str(channel.id) if channel is not None else None
    if guild is None:
        kind = PlaceKind.GROUP_DM if isinstance(channel, discord.GroupChannel) else PlaceKind.DM
        return Place(PLATFORM, None, channel_id, None, kind)
    if isinstance(channel, discord.Thread):
        private = channel.type is discord.ChannelType.private_thread
        kind = PlaceKind.PRIVATE if private else PlaceKind.CHANNEL
        parent = getattr(channel.parent, "name", None)
        return Place(PLATFORM, str(guild.id), str(channel.parent_id), str(channel.id), kind, parent)
    return Place(
        PLATFORM, str(guild.id), channel_id, None, channel_name=getattr(channel, "name", None)
    )


def is_allowed(settings: DiscordSettings, channel: Any, guild: discord.Guild | None) -> bool:
    if guild is None:
        return settings.allow_dms
    if settings.allowed_guilds and guild.id not in settings.allowed_guilds:
        return False
    if settings.allowed_channels:
        ids = {getattr(channel, "id", None), getattr(channel, "parent_id", None)}
        return not ids.isdisjoint(settings.allowed_channels)
    return True
