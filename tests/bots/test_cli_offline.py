"""Acceptance for the walking skeleton: offline answers with footnotes through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from bots.cli.ingest import _distinct

DOCS = {
    "guide/install.md": """# Installing Acme

Acme is a deployment tool for small teams.

## Requirements

Acme needs Python 3.11 or newer and 2 GB of free disk space.

## Rotating API keys

To rotate an API key, open Settings, choose API keys and press Rotate. The old key stops
working after 24 hours.
""",
    "guide/backups.md": """# Backups

Run `acme backup create` to take a snapshot of the database. Snapshots are kept for 30 days.
""",
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("kb")
    for name, text in DOCS.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    env = {"CITEBOT_DATA_DIR": str(root / "data"), "CITEBOT_PLUGINS__ENTRY_POINTS": "false"}
    result = CliRunner().invoke(
        cli, ["ingest", str(root / "docs"), "--url-base", "https://docs.example.com/"], env=env
    )
    assert result.exit_code == 0, result.output
    assert "2 added" in result.output
    return env


def ask_json(env: dict[str, str], question: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["ask", "--json", question], env=env)
    assert result.exit_code == 0, result.output
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def test_a_question_cites_its_sections_url_with_the_anchor(kb: dict[str, str]) -> None:
    payload = ask_json(kb, "How do I rotate an API key?")
    assert set(payload) >= {"question", "answer", "route", "references"}
    assert payload["route"] == "knowledge_base"
    refs = payload["references"]
    assert isinstance(refs, list) and refs[0] == {
        "number": 1,
        "url": "https://docs.example.com/guide/install.md#rotating-api-keys",
        "title": "Installing Acme › Rotating API keys",
    }
    assert [r["number"] for r in refs] == list(range(1, len(refs) + 1))
    answer = str(payload["answer"])
    assert "press Rotate" in answer and "[1]" in answer
    assert all(f"[{r['number']}]" in answer for r in refs), "every listed source is cited"


def test_an_unrelated_question_is_an_honest_no_answer(kb: dict[str, str]) -> None:
    payload = ask_json(kb, "What is the boiling point of tungsten in kelvin?")
    assert payload["route"] == "no_answer"
    assert payload["references"] == []
    assert "[1]" not in str(payload["answer"])


def test_text_output_lists_numbered_sources(kb: dict[str, str]) -> None:
    result = CliRunner().invoke(cli, ["ask", "How much disk space does Acme need?"], env=kb)
    assert result.exit_code == 0, result.output
    assert "2 GB" in result.stdout
    assert "[1] Installing Acme › Requirements" in result.stdout
    assert "https://docs.example.com/guide/install.md#requirements" in result.stdout


def test_trace_shows_every_decision(kb: dict[str, str]) -> None:
    result = CliRunner().invoke(
        cli, ["ask", "--json", "--trace", "How do I rotate an API key?"], env=kb
    )
    stages = [step["stage"] for step in json.loads(result.stdout)["trace"]]
    assert stages[:4] == ["condense", "retrieve", "grade", "decide"]
    assert "finalize" in stages


def _citebot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", "from bots.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=300,
    )


def test_an_empty_question_is_one_line_and_non_zero(tmp_path: Path) -> None:
    result = _citebot("ask", "   ", env={"CITEBOT_DATA_DIR": str(tmp_path / "d")})
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0 and "empty" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "d").exists(), "nothing was created for a refused question"


def test_bad_settings_are_one_line_each_naming_the_env_var(tmp_path: Path) -> None:
    result = _citebot(
        "config",
        env={
            "CITEBOT_PIPELINE__TOP_K": "-1",
            "CITEBOT_LLM__PROVIDER": "nonsense",
            "CITEBOT_SLACK__PORT": "eighty",
        },
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 3 and "Traceback" not in result.stderr
    assert any("CITEBOT_PIPELINE__TOP_K" in line and "pipeline.top_k" in line for line in lines)
    assert any("CITEBOT_LLM__PROVIDER" in line and "'nonsense'" in line for line in lines)
    assert any("CITEBOT_SLACK__PORT" in line for line in lines)


def test_config_makes_the_llm_check_ask_and_run_make(tmp_path: Path) -> None:
    # configuration.md: config "checks everything ask and run would check"
    env = {
        "CITEBOT_DATA_DIR": str(tmp_path / "d"),
        "CITEBOT_LLM__PROVIDER": "openai",
        "CITEBOT_LLM__MODEL": "llama3.1",
        "OPENAI_API_KEY": "sk-x",
    }
    # in-process: a subprocess from the test's cwd would import the installed citebot
    result = CliRunner().invoke(cli, ["config"], env=env)
    assert result.exit_code == 1, result.output
    assert result.output.strip() == (
        "citebot: unknown openai model 'llama3.1' (CITEBOT_LLM__MODEL); for another "
        "server's model use CITEBOT_LLM__PROVIDER=openai_compatible"
    )
    known = CliRunner().invoke(
        cli, ["config", "--json"], env={**env, "CITEBOT_LLM__MODEL": "gpt-4o-mini"}
    )
    assert known.exit_code == 0, known.output
    assert json.loads(known.output)["llm"]["model"] == "gpt-4o-mini"


def test_config_masks_secrets(tmp_path: Path) -> None:
    result = _citebot(
        "config",
        "--json",
        env={"SLACK_BOT_TOKEN": "xoxb-very-secret", "CITEBOT_WEB__TAVILY_API_KEY": "tvly-secret"},
    )
    assert result.returncode == 0, result.stderr
    assert "very-secret" not in result.stdout and "tvly-secret" not in result.stdout
    data = json.loads(result.stdout)
    assert data["slack"]["bot_token"] == "**********"
    assert data["web"]["tavily_api_key"] == "**********"


def test_citation_styles_come_from_plugins(kb: dict[str, str]) -> None:
    question = "How much disk space does Acme need?"
    markdown = CliRunner().invoke(cli, ["ask", "--style", "markdown", question], env=kb)
    assert markdown.exit_code == 0, markdown.output
    assert (
        "[^1]" in markdown.stdout
        and "https://docs.example.com/guide/install.md#requirements" in markdown.stdout
    )

    env = {**kb, "CITEBOT_PLUGINS__LOAD": '["tests.plugins.samples.extras"]'}
    plugin = CliRunner().invoke(cli, ["ask", "--style", "brackets", question], env=env)
    assert plugin.exit_code == 0, plugin.output
    assert "2 GB" in plugin.stdout and "Sources" not in plugin.stdout

    unknown = CliRunner().invoke(cli, ["ask", "--style", "nope", question], env=kb)
    assert unknown.exit_code == 2
    assert "unknown citation style 'nope'" in unknown.stderr and "markdown" in unknown.stderr


async def test_chat_follow_ups_carry_the_thread(
    kb: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bots.app import build_runtime
    from bots.platforms.console import repl
    from bots.settings import load_settings

    for key, value in kb.items():
        monkeypatch.setenv(key, value)
    runtime = build_runtime(load_settings())
    said: list[str] = []
    lines = iter(
        ["How do I rotate an API key?", "", "And how long does the old one keep working?", "exit"]
    )

    def read(prompt: str) -> str:
        said.append(prompt)
        return next(lines)

    seen: list[object] = []
    original = runtime.ask

    async def spy(question, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(question)
        async for event in original(question, **kwargs):
            yield event

    runtime.ask = spy  # type: ignore[method-assign]
    await repl(runtime, read=read)
    first, second = seen  # the blank line asked nothing
    assert first.trigger.value == "mention" and first.history == ()  # type: ignore[attr-defined]
    assert second.trigger.value == "thread_followup"  # type: ignore[attr-defined]
    assert [t.role for t in second.history] == ["user", "assistant"]  # type: ignore[attr-defined]
    assert second.history[0].text == "How do I rotate an API key?"  # type: ignore[attr-defined]
    assert "press Rotate" in second.history[1].text  # type: ignore[attr-defined]
    assert said == ["you> "] * 4
    out = capsys.readouterr().out
    assert out.count("Sources") == 2, "both answers were printed with their sources"
    assert "24 hours" in out


def test_a_missing_llm_key_stops_the_command_with_one_line(tmp_path: Path) -> None:
    result = _citebot(
        "ask",
        "hello?",
        env={"CITEBOT_DATA_DIR": str(tmp_path / "d"), "CITEBOT_LLM__PROVIDER": "openai"},
    )
    assert result.returncode == 2, "a settings error, found before anything is loaded"
    (line,) = result.stderr.strip().splitlines()
    assert "llm.api_key (or OPENAI_API_KEY) is required" in line
    assert "env CITEBOT_LLM__PROVIDER" in line


@pytest.mark.parametrize("command", [["ask", "How do I rotate an API key?"], ["chat"]])
def test_ask_and_chat_on_an_empty_store_say_what_to_ingest(
    tmp_path: Path, command: list[str]
) -> None:
    result = CliRunner().invoke(
        cli, command, env={"CITEBOT_DATA_DIR": str(tmp_path)}, input="how do I rotate a key?\n"
    )
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("citebot: nothing ingested yet") and "run citebot ingest" in line


def test_slack_preview_is_the_block_kit_payload_with_a_builder_link(kb: dict[str, str]) -> None:
    result = CliRunner().invoke(
        cli, ["ask", "--style", "slack", "How do I rotate an API key?"], env=kb
    )
    assert result.exit_code == 0, result.output
    payload_text, _, links = result.stdout.partition("\nOpen in Block Kit Builder")
    (message,) = json.loads(payload_text)
    assert "press Rotate" in message["text"]
    kinds = [block["type"] for block in message["blocks"]]
    assert "context" in kinds, "the Sources block"
    assert "actions" in kinds, "the feedback buttons the bot adds"
    link = links.splitlines()[-1]
    assert link.startswith("https://app.slack.com/block-kit-builder/#")
    opened = json.loads(unquote(link.partition("#")[2]))
    assert opened == {"blocks": message["blocks"]}


def test_discord_preview_is_the_message_and_its_sources_embed(kb: dict[str, str]) -> None:
    result = CliRunner().invoke(
        cli, ["ask", "--style", "discord", "How do I rotate an API key?"], env=kb
    )
    assert result.exit_code == 0, result.output
    (message,) = json.loads(result.stdout)
    assert "press Rotate" in message["content"]
    assert "https://docs.example.com/guide/install.md#rotating-api-keys" in message["content"]
    (embed,) = message["embeds"]
    assert "Sources" in json.dumps(embed)


def test_sources_list_is_an_aligned_table_with_a_header(kb: dict[str, str]) -> None:
    result = CliRunner().invoke(cli, ["sources", "list"], env=kb)
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["COLLECTION", "KEY", "CHUNKS", "UPDATED", "URL"]
    assert [r.split()[1].rsplit("/", 1)[-1] for r in rows] == ["backups.md", "install.md"]
    starts = {line.index("https://") for line in rows}
    assert starts == {header.index("URL")}, "every URL starts in the URL column"


def test_sources_sort_naturally() -> None:
    from bots.cli.sources import natural

    names = ["page10.md", "Page2.md", "page1.md", "appendix.md"]
    assert sorted(names, key=natural) == ["appendix.md", "page1.md", "Page2.md", "page10.md"]


def test_an_http_manifest_without_a_url_is_refused_when_nobody_can_answer() -> None:
    result = CliRunner().invoke(cli, ["slack", "manifest", "--http"])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "--url" in line and "slack.public_url" in line
    assert "example.com" not in result.output, "no invented URL"


def test_an_http_manifest_asks_for_the_url_on_a_terminal() -> None:
    from tests.bots.test_chat_terminal import Terminal

    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    argv = [sys.executable, "-c", "from bots.cli import main; main()", "slack", "manifest"]
    term = Terminal([*argv, "--http", "--json"], env)
    try:
        term.expect("public HTTPS URL")
        term.send("https://bot.example.org\r")
        shown = term.expect("socket_mode_enabled")
        assert "https://bot.example.org/slack/events" in shown
        assert term.wait() == 0
    finally:
        term.kill()


def test_the_manifest_covers_group_dms_only_when_dms_are_on() -> None:
    def scopes(env: dict[str, str]) -> set[str]:
        result = CliRunner().invoke(cli, ["slack", "manifest", "--socket", "--json"], env=env)
        assert result.exit_code == 0, result.output
        manifest = json.loads(result.stdout)
        events = manifest["settings"]["event_subscriptions"]["bot_events"]
        return set(manifest["oauth_config"]["scopes"]["bot"]) | set(events)

    with_dms = scopes({})
    assert {"mpim:history", "message.mpim", "im:history", "message.im"} <= with_dms
    without = scopes({"CITEBOT_SLACK__ALLOW_DMS": "false"})
    assert not {"mpim:history", "message.mpim", "im:history", "message.im"} & without


#: Runs ``citebot ask`` offline in a fresh interpreter, then lists what it imported that a
#: question must not need (issue 17: llama_index.core alone costs over a CPU second, httpx
#: with the rich it loads 60 ms; the web search client loads it when the web is on).
OFFLINE_ASK = """
import json, sys
from bots.cli import main
sys.argv = ["citebot", "ask", "--json", sys.argv[1]]
try:
    main()
