"""Where an answer is drawn: a channel message, or an interaction's original response.

A canvas has one primary message, which ``show`` creates or edits, and
``more`` adds messages after it. Everything sent carries ``NO_PINGS``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord

from bots.platforms.discord.places import NO_PINGS

log = logging.getLogger("citebot.discord")

#: Discord's answers when an interaction token is no longer valid.
_TOKEN_GONE = frozenset({50027, 10015})


class Canvas(Protocol):
    async def show(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None: ...

    async def more(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None: ...


def _extras(embeds: Sequence[discord.Embed], view: discord.ui.View | None) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    if embeds:
        extras["embeds"] = list(embeds)
    if view is not None:
        extras["view"] = view
    return extras


class ChannelCanvas:
    """Messages in a channel, thread or DM; inline answers reply to the question."""

    def __init__(
        self, channel: discord.abc.Messageable, *, reply_to: discord.Message | None = None
    ) -> None:
        self.channel = channel
        self.reply_to = reply_to
        self.message: discord.Message | None = None

    async def show(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        if self.message is None:
            reference = (
                self.reply_to.to_reference(fail_if_not_exists=False) if self.reply_to else None
            )
            self.message = await self.channel.send(
                content,
                reference=reference,  # type: ignore[arg-type]
                mention_author=False,
                allowed_mentions=NO_PINGS,
                suppress_embeds=not embeds,
                **_extras(embeds, view),
            )
            return
        # the Sources embed is ours; link previews stay off because the content wraps URLs in <>
        await self.message.edit(
            content=content,
            embeds=list(embeds),
            view=view,
            allowed_mentions=NO_PINGS,
            suppress=not embeds,
        )

    async def more(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        await self.channel.send(
            content, allowed_mentions=NO_PINGS, suppress_embeds=not embeds, **_extras(embeds, view)
        )


class LaterCanvas:
    """A canvas made on first use: an auto-reply's thread appears only with its answer."""

    def __init__(self, make: Callable[[], Awaitable[Canvas]]) -> None:
        self._make = make
        self._canvas: Canvas | None = None

    async def _made(self) -> Canvas:
        if self._canvas is None:
            self._canvas = await self._make()
        return self._canvas

    async def show(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        await (await self._made()).show(content, embeds=embeds, view=view)

    async def more(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        await (await self._made()).more(content, embeds=embeds, view=view)


class InteractionCanvas:
    """The deferred response of an app command, edited in place.

    The interaction token lives 15 minutes. Shortly before it expires, or as
    soon as Discord rejects it, the answer moves to a normal message in the
    channel (in a DM for an ephemeral answer), so a slow answer is never lost.
    The response says where the answer went once it is there: a DM the user has
    closed leaves the answer in the response while its token lasts.
    """

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        *,
        ephemeral: bool,
        margin: float,
        clock: Callable[[], Any] = discord.utils.utcnow,
    ) -> None:
        self.interaction = interaction
        self.ephemeral = ephemeral
        self.margin = margin
        self._clock = clock
        self.moved: ChannelCanvas | None = None
        self._token_valid = True
        self._pointed = False
        #: the move failed (DMs closed): the response is kept for as long as Discord takes it
        self._stay = False

    def _fresh(self) -> bool:
        left: float = (self.interaction.expires_at - self._clock()).total_seconds()
        return left > self.margin

    async def show(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        await self._deliver(
            lambda: self.interaction.edit_original_response(
                content=content, allowed_mentions=NO_PINGS, **_extras(embeds, view)
            ),
            lambda canvas: canvas.show(content, embeds=embeds, view=view),
        )

    async def more(
        self,
        content: str,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        await self._deliver(
            lambda: self.interaction.followup.send(
                content,
                ephemeral=self.ephemeral,
                allowed_mentions=NO_PINGS,
                suppress_embeds=not embeds,
                **_extras(embeds, view),
            ),
            lambda canvas: canvas.more(content, embeds=embeds, view=view),
        )

    async def _deliver(
        self,
        here: Callable[[], Awaitable[object]],
        there: Callable[[ChannelCanvas], Awaitable[None]],
    ) -> None:
        """``here`` through the interaction while its token lasts, else ``there`` on the
        channel surface the answer moved to."""
        moved = self.moved
        if moved is None and not self._stay and not self._fresh():
            moved = await self._move(token_valid=not self.interaction.is_expired())
        if moved is None:
            try:
                await here()
                return
            except discord.HTTPException as exc:
                if exc.status != 401 and exc.code not in _TOKEN_GONE:
                    raise
                moved = await self._move(token_valid=False)
        try:
            await there(moved)
        except discord.Forbidden:
            if self._pointed or not self._token_valid or self.interaction.is_expired():
                raise
            log.warning(
                "cannot continue interaction %s in the user's DMs (closed to the bot); "
                "answering in the response while it lasts",
                self.interaction.id,
            )
            self.moved, self._stay = None, True
            await here()
            return
        if not self._pointed:
            self._pointed = True
            await self._point()

    async def _move(self, *, token_valid: bool) -> ChannelCanvas:
        self._token_valid = token_valid
        where = "in your DMs" if self.ephemeral else "below"
        log.info("interaction %s is about to expire; continuing %s", self.interaction.id, where)
        self.moved = ChannelCanvas(await self._destination())
        return self.moved

    async def _point(self) -> None:
        """Point the response at the answer's continuation, now that it is there."""
        if not self._token_valid or self.interaction.is_expired():
            return
        where = "in your DMs" if self.ephemeral else "below"
        try:
            await self.interaction.edit_original_response(
                content=f"↪ This is taking a while; the answer continues {where}.",
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException:
            log.debug("could not point the expiring interaction at its continuation", exc_info=True)

    async def _destination(self) -> discord.abc.Messageable:
        channel = self.interaction.channel
        if self.ephemeral or not isinstance(channel, discord.abc.Messageable):
            # an ephemeral answer must not become public: continue privately
            return await self.interaction.user.create_dm()
        return channel
