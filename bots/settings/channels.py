"""Per-channel settings: ``[channels."PATTERN"]`` tables, one place for what a channel does.

A pattern is ``platform:workspace/channel``:

- ``platform`` is ``slack`` or ``discord``;
- ``workspace`` is a Slack team id, a Discord guild id, or ``*`` for any;
- ``channel`` is a channel id, ``#name`` or a ``#glob`` (``#help-*``) on the channel's
  name, or ``*`` for every channel. ``platform:workspace`` alone means every channel there.

A name pattern never sets ``scope``: whoever may create or rename a channel would get
that knowledge. A scope is given by channel id or by workspace/guild.

Every field left unset falls through to the next less specific pattern, then to the
global setting (see :mod:`bots.core.channels` for the order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PLATFORMS = ("slack", "discord")
_PATTERN = re.compile(r"^(?P<platform>[a-z]+):(?P<workspace>[^/\s]+)(?:/(?P<channel>\S+))?$")


class ChannelSettings(BaseModel):
    """What one channel (or every channel matching a pattern) does differently."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    scope: list[str] | None = None
    """collections this channel may search; by channel id or workspace only, never #name (unset: access.scopes)"""
    auto_reply: bool | None = None
    """answer questions posted without an @mention (unset: off; rate: limits.auto_reply_per_minute)"""
    persona: str | None = Field(None, max_length=2000)
    """extra instructions for the answer's tone in this channel (the citation rules still hold)"""
    answers: Literal["public", "ephemeral"] | None = None
    """slash answers seen by everyone or only the asker (unset: the platform's setting)"""
    web_search: bool | None = None
    """search the web when the knowledge base has no answer (unset: on if web search is set up)"""


@dataclass(frozen=True, slots=True)
class PlacePattern:
    """A parsed ``channels`` key; ``specificity`` orders the patterns that match one place."""

    key: str
    platform: str
    workspace: str | None  # None: any workspace
    channel: str | None  # None: any channel
    by_name: bool

    @property
    def specificity(self) -> tuple[int, int]:
        """Channel id before name pattern before any channel, then own workspace before any."""
        channel = 0 if self.channel is None else (1 if self.by_name else 2)
        return channel, 0 if self.workspace is None else 1


def parse_pattern(key: str) -> PlacePattern:
    """The pattern ``key`` spells; ``ValueError`` with the expected shape if it spells none."""
    match = _PATTERN.match(key.strip())
    if match is None or match["platform"] not in PLATFORMS:
        raise ValueError(
            f"channels key {key!r} is not platform:workspace/channel "
            "(e.g. 'slack:*/C0123ABCD', 'slack:T1/#help-*', 'discord:123/456')"
        )
    workspace = None if match["workspace"] == "*" else match["workspace"]
    channel = match["channel"]
    by_name = bool(channel and channel.startswith("#"))
    if by_name and channel is not None and len(channel) < 2:
        raise ValueError(f"channels key {key!r}: '#' needs a name or a glob after it")
    return PlacePattern(
        key,
        match["platform"],
        workspace,
        None if channel in (None, "*") else (channel[1:] if by_name and channel else channel),
        by_name,
    )


def check_patterns(channels: dict[str, ChannelSettings]) -> dict[str, ChannelSettings]:
    """``channels`` unchanged; ``ValueError`` for a malformed key or a scope given by name."""
    for key, rule in channels.items():
        pattern = parse_pattern(key)
        if pattern.by_name and rule.scope is not None:
            raise ValueError(
                f"channels key {key!r}: 'scope' cannot be set by channel name (anyone who "
                "may create or rename a channel would get it); set it by channel id "
                "('slack:T1/C123', 'discord:G1/4001') or workspace/guild ('slack:T1')"
            )
    return channels
