"""The assistant panel (Slack's Agents & AI Apps): Bolt's ``AsyncAssistant`` listeners.

An assistant thread is a DM thread with the app. Opening one shows the suggested
prompts; each message in it is answered like any other question (status, streamed
answer, footnotes, 👍/👎), with the thread so far as history, under the DM's knowledge
scope. The first question names the thread.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.set_suggested_prompts.async_set_suggested_prompts import (
    AsyncSetSuggestedPrompts,
)
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from .history import BotIdentity
from .listeners import adapter_of, handed_to
from .text import quiet, strip_mention

log = logging.getLogger("citebot.slack")

#: a thread title is a label in a narrow list, not the whole question
TITLE_CHARS = 60
PROMPTS_TITLE = "Try asking"


def build_assistant(logger: logging.Logger) -> AsyncAssistant:
    assistant = AsyncAssistant(app_name=logger.name, logger=logger)
    assistant.thread_started(on_thread_started)
    assistant.thread_context_changed(on_context_changed)
    assistant.user_message(on_user_message)
    return assistant


async def on_thread_started(
    set_suggested_prompts: AsyncSetSuggestedPrompts, context: AsyncBoltContext
) -> None:
    prompts = adapter_of(context).settings.assistant_prompts
    if not prompts:
        return
    try:
        await set_suggested_prompts(prompts=prompts, title=PROMPTS_TITLE)
    except SlackApiError as exc:
        # prompts are an invitation: without them the thread still answers
        log.warning("cannot set the suggested prompts: %s", exc.response.get("error"))


async def on_context_changed(event: dict[str, Any]) -> None:
    """The user moved to another channel with the panel open. Answers keep the scope of
    the place they are shown in (the DM), so the channel viewed changes nothing."""
    log.debug("assistant thread context changed")


on_user_message = handed_to(lambda adapter: adapter.on_assistant_message)


def thread_title(text: str, bot_user_id: str | None) -> str:
    """The first question, on one line and short, as the thread's title."""
    words = " ".join(quiet(strip_mention(text, bot_user_id)).split())
    if len(words) <= TITLE_CHARS:
        return words
    return words[: TITLE_CHARS - 1].rsplit(" ", 1)[0] + "…"


def first_question(messages: list[dict[str, Any]], event: dict[str, Any], me: BotIdentity) -> bool:
    """No one but the bot wrote in the thread before ``event``."""
    return not any(
        m.get("ts") != event.get("ts") and not me.wrote(m) and (m.get("text") or "").strip()
        for m in messages
    )


async def name_thread(
    client: AsyncWebClient, *, channel: str, thread_ts: str, text: str, me: BotIdentity
) -> None:
    title = thread_title(text, me.user_id)
    if not title:
        return
    try:
        await client.assistant_threads_setTitle(
            channel_id=channel, thread_ts=thread_ts, title=title
        )
    except SlackApiError as exc:
        log.info("cannot set the thread title: %s", exc.response.get("error"))
