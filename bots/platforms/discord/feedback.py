"""👍/👎 buttons and the 👎 follow-up, all outliving the process: every custom_id
carries what its click needs (the vote, the answer id), so any replica takes it."""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bots.core.feedback import DownReason
from bots.core.ports import Vote
from bots.core.runtime import Runtime, VoteReceipt
from bots.platforms.base import receipt_text
from bots.platforms.discord.places import NO_PINGS, PLATFORM

_EMOJI: dict[Vote, str] = {"up": "👍", "down": "👎"}
_LABEL: dict[Vote, str] = {"up": "Helpful", "down": "Not helpful"}
_ANSWER = r"(?P<answer>[A-Za-z0-9_-]{1,64})"
REASON_MODAL = re.compile(rf"citebot:reason:{_ANSWER}")
REASON_INPUT = "text"
#: what the store keeps of free text (:meth:`FeedbackStore.set_reason`)
REASON_CHARS = 1000
ASK_WHY = "👎 Thanks for the feedback. What was wrong with the answer?"


def _runtime(interaction: discord.Interaction[Any]) -> Runtime | None:
    runtime = getattr(interaction.client, "runtime", None)
    return runtime if isinstance(runtime, Runtime) else None


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"citebot:vote:(?P<vote>up|down):{_ANSWER}",
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
        runtime = _runtime(interaction)
        receipt = (
            await runtime.vote(
                self.answer_id, user=str(interaction.user.id), vote=self.vote, platform=PLATFORM
            )
            if runtime is not None
            else VoteReceipt.OFF
        )
        if receipt is VoteReceipt.RECORDED and self.vote == "down":
            await interaction.response.send_message(
                ASK_WHY, view=why_view(self.answer_id), ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        thanks = f"{_EMOJI[self.vote]} Thanks! Your feedback (“{_LABEL[self.vote].lower()}”) was recorded."
        await interaction.response.send_message(
            receipt_text(receipt, thanks), ephemeral=True, allowed_mentions=NO_PINGS
        )


class WhySelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"citebot:why:{_ANSWER}",
):
    """The 👎 follow-up: one option per :class:`DownReason`; "Other…" opens a modal."""

    def __init__(self, answer_id: str) -> None:
        options = [
            discord.SelectOption(
                label=reason.label + ("…" if reason is DownReason.OTHER else ""),
                value=str(reason),
            )
            for reason in DownReason
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"citebot:why:{answer_id}",
                placeholder="What was wrong with the answer?",
                options=options,
            )
        )
        self.answer_id = answer_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> WhySelect:
        return cls(match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = cast(dict[str, Any], interaction.data or {}).get("values") or []
        try:
            reason = DownReason(values[0])
        except (IndexError, ValueError):
            await interaction.response.defer()
            return
        if reason is DownReason.OTHER:
            await interaction.response.send_modal(reason_modal(self.answer_id))
            return
        await _store(interaction, self.answer_id, reason, "")


def why_view(answer_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(WhySelect(answer_id))
    return view


def reason_modal(answer_id: str) -> discord.ui.Modal:
    """The free-text form; its submit is taken by :func:`on_reason_submitted`, not this object."""
    modal = discord.ui.Modal(title="What was wrong?", custom_id=f"citebot:reason:{answer_id}")
    modal.add_item(
        discord.ui.Label(
            text="What was wrong with the answer?",
            component=discord.ui.TextInput(
                custom_id=REASON_INPUT, style=discord.TextStyle.paragraph, max_length=REASON_CHARS
            ),
        )
    )
    # a finished modal is not kept in this process's view store: the submit may reach
    # another replica, so the listener below handles it by its custom_id on every one
    modal.stop()
    return modal


def submitted_text(components: list[dict[str, Any]]) -> str:
    """The text input's value in a modal submit (inside a Label or a legacy action row)."""
    for component in components:
        inner = [component.get("component")] if component.get("type") == 18 else []
        inner += component.get("components") or []
        for item in inner:
            if isinstance(item, dict) and item.get("custom_id") == REASON_INPUT:
                return str(item.get("value") or "")
    return ""


async def on_reason_submitted(interaction: discord.Interaction[Any]) -> None:
    """``on_interaction`` listener: a submitted :func:`reason_modal`."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data = cast(dict[str, Any], interaction.data or {})
    match = REASON_MODAL.fullmatch(str(data.get("custom_id") or ""))
    if match is None:
        return
    text = submitted_text(data.get("components") or [])
    await _store(interaction, match["answer"], DownReason.OTHER, text)


async def _store(
    interaction: discord.Interaction[Any], answer_id: str, reason: DownReason, text: str
) -> None:
    """Hand the reason to the core and replace the follow-up with what became of it."""
    runtime = _runtime(interaction)
    receipt = (
        await runtime.reason(
            answer_id, user=str(interaction.user.id), reason=reason, text=text, platform=PLATFORM
        )
        if runtime is not None
        else VoteReceipt.OFF
    )
    reply = receipt_text(receipt, f"Noted: “{reason.label.lower()}”. Thank you!")
    if interaction.message is not None:
        await interaction.response.edit_message(content=reply, view=None, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(reply, ephemeral=True, allowed_mentions=NO_PINGS)


def feedback_view(answer_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(answer_id, "up"))
    view.add_item(VoteButton(answer_id, "down"))
    return view
