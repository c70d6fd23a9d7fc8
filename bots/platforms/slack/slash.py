"""The slash command (``/ask`` by default): a question, or ``/ask NAME …`` for a plugin command.

The invoker's slash text is never shown in the channel, so a threaded answer
starts with a message that restates the question; an ephemeral answer goes
through ``response_url`` and only the asker sees it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bots.platforms.base import Responder
from bots.plugins.commands import (
    ChatCommand,
    OptionError,
    find,
    invoke,
    parse_options,
)
from bots.plugins.context import plugin_context
from bots.plugins.manager import commands_of
from pipeline.events import Done
from pipeline.question import Place, Question, Trigger

from .access import allowed, place_kind
from .history import BotIdentity
from .ports import SlackAdapter
from .render import escape, render
from .responder import ERROR_TEXT, Target
from .text import quiet

log = logging.getLogger("citebot.slack")

#: response_url takes at most 5 posts in 30 minutes
MAX_RESPONSES = 5

TOO_LONG = (
    "Sorry, this answer is too long for a reply only you can see. "
    "Mention me in a channel or a DM to get it whole."
)


async def handle_slash(
    bot: SlackAdapter,
    ack: AsyncAck,
    command: dict[str, Any],
    respond: AsyncRespond,
    me: BotIdentity,
    client: AsyncWebClient,
) -> None:
    """``client`` speaks for the command's workspace (its own token when installed by OAuth)."""
    slash = bot.settings.slash_command
    text = (command.get("text") or "").strip()
    team = command.get("team_id")
    channel = command.get("channel_id")
    user = command.get("user_id") or "unknown"
    kind = place_kind(channel, channel_name=command.get("channel_name"))
    if not allowed(bot.settings, team=team, channel=channel, dm=kind.direct):
        await ack(
            response_type="ephemeral", text=f"Sorry, {bot.settings.app_name} is not enabled here."
        )
        return
    place = Place("slack", team, channel, None, kind, channel_name=named(command))
    name, _, args = text.partition(" ")
    chat_command = find(commands_of(bot.runtime.plugins), name) if name else None
    if chat_command is not None and not chat_command.options and args.strip():
        # "/ask sources of revenue?": words after a command that takes none make a question
        chat_command = None
    if chat_command is not None:
        await ack()
        await _run_command(bot, chat_command, args.strip(), place, user, respond)
        return
    if not text or text.lower() == "help":
        await ack(response_type="ephemeral", text=_help(bot, slash))
        return
    question = Question(text=text, asker=user, place=place, trigger=Trigger.SLASH)
    if answers_of(bot, place) == "ephemeral":
        await ack(response_type="ephemeral", text=f"Looking into “{quiet(text)}”…")
        await _answer_ephemeral(bot, question, respond)
        return
    await ack()
    await _answer_in_thread(bot, question, respond, user=user, client=client)


def named(command: dict[str, Any]) -> str | None:
    """The channel's own name; Slack sends placeholders for DMs and hidden private ones."""
    name = command.get("channel_name")
    if not name or name in ("directmessage", "privategroup") or name.startswith("mpdm-"):
        return None
    return str(name)


def answers_of(bot: SlackAdapter, place: Place) -> str:
    """'ephemeral' or 'public': the channel's ``answers`` setting, else ``slack.slash_response``."""
    answers = bot.runtime.channel(place).answers
    if answers is not None:
        return answers
    return "ephemeral" if bot.settings.slash_response == "ephemeral" else "public"


def _help(bot: SlackAdapter, slash: str) -> str:
    lines = [f"Ask a question: `{slash} how do I rotate the API keys?`"]
    for command in commands_of(bot.runtime.plugins):
        lines.append(f"`{command.usage(prefix=slash + ' ')}`: {command.description}")
    return "\n".join(lines)


