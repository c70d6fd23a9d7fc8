"""A real citebot Discord client (discord.py: login, gateway, command tree) against the fake
Discord REST API and gateway.

    async with DiscordTestBot.running(tmp_path, plugins=[my_plugin]) as bot:
        reply = await bot.slash("glossary", term="rag")
        answer = await bot.ask("what is k8s?")          # /ask question:…
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.core.runtime import Answerer
from bots.platforms.discord import configure_endpoints, create_bot
from bots.platforms.discord.render import to_parts
from bots.settings import Settings
from bots.testing.discord_api import CHANNEL_ID, FakeDiscord, Interaction
from bots.testing.host import Finished, Wiring, bot_runtime
from pipeline.events import Done

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass(frozen=True)
class Reply:
    """What a command answered: its text and whether only the invoker sees it."""

    text: str
    ephemeral: bool


@dataclass(frozen=True)
class Answer:
    """A question's final answer: the runtime's ``done`` and the message the asker sees."""

    done: Done
    message: dict[str, Any]

    @property
    def text(self) -> str:
        """The content and every embed's title, description and fields."""
        parts = [self.message.get("content") or ""]
        for embed in self.message.get("embeds") or []:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
        return "\n".join(p for p in parts if p)


class DiscordTestBot(Wiring):
    fake: FakeDiscord
    client: Any

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
    ) -> AsyncIterator[DiscordTestBot]:
        """A connected bot with ``plugins``; ``settings`` are root settings sections."""
        fake = await FakeDiscord().start()
        discord = {
            "token": fake.valid_token,
            "api_url": fake.api_url,
            "gateway_url": fake.gateway_url,
            "edit_interval": 0.02,
            **settings.pop("discord", {}),
        }
        config = Settings(data_dir=Path(data_dir), discord=discord, **settings)
        with bot_runtime(config, plugins, answerer=answerer, discover=discover) as wiring:
            configure_endpoints(config.discord)
            client = create_bot(config, wiring.runtime, guild_ready_timeout=0.05)
            task = asyncio.create_task(client.start(fake.valid_token))
            try:
                await asyncio.wait_for(client.wait_until_ready(), 10)
                bot = cls(wiring.runtime, wiring.answerer, wiring.recorder)
                bot.fake, bot.client = fake, client
                yield bot
            finally:
                await client.close()
                with suppress(Exception):
                    await task
                await fake.stop()

    async def slash(
        self, name: str, *, channel: int = CHANNEL_ID, within: float = 10.0, **options: Any
    ) -> Reply:
        """``/NAME option:value…``; the command's first reply."""
        interaction = await self.fake.slash(name, options, channel_id=channel)

        def replied() -> dict[str, Any] | None:
            if interaction.followups:
                return interaction.followups[0]
            original = interaction.original
            if original is None or original.get("flags", 0) & LOADING:
                return None
            return original

        message = await self.fake.wait_for(replied, within)
        return Reply(message.get("content") or "", bool(message.get("flags", 0) & EPHEMERAL))

    async def ask(
        self, question: str, *, channel: int = CHANNEL_ID, within: float = 10.0
    ) -> Answer:
        """``/ask question:QUESTION``; the answer once its final render is shown."""
        seen = len(self.recorder.finished)
        interaction = await self.fake.slash("ask", {"question": question}, channel_id=channel)
        finished = await self.recorder.next_after(seen, within)
        message = await self.fake.wait_for(lambda: _final(self.fake, interaction, finished), within)
        return Answer(finished.done, message)


def _final(
    fake: FakeDiscord, interaction: Interaction, finished: Finished
) -> dict[str, Any] | None:
    """The asker's message once it shows the final render (streamed edits may still be in
    flight when the answer is done, so an answer is waited for by its content)."""
    edits = [
        c
        for c in fake.calls
        if c.at >= finished.at and interaction.token in c.path and c.method in ("PATCH", "POST")
    ]
    if not edits:
        return None
    shown = [m for m in (interaction.original, *interaction.followups) if m is not None]
    if finished.done.outcome.is_answer:
        expected = to_parts(finished.done.answer)[0].content
        return next((m for m in shown if m.get("content") == expected), None)
    return shown[-1] if shown else None
