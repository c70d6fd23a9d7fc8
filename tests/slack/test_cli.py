"""``citebot run slack --http`` as a real process, and ``citebot slack manifest``."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import aiohttp
import pytest
import yaml
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers the commands)
from bots.platforms.slack.manifest import BOT_EVENTS, manifest_yaml
from bots.settings.sections import SlackSettings
from tests.fakes.redis_server import free_port
from tests.slack.conftest import SECRET, envelope, mention, serving, sign

ROOT = Path(__file__).resolve().parents[2]


# a cold start of the whole bot in a subprocess, on a machine other work may be loading
@pytest.mark.timeout(240)
async def test_run_slack_http_serves_signed_events_with_conventional_env(fake, tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEBOT_", "SLACK_"))} | {
        "SLACK_BOT_TOKEN": "xoxb-from-env",
        "SLACK_SIGNING_SECRET": SECRET,
        "CITEBOT_SLACK__API_URL": fake.base_url,
        "CITEBOT_DATA_DIR": str(tmp_path / "data"),
        "CITEBOT_OPS__METRICS_PORT": "0",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from bots.cli import main; main()",
        "run",
        "slack",
        "--http",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/slack/events"
    async with serving(proc, within=150):
        async with aiohttp.ClientSession() as session:
            body = json.dumps({"type": "url_verification", "challenge": "c-42", "token": "x"})
            headers = {"Content-Type": "application/json", **sign(body)}
            async with session.post(url, data=body, headers=headers) as r:
                assert r.status == 200 and "c-42" in await r.text()

            body = json.dumps(envelope(mention(ts="40.0"), "EvCLI"))
            bad = {"Content-Type": "application/json", **sign(body, secret="wrong")}
            async with session.post(url, data=body, headers=bad) as r:
                assert r.status == 401
            assert not fake.called("auth.test")

            good = {"Content-Type": "application/json", **sign(body)}
            async with session.post(url, data=body, headers=good) as r:
                assert r.status == 200
        # the bot token from SLACK_BOT_TOKEN reached the (configured) Web API base
        auth = await fake.wait_for("auth.test", within=30)
        assert auth.headers["Authorization"] == "Bearer xoxb-from-env"


def test_run_slack_without_tokens_is_one_line(tmp_path):
    result = CliRunner().invoke(
        cli, ["run", "slack", "--http"], env={"SLACK_BOT_TOKEN": "", "SLACK_SIGNING_SECRET": ""}
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 2, result.output  # an empty output must not pass
    assert all(line.startswith("citebot: setting slack.") for line in lines)
    assert "slack.bot_token" in lines[0] and "slack.signing_secret" in lines[1]
    assert "Traceback" not in result.output


def test_manifest_from_settings(tmp_path):
    result = CliRunner().invoke(
        cli,
        ["slack", "manifest", "--http", "--url", "https://bot.example.org/"],
        env={"CITEBOT_SLACK__SLASH_COMMAND": "docs"},
    )
    assert result.exit_code == 0, result.output
    manifest = yaml.safe_load(result.output)
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is False
    assert settings["event_subscriptions"]["request_url"] == "https://bot.example.org/slack/events"
    assert set(settings["event_subscriptions"]["bot_events"]) == set(BOT_EVENTS)
    assert settings["interactivity"]["request_url"] == "https://bot.example.org/slack/events"
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == "/docs" and command["url"].endswith("/slack/events")
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {
        "app_mentions:read",
        "channels:history",
        "groups:history",
        "im:history",
        "chat:write",
        "commands",
        "files:read",
    } <= scopes

    socket = yaml.safe_load(CliRunner().invoke(cli, ["slack", "manifest", "--socket"]).output)
    assert socket["settings"]["socket_mode_enabled"] is True
    assert "request_url" not in socket["settings"]["event_subscriptions"]


def test_deploy_copy_matches_the_generated_manifest():
    assert (ROOT / "deploy/slack-manifest.yml").read_text() == manifest_yaml(SlackSettings())
