"""One driver per adapter: send a platform event, read what the platform shows, click a vote.

Slack and Discord run their real clients against the local fakes; the console
prints to a list; the Mattermost-like stub (tests/platforms/mattermost_stub.py)
keeps its posts in memory. The contract tests talk to every one the same way.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

import aiohttp

from bots.core.feedback import FeedbackStore
from bots.core.ports import Vote
from bots.core.runtime import Runtime
from bots.platforms.console import Conversation
from bots.platforms.discord import configure_endpoints, create_bot
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import start_http
from bots.settings import Settings, load_settings
from bots.testing.discord_api import FakeDiscord
from bots.testing.slack_api import FakeSlack
from citations.model import CitedAnswer, Reference, Segment, Source
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question
from tests import waits
from tests.platforms.mattermost_stub import MattermostAdapter, Server
from tests.slack.conftest import SECRET, Harness, mention

GUIDE = Source(
    1, "https://docs.example.com/guide#keys", "Key rotation guide", "Keys rotate every 90 days."
)
ANSWER = CitedAnswer(
    segments=(Segment("Keys rotate every 90 days", (1,)), Segment(".", ())),
    references=(Reference(1, GUIDE.url, GUIDE.title, (GUIDE,)),),
)
STATUS = "Searching the knowledge base…"


class Script:
    """The pipeline's shape (a status, deltas, ``Done``), or a failure after the status."""

    def __init__(self) -> None:
        self.questions: list[Question] = []
        self.fail = False
        self.gate: asyncio.Event | None = None  # when set, the answer waits after its status
        self.at_gate = asyncio.Event()  # the status was taken (shown, in process) and we wait

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.questions.append(question)
        yield Status(STATUS, "retrieve")
        if self.gate is not None:
            self.at_gate.set()
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the model is down")
        text = ANSWER.text
        for i in range(0, len(text), 9):
            yield AnswerDelta(text[i : i + 9])
        yield Done(ANSWER, Route.KNOWLEDGE_BASE, question=question.text)


class Driver(Protocol):
    platform: str
    user: str  # who clicks the vote buttons
    buttons: bool  # does this platform offer vote buttons?
    script: Script
    store: FeedbackStore

    async def ask(self, text: str) -> None:
        """The platform's own event for ``text`` addressed to the bot (a mention, a line)."""

    async def final(self) -> str:
        """Wait for the final render; everything it shows, as text."""

    def shown(self) -> str:
        """Everything the platform was ever asked to show, in order."""

    async def wait_shown(self, text: str) -> None:
        """Until ``text`` is among what the platform was asked to show."""

    async def vote(self, choice: Vote) -> str:
        """Click the final answer's button; the reply the voter sees."""

    async def stop(self) -> None: ...


def _runtime(settings: Settings, script: Any, store: FeedbackStore) -> Runtime:
    return Runtime(settings, answerer=script, feedback=store)