async def _run_command(
    bot: SlackAdapter,
    command: ChatCommand,
    args: str,
    place: Place,
    user: str,
    respond: AsyncRespond,
) -> None:
    try:
        options = parse_options(command, args)
    except OptionError as exc:
        await respond(response_type="ephemeral", text=str(exc))
        return
    context = plugin_context(
        bot.runtime,
        place,
        user=user,
        options=options,
        scope=bot.runtime.scope_for(place, Trigger.SLASH),
    )
    reply = await invoke(command, context)
    await respond(
        response_type="ephemeral" if reply.ephemeral else "in_channel",
        text="".join(part if link else escape(part) for part, link in reply.parts()),
        unfurl_links=False,
        unfurl_media=False,
    )


async def _answer_in_thread(
    bot: SlackAdapter,
    question: Question,
    respond: AsyncRespond,
    *,
    user: str,
    client: AsyncWebClient,
) -> None:
    channel = question.place.channel or ""
    shown = question.text
    # screened before the restatement goes up: a refused question (a pasted token) stays private
    checked = await bot.runtime.screen(bot.runtime.prepare(question))
    if isinstance(checked, Done):
        await respond(response_type="ephemeral", text=escape(checked.answer.plain_text))
        return
    question = checked
    try:
        parent = await client.chat_postMessage(
            channel=channel,
            text=f"<@{user}> asked: {quiet(shown)}",
            unfurl_links=False,
            unfurl_media=False,
        )
    except SlackApiError as exc:
        error = exc.response.get("error")
        log.info("cannot post the question in %s: %s", channel, error)
        hint = (
            " Invite me with `/invite @" + bot.settings.app_name + "` first."
            if error
            in (
                "not_in_channel",
                "channel_not_found",
            )
            else ""
        )
        await respond(response_type="ephemeral", text=f"Sorry, I can't post in this channel.{hint}")
        return
    thread_ts = str(parent["ts"])
    question = _moved(question, thread_ts)
    await bot.answer(
        question,
        Target(channel, thread_ts, question.place.workspace, user),
        client=client,
        screened=True,
    )


def _moved(question: Question, thread_ts: str) -> Question:
    return replace(question, place=replace(question.place, thread=thread_ts))


class EphemeralSurface:
    """Implements :class:`bots.platforms.base.Surface` through ``response_url``: only the
    asker sees it, so nothing is shown until the final render (5 posts at most)."""

    def __init__(self, respond: AsyncRespond) -> None:
        self.respond = respond

    async def open(self) -> None:
        """The ack already said "Looking into …"."""

    async def status(self, text: str) -> None:
        """response_url posts are too few to spend on progress."""

    async def delta(self, text: str) -> None:
        """response_url posts are too few to spend on progress."""

    async def finish(self, done: Done, answer_id: str | None) -> None:
        rendered = render(done.answer, answer_id=answer_id)
        if len(rendered.messages) > MAX_RESPONSES:
            # the sources come last: a cut answer would show claims without their footnotes
            log.warning(
                "a private answer takes %d messages, response_url at most %d: not shown",
                len(rendered.messages),
                MAX_RESPONSES,
            )
            await self._say(TOO_LONG)
            return
        try:
            for i, message in enumerate(rendered.messages):
                await self.respond(
                    response_type="ephemeral",
                    replace_original=i == 0,
                    text=message.text,
                    blocks=message.blocks,
                    unfurl_links=False,
                    unfurl_media=False,
                )
        except SlackApiError as exc:
            log.warning("response_url post failed: %s", exc.response.get("error"))

    async def fail(self) -> None:
        await self._say(ERROR_TEXT)

    async def _say(self, text: str) -> None:
        try:
            await self.respond(response_type="ephemeral", replace_original=True, text=text)
        except SlackApiError as exc:
            log.warning("response_url post failed: %s", exc.response.get("error"))


async def _answer_ephemeral(bot: SlackAdapter, question: Question, respond: AsyncRespond) -> None:
    question = bot.runtime.prepare(question)
    # an ephemeral answer has no buttons: a vote on a message nobody else sees is not asked for
    await Responder(bot.runtime, EphemeralSurface(respond), votes=False).run(question)
