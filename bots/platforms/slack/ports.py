"""What Slack's listeners and slash command need of the adapter (:class:`~.bot.SlackBot`).

Listeners are module-level functions; they find the adapter in Bolt's request
context (put there by :class:`~.app.AttachAdapter`) and type it by this
Protocol, so no listener module imports the bot that registers it.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from slack_sdk.web.async_client import AsyncWebClient

from bots.core.runtime import Runtime
from bots.settings.sections import SlackSettings
from pipeline.events import Done
from pipeline.question import Question

from .history import BotIdentity
from .responder import Target

#: The key of the adapter in Bolt's request context.
ADAPTER = "citebot_adapter"


@dataclass(frozen=True, slots=True)
class Workspace:
    """The workspace an event comes from, as the bot is in it: the team id, the bot's
    own ids there, and Bolt's per-request client, which carries that workspace's token
    (its own when installed by OAuth)."""

    team: str | None
    me: BotIdentity
    client: AsyncWebClient


class SlackAdapter(Protocol):
    settings: SlackSettings
    runtime: Runtime
    client: AsyncWebClient

    def busy(self) -> AbstractAsyncContextManager[None]: ...

    async def on_mention(self, event: dict[str, Any], ws: Workspace) -> None: ...

    async def on_message(self, event: dict[str, Any], ws: Workspace) -> None: ...

    async def on_assistant_message(self, event: dict[str, Any], ws: Workspace) -> None: ...

    async def answer(
        self,
        question: Question,
        target: Target,
        *,
        client: AsyncWebClient,
        screened: bool = False,
        quiet: bool = False,
    ) -> Done | None: ...
