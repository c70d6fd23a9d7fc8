"""The ``citebot`` pytest fixture: a real bot with your plugin, against fake Slack and Discord.

Installed with citebot (the ``pytest11`` entry point), so a plugin's tests need no conftest::

    from my_plugin import plugin

    async def test_ping(citebot):
        async with citebot.slack(plugins=[plugin]) as bot:
            assert (await bot.command("ping")).text == "pong"
        async with citebot.discord(plugins=[plugin]) as bot:
            assert (await bot.slash("ping")).text == "pong"

Tests are ``async def``: run them with pytest-asyncio (``asyncio_mode = "auto"``) or anyio.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from bots.testing.discord_bot import DiscordTestBot
    from bots.testing.slack_bot import SlackTestBot


class Citebot:
    """Starts test bots whose data (votes, anything a plugin writes) lives in ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    def slack(self, **kwargs: Any) -> AbstractAsyncContextManager[SlackTestBot]:
        """``plugins=[...]``, ``answerer=``, and settings sections such as ``access={...}``."""
        # imported here: this module is loaded by every pytest run where citebot is installed
        from bots.testing.slack_bot import SlackTestBot

        return SlackTestBot.running(self.data_dir, **kwargs)

    def discord(self, **kwargs: Any) -> AbstractAsyncContextManager[DiscordTestBot]:
        """``plugins=[...]``, ``answerer=``, and settings sections such as ``access={...}``."""
        from bots.testing.discord_bot import DiscordTestBot

        return DiscordTestBot.running(self.data_dir, **kwargs)


@pytest.fixture
def citebot(tmp_path: Path) -> Citebot:
    return Citebot(tmp_path / "citebot")
