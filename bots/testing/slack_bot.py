"""A real citebot Slack app (Bolt over HTTP, signed requests) against the fake Slack Web API.

async with SlackTestBot.running(tmp_path, plugins=[my_plugin]) as bot:
    reply = await bot.command("glossary rag")      # /ask glossary rag
    answer = await bot.mention("what is k8s?")     # @citebot what is k8s?
    assert "[1]" in answer.text
"""

from __future__ import annotations

import json
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from slack_sdk.signature import SignatureVerifier

from bots.core.runtime import Answerer
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import start_http
from bots.settings import load_settings
from bots.testing.host import Wiring, bot_runtime
from bots.testing.slack_api import BOT_USER, TEAM, FakeSlack, Message
from pipeline.events import Done

SECRET = "citebot-testing-signing-secret"
CHANNEL = "C111"
USER = "U222"


@dataclass(frozen=True)
class Reply:
    """What a command answered: its text as Slack shows it (``&lt;`` read as ``<``) and
    whether only the invoker sees it. ``raw`` is the text as sent."""

    raw: str
    ephemeral: bool

    @property
    def text(self) -> str:
        return self.raw.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


@dataclass(frozen=True)
class Answer:
    """A question's final answer: the runtime's ``done`` and the thread's messages."""

    done: Done
    messages: list[Message]

    @property
    def text(self) -> str:
        """Everything a user reads in the thread: text, streamed markdown, block text."""
        return "\n".join(m.visible_text for m in self.messages)


class SlackTestBot(Wiring):
    fake: FakeSlack
    bot: SlackBot
    _url: str
    _session: aiohttp.ClientSession
    _events: int

    @classmethod
    @asynccontextmanager
    async def running(
        cls,
        data_dir: Path,
        *,
        plugins: Iterable[object] = (),
        answerer: Answerer | None = None,
        discover: bool = False,
        **settings: Any,
    ) -> AsyncIterator[SlackTestBot]:
        """A bot on a free port with ``plugins``; ``settings`` are root settings sections
        (``slack={...}``, ``access={...}``). Everything is stopped on exit."""
        slack = {
            "bot_token": "xoxb-citebot-testing",
            "signing_secret": SECRET,
            "mode": "http",
            **settings.pop("slack", {}),
        }
        fake = await FakeSlack().start()
        slack["api_url"] = fake.base_url
        config = load_settings(data_dir=str(data_dir), slack=slack, **settings)
        with bot_runtime(config, plugins, answerer=answerer, discover=discover) as wiring:
            app = SlackBot(wiring.runtime)
            runner = await start_http(app, "127.0.0.1", 0)
            session = aiohttp.ClientSession()
            try:
                bot = cls(wiring.runtime, wiring.answerer, wiring.recorder)
                bot.fake, bot.bot, bot._session, bot._events = fake, app, session, 0
                bot._url = f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
                yield bot
            finally:
                await session.close()
                await runner.cleanup()
                await app.close()
                await fake.close()

    async def _post(self, body: str, content_type: str) -> int:
        ts = str(int(time.time()))
        signature = SignatureVerifier(SECRET).generate_signature(timestamp=ts, body=body)
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": signature or "",
        }
        async with self._session.post(self._url, data=body.encode(), headers=headers) as response:
            await response.read()
            return response.status

    async def command(
        self, text: str, *, channel: str = CHANNEL, user: str = USER, within: float = 10.0
    ) -> Reply:
        """``/ask TEXT`` (the configured slash command); the command's reply."""
        self._events += 1
        name = f"cmd{self._events}"
        body = urllib.parse.urlencode(
            {
                "command": self.bot.settings.slash_command,
                "text": text,
                "user_id": user,
                "team_id": TEAM,
                "channel_id": channel,
                "response_url": self.fake.response_url(name),
                "trigger_id": "1.2.3",
            }
        )
        status = await self._post(body, "application/x-www-form-urlencoded")
        if status != 200:
            raise AssertionError(f"the bot answered the slash command with HTTP {status}")
        call = await self.fake.wait_for(f"response_url:{name}", within=within)
        params = call.params
        return Reply(str(params.get("text", "")), params.get("response_type") != "in_channel")

    async def mention(
        self,
        text: str,
        *,
        channel: str = CHANNEL,
        user: str = USER,
        within: float = 10.0,
        files: Sequence[dict[str, Any]] = (),
    ) -> Answer:
        """``@citebot TEXT`` in ``channel``; the thread once the final answer is shown.
        ``files`` are shared with the message (see :meth:`FakeSlack.share_file`)."""
        self._events += 1
        ts = f"1700000000.{self._events:06d}"
        event: dict[str, Any] = {
            "type": "app_mention",
            "user": user,
            "text": f"<@{BOT_USER}> {text}",
            "ts": ts,
            "channel": channel,
            "team": TEAM,
            "event_ts": ts,
        }
        if files:
            event["files"] = list(files)
        envelope = {
            "token": "legacy",
            "team_id": TEAM,
            "api_app_id": "A111",
            "type": "event_callback",
            "event_id": f"Ev{self._events:08d}",
            "event_time": 1_700_000_000,
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
            "event": event,
        }
        seen = len(self.recorder.finished)
        status = await self._post(json.dumps(envelope), "application/json")
        if status != 200:
            raise AssertionError(f"the bot answered the event with HTTP {status}")
        finished = await self.recorder.next_after(seen, within)

        def shown(fake: FakeSlack) -> list[Message] | None:
            thread = fake.in_thread(channel, ts)
            settled = [
                c
                for c in fake.calls
                if c.at >= finished.at
                and c.params.get("channel") == channel
                and c.method in ("chat.postMessage", "chat.update", "chat.stopStream")
            ]
            if not settled or not thread or any(m.streaming for m in thread):
                return None
            return thread

        messages = await self.fake.wait_for(shown, within=within)
        return Answer(finished.done, messages)
