"""What a platform adapter hands the pipeline: one question, in its place."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal


class Trigger(StrEnum):
    MENTION = "mention"
    SLASH = "slash"
    THREAD_FOLLOWUP = "thread_followup"
    DM = "dm"
    CLI = "cli"
    AUTO_REPLY = "auto_reply"  # a question in an auto-reply channel, asked without a mention
    ASSISTANT = "assistant"  # a platform's assistant thread (not wired yet)


class PlaceKind(StrEnum):
    """Who can read a place; knowledge scopes depend on it, never on the trigger."""

    CHANNEL = "channel"  # a public channel, or a place with no reader list (the console)
    PRIVATE = "private"  # a private channel: its members only
    DM = "dm"  # the asker and the bot
    GROUP_DM = "group_dm"  # a few people and the bot, outside any channel
    UNKNOWN = "unknown"  # the platform could not say: the narrowest scope of any of the above

    @property
    def direct(self) -> bool:
        """A conversation with the bot rather than a channel: ``dm_scope`` applies."""
        return self in (PlaceKind.DM, PlaceKind.GROUP_DM)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a question was asked. Ids are the platform's own strings."""

    platform: str = "cli"
    workspace: str | None = None
    channel: str | None = None
    thread: str | None = None
    kind: PlaceKind = PlaceKind.CHANNEL
    #: the channel's name without ``#``, when the adapter knows it (per-channel settings match it)
    channel_name: str | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a question, as the platform adapter read it.

    ``text`` is its content when it could be read (pages of a PDF separated by form
    feeds); otherwise ``skipped`` says why in one line, for the user to read. ``url``
    comes from the platform's metadata and is what a footnote points at.
    """

    name: str
    url: str
    text: str = ""
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """One question plus everything needed to answer it in its place.

    ``scope`` is the tuple of knowledge collections this place may search;
    ``None`` means every collection (a single-team install). ``persona`` is the
    place's extra instruction for the answer's tone, and ``web`` whether this place
    may search the web; like ``scope``, the runtime sets them from the place.
    """

    text: str
    asker: str = "local"
    place: Place = field(default_factory=Place)
    trigger: Trigger = Trigger.CLI
    history: tuple[Turn, ...] = ()
    scope: tuple[str, ...] | None = None
    attachments: tuple[Attachment, ...] = ()
    persona: str = ""
    web: bool = True
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
