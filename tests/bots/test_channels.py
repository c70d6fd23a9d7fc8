"""Per-channel settings: patterns, precedence, and what they change (scope, persona, web)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bots.core.channels import ChannelRules, is_question
from bots.core.runtime import Runtime
from bots.core.scope import scope_for
from bots.settings import SettingsError, load_settings
from bots.settings.channels import ChannelSettings
from bots.settings.sections import AccessSettings
from pipeline.question import Place, PlaceKind, Question

RULES = {
    "slack:*/*": ChannelSettings(persona="Be brief."),
    "slack:T1": ChannelSettings(web_search=False),
    "slack:*/#help-*": ChannelSettings(auto_reply=True, persona="Name the setting."),
    "slack:T1/#help-vip": ChannelSettings(persona="Be polite."),
    "slack:*/C9": ChannelSettings(auto_reply=False, answers="ephemeral"),
    "slack:*/C5": ChannelSettings(scope=["support"]),
    "discord:*/4001": ChannelSettings(auto_reply=True),
}


def test_the_most_specific_pattern_wins_field_by_field() -> None:
    rules = ChannelRules(RULES)
    help_desk = rules.config_for(Place("slack", "T2", "C5", channel_name="help-desk"))
    assert (help_desk.auto_reply, help_desk.scope, help_desk.persona) == (
        True,
        ("support",),
        "Name the setting.",
    )
    assert help_desk.web_search is None, "T1's rule is not T2's"
    vip = rules.config_for(Place("slack", "T1", "C6", channel_name="help-vip"))
    assert (vip.persona, vip.auto_reply, vip.web_search) == ("Be polite.", True, False)
    assert vip.scope is None, "no name pattern gives a scope"
    # an id beats a name: C9 is called help-old, but its own rule turns auto-reply off
    old = rules.config_for(Place("slack", "T1", "C9", channel_name="help-old"))
    assert (old.auto_reply, old.answers, old.persona) == (False, "ephemeral", "Name the setting.")
    # names match case-insensitively; a channel whose name is unknown matches no name pattern
    assert rules.config_for(Place("slack", "T2", "C5", channel_name="HELP-X")).auto_reply
    assert not rules.config_for(Place("slack", "T2", "C5")).auto_reply
    # platforms do not mix, and DMs are not channels
    assert not rules.config_for(Place("discord", "G1", "C5", channel_name="help-x")).auto_reply
    dm = Place("slack", "T2", "D1", kind=PlaceKind.DM, channel_name="help-x")
    assert rules.config_for(dm).persona == ""
    assert rules.watches("discord") and rules.watches("slack") and rules.by_name


def test_a_channel_scope_goes_through_the_one_scope_function() -> None:
    access = AccessSettings(scopes={"slack:*/C7": ["from-access"]}, dm_scope=["dm"])
    rules = ChannelRules(RULES)
    named = Place("slack", "T2", "C5", channel_name="help-desk")
    assert scope_for(access, named, channels=rules) == ("support",)
    assert scope_for(access, Place("slack", "T2", "C7"), channels=rules) == ("from-access",)
    dm = Place("slack", "T2", "D5", kind=PlaceKind.DM, channel_name="help-desk")
    assert scope_for(access, dm, channels=rules) == ("dm",)


def test_a_renamed_channel_never_gains_a_scope(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=str(tmp_path),
        access={"default_scope": ["public"]},
        channels={
            "slack:T1/C5": {"scope": ["vip"]},
            "discord:G1/4001": {"scope": ["staff"]},
            "slack:*/#help-*": {"auto_reply": True},
            "discord:*/#help-*": {"auto_reply": True},
        },
    )
    rules = ChannelRules(settings.channels)
    for renamed, auto_reply in (
        (Place("slack", "T1", "C6", channel_name="help-vip"), True),
        (Place("slack", "T1", "C6", channel_name="C5"), False),
        (Place("discord", "G1", "4002", channel_name="help-staff"), True),
    ):
        assert scope_for(settings.access, renamed, channels=rules) == ("public",), renamed
        assert rules.config_for(renamed).auto_reply is auto_reply, "names still set the rest"
    # the scope follows the id whatever the channel is called
    moved = Place("slack", "T1", "C5", channel_name="random")
    assert scope_for(settings.access, moved, channels=rules) == ("vip",)
    staff = Place("discord", "G1", "4001", channel_name="help-anything")
    assert scope_for(settings.access, staff, channels=rules) == ("staff",)


@pytest.mark.parametrize(
    "channels",
    [
        {"slack:*/#help-*": {"scope": ["docs"]}},
        {"slack:T1/#vip": {"scope": []}},
        {"discord:*/#gen*": {"auto_reply": True, "scope": ["docs"]}},
    ],
)
def test_a_scope_by_channel_name_is_refused(tmp_path: Path, channels: dict[str, Any]) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(data_dir=str(tmp_path), channels=channels)
    (line,) = caught.value.lines
    (key,) = channels
    assert f"channels key {key!r}: 'scope' cannot be set by channel name" in line
    assert "channel id ('slack:T1/C123', 'discord:G1/4001')" in line and "\n" not in line
    rules = {key: ChannelSettings.model_validate(rule) for key, rule in channels.items()}
    with pytest.raises(ValueError, match="cannot be set by channel name"):
        ChannelRules(rules)


def test_a_channels_error_names_the_file_or_variable_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("citebot.toml").write_text('[channels."slack:*/#help-*"]\nscope = ["docs"]\n')
    with pytest.raises(SettingsError) as caught:
        load_settings(data_dir=str(tmp_path))
    (line,) = caught.value.lines
    assert line.startswith("citebot.toml: channels: channels key 'slack:*/#help-*'"), line
    assert "(default)" not in line

    Path("citebot.toml").unlink()
    monkeypatch.setenv("CITEBOT_CHANNELS", '{"slack:*/#help-*": {"scope": ["docs"]}}')
    with pytest.raises(SettingsError) as caught:
        load_settings(data_dir=str(tmp_path))
    (line,) = caught.value.lines
    assert line.startswith("env CITEBOT_CHANNELS (setting channels): channels key"), line


def test_prepare_sets_scope_persona_and_web_from_the_channel(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=str(tmp_path),
        channels={
            "slack:T1/C1": {
                "scope": ["eng"],
                "persona": "Answer like a pirate.",
                "web_search": False,
            }
        },
    )
    runtime = Runtime(settings)
    asked = runtime.prepare(Question("how?", place=Place("slack", "T1", "C1")))
    assert (asked.scope, asked.persona, asked.web) == (("eng",), "Answer like a pirate.", False)
    elsewhere = runtime.prepare(Question("how?", place=Place("slack", "T1", "C2")))
    assert (elsewhere.scope, elsewhere.persona, elsewhere.web) == (None, "", True)


@pytest.mark.parametrize(
    ("channels", "problem"),
    [
        ({"slak:*/C1": {}}, "is not platform:workspace/channel"),
        ({"slack:*/C1": {"auto_replay": True}}, "no such setting"),
        ({"slack:*/C1": {"answers": "loud"}}, "answers"),
        ({"slack:*/#": {}}, "needs a name"),
    ],
)
def test_bad_channel_settings_are_one_line_each(
    tmp_path: Path, channels: dict[str, Any], problem: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(data_dir=str(tmp_path), channels=channels)
    (line,) = caught.value.lines
    assert problem in line and "\n" not in line


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("how do I rotate the API key?", True),
        ("Can I deploy on Fridays?", True),
        ("what is the refund policy", True),
        ("where are the docs for the middleware", True),
        ("How are you?", False),
        ("lunch anyone?", False),
        ("thanks, see you tomorrow", False),
        ("I deployed it", False),
        ("<@U123> how do I rotate the API key?", False),  # addressed to someone
        ("", False),
    ],
)
def test_only_questions_are_auto_replied(text: str, asks: bool) -> None:
    assert is_question(text) is asks
