from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bots.ops.logging import MASK, bind_request_id, configure_logging, request_id, secrets_of
from bots.settings import load_settings

BOT_TOKEN = "xoxb-1234567890-abcdefghijkl"
SIGNING = "8f14e45fceea167a5a36dedd4bea2543"
LLM_KEY = "local-llm-key-Zq7Wm3"
REDIS_PASSWORD = "r3d1s-pa55word"


@pytest.fixture
def logged(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[io.StringIO, logging.Logger]]:
    monkeypatch.setenv("CITEBOT_SLACK__BOT_TOKEN", BOT_TOKEN)
    monkeypatch.setenv("CITEBOT_SLACK__SIGNING_SECRET", SIGNING)
    monkeypatch.setenv("CITEBOT_LLM__PROVIDER", "openai_compatible")
    monkeypatch.setenv("CITEBOT_LLM__BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CITEBOT_LLM__API_KEY", LLM_KEY)
    monkeypatch.setenv("CITEBOT_OPS__REDIS_URL", f"redis://:{REDIS_PASSWORD}@redis:6379/0")
    monkeypatch.setenv("CITEBOT_OPS__LOG_FORMAT", "json")
    monkeypatch.setenv("CITEBOT_OPS__LOG_LEVEL", "DEBUG")
    settings = load_settings()
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    handler = configure_logging(settings, stream=stream)
    try:
        yield stream, logging.getLogger("citebot.test")
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_secrets_of_walks_every_section(logged: tuple[io.StringIO, logging.Logger]) -> None:
    found = secrets_of(load_settings())
    assert BOT_TOKEN in found and SIGNING in found and LLM_KEY in found
    assert any(REDIS_PASSWORD in s for s in found)


def test_secrets_never_reach_the_log(logged: tuple[io.StringIO, logging.Logger]) -> None:
    stream, log = logged
    log.info("token is %s", BOT_TOKEN)
    log.warning(f"signing secret {SIGNING} and key {LLM_KEY}")
    log.info("connecting", extra={"url": f"redis://:{REDIS_PASSWORD}@redis:6379/0"})
    log.debug("header", extra={"headers": {"Authorization": f"Bearer {LLM_KEY}"}})
    try:
        raise ValueError(f"bad key {LLM_KEY}")
    except ValueError:
        log.exception("request failed")
    # credential-shaped strings that were never in settings are masked too
    log.info("someone pasted xoxb-99999999-zzzzzzzzzz and sk-proj-abcdefghijklmnop1234")
    log.info("store at %s", "https://admin:hunter22@weaviate:8080/v1")

    text = stream.getvalue()
    for secret in (
        BOT_TOKEN,
        SIGNING,
        LLM_KEY,
        REDIS_PASSWORD,
        "xoxb-99999999",
        "sk-proj-abcdef",
        "hunter22",
    ):
        assert secret not in text, secret
    records = lines(stream)
    assert len(records) == 7
    assert records[6]["msg"] == f"store at https://{MASK}@weaviate:8080/v1"
    assert records[0]["msg"] == f"token is {MASK}"
    assert "ValueError: bad key" in str(records[4]["exc"])
    assert records[2]["url"] == MASK  # the whole redis_url is a SecretStr


def test_json_lines_carry_the_request_id_into_tasks(
    logged: tuple[io.StringIO, logging.Logger],
) -> None:
    stream, log = logged

    async def step() -> None:
        log.info("inside a task")

    async def handle() -> None:
        with bind_request_id("q-123"):
            log.info("handling")
            await asyncio.gather(
                asyncio.create_task(step()), asyncio.to_thread(log.info, "in a thread")
            )
        log.info("after")

    asyncio.run(handle())
    records = [r for r in lines(stream) if r["logger"] == "citebot.test"]
    assert [r.get("request_id") for r in records] == ["q-123", "q-123", "q-123", None]
    assert records[0]["level"] == "INFO" and records[0]["logger"] == "citebot.test"
    assert request_id.get() is None


def test_reconfiguring_replaces_the_handler(logged: tuple[io.StringIO, logging.Logger]) -> None:
    stream, log = logged
    second = io.StringIO()
    handler = configure_logging(load_settings(), stream=second)
    try:
        log.info("once")
        assert stream.getvalue() == ""
        assert len(second.getvalue().splitlines()) == 1
    finally:
        logging.getLogger().removeHandler(handler)


def test_text_format_shows_request_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEBOT_SLACK__BOT_TOKEN", BOT_TOKEN)
    stream = io.StringIO()
    handler = configure_logging(load_settings(), stream=stream)
    try:
        with bind_request_id("abc"):
            logging.getLogger("citebot.x").warning("using %s", BOT_TOKEN)
    finally:
        logging.getLogger().removeHandler(handler)
    line = stream.getvalue().strip()
    assert line.endswith(f"WARNING citebot.x: using {MASK} [abc]")


def test_below_debug_a_failure_is_one_line_and_never_a_traceback(
    logged: tuple[io.StringIO, logging.Logger],
) -> None:
    stream, log = logged
    logging.getLogger().setLevel(logging.INFO)
    try:
        raise OSError(f"disk went read-only for key {LLM_KEY}\nsecond line of detail")
    except OSError:
        log.exception("could not store a vote on %s", "a1")

    (record,) = lines(stream)
    assert (
        record["msg"]
        == f"could not store a vote on a1 (OSError: disk went read-only for key {MASK})"
    )
    assert "exc" not in record and "Traceback" not in stream.getvalue()


def test_every_cli_command_logs_through_the_same_mask_and_format(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `citebot -vv ask` logs the SDK's request URL: a password in the base URL went out as is
    from click.testing import CliRunner

    from bots.cli import cli
    from bots.cli import commands as _commands  # noqa: F401  (registers every command)

    monkeypatch.setenv("CITEBOT_LLM__PROVIDER", "openai_compatible")
    monkeypatch.setenv("CITEBOT_LLM__BASE_URL", "http://bob:hunter2pass@127.0.0.1:9/v1")
    monkeypatch.setenv("CITEBOT_LLM__API_KEY", LLM_KEY)
    monkeypatch.setenv("CITEBOT_OPS__LOG_FORMAT", "json")
    stream = io.StringIO()
    console = logging.StreamHandler(stream)  # what logging.basicConfig puts on the root
    root = logging.getLogger()
    root.addHandler(console)
    try:
        result = CliRunner().invoke(cli, ["config"])
        assert result.exit_code == 0, result.output
        logging.getLogger("openai._base_client").warning(
            "Sending HTTP Request: POST http://bob:hunter2pass@127.0.0.1:9/v1 key %s", LLM_KEY
        )
    finally:
        root.removeHandler(console)
    [line] = lines(stream)
    assert "hunter2pass" not in line["msg"] and LLM_KEY not in line["msg"]  # type: ignore[operator]
    assert line["logger"] == "openai._base_client"
