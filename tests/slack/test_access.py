"""Where the Slack bot may answer, and what kind of place a request comes from.

The place kinds are Slack's own words: events carry ``channel_type`` (``channel``,
``group``, ``im``, ``mpim``: https://docs.slack.dev/reference/events/message.im and its
siblings); slash commands carry no ``channel_type`` but a ``channel_name`` that is
``directmessage`` in a DM (the payload in slack-ruby/slack-ruby-client#227),
``privategroup`` in a private channel and ``mpdm-…`` in a group DM; DM ids start with D.
"""

from __future__ import annotations

import pytest

from bots.platforms.slack.access import allowed, conversation_kind, is_dm, place_kind
from bots.settings.sections import SlackSettings
from pipeline.question import PlaceKind


@pytest.mark.parametrize(
    ("channel", "channel_type", "channel_name", "kind"),
    [
        ("C1", "channel", None, PlaceKind.CHANNEL),
        ("G1", "group", None, PlaceKind.PRIVATE),
        ("D1", "im", None, PlaceKind.DM),
        ("G2", "mpim", None, PlaceKind.GROUP_DM),
        # the event's channel_type wins over the id and the name
        ("D1", "channel", "directmessage", PlaceKind.CHANNEL),
        # slash commands: the name, then the id
        ("D1", None, "directmessage", PlaceKind.DM),
        ("D1", None, None, PlaceKind.DM),
        ("X1", None, "directmessage", PlaceKind.DM),
        ("G3", None, "mpdm-ann--bob--cy-1", PlaceKind.GROUP_DM),
        ("G4", None, "privategroup", PlaceKind.PRIVATE),
        ("C2", None, "general", PlaceKind.CHANNEL),
        ("C2", None, "dm-notes", PlaceKind.CHANNEL),  # only the exact prefix is a group DM
        ("C2", None, None, PlaceKind.CHANNEL),
        (None, None, None, PlaceKind.CHANNEL),
        ("C3", "app_home", None, PlaceKind.CHANNEL),  # an unknown type is not a DM
    ],
)
def test_the_place_kind_comes_from_what_slack_sends(
    channel: str | None, channel_type: str | None, channel_name: str | None, kind: PlaceKind
) -> None:
    assert place_kind(channel, channel_type, channel_name) is kind


@pytest.mark.parametrize(
    ("conversation", "kind"),
    [
        # conversations.info's channel object (docs.slack.dev/reference/objects/conversation-object)
        ({"id": "D1", "is_im": True, "is_private": True}, PlaceKind.DM),
        ({"id": "G1", "is_mpim": True, "is_private": True, "is_group": True}, PlaceKind.GROUP_DM),
        ({"id": "C1", "is_channel": True, "is_private": True}, PlaceKind.PRIVATE),
        ({"id": "G2", "is_group": True}, PlaceKind.PRIVATE),  # a private channel made before 2021
        ({"id": "C2", "is_channel": True, "is_private": False}, PlaceKind.CHANNEL),
        ({"id": "C3"}, PlaceKind.CHANNEL),
    ],
)
def test_a_mentions_place_kind_comes_from_conversations_info(
    conversation: dict[str, object], kind: PlaceKind
) -> None:
    assert conversation_kind(conversation) is kind


def test_a_dm_is_told_by_its_type_else_by_its_id() -> None:
    assert is_dm("C1", "im") is True
    assert is_dm("D1", "channel") is False  # the type wins over the id
    assert is_dm("D1", "mpim") is False
    assert is_dm("D1") is True
    assert is_dm("C1") is False
    assert is_dm("XD1") is False
    assert is_dm(None) is False


def settings(**kwargs: object) -> SlackSettings:
    return SlackSettings.model_validate(kwargs)


def test_empty_allow_lists_allow_everywhere_but_dms_follow_allow_dms() -> None:
    open_install = settings()
    assert allowed(open_install, team="T1", channel="C1") is True
    assert allowed(open_install, team=None, channel=None) is True
    assert allowed(open_install, team="T1", channel="D1", dm=True) is True  # allow_dms defaults on
    assert allowed(settings(allow_dms=True), team="T1", channel="D1", dm=True) is True
    assert allowed(settings(allow_dms=False), team="T1", channel="D1", dm=True) is False


def test_channels_outside_the_allow_list_are_refused() -> None:
    only = settings(allowed_channels=["C1"], allow_dms=True)
    assert allowed(only, team="T1", channel="C1") is True
    assert allowed(only, team="T1", channel="C2") is False
    assert allowed(only, team="T1", channel=None) is False
    # a DM is not a channel: allow_dms decides, whatever the channel list says
    assert allowed(only, team="T1", channel="D1", dm=True) is True
    assert (
        allowed(
            settings(allowed_channels=["D1"], allow_dms=False), team="T1", channel="D1", dm=True
        )
        is False
    )


def test_workspaces_outside_the_allow_list_are_refused_even_in_dms() -> None:
    one = settings(allowed_workspaces=["T1"], allow_dms=True)
    assert allowed(one, team="T1", channel="C1") is True
    assert allowed(one, team="T2", channel="C1") is False
    assert allowed(one, team=None, channel="C1") is False
    assert allowed(one, team="T2", channel="D1", dm=True) is False
    assert allowed(one, team="T1", channel="D1", dm=True) is True
