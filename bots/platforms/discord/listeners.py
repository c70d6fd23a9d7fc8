"""Messages that are questions: @mentions, follow-ups in the bot's threads, DMs, and
questions in auto-reply channels (answered in a thread, and only when there is an answer).

A discord.py extension: ``setup(bot)`` adds the :class:`QuestionListener` cog.
"""

from __future__ import annotations

import logging
import re

import discord
from discord.ext import commands

from bots.core.attachments import read_attachments
from bots.core.channels import is_question
from bots.core.dedupe import THREAD_TTL
from bots.platforms.base import Responder
from bots.platforms.discord.files import offered_files
from bots.platforms.discord.history import conversation_history, question_text
from bots.platforms.discord.places import is_allowed, place_of
from bots.platforms.discord.ports import DiscordAdapter
from bots.platforms.discord.responder import MessageSurface
from bots.platforms.discord.surfaces import Canvas, ChannelCanvas, LaterCanvas
from bots.settings.sections import DiscordSettings
from pipeline.question import Question, Trigger, Turn

log = logging.getLogger("citebot.discord")

_CONVERSATION = frozenset({discord.MessageType.default, discord.MessageType.reply})
_USER_MENTION = re.compile(r"<@!?(\d+)>")


def thread_name(text: str) -> str:
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    first = _USER_MENTION.sub("", first).strip() or "Question"
    return first if len(first) <= 100 else first[:99] + "…"


async def setup(bot: DiscordAdapter) -> None:
    await bot.add_cog(QuestionListener(bot))


class QuestionListener(commands.Cog):
    def __init__(self, bot: DiscordAdapter) -> None:
        self.bot = bot

    @property
    def settings(self) -> DiscordSettings:
        return self.bot.settings.discord

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        trigger = await self._trigger(message)
        if trigger is None:
            return
        # a lease: a replica that dies mid-answer leaves the message to the next delivery
        lease = await self.bot.runtime.dedupe.lease("discord", "message", str(message.id))
        if lease is None:
            return
        async with lease.held():
            channel = message.channel
            if trigger is Trigger.AUTO_REPLY:
                later = LaterCanvas(lambda: self._thread_for(message))
                await self._answer(message, trigger, later, quiet=True)
                return
            if trigger is Trigger.MENTION and not isinstance(channel, discord.Thread):
                await self._answer(message, trigger, await self._thread_for(message))
                return
            if isinstance(channel, discord.Thread):
                await self._remember(channel.id)
            await self._answer(
                message, trigger, ChannelCanvas(channel), history=await self._history(message)
            )

    async def _remember(self, thread_id: int) -> None:
        """Threads the bot answered in: shared (Redis) so a restart or another replica knows."""
        self.bot.answered_threads.add(thread_id)
        await self.bot.runtime.dedupe.remember("discord", "thread", str(thread_id), ttl=THREAD_TTL)

    async def _trigger(self, message: discord.Message) -> Trigger | None:
        """What kind of question this message is, or ``None`` if it is none of citebot's business."""
        me = self.bot.user
        if me is None or message.author.id == me.id:
            return None
        if (message.author.bot or message.webhook_id) and not self.settings.answer_bots:
            return None
        if message.type not in _CONVERSATION:
            return None
        if not is_allowed(self.settings, message.channel, message.guild):
            return None
        if message.guild is None:
            return Trigger.DM
        if self._mentions_me(message):
            return Trigger.MENTION
        if isinstance(message.channel, discord.Thread):
            # a thread the bot is not in is the people's who started it
            return Trigger.THREAD_FOLLOWUP if await self._owns(message.channel) else None
        if self._auto_replies(message):
            return Trigger.AUTO_REPLY
        return None

    def _auto_replies(self, message: discord.Message) -> bool:
        """A question nobody addressed to anyone, in an auto-reply channel."""
        if message.reference is not None or message.mentions or message.raw_role_mentions:
            return False  # a reply to someone, or words for someone else
        place = place_of(message.channel, message.guild)
        return self.bot.runtime.channel(place).auto_reply and is_question(message.content)

    def _mentions_me(self, message: discord.Message) -> bool:
        me = self.bot.user
        # a reply-with-ping lists the bot in ``mentions`` without writing <@id> in the text
        if me is not None and any(user.id == me.id for user in message.mentions):
            return True
        role = message.guild.self_role if message.guild is not None else None
        return role is not None and role.id in message.raw_role_mentions

    async def _owns(self, thread: discord.Thread) -> bool:
        me = self.bot.user
        return (
            thread.id in self.bot.answered_threads
            or (me is not None and thread.owner_id == me.id)
            or thread.me is not None
            or await self.bot.runtime.dedupe.seen("discord", "thread", str(thread.id))
        )

    async def _thread_for(self, message: discord.Message) -> ChannelCanvas:
        if self.settings.mention_mode == "thread":
            try:
                thread = await message.create_thread(
                    name=thread_name(self._text(message)),
                    auto_archive_duration=self.settings.thread_archive_minutes,
                )
            except (discord.HTTPException, ValueError) as exc:
                log.warning(
                    "could not start a thread in channel %s (%s); replying inline",
                    message.channel.id,
                    exc,
                )
            else:
                await self._remember(thread.id)
                return ChannelCanvas(thread)
        return ChannelCanvas(message.channel, reply_to=message)

    async def _history(self, message: discord.Message) -> tuple[Turn, ...]:
        me = self.bot.user
        assert me is not None
        try:
            return await conversation_history(
                message.channel,
                me=me,
                before=message,
                budget=self.bot.settings.pipeline.history_tokens,
                limit=self.settings.history_messages,
            )
        except discord.HTTPException as exc:
            # answering without context beats not answering
            log.warning("could not read the history of channel %s: %s", message.channel.id, exc)
            return ()

    def _text(self, message: discord.Message) -> str:
        return question_text(message.content)

    async def _answer(
        self,
        message: discord.Message,
        trigger: Trigger,
        surface: Canvas,
        *,
        history: tuple[Turn, ...] = (),
        quiet: bool = False,
    ) -> None:
        runtime = self.bot.runtime
        text = self._text(message)
        if not text and trigger is Trigger.THREAD_FOLLOWUP:
            return  # an image, a sticker, or content hidden without the MESSAGE_CONTENT intent
        attachments = await read_attachments(offered_files(message), self.bot.settings.attachments)
        question = runtime.prepare(
            Question(
                text=text,
                asker=str(message.author.id),
                place=place_of(message.channel, message.guild),
                trigger=trigger,
                history=history,
                attachments=attachments,
            )
        )
        shown = MessageSurface(surface, interval=self.settings.edit_interval)
        await Responder(runtime, shown).run(question, quiet=quiet)