class SlackDriver:
    platform = "slack"
    user = "U333"
    buttons = True

    def __init__(
        self, tmp_path: Path, access: dict[str, Any], answerer: Any = None, **slack: Any
    ) -> None:
        self.tmp_path, self.access, self.extra = tmp_path, access, slack
        self.script = Script()
        self.answerer = answerer or self.script
        self.store = FeedbackStore(tmp_path / "feedback.sqlite3")
        self._ts = itertools.count(1)

    async def start(self) -> SlackDriver:
        self.fake = await FakeSlack().start()
        settings = load_settings(
            data_dir=str(self.tmp_path),
            slack={
                "bot_token": "xoxb-test",
                "signing_secret": SECRET,
                "api_url": self.fake.base_url,
                "mode": "http",
                **self.extra,
            },
            access=self.access,
        )
        bot = SlackBot(_runtime(settings, self.answerer, self.store))
        self.runner = await start_http(bot, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{self.runner.addresses[0][1]}/slack/events"
        self.h = Harness(self.fake, bot, self.script, self.store, url, aiohttp.ClientSession())  # type: ignore[arg-type]
        return self

    async def ask(self, text: str) -> None:
        await self.h.event(mention(text, ts=f"1700000000.{next(self._ts):06d}"))

    async def final(self) -> str:
        def done(fake: FakeSlack) -> bool:
            sorry = [
                c for c in fake.called("chat.postMessage") if "Sorry" in c.params.get("text", "")
            ]
            return bool(fake.called("chat.stopStream") or sorry)

        await self.fake.wait_for(done)
        await self.h.bot.drain()
        return "\n".join(
            f"{m.text}\n{m.markdown}\n{json.dumps(m.blocks, ensure_ascii=False)}"
            for m in self.fake.messages.values()
        )

    def shown(self) -> str:
        return json.dumps([c.params for c in self.fake.calls], ensure_ascii=False)

    async def wait_shown(self, text: str) -> None:
        await self.fake.wait_for(lambda _: text in self.shown())

    def _actions(self) -> dict[str, Any] | None:
        for message in self.fake.messages.values():
            for block in message.blocks:
                if block.get("type") == "actions":
                    return block
        return None

    async def vote(self, choice: Vote) -> str:
        actions = self._actions()
        assert actions is not None, "no vote buttons"
        await self.h.click(actions["block_id"], f"citebot_vote_{choice}", user=self.user)
        call = await self.fake.wait_for("response_url:vote")
        return str(call.params["text"])

    async def stop(self) -> None:
        await self.h.session.close()
        await self.runner.cleanup()
        await self.h.bot.close()
        await self.fake.close()
        self.store.close()


class DiscordDriver:
    platform = "discord"
    buttons = True
    EDIT = r"/channels/\d+/messages/\d+"

    def __init__(
        self, tmp_path: Path, access: dict[str, Any], answerer: Any = None, **discord: Any
    ) -> None:
        self.tmp_path, self.access, self.extra = tmp_path, access, discord
        self.script = Script()
        self.answerer = answerer or self.script
        self.store = FeedbackStore(tmp_path / "feedback.sqlite3")

    async def start(self) -> DiscordDriver:
        from bots.testing.discord_api import USER_ID

        self.user = str(USER_ID)
        self.fake = await FakeDiscord().start()
        settings = Settings(
            data_dir=self.tmp_path,
            discord={
                "token": "fake-token",
                "api_url": self.fake.api_url,
                "gateway_url": self.fake.gateway_url,
                "edit_interval": 0.02,
                **self.extra,
            },
            access=self.access,
        )
        configure_endpoints(settings.discord)
        self.bot = create_bot(
            settings, _runtime(settings, self.answerer, self.store), guild_ready_timeout=0.05
        )
        self.task = asyncio.create_task(self.bot.start("fake-token"))
        await asyncio.wait_for(self.bot.wait_until_ready(), waits.EVENT)
        return self

    async def ask(self, text: str) -> None:
        await self.fake.user_says(text, mention_bot=True)

    async def final(self) -> str:
        def last(call: Any) -> bool:
            content = call.json.get("content", "")
            return bool(call.json.get("embeds")) or "Sorry" in content

        self._final = await self.fake.wait_call("PATCH", self.EDIT, last)
        return json.dumps(self._final.json, ensure_ascii=False)

    def shown(self) -> str:
        return json.dumps([c.json for c in self.fake.message_calls()], ensure_ascii=False)

    async def wait_shown(self, text: str) -> None:
        await self.fake.wait_for(lambda: text in self.shown() or None)

    async def vote(self, choice: Vote) -> str:
        rows = self._final.json.get("components") or []
        ids = [b["custom_id"] for row in rows for b in row.get("components", [])]
        assert ids, "no vote buttons"
        custom_id = next(i for i in ids if f":vote:{choice}:" in i)
        answer = self.fake.get_message(self._final.path.rsplit("/", 1)[1])
        await self.fake.click(answer, custom_id)
        ack = await self.fake.wait_call("POST", r"/interactions/\d+/[^/]+/callback")
        return str(ack.json["data"]["content"])

    async def stop(self) -> None:
        await self.bot.close()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.fake.stop()
        self.store.close()


class ConsoleDriver:
    platform = "console"
    user = "console"
    buttons = False  # a terminal has nothing to click

    def __init__(self, tmp_path: Path, access: dict[str, Any]) -> None:
        self.script = Script()
        self.store = FeedbackStore(tmp_path / "feedback.sqlite3")
        settings = load_settings(data_dir=str(tmp_path), access=access)
        self.conversation = Conversation(_runtime(settings, self.script, self.store))
        self.printed: list[str] = []
        self._asked: asyncio.Task[Any] | None = None

    async def start(self) -> ConsoleDriver:
        return self

    async def ask(self, text: str) -> None:
        self._asked = asyncio.ensure_future(self.conversation.say(text, self.printed.append))

    async def final(self) -> str:
        assert self._asked is not None
        await self._asked
        return "".join(self.printed)

    def shown(self) -> str:
        return "".join(self.printed)

    async def wait_shown(self, text: str) -> None:
        # an in-process surface shows each event before the responder reads the next
        await self.script.at_gate.wait()
        assert text in self.shown()

    async def vote(self, choice: Vote) -> str:
        raise AssertionError("the console has no vote buttons")

    async def stop(self) -> None:
        self.store.close()


class MattermostDriver:
    platform = "mattermost"
    user = "u-voter"
    buttons = True

    def __init__(self, tmp_path: Path, access: dict[str, Any]) -> None:
        self.script = Script()
        self.store = FeedbackStore(tmp_path / "feedback.sqlite3")
        settings = load_settings(data_dir=str(tmp_path), access=access)
        self.server = Server()
        self.adapter = MattermostAdapter(_runtime(settings, self.script, self.store), self.server)
        self._posts = itertools.count(1)
        self._asked: asyncio.Task[Any] | None = None

    async def start(self) -> MattermostDriver:
        return self

    async def ask(self, text: str) -> None:
        event = {
            "post_id": f"q{next(self._posts)}",
            "channel_id": "town-square",
            "channel_type": "O",
            "team_id": "team1",
            "user_id": "u-asker",
            "message": f"@bot {text}",
        }
        self._asked = asyncio.ensure_future(self.adapter.on_posted(event))

    async def final(self) -> str:
        assert self._asked is not None
        await self._asked
        return "\n".join(p.message for p in self.server.posts.values())

    def shown(self) -> str:
        return "\n".join(e for p in self.server.posts.values() for e in p.edits)

    async def wait_shown(self, text: str) -> None:
        # an in-process surface shows each event before the responder reads the next
        await self.script.at_gate.wait()
        assert text in self.shown()

    async def vote(self, choice: Vote) -> str:
        (post,) = self.server.posts.values()
        action = next(a for a in post.actions if a.startswith(choice + ":"))
        return await self.adapter.on_action(action, user=self.user)

    async def stop(self) -> None:
        self.store.close()


DRIVERS = {
    "slack": SlackDriver,
    "discord": DiscordDriver,
    "console": ConsoleDriver,
    "mattermost": MattermostDriver,
}
