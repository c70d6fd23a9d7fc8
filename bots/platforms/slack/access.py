"""Which workspaces and channels the bot may answer in."""

from __future__ import annotations

from bots.settings.sections import SlackSettings


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
