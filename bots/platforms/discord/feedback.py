"""👍/👎 buttons that outlive the process: the custom_id carries the vote and the answer id."""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bots.core.ports import Vote
from bots.core.runtime import Runtime, VoteReceipt
from bots.platforms.discord.places import NO_PINGS, PLATFORM

_EMOJI: dict[Vote, str] = {"up": "👍", "down": "👎"}
_LABEL: dict[Vote, str] = {"up": "Helpful", "down": "Not helpful"}


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"citebot:vote:(?P<vote>up|down):(?P<answer>[A-Za-z0-9_-]{1,64})",
):
    """Registered once with ``client.add_dynamic_items``; matches any message's buttons."""

    def __init__(self, answer_id: str, vote: Vote) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                emoji=_EMOJI[vote],
                custom_id=f"citebot:vote:{vote}:{answer_id}",
            )
        )
        self.answer_id = answer_id
        self.vote = vote

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> VoteButton:
        return cls(match["answer"], cast(Vote, match["vote"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        runtime = getattr(interaction.client, "runtime", None)
        receipt = (
            await runtime.vote(
                self.answer_id, user=str(interaction.user.id), vote=self.vote, platform=PLATFORM
            )
            if isinstance(runtime, Runtime)
            else VoteReceipt.OFF
        )
        await interaction.response.send_message(
            self._reply(receipt), ephemeral=True, allowed_mentions=NO_PINGS
        )

    def _reply(self, receipt: VoteReceipt) -> str:
        if receipt is VoteReceipt.OFF:
            return "Feedback is not switched on for this bot."
        if receipt is VoteReceipt.FAILED:
            return "Sorry, your feedback could not be saved. Please try again later."
        return f"{_EMOJI[self.vote]} Thanks! Your feedback (“{_LABEL[self.vote].lower()}”) was recorded."


def feedback_view(answer_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(answer_id, "up"))
    view.add_item(VoteButton(answer_id, "down"))
    return view
