"""What kind of conversation a Slack channel is, when the event does not say.

``app_mention`` carries no ``channel_type``, so a mention in a group DM would
read as a channel and search the channel's scope. ``conversations.info`` says
(``is_im``, ``is_mpim``, ``is_private``); the answer is kept per channel for an
hour, because a group DM can be turned into a private channel. When Slack
cannot say (a missing scope, an unknown channel, an outage), the place is
``UNKNOWN``, which gets the narrowest scope, and one WARNING line says why.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from pipeline.question import PlaceKind

from .access import conversation_kind, place_kind

log = logging.getLogger("citebot.slack")

TTL = 3600.0
SIZE = 10_000


class PlaceKinds:
    """``await kinds.of(channel, channel_type, client)``: who can read ``channel``."""

    def __init__(
        self,
        *,
        ttl: float = TTL,
        size: int = SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl = ttl
        self._size = size
        self._clock = clock
        self._known: OrderedDict[str, tuple[PlaceKind, float]] = OrderedDict()

    async def of(self, channel: str, channel_type: str | None, client: AsyncWebClient) -> PlaceKind:
        """``client`` is the workspace's own (an OAuth install has a token per workspace)."""
        if channel_type is not None or channel.startswith("D"):
            return place_kind(channel, channel_type)
        now = self._clock()
        known = self._known.get(channel)
        if known is not None and known[1] > now:
            return known[0]
        try:
            response = await client.conversations_info(channel=channel)
            kind = conversation_kind(response["channel"])
        except Exception as exc:  # whatever went wrong, the place gets the narrowest scope
            log.warning(
                "could not tell what kind of conversation %s is (%s); "
                "answering with the narrowest scope",
                channel,
                _reason(exc),
            )
            return PlaceKind.UNKNOWN
        self._known[channel] = (kind, now + self._ttl)
        self._known.move_to_end(channel)
        while len(self._known) > self._size:
            self._known.popitem(last=False)
        return kind


def _reason(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        data: Any = exc.response.data if exc.response is not None else {}
        error = data.get("error", "error") if isinstance(data, dict) else "error"
        needed = data.get("needed") if isinstance(data, dict) else None
        return f"{error}, needs {needed}" if needed else str(error)
    return type(exc).__name__
