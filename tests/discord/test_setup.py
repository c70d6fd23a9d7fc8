"""Start-up, the invite URL, endpoints and the small text helpers."""

from __future__ import annotations

import base64
from urllib.parse import parse_qs, urlsplit

import discord
import discord.gateway
import discord.http
import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers the commands)
from bots.core.runtime import Runtime
from bots.platforms.discord import PERMISSIONS, configure_endpoints, invite_url, serve
from bots.platforms.discord.client import api_base
from bots.platforms.discord.invite import application_id_from_token
from bots.platforms.discord.listeners import thread_name
from bots.platforms.discord.render import no_previews, preview
from bots.settings import Settings, SettingsError
from bots.settings.sections import DiscordSettings
from bots.testing.discord_api import FakeDiscord
from connectors.errors import ConnectorError


def test_invite_url_has_exactly_the_needed_scopes_and_permissions() -> None:
    query = parse_qs(urlsplit(invite_url(1234)).query)
    assert query["client_id"] == ["1234"]
    assert query["scope"] == ["bot applications.commands"]
    perms = discord.Permissions(int(query["permissions"][0]))
    granted = {name for name, on in perms if on}
    assert granted == {
        "read_messages",  # discord.py's name for View Channel
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "embed_links",
        "read_message_history",
    }
    assert not perms.administrator and not perms.mention_everyone and not perms.manage_messages
    assert PERMISSIONS.value == int(query["permissions"][0])


def test_cli_invite_url_reads_the_application_id_from_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    token = base64.b64encode(b"987654321").decode().rstrip("=") + ".GhIjKl.secret"
    assert application_id_from_token(token) == 987654321
    monkeypatch.setenv("DISCORD_TOKEN", token)
    result = CliRunner().invoke(cli, ["discord", "invite-url"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == invite_url(987654321)
    assert "secret" not in result.output


def test_cli_invite_url_without_any_id_says_what_to_set() -> None:
    result = CliRunner().invoke(cli, ["discord", "invite-url"])
    assert result.exit_code == 1
    assert "--client-id" in result.output and "CITEBOT_DISCORD__APPLICATION_ID" in result.output


def test_cli_run_discord_without_a_token_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["run", "discord"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "citebot: setting discord.token: a bot token is required [env CITEBOT_DISCORD__TOKEN or DISCORD_TOKEN]"
    )


def test_endpoints_come_from_settings() -> None:
    assert api_base(None) == "https://discord.com/api/v10"
    assert api_base("http://proxy:8080") == "http://proxy:8080/api/v10"
    assert api_base("http://proxy:8080/api/v10/") == "http://proxy:8080/api/v10"
    try:
        configure_endpoints(
            DiscordSettings(api_url="http://127.0.0.1:1", gateway_url="ws://127.0.0.1:1/gw")
        )
        assert discord.http.Route.BASE == "http://127.0.0.1:1/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1/gw"
    finally:
        configure_endpoints(DiscordSettings())
    assert discord.http.Route.BASE == "https://discord.com/api/v10"


async def test_serve_with_a_rejected_token_fails_in_one_line(fake: FakeDiscord) -> None:
    settings = Settings(
        discord={"token": "wrong", "api_url": fake.api_url, "gateway_url": fake.gateway_url}
    )
    with pytest.raises(ConnectorError, match="rejected the bot token"):
        await serve(settings, Runtime(settings))
    with pytest.raises(SettingsError):
        await serve(Settings(), Runtime(Settings()))


def test_thread_names_fit_discord() -> None:
    assert thread_name("  \n how do keys rotate?\nmore") == "how do keys rotate?"
    assert thread_name("<@2002>") == "Question"
    assert len(thread_name("x" * 500)) == 100


def test_link_previews_are_suppressed_outside_code() -> None:
    text = "See https://a.example/x, [doc](https://b.example) and <https://c.example> `https://d.example`"
    assert no_previews(text) == (
        "See <https://a.example/x>, [doc](https://b.example) and <https://c.example> `https://d.example`"
    )
    assert no_previews("https://a.example " * 3, limit=10) == "https://a.example " * 3
    shown = preview("a" * 1990 + " https://tail.example/" + "b" * 50)
    assert len(shown) == 2000 and shown.startswith("…") and shown.endswith("b" * 50)
    assert "https:\u2060//tail.example" in shown  # no link in a preview (issue 13)
