"""Start-up warnings that only alarm an operator are gone: Slack's "token will be unused",
discord.py's "voice will NOT be supported" for a text bot."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bots.core.dedupe import Dedupe
from bots.core.runtime import Runtime
from bots.platforms.slack.bot import SlackBot
from bots.settings import load_settings
from tests.slack.conftest import ScriptedAnswerer


async def test_slack_bot_token_from_the_vendor_variable_warns_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-from-env")  # bolt reads it too
    settings = load_settings(data_dir=str(tmp_path), slack={"app_token": "xapp-test"})
    with caplog.at_level(logging.WARNING):
        bot = SlackBot(Runtime(settings, answerer=ScriptedAnswerer(), dedupe=Dedupe()))
    assert bot.app.client.token == "xoxb-from-env"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_text_bot_has_no_voice_warnings() -> None:
    from discord import VoiceClient

    from bots.cli.discord import quiet_voice

    quiet_voice()
    assert VoiceClient.warn_nacl is False
    assert getattr(VoiceClient, "warn_dave", False) is False