except SystemExit as exit:
    assert not exit.code, exit.code
unwanted = ("llama_index.core", "lancedb", "openai", "tavily", "tiktoken", "nltk", "httpx")
print(json.dumps(sorted(m for m in unwanted if m in sys.modules)), file=sys.stderr)
"""


def test_an_offline_question_does_not_import_llama_index_core(kb: dict[str, str]) -> None:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    run = subprocess.run(
        [sys.executable, "-c", OFFLINE_ASK, "How do I rotate an API key?"],
        capture_output=True,
        text=True,
        env=full_env | kb,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["route"] == "knowledge_base"
    assert json.loads(run.stderr.strip().splitlines()[-1]) == []


def test_a_reader_that_stops_early_gets_a_quiet_exit(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    env["CITEBOT_DATA_DIR"] = str(tmp_path / "d")
    # ``citebot config | head -1``: the reader closes the pipe after one line
    with subprocess.Popen(
        [sys.executable, "-c", "from bots.cli import main; main()", "config"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        assert run.stdout.readline()
        run.stdout.close()
        stderr = run.stderr.read().decode()
        assert run.wait(timeout=60) == 1
    assert stderr == "", stderr


def test_a_misspelt_source_fails_in_one_line_while_the_models_load(tmp_path: Path) -> None:
    # the models start loading at once; exiting under onnxruntime aborted the process (134)
    result = _citebot("ingest", "plugin:nope", env={"CITEBOT_DATA_DIR": str(tmp_path / "d")})
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("citebot: no plugin connector named 'nope'")


@pytest.mark.parametrize("base", ["docs.example.com", "notaurl", "https://"])
def test_a_url_base_footnotes_cannot_link_to_is_refused_before_anything_is_read(
    tmp_path: Path, base: str
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    env = {"CITEBOT_DATA_DIR": str(tmp_path / "data")}
    result = CliRunner().invoke(
        cli, ["ingest", str(tmp_path / "docs"), "--url-base", base], env=env
    )
    assert result.exit_code == 2
    assert "--url-base" in result.output and "e.g. https://docs.example.com/" in result.output
    assert not (tmp_path / "data").exists()
    # the setting is held to the same rule
    env["CITEBOT_INGEST__URL_BASE"] = base
    result = CliRunner().invoke(cli, ["config"], env=env)
    assert result.exit_code == 2 and "ingest.url_base" in result.output


def test_a_path_given_twice_or_inside_a_folder_given_is_ingested_once(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a", "b"):
        (docs / f"{name}.md").write_text(f"# {name}\n\nText about {name}.\n", encoding="utf-8")
    env = {"CITEBOT_DATA_DIR": str(tmp_path / "data")}
    args = ["ingest", str(docs / "a.md"), str(docs), f"{docs}/", str(docs / "b.md")]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    assert "2 added, 0 updated, 0 unchanged" in result.output
    assert f"{docs / 'a.md'} is inside {docs}; it is ingested once" in result.output
    assert f"{docs}/ is given twice" in result.stderr and "is inside" not in result.stdout
    # what is no path on this machine (a URL, a reader) is left to its resolver, in order
    kept = _distinct(["https://docs.example/a", str(docs / "a.md"), "reader:wiki", str(docs)])
    assert kept == ["https://docs.example/a", "reader:wiki", str(docs)]
    # the folder owns both: a page gone from it is removed on its next ingest
    (docs / "a.md").unlink()
    result = CliRunner().invoke(cli, ["ingest", str(docs)], env=env)
    assert "0 added, 0 updated, 1 unchanged, 1 removed" in result.output, result.output
