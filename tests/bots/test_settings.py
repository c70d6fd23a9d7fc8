"""Settings: env prefix and nesting, vendor variables, .env and citebot.toml, precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.settings import SettingsError, load_settings


def test_citebot_toml_then_dotenv_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "citebot.toml").write_text(
        'data_dir = "/srv/citebot"\n[pipeline]\ntop_k = 9\nupper = 0.8\n'
        '[access.scopes]\n"slack:T1/C2" = ["eng"]\n',
        encoding="utf-8",
    )
    (tmp_path / ".env").write_text("CITEBOT_PIPELINE__TOP_K=11\n", encoding="utf-8")
    settings = load_settings()
    assert settings.pipeline.top_k == 11, ".env beats citebot.toml"
    assert settings.pipeline.upper == 0.8 and str(settings.data_dir) == "/srv/citebot"
    assert settings.access.scopes == {"slack:T1/C2": ["eng"]}

    monkeypatch.setenv("CITEBOT_PIPELINE__TOP_K", "12")
    assert load_settings().pipeline.top_k == 12, "the environment beats .env"


def test_vendor_variables_rank_below_citebot_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-vendor")
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-vendor")
    settings = load_settings()
    assert settings.slack.bot_token is not None
    assert settings.slack.bot_token.get_secret_value() == "xoxb-vendor"
    assert settings.web.tavily_api_key is not None

    monkeypatch.setenv("CITEBOT_SLACK__BOT_TOKEN", "xoxb-ours")
    token = load_settings().slack.bot_token
    assert token is not None and token.get_secret_value() == "xoxb-ours"


def test_openai_key_only_reaches_the_openai_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-vendor")
    monkeypatch.setenv("CITEBOT_LLM__PROVIDER", "openai_compatible")
    monkeypatch.setenv("CITEBOT_LLM__BASE_URL", "http://localhost:11434/v1")
    assert load_settings().llm.api_key is None, "never sent to a third-party server"
    monkeypatch.setenv("CITEBOT_LLM__PROVIDER", "openai")
    key = load_settings().llm.api_key
    assert key is not None and key.get_secret_value() == "sk-vendor"


def test_secrets_never_print(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEBOT_DISCORD__TOKEN", "very-secret-token")
    settings = load_settings()
    assert "very-secret-token" not in repr(settings)
    assert "very-secret-token" not in str(settings.masked())


def test_crossed_thresholds_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEBOT_PIPELINE__LOWER", "0.9")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert len(caught.value.lines) == 1
    assert "must not exceed upper" in caught.value.lines[0]
    assert "CITEBOT_PIPELINE" in caught.value.lines[0]
