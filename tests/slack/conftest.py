"""The real Bolt app on a real aiohttp server, signed requests, and a fake Slack Web API."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from slack_sdk.signature import SignatureVerifier

from bots.core.dedupe import Dedupe
from bots.core.feedback import FeedbackStore
from bots.core.runtime import Runtime
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import start_http
from bots.settings import load_settings
from bots.testing.slack_api import BOT_USER, TEAM, FakeSlack
from citations.model import CitedAnswer, Reference, Segment, Source
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question

SECRET = "test-signing-secret"
GUIDE = "https://docs.example.com/guide?a=1&b=2"
FAQ = "https://docs.example.com/faq"

Script = Callable[[Question], AsyncIterator[Progress]]


def cited(
    *parts: tuple[str, tuple[int, ...]],
    refs: tuple[tuple[str, str], ...] = (("Guide", GUIDE), ("FAQ", FAQ)),
) -> CitedAnswer:
    references = tuple(
        Reference(n, url, title, (Source(n, url, title, f"text of {title}"),))
        for n, (title, url) in enumerate(refs, 1)
    )
    return CitedAnswer(segments=tuple(Segment(t, c) for t, c in parts), references=references)


ANSWER = cited(("The answer is 42", (1,)), (". See the FAQ", (2,)), (".", ()))


async def default_script(question: Question) -> AsyncIterator[Progress]:
    yield Status("Searching the knowledge base…", "retrieve")
    for piece in ("The answer is 42", "[1]", ". See the FAQ", "[2]", "."):
        yield AnswerDelta(piece)
    yield Done(ANSWER, Route.KNOWLEDGE_BASE, question=question.text)


class ScriptedAnswerer:
    """Our own ``Answerer`` protocol, scripted per test (no SDK involved)."""

    def __init__(self, script: Script = default_script) -> None:
        self.script = script
        self.questions: list[Question] = []

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.questions.append(question)
        async for event in self.script(question):
            yield event


def sign(body: str, *, secret: str = SECRET, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": SignatureVerifier(secret).generate_signature(timestamp=ts, body=body),
    }


#: what ``serve_http`` logs once its port is open (bots/platforms/slack/server.py)
LISTENING = b"is listening for Slack on http://"


@contextlib.asynccontextmanager
async def serving(proc: asyncio.subprocess.Process, *, within: float) -> AsyncIterator[None]:
    """Wait until ``proc`` logs that it listens for Slack; stop it on the way out.

    The readiness line comes after the port is open, so nothing polls; a cold start
    (imports, the embedding model) on a busy machine gets all of ``within``. The rest
    of stderr is read to the end so a chatty process never blocks on a full pipe. If
    ``proc`` exits first, the test fails with the end of what it wrote.
    """
    assert proc.stderr is not None
    drain: asyncio.Task[bytes] | None = None
    try:
        said = b""
        async with asyncio.timeout(within):
            while LISTENING not in (line := await proc.stderr.readline()):
                if not line:
                    raise AssertionError(said.decode(errors="replace")[-3000:])
                said += line
        drain = asyncio.create_task(proc.stderr.read())
        yield
    finally:
        if proc.returncode is None:
            proc.terminate()
        await proc.wait()
        if drain is not None:
            await drain


def envelope(
    event: dict[str, Any], event_id: str, *, team: str = TEAM, bot_user: str = BOT_USER
) -> dict[str, Any]:
    return {
        "token": "legacy",
        "team_id": team,
        "api_app_id": "A111",
        "type": "event_callback",
        "event_id": event_id,
        "event_time": 1_700_000_000,
        "authorizations": [{"team_id": team, "user_id": bot_user, "is_bot": True}],
        "event": event,
    }


def mention(
    text: str = "what is the answer?",
    *,
    ts: str = "1700000000.000001",
    channel: str = "C111",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "type": "app_mention",
        "user": "U222",
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        "channel": channel,
        "team": TEAM,
        "event_ts": ts,
        **extra,
    }


def message(
    text: str, *, ts: str, channel: str = "C111", channel_type: str = "channel", **extra: Any
) -> dict[str, Any]:
    return {
        "type": "message",
        "user": "U222",
        "text": text,
        "ts": ts,
        "channel": channel,
        "channel_type": channel_type,
        "team": TEAM,
        "event_ts": ts,
        **extra,
    }


@dataclass
class Harness:
    fake: FakeSlack
    bot: SlackBot
    answerer: ScriptedAnswerer
    store: FeedbackStore
    url: str
    session: aiohttp.ClientSession
    _ids: int = field(default=0)

    async def post(
        self, body: str, content_type: str, headers: dict[str, str] | None = None, **signing: Any
    ) -> tuple[int, str, float]:
        all_headers = {"Content-Type": content_type, **sign(body, **signing), **(headers or {})}
        started = time.perf_counter()
        async with self.session.post(self.url, data=body.encode(), headers=all_headers) as response:
            text = await response.text()
            return response.status, text, time.perf_counter() - started

    async def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        headers: dict[str, str] | None = None,
        team: str = TEAM,
        **signing: Any,
    ) -> tuple[int, str, float]:
        if event_id is None:
            self._ids += 1
            event_id = f"Ev{self._ids:06d}"
        wrapped = envelope(event, event_id, team=team)
        return await self.post(json.dumps(wrapped), "application/json", headers, **signing)

    async def command(
        self,
        text: str,
        *,
        channel: str = "C111",
        user: str = "U222",
        name: str | None = None,
        channel_name: str | None = None,
    ) -> tuple[int, str, float]:
        fields = {
            "command": name or self.bot.settings.slash_command,
            "text": text,
            "user_id": user,
            "team_id": TEAM,
            "channel_id": channel,
            "response_url": self.fake.response_url("cmd"),
            "trigger_id": "1.2.3",
        }
        if channel_name is not None:
            fields["channel_name"] = channel_name
        body = urllib.parse.urlencode(fields)
        return await self.post(body, "application/x-www-form-urlencoded")

    async def click(
        self,
        block_id: str,
        action_id: str,
        *,
        user: str = "U333",
        channel: str = "C111",
        message_ts: str = "1.0",
    ) -> tuple[int, str, float]:
        payload = {
            "type": "block_actions",
            "team": {"id": TEAM},
            "user": {"id": user},
            "api_app_id": "A111",
            "channel": {"id": channel},
            "container": {"type": "message", "message_ts": message_ts, "channel_id": channel},
            "message": {"ts": message_ts, "text": "answer"},
            "response_url": self.fake.response_url("vote"),
            "trigger_id": "1.2.3",
            "actions": [
                {
                    "type": "button",
                    "block_id": block_id,
                    "action_id": action_id,
                    "value": "x",
                    "action_ts": "1.1",
                }
            ],
        }
        return await self.interact(payload)

    async def interact(self, payload: dict[str, Any]) -> tuple[int, str, float]:
        """Post an interaction payload (block_actions, view_submission) as Slack does."""
        body = urllib.parse.urlencode({"payload": json.dumps(payload)})
        return await self.post(body, "application/x-www-form-urlencoded")


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    server = await FakeSlack().start()
    yield server
    await server.close()


MakeHarness = Callable[..., Any]


@pytest.fixture
async def make_harness(fake: FakeSlack, tmp_path: Path) -> AsyncIterator[MakeHarness]:
    """``await make_harness(script=..., **slack_settings)`` starts a bot on a free port."""
    started: list[tuple[Any, aiohttp.ClientSession, FeedbackStore, SlackBot]] = []

    async def make(
        script: Script = default_script,
        answerer: Any = None,
        runtime_kwargs: dict[str, Any] | None = None,
        dedupe: Dedupe | None = None,
        root: dict[str, Any] | None = None,
        **slack: Any,
    ) -> Harness:
        """``root`` holds other settings sections (``channels={...}``, ``limits={...}``)."""
        settings = load_settings(
            **(root or {}),
            data_dir=str(tmp_path / "data"),
            slack={
                "bot_token": "xoxb-test",
                "signing_secret": SECRET,
                "api_url": fake.base_url,
                "mode": "http",
                "update_interval": 0.2,
                **slack,
            },
        )
        store = FeedbackStore(tmp_path / "data" / "feedback.sqlite3")
        scripted = ScriptedAnswerer(script)
        runtime = Runtime(
            settings,
            answerer=answerer or scripted,
            feedback=store,
            dedupe=dedupe or Dedupe(),
            **(runtime_kwargs or {}),
        )
        bot = SlackBot(runtime)
        runner = await start_http(bot, "127.0.0.1", 0)
        port = runner.addresses[0][1]
        session = aiohttp.ClientSession()
        started.append((runner, session, store, bot))
        return Harness(fake, bot, scripted, store, f"http://127.0.0.1:{port}/slack/events", session)

    yield make
    for runner, session, store, bot in started:
        await session.close()
        await runner.cleanup()
        await bot.close()
        store.close()
