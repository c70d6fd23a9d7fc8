"""The app command tree: one error handler for ``/ask`` and every plugin command.

discord.py calls a cog's handler only for that cog's commands and logs the rest
with nothing sent back, so Discord shows "The application did not respond".
Here every failed command gets a private one-line reply.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bots.platforms.discord.places import NO_PINGS
from bots.platforms.discord.responder import FAILED

log = logging.getLogger("citebot.discord")

#: a command Discord's client still knows, in a shape the bot no longer registers
STALE = (
    "⚠️ This command has changed since Discord last loaded it. "
    "Please try again in a minute, or reload Discord."
)


class CitebotTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        name = interaction.command.name if interaction.command else _invoked(interaction)
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # Discord's copy of the commands lags a sync (or a plugin was removed)
            log.warning("/%s does not match the registered commands: %s", name, error)
            text = STALE
        else:
            log.error("/%s failed", name, exc_info=error)
            text = FAILED
        await tell(interaction, text)


def _invoked(interaction: discord.Interaction[Any]) -> str:
    data: Mapping[str, Any] = interaction.data or {}
    return str(data.get("name", "?"))


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """A private line to whoever used the command, whether or not it was answered yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.debug("could not report the failure to the user", exc_info=True)
