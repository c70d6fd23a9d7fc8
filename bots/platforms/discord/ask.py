"""``/ask question:``: defer within Discord's 3 seconds, then stream into the original response.

A discord.py extension: ``setup(bot)`` adds the :class:`AskCog` cog.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bots.platforms.base import Responder
from bots.platforms.discord.places import NO_PINGS, is_allowed, place_of
from bots.platforms.discord.ports import DiscordAdapter
from bots.platforms.discord.responder import MessageSurface
from bots.platforms.discord.surfaces import InteractionCanvas
from pipeline.question import Question, Trigger

log = logging.getLogger("citebot.discord")

NOT_HERE = "Sorry, I don't answer questions in this channel."


async def setup(bot: DiscordAdapter) -> None:
    await bot.add_cog(AskCog(bot))


class AskCog(commands.Cog):
    def __init__(self, bot: DiscordAdapter) -> None:
        self.bot = bot

    @app_commands.command(name="ask", description="Ask a question; the answer cites its sources.")
    @app_commands.describe(question="What would you like to know?")
    async def ask(self, interaction: discord.Interaction[Any], question: str) -> None:
        settings = self.bot.settings.discord
        if not is_allowed(settings, interaction.channel, interaction.guild):
            await interaction.response.send_message(
                NOT_HERE, ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        runtime = self.bot.runtime
        place = place_of(interaction.channel, interaction.guild)
        answers = runtime.channel(place).answers
        ephemeral = settings.ephemeral if answers is None else answers == "ephemeral"
        # the first thing we do: Discord drops an interaction not answered within 3 s
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        asked = runtime.prepare(
            Question(
                text=question, asker=str(interaction.user.id), place=place, trigger=Trigger.SLASH
            )
        )
        canvas = InteractionCanvas(
            interaction, ephemeral=ephemeral, margin=settings.interaction_margin
        )
        shown = MessageSurface(canvas, interval=settings.edit_interval)
        await Responder(runtime, shown).run(asked)
