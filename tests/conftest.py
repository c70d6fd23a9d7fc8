"""Shared fixtures. Slack and Discord fakes live in bots/testing/, other services in tests/fakes/."""

from __future__ import annotations

import os

import pytest

# Nothing in the suite may reach a model hub or a real vendor.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
for _var in ("OPENAI_API_KEY", "TAVILY_API_KEY", "SLACK_BOT_TOKEN", "DISCORD_TOKEN"):
    os.environ.pop(_var, None)


@pytest.fixture(autouse=True)
def _isolated_settings(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test runs in a fresh cwd, so no stray .env or citebot.toml leaks in."""
    cwd = tmp_path_factory.mktemp("cwd")
    monkeypatch.chdir(cwd)
    for key in list(os.environ):
        if key.startswith("CITEBOT_"):
            monkeypatch.delenv(key)
