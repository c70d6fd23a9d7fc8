"""Settings: env prefix and nesting, vendor variables, .env and citebot.toml, precedence."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
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


@pytest.mark.parametrize(
    "where",
    ["toml", "env"],
)
def test_a_secret_of_the_wrong_type_is_refused_without_its_value(where: str) -> None:
    env = None
    if where == "toml":
        Path("citebot.toml").write_text(
            "[slack]\nsigning_secret = 0xDEADBEEF\n[feedback]\nuser_salt = 918273645\n",
            encoding="utf-8",
        )
    else:
        env = {"CITEBOT_WEB": '{"tavily_api_key": 987654321}'}
    result = _config(env=env)
    assert result.exit_code == 2, result.output
    for value in ("DEADBEEF", "3735928559", "918273645", "987654321"):
        assert value not in result.output, result.output
    assert "(got **********)" in result.stderr


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"CITEBOT_FEEDBACK__HASH_USERS": "true"}, "feedback.user_salt is required"),
        ({"CITEBOT_OPS__REDIS_URL": "localhost:6379"}, "must start with redis://"),
    ],
)
def test_config_refuses_what_the_first_question_would(env: dict[str, str], said: str) -> None:
    line = _one_line_error(_config(env=env))
    assert said in line and next(iter(env)) in line
    assert "localhost:6379" not in line, "a Redis URL may hold a password"


@pytest.mark.parametrize(
    "env",
    [
        {"CITEBOT_WEB__INCLUDE_DOMAINS": "docs.example.com,example.org"},
        {"CITEBOT_WEB": "{"},
        {"CITEBOT_ACCESS__SCOPES": "slack:T1/C1=eng"},
    ],
)
def test_a_structured_setting_that_is_not_json_names_its_variable(env: dict[str, str]) -> None:
    line = _one_line_error(_config(env=env))
    assert line.startswith(f"citebot: env {next(iter(env))}: ") and "JSON" in line, line


@pytest.mark.parametrize("where", ["env", ".env", "citebot.toml"])
def test_an_empty_value_leaves_a_setting_unset(where: str) -> None:
    # how deploy/k8s's Secret and a .env template leave out what a setup does not use
    empty = {"CITEBOT_OPS__REDIS_URL": "", "CITEBOT_SLACK__BOT_TOKEN": "", "CITEBOT_WEB": ""}
    env = None
    if where == ".env":
        Path(".env").write_text("".join(f"{k}=\n" for k in empty), encoding="utf-8")
    elif where == "citebot.toml":
        # a file has no "unset" but leaving the line out; an empty secret is no secret
        Path("citebot.toml").write_text(
            '[ops]\nredis_url = ""\n[slack]\nbot_token = ""\napp_name = ""\n', encoding="utf-8"
        )
    else:
        env = empty
    result = _config("--json", env=env)
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["ops"]["redis_url"] is None and shown["slack"]["bot_token"] is None
    assert shown["web"]["enabled"] is True, "the web section keeps its defaults"
    if where == "citebot.toml":
        assert shown["slack"]["app_name"] == "", "only secrets: other text may be empty"


def test_crossed_thresholds_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEBOT_PIPELINE__LOWER", "0.9")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert len(caught.value.lines) == 1
    assert "must not exceed upper" in caught.value.lines[0]
    assert "CITEBOT_PIPELINE" in caught.value.lines[0]


def _config(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, ["config", *args], env=env)


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in result.output
    return lines[0]


def test_a_misspelt_section_is_refused_not_ignored() -> None:
    # a typo here would otherwise open every collection to every channel
    Path("citebot.toml").write_text('[acces.scopes]\n"slack:T1/C2" = ["eng"]\n', encoding="utf-8")
    line = _one_line_error(_config())
    assert "citebot.toml" in line and "[acces]" in line
    assert "did you mean [access]?" in line


def test_a_toml_file_that_is_not_utf8_names_the_file() -> None:
    Path("citebot.toml").write_bytes(b"\xff\xfe[pipeline]\n")
    line = _one_line_error(_config())
    assert "citebot.toml" in line and "not UTF-8" in line


def test_a_misspelt_toml_key_names_the_file_and_the_key() -> None:
    Path("citebot.toml").write_text("[pipeline]\ntopk = 9\n", encoding="utf-8")
    line = _one_line_error(_config())
    assert "citebot.toml" in line and "pipeline.topk" in line
    assert "did you mean pipeline.top_k?" in line


def test_a_top_level_key_that_belongs_in_a_section_says_which() -> None:
    Path("citebot.toml").write_text("top_k = 9\n", encoding="utf-8")
    assert "did you mean pipeline.top_k?" in _one_line_error(_config())


@pytest.mark.parametrize(
    ("variable", "meant"),
    [
        ("CITEBOT_LLM__MODLE", "CITEBOT_LLM__MODEL"),
        ("CITEBOT_ACCES__SCOPES", "CITEBOT_ACCESS__SCOPES"),
        ("CITEBOT_PIPELINE_TOP_K", "CITEBOT_PIPELINE__TOP_K"),
    ],
)
def test_a_misspelt_variable_names_itself_and_the_right_spelling(variable: str, meant: str) -> None:
    line = _one_line_error(_config(env={variable: "1"}))
    assert line.startswith(f"citebot: env {variable}:")
    assert f"did you mean {meant}?" in line


def test_a_misspelt_variable_in_dotenv_names_the_file() -> None:
    Path(".env").write_text("CITEBOT_DATADIR=/srv\n", encoding="utf-8")
    line = _one_line_error(_config())
    assert ".env" in line and "CITEBOT_DATADIR" in line and "CITEBOT_DATA_DIR" in line


def test_a_bad_key_inside_a_json_variable_is_refused() -> None:
    line = _one_line_error(_config(env={"CITEBOT_LLM": '{"provder": "none"}'}))
    assert "CITEBOT_LLM" in line and "provider" in line


def test_a_bad_toml_value_is_labelled_with_the_file_not_a_variable() -> None:
    Path("citebot.toml").write_text("[pipeline]\ntop_k = 500\n", encoding="utf-8")
    line = _one_line_error(_config())
    assert "citebot.toml: pipeline.top_k" in line and "500" in line
    assert "CITEBOT_" not in line


def test_a_bad_variable_value_is_labelled_with_the_variable() -> None:
    line = _one_line_error(_config(env={"CITEBOT_PIPELINE__TOP_K": "many"}))
    assert "env CITEBOT_PIPELINE__TOP_K" in line and "'many'" in line


def test_config_refuses_a_compatible_provider_without_its_url() -> None:
    Path("citebot.toml").write_text('[llm]\nprovider = "openai_compatible"\n', encoding="utf-8")
    line = _one_line_error(_config())
    assert "llm.base_url" in line and "llm.provider" in line
    assert "citebot.toml: llm.provider" in line, "the error names where the provider was set"


def test_a_weaviate_store_without_its_url_is_refused_with_the_settings() -> None:
    line = _one_line_error(_config(env={"CITEBOT_STORE__KIND": "weaviate"}))
    assert "store.weaviate_url is required" in line and "env CITEBOT_STORE__KIND" in line


def test_a_cross_field_error_names_both_fields_and_their_sources() -> None:
    Path("citebot.toml").write_text("[pipeline]\nlower = 0.9\n", encoding="utf-8")
    line = _one_line_error(_config(env={"CITEBOT_PIPELINE__UPPER": "0.8"}))
    assert "pipeline.lower from citebot.toml" in line
    assert "pipeline.upper from env CITEBOT_PIPELINE__UPPER" in line


def test_config_prints_toml_that_reads_back_to_the_same_settings() -> None:
    Path("citebot.toml").write_text(
        '[access.scopes]\n"slack:T1/C2" = ["eng"]\n[ingest.crawl]\nmax_pages = 7\n'
        '[ingest.readers.wiki]\nreader_module = "m"\nreader_class = "C"\n'
        'args = { integration_token = "secret_notion_1" }\n',
        encoding="utf-8",
    )
    env = {
        "CITEBOT_STORE__WEAVIATE_URL": "https://admin:hunter22@weaviate:8080",
        "CITEBOT_SLACK__BOT_TOKEN": "xoxb-not-to-be-seen",
        "CITEBOT_PIPELINE__TOP_K": "9",
    }
    result = _config(env=env)
    assert result.exit_code == 0, result.output
    for secret in ("hunter22", "xoxb-not-to-be-seen", "secret_notion_1"):
        assert secret not in result.output
    printed = tomllib.loads(result.stdout)
    assert printed["pipeline"]["top_k"] == 9
    assert printed["access"]["scopes"] == {"slack:T1/C2": ["eng"]}

    Path("citebot.toml").write_text(result.stdout, encoding="utf-8")
    again = load_settings()
    assert again.pipeline.top_k == 9 and again.ingest.crawl.max_pages == 7
    assert again.ingest.readers["wiki"].reader_class == "C"
    assert again.slack.bot_token is None, "a masked secret is a comment, never a value"


def test_config_origin_names_each_source() -> None:
    Path("citebot.toml").write_text("[pipeline]\ntop_k = 9\n", encoding="utf-8")
    result = _config(
        "--origin", env={"CITEBOT_LLM__MODEL": "m1", "SLACK_BOT_TOKEN": "xoxb-1234567"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "top_k = 9  # citebot.toml: pipeline.top_k" in lines
    assert 'model = "m1"  # env CITEBOT_LLM__MODEL' in lines
    assert any(line.startswith("# bot_token") and "env SLACK_BOT_TOKEN" in line for line in lines)
    assert 'table = "chunks"  # default' in lines
