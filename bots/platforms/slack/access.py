"""Which workspaces and channels the bot may answer in."""

from __future__ import annotations

from typing import Any

from bots.settings.sections import SlackSettings
from pipeline.question import PlaceKind

#: Events' ``channel_type`` values (message.channels/groups/im/mpim).
_EVENT_KINDS = {
    "channel": PlaceKind.CHANNEL,
    "group": PlaceKind.PRIVATE,
    "im": PlaceKind.DM,
    "mpim": PlaceKind.GROUP_DM,
}


def is_dm(channel: str | None, channel_type: str | None = None) -> bool:
    # slash command payloads carry no channel_type, but DM ids always start with D
    if channel_type is not None:
        return channel_type == "im"
    return channel is not None and channel.startswith("D")


def allowed(
    settings: SlackSettings,
    *,
    team: str | None,
    channel: str | None,
    dm: bool = False,
) -> bool:
    """An empty allow-list means "everywhere"; DMs obey ``allow_dms`` instead of the channel list."""
    if settings.allowed_workspaces and team not in settings.allowed_workspaces:
        return False
    if dm:
        return settings.allow_dms
    return not settings.allowed_channels or channel in settings.allowed_channels


def conversation_kind(conversation: dict[str, Any]) -> PlaceKind:
    """Who can read a conversation, from ``conversations.info``'s ``channel`` object."""
    if conversation.get("is_im"):
        return PlaceKind.DM
    if conversation.get("is_mpim"):
        return PlaceKind.GROUP_DM
    if conversation.get("is_private") or conversation.get("is_group"):
        return PlaceKind.PRIVATE
    return PlaceKind.CHANNEL


def place_kind(
    channel: str | None, channel_type: str | None = None, channel_name: str | None = None
) -> PlaceKind:
    """Who can read ``channel``: from an event's ``channel_type``, else a slash command's
    ``channel_name`` (``directmessage``, ``privategroup``, ``mpdm-…``), else the id's prefix."""
    if channel_type in _EVENT_KINDS:
        return _EVENT_KINDS[channel_type]
    if channel_name == "directmessage" or is_dm(channel):
        return PlaceKind.DM
    if channel_name and channel_name.startswith("mpdm-"):
        return PlaceKind.GROUP_DM
    if channel_name == "privategroup":
        return PlaceKind.PRIVATE
    return PlaceKind.CHANNEL
