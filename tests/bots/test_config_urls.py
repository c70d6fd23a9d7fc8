"""Issue 13 item 6: ``citebot config`` never prints the password of a URL setting."""

from __future__ import annotations

import pytest

from tests.bots.test_cli_offline import _citebot

URL_SETTINGS = {
    "CITEBOT_LLM__BASE_URL": "https://bob:hunter2-llm@llm.example.com/v1",
    "CITEBOT_WEB__BASE_URL": "https://bob:hunter2-web@tavily.example.com",
    "CITEBOT_STORE__WEAVIATE_URL": "http://admin:hunter2-weaviate@weaviate.example.com:8080",
    "CITEBOT_SLACK__API_URL": "https://bob:hunter2-slack@slack.example.com/api/",
    "CITEBOT_DISCORD__API_URL": "https://bob:hunter2-discord@discord.example.com/api",
    "CITEBOT_OPS__REDIS_URL": "redis://default:hunter2-redis@redis.example.com:6379/0",
}


@pytest.mark.parametrize("form", [(), ("--json",), ("--origin",)])
def test_passwords_in_url_settings_are_masked(form: tuple[str, ...]) -> None:
    result = _citebot("config", *form, env=URL_SETTINGS)
    assert result.returncode == 0, result.stderr
    assert "hunter2" not in result.stdout + result.stderr
    assert "weaviate.example.com:8080" in result.stdout  # the rest of the URL still shows
