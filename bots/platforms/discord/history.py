"""Thread history as conversation turns, newest kept first, within a token budget."""

from __future__ import annotations

import logging
import re

import discord

from pipeline.question import Turn

log = logging.getLogger("citebot.discord")

_LINKED_MARKER = re.compile(r"\[\[(\d+)\]\]\(<?[^)\s>]+>?\)")
_CONVERSATION = frozenset({discord.MessageType.default, discord.MessageType.reply})


def estimate_tokens(text: str) -> int:
    # about four characters per token for English; the budget is a guard, not a bill
    return len(text) // 4 + 1


#: a person, a role or a channel, as a message's content carries them, and the broadcasts
_ADDRESS = re.compile(r"<(?:@[!&]?|#)\d+>|@(?:everyone|here)\b")
_SPACES = re.compile(r"[ \t]{2,}")


def question_text(text: str) -> str:
    """What a person asked: the message without who it is addressed to ("<@…> can you check:
    …", "cc <@…>", "@here"). A person's name is no part of the question, and no document has
    it: left in, it would leave every passage short of a name the question writes."""
    return _SPACES.sub(" ", _ADDRESS.sub(" ", text)).strip()


def turn_of(message: discord.Message, me: discord.abc.Snowflake) -> Turn | None:
    if message.type not in _CONVERSATION or not message.content:
        return None
    if message.author.id == me.id:
        return Turn("assistant", _LINKED_MARKER.sub(r"[\1]", message.content))
    text = question_text(message.content)
    return Turn("user", text) if text else None


async def starter_message(thread: discord.Thread) -> discord.Message | None:
    """The channel message a thread was started from (it shares the thread's id)."""
    if thread.starter_message is not None:
        return thread.starter_message
    parent = thread.parent
    if not isinstance(parent, discord.TextChannel | discord.VoiceChannel):
        return None
    try:
        return await parent.fetch_message(thread.id)
    except discord.HTTPException:
        return None


async def conversation_history(
    channel: discord.abc.Messageable,
    *,
    me: discord.abc.Snowflake,
    before: discord.Message,
    budget: int,
    limit: int = 50,
) -> tuple[Turn, ...]:
    """Turns before ``before``, oldest first; in a thread, led by the question that started it.

    Reads newest first so that a long conversation keeps its latest turns when
    the budget runs out; the starter question goes first if it still fits.
    """
    if budget <= 0 or limit <= 0:
        return ()
    newest_first: list[Turn] = []
    used = 0
    read = 0
    async for message in channel.history(limit=limit, before=before):
        read += 1
        turn = turn_of(message, me)
        if turn is None:
            continue
        cost = estimate_tokens(turn.text)
        if used + cost > budget:
            return tuple(reversed(newest_first))
        newest_first.append(turn)
        used += cost
    if read < limit and isinstance(channel, discord.Thread):  # reached the start of the thread
        starter = await starter_message(channel)
        turn = turn_of(starter, me) if starter is not None else None
        if turn is not None and used + estimate_tokens(turn.text) <= budget:
            newest_first.append(turn)
    return tuple(reversed(newest_first))
