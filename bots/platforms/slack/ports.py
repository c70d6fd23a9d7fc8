"""What Slack's listeners and slash command need of the adapter (:class:`~.bot.SlackBot`).

Listeners are module-level functions; they find the adapter in Bolt's request
context (put there by :class:`~.app.AttachAdapter`) and type it by this
Protocol, so no listener module imports the bot that registers it.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
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


class SlackAdapter(Protocol):
    settings: SlackSettings
    runtime: Runtime
    client: AsyncWebClient

    def busy(self) -> AbstractAsyncContextManager[None]: ...

    async def on_mention(
        self, event: dict[str, Any], team: str | None, me: BotIdentity
    ) -> None: ...

    async def on_message(
        self, event: dict[str, Any], team: str | None, me: BotIdentity
    ) -> None: ...

    async def answer(
        self, question: Question, target: Target, *, screened: bool = False, quiet: bool = False
    ) -> Done | None: ...
