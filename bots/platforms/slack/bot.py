"""The Slack adapter: turns Slack events into questions and answers them in threads.

Bolt acks every event before a listener runs, so the 3-second rule holds however
long an answer takes; the ``on_*`` methods only decide *whether* to answer, and
``answer()`` does the rest in the background. The Bolt app itself is built in
:mod:`.app`, whose listeners call back here through the :class:`.ports.SlackAdapter` shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import aiohttp
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator
from slack_sdk.web.async_client import AsyncWebClient

from bots.core.attachments import read_attachments
from bots.core.channels import is_question
from bots.core.dedupe import THREAD_TTL
from bots.platforms.base import Responder
from bots.settings import SettingsError
from bots.settings.sections import SlackSettings
from pipeline.errors import one_line
from pipeline.events import Done
from pipeline.question import Place, Question, Trigger

from .access import allowed, is_dm, place_kind
from .app import build_app
from .assistant import first_question, name_thread
from .files import offered_files
from .history import BotIdentity, bot_in_thread, fetch_thread, turns
from .installation import check_oauth, close_installations, create_tables, oauth_settings
from .places import PlaceKinds
from .ports import Workspace
from .questions import from_event, in_thread, is_user_text, thread_of
from .responder import Target, ThreadSurface
from .text import mentions

if TYPE_CHECKING:
    from bots.core.ports import Held
    from bots.core.runtime import Runtime

log = logging.getLogger("citebot.slack")

#: seconds a channel's name is trusted before conversations.info is asked again
NAME_TTL = 600.0


def check_settings(slack: SlackSettings) -> None:
    """One readable line per missing credential, before anything slow is built."""
    problems = check_oauth(slack)
    if slack.bot_token is None and not slack.oauth:
        problems.append(
            "setting slack.bot_token: required (or slack.client_id to install by OAuth) "
            "[env CITEBOT_SLACK__BOT_TOKEN or SLACK_BOT_TOKEN]"
        )
    if slack.mode == "http" and slack.signing_secret is None:
        problems.append(
            "setting slack.signing_secret: required in HTTP mode "
            "[env CITEBOT_SLACK__SIGNING_SECRET or SLACK_SIGNING_SECRET]"
        )
    if slack.mode == "socket" and slack.app_token is None:
        problems.append(
            "setting slack.app_token: required in Socket Mode (an xapp- token with "
            "connections:write) [env CITEBOT_SLACK__APP_TOKEN or SLACK_APP_TOKEN]"
        )
    if slack.assistant and not slack.allow_dms:
        problems.append(
            "setting slack.assistant: assistant threads are DMs with the app; "
            "it needs slack.allow_dms = true"
        )
    if problems:
        raise SettingsError(problems)


def web_client(runtime: Runtime) -> AsyncWebClient:
    slack = runtime.settings.slack
    token = slack.bot_token.get_secret_value() if slack.bot_token else None
    # slack-sdk opens a new aiohttp session (and connection) per call unless given one;
    # under load that handshake costs more than the call itself
    try:
        asyncio.get_running_loop()
        session: aiohttp.ClientSession | None = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=100)
        )
    except RuntimeError:
        session = None
    # a 429, a 5xx or a dropped connection is retried (with backoff) before an answer is lost
    backoff = BackoffRetryIntervalCalculator(backoff_factor=0.25)
    retries = [
        AsyncRateLimitErrorRetryHandler(max_retry_count=3),
        AsyncServerErrorRetryHandler(max_retry_count=3, interval_calculator=backoff),
        AsyncConnectionErrorRetryHandler(max_retry_count=3, interval_calculator=backoff),
    ]
    return AsyncWebClient(
        token=token, base_url=slack.api_url, session=session, retry_handlers=retries
    )


class SlackBot:
    def __init__(self, runtime: Runtime, *, client: AsyncWebClient | None = None) -> None:
        check_settings(runtime.settings.slack)
        self.runtime = runtime
        self.settings = runtime.settings.slack
        self.client = client or web_client(runtime)
        self.dedupe = runtime.dedupe
        self.places = PlaceKinds()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.answered = 0
        #: channel id → (name or None, when read), for ``#name`` patterns
        self._names: dict[str, tuple[str | None, float]] = {}
        self._names_warned = False
        data_dir = runtime.settings.data_dir
        self.oauth = oauth_settings(self.settings, data_dir) if self.settings.oauth else None
        self.app = build_app(self, self.settings, self.client, self.oauth)

    # -- deciding whether to answer -------------------------------------------

    def _allowed(self, team: str | None, channel: str | None, *, dm: bool) -> bool:
        ok = allowed(self.settings, team=team, channel=channel, dm=dm)
        if not ok:
            log.info("ignoring a question from %s/%s: not an allowed place", team, channel)
        return ok

    async def on_mention(self, event: dict[str, Any], ws: Workspace) -> None:
        if not is_user_text(event, answer_bots=self.settings.answer_bots):
            return
        channel = event.get("channel")
        if not channel or not self._allowed(ws.team, channel, dm=False):
            return
        lease = await self._claim(channel, event["ts"])
        if lease is None:
            return
        async with lease.held():
            await self._ask(event, channel, ws, Trigger.MENTION)

    async def on_message(self, event: dict[str, Any], ws: Workspace) -> None:
        if not is_user_text(event, answer_bots=self.settings.answer_bots):
            return
        channel = event.get("channel")
        if not channel:
            return
        dm = is_dm(channel, event.get("channel_type"))
        if dm:
            await self._on_dm(event, channel, ws)
        elif in_thread(event):
            await self._on_thread_reply(event, channel, ws)
        else:
            await self._on_channel_message(event, channel, ws)

    async def _on_channel_message(self, event: dict[str, Any], channel: str, ws: Workspace) -> None:
        """A top-level message: app_mention's business, unless the channel auto-replies.

        Only questions are answered, and only when there is an answer (quietly):
        a busy channel never sees "I couldn't find this" or small talk answered.
        Replies in threads the bot is not in never get here (see :meth:`_on_thread_reply`).
        """
        text = event.get("text") or ""
        if not self.runtime.channels.watches("slack") or mentions(text, ws.me.user_id):
            return
        if not self._allowed(ws.team, channel, dm=False):
            return
        name = await self.channel_name(channel, ws.client)
        place = Place(
            "slack",
            ws.team,
            channel,
            thread_of(event),
            place_kind(channel, event.get("channel_type")),
            name,
        )
        if not self.runtime.channel(place).auto_reply or not is_question(text):
            return
        lease = await self._claim(channel, event["ts"])
        if lease is None:
            return
        async with lease.held():
            await self._ask(event, channel, ws, Trigger.AUTO_REPLY)

    async def on_assistant_message(self, event: dict[str, Any], ws: Workspace) -> None:
        """A message in an assistant thread (a DM thread with the app)."""
        channel = event.get("channel")
        if channel and is_user_text(event, answer_bots=False):
            await self._on_dm(event, channel, ws, Trigger.ASSISTANT)

    async def _on_dm(
        self, event: dict[str, Any], channel: str, ws: Workspace, trigger: Trigger = Trigger.DM
    ) -> None:
        if not self._allowed(ws.team, channel, dm=True):
            return
        lease = await self._claim(channel, event["ts"])
        if lease is None:
            return
        async with lease.held():
            messages = None
            if trigger is Trigger.ASSISTANT:
                messages = await self._name_new_thread(event, channel, ws)
            await self._ask(event, channel, ws, trigger, messages)

    async def _name_new_thread(
        self, event: dict[str, Any], channel: str, ws: Workspace
    ) -> list[dict[str, Any]]:
        """The assistant thread so far; its first question becomes its title."""
        thread_ts = event["thread_ts"]
        messages = await fetch_thread(ws.client, channel=channel, thread_ts=thread_ts)
        if first_question(messages, event, ws.me):
            await name_thread(
                ws.client, channel=channel, thread_ts=thread_ts, text=event["text"], me=ws.me
            )
        return messages

    async def _on_thread_reply(self, event: dict[str, Any], channel: str, ws: Workspace) -> None:
        me = ws.me
        mentioned = mentions(event.get("text") or "", me.user_id)
        if not (self.settings.followups or mentioned):
            return
        if not self._allowed(ws.team, channel, dm=False):
            return
        thread_ts = event["thread_ts"]
        messages: list[dict[str, Any]] | None = None
        ours = await self._seen_thread(channel, thread_ts) or (
            bool(me.user_id) and event.get("parent_user_id") == me.user_id
        )
        if not ours and self.settings.followup_scan:
            messages = await fetch_thread(ws.client, channel=channel, thread_ts=thread_ts)
            ours = bot_in_thread(messages, me)
        if not ours:
            # a mention in a thread the bot is not in still arrives as app_mention
            return
        lease = await self._claim(channel, event["ts"])
        if lease is None:
            return
        trigger = Trigger.MENTION if mentioned else Trigger.THREAD_FOLLOWUP
        async with lease.held():
            await self._ask(event, channel, ws, trigger, messages)

    async def _ask(
        self,
        event: dict[str, Any],
        channel: str,
        ws: Workspace,
        trigger: Trigger,
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        """Answer ``event`` in its thread (or a new one under it), with the thread so
        far as history; ``messages`` is the thread when it was already fetched."""
        # busy from the start: drain() also waits for the look-ups before the answer
        async with self.busy():
            history: tuple[Any, ...] = ()
            if in_thread(event):
                if messages is None:
                    messages = await fetch_thread(
                        ws.client, channel=channel, thread_ts=event["thread_ts"]
                    )
                history = self._history(messages, ws.me, event)
            kind = await self.places.of(channel, event.get("channel_type"), ws.client)
            if kind.direct and not self.settings.allow_dms:
                # a group DM reaches the bot as a mention, but it is a direct conversation
                log.info(
                    "ignoring a question in %s: a direct conversation, and DMs are off", channel
                )
                return
            question = from_event(
                event,
                team=ws.team,
                bot_user_id=ws.me.user_id,
                trigger=trigger,
                history=history,
                channel_name=await self.channel_name(channel, ws.client),
                kind=kind,
            )
            files = event.get("files")
            if isinstance(files, list) and files:
                # the workspace's own token: a file from an OAuth-installed workspace needs it
                offered = offered_files(files, token=ws.client.token, api_url=self.settings.api_url)
                read = await read_attachments(offered, self.runtime.settings.attachments)
                question = replace(question, attachments=read)
            await self.answer(
                question,
                Target(channel, question.place.thread or event["ts"], ws.team, event.get("user")),
                client=ws.client,
                quiet=trigger is Trigger.AUTO_REPLY,
            )

    async def channel_name(self, channel: str, client: AsyncWebClient) -> str | None:
        """The channel's name when a ``#name`` pattern needs it (``conversations.info``, cached).

        ``None`` when no pattern matches names, for DMs, or when Slack will not say
        (a missing ``channels:read``/``groups:read`` scope is logged once).
        """
        if not self.runtime.channels.by_name or is_dm(channel):
            return None
        cached = self._names.get(channel)
        if cached is not None and time.monotonic() - cached[1] < NAME_TTL:
            return cached[0]
        try:
            info = await client.conversations_info(channel=channel)
            name = (info.get("channel") or {}).get("name") or None
        except Exception as exc:
            if not self._names_warned:
                self._names_warned = True
                log.warning(
                    "cannot read channel names for [channels] #name patterns (%s); "
                    "add the channels:read and groups:read scopes",
                    one_line(exc),
                )
            name = None
        self._names[channel] = (name, time.monotonic())
        return name

    def _history(
        self, messages: list[dict[str, Any]], me: BotIdentity, event: dict[str, Any]
    ) -> tuple[Any, ...]:
        return turns(
            messages,
            me,
            budget_tokens=self.runtime.settings.pipeline.history_tokens,
            exclude_ts=event.get("ts"),
            include_bots=self.settings.answer_bots,
        )

    async def open_installations(self) -> None:
        """Make the installation store ready (a shared database needs its tables)."""
        if self.oauth is not None:
            await create_tables(self.oauth.installation_store)

    async def _claim(self, channel: str, ts: str) -> Held | None:
        """One answer per post: app_mention and message.* both deliver a mention in a thread.

        A lease, not a final claim: if this process dies before the reply is
        posted, Slack's retry (here or on another replica) answers it.
        """
        lease = await self.dedupe.lease("slack", "msg", channel, ts)
        if lease is None:
            log.debug("already answering %s/%s", channel, ts)
        return lease

    async def _seen_thread(self, channel: str, thread_ts: str) -> bool:
        return await self.dedupe.seen("slack", "thread", channel, thread_ts)

    async def remember_thread(self, channel: str, thread_ts: str) -> None:
        await self.dedupe.remember("slack", "thread", channel, thread_ts, ttl=THREAD_TTL)

    # -- answering -------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Counts work in flight, so shutdown (and tests) can wait for it."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def answer(
        self,
        question: Question,
        target: Target,
        *,
        client: AsyncWebClient,
        screened: bool = False,
        quiet: bool = False,
    ) -> Done | None:
        """Answer ``question`` in ``target``'s thread through ``client`` (the workspace's);
        returns the ``Done`` or ``None`` on failure.

        A ``screened`` question already went through ``runtime.prepare`` and ``runtime.screen``.
        A ``quiet`` one (auto-reply) shows nothing unless it gets an answer.
        """
        async with self.busy():
            if not quiet:
                # before the answer shows: a reply while it streams is a follow-up
                await self.remember_thread(target.channel, target.thread_ts)
            if not screened:
                question = self.runtime.prepare(question)
            surface = ThreadSurface(client, self.settings, target)
            done = await Responder(self.runtime, surface).run(
                question, screened=screened, quiet=quiet
            )
            if quiet and done is not None:
                # a silent auto-reply leaves the thread to the people in it
                await self.remember_thread(target.channel, target.thread_ts)
            self.answered += 1
            return done

    async def drain(self) -> None:
        """Wait until no answer is in flight (graceful shutdown, tests)."""
        await self._idle.wait()

    async def close(self) -> None:
        """Let answers in flight finish, then release the HTTP session."""
        await self.drain()
        if self.oauth is not None:
            await close_installations(self.oauth.installation_store)
        session = self.client.session
        if session is not None and not session.closed:
            await session.close()
