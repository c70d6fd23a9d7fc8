"""Which knowledge collections a place may search: one rule for every trigger and platform.

The scope follows the place, never the way the question arrived: ``/ask`` typed
in a DM, a DM message and a follow-up in a DM's thread all see ``dm_scope``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.question import Place, PlaceKind, Trigger

if TYPE_CHECKING:
    from bots.core.channels import ChannelRules
    from bots.settings.sections import AccessSettings

__all__ = ["scope_for"]

Scope = tuple[str, ...] | None
#: ``scopes`` key suffix for a workspace's direct conversations (channel ids are upper case)
DMS = "dm"


def scope_for(
    access: AccessSettings,
    place: Place,
    trigger: Trigger = Trigger.MENTION,
    channels: ChannelRules | None = None,
) -> Scope:
    """Collections ``place`` may search; ``None`` means every collection.

    A direct conversation (DM or group DM) gets its workspace's ``scopes`` entry
    ``platform:WORKSPACE/dm``, else ``dm_scope``; a channel (public or private)
    gets the ``scope`` of its most specific ``channels`` pattern
    (:mod:`bots.core.channels`), else its most specific ``access.scopes`` entry:
    channel in its workspace, channel in any workspace, then the workspace or
    guild. Whatever has no entry gets ``default_scope``. ``trigger`` only
    matters for callers that know no place kind (a bare ``Trigger.DM`` question
    from a test or a script is a DM). A place of ``UNKNOWN`` kind gets only what
    both a direct conversation and a channel there could see.
    """
    if place.kind.direct or trigger is Trigger.DM:
        return _direct(access, place)
    if place.kind is PlaceKind.UNKNOWN:
        # fail closed: only what the place could see whether it is a channel or not
        return _narrowest(_direct(access, place), _channel(access, place, channels))
    return _channel(access, place, channels)


def _direct(access: AccessSettings, place: Place) -> Scope:
    # a workspace installed by OAuth may keep its own DMs (and assistant threads) apart
    team_dms = f"{place.platform}:{place.workspace}/{DMS}"
    if place.workspace and team_dms in access.scopes:
        return tuple(access.scopes[team_dms])
    return tuple(access.dm_scope) if access.dm_scope is not None else _default(access)


def _channel(access: AccessSettings, place: Place, channels: ChannelRules | None) -> Scope:
    if channels is not None:
        scope = channels.config_for(place).scope
        if scope is not None:
            return scope
    keys = []
    if place.workspace and place.channel:
        keys.append(f"{place.platform}:{place.workspace}/{place.channel}")
    if place.channel:
        keys.append(f"{place.platform}:*/{place.channel}")
    if place.workspace:
        keys.append(f"{place.platform}:{place.workspace}")
    for key in keys:
        if key in access.scopes:
            return tuple(access.scopes[key])
    return _default(access)


def _narrowest(a: Scope, b: Scope) -> Scope:
    if a is None:
        return b
    if b is None:
        return a
    return tuple(c for c in a if c in b)


def _default(access: AccessSettings) -> Scope:
    return tuple(access.default_scope) if access.default_scope is not None else None
