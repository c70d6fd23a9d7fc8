"""``citebot chat`` in a real pseudo-terminal: a spinner at once, plugin commands, a streamed
answer, and Ctrl-C stopping that answer but not the conversation."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from tests.bots.test_cli_offline import DOCS
from tests.fakes.openai_server import FakeOpenAI, Stall

REPO = Path(__file__).resolve().parents[2]
GOOD = '{"grounded": true, "useful": true, "unsupported": []}'
STALLED = "To rotate an API key, open Settings and choose API keys. "
ANSWER = "To rotate an API key, open Settings, choose API keys and press Rotate [1]."
#: the longest any one step may take on a loaded machine; a deadline, never a sleep
DEADLINE = 120.0


class Terminal:
    """A child process on a pty, read as a person would see it."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes citebot, with the pty as its terminal
            os.execve(argv[0], argv, env)
        self.seen = ""

    def expect(self, text: str, timeout: float = DEADLINE) -> str:
        """Read until ``text`` appears; returns what was read up to and including it."""
        end = time.monotonic() + timeout
        while text not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r}; the screen shows: {self.seen[-2000:]!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the child has gone
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"exited before {text!r}:\n{self.seen[-2000:]}")
                self.seen += chunk.decode("utf-8", "replace")
        found = self.seen.index(text) + len(text)
        shown, self.seen = self.seen[:found], self.seen[found:]
        return shown

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.fixture
def llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.when("Task: check an answer", GOOD)
        server.when("Task: answer with citations", Stall(STALLED), times=1)
        server.when("Task: answer with citations", ANSWER)
        yield server


@pytest.mark.timeout(300)  # two processes load the model; a busy machine takes its time
def test_chat_streams_runs_plugin_commands_and_ctrl_c_stops_one_answer(
    tmp_path: Path, llm: FakeOpenAI
) -> None:
    docs = tmp_path / "docs"
    for name, text in DOCS.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    env = {
        "CITEBOT_DATA_DIR": str(tmp_path / "data"),
        "CITEBOT_PLUGINS__ENTRY_POINTS": "false",
        "CITEBOT_PLUGINS__LOAD": json.dumps(["tests.plugins.samples.extras:greeter"]),
        "CITEBOT_LLM__PROVIDER": "openai_compatible",
        "CITEBOT_LLM__BASE_URL": llm.base_url,
        "CITEBOT_LLM__MAX_RETRIES": "0",
        "PYTHONPATH": str(REPO),
    }
    ingested = CliRunner().invoke(
        cli, ["ingest", str(docs), "--url-base", "https://docs.example.com/"], env=env
    )
    assert ingested.exit_code == 0, ingested.output

    child_env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    child_env |= env | {"TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
    argv = [sys.executable, "-c", "from bots.cli import main; main()", "chat"]
    term = Terminal(argv, child_env)
    try:
        term.expect("Loading the knowledge base")
        term.expect("you> ")

        term.send("/hello\r")
        assert "Hello, console!" in term.expect("you> ")
        term.send("/help\r")
        shown = term.expect("you> ")
        assert "/sources" in shown and "/hello" in shown

        term.send("How do I rotate an API key?\r")
        # the server has sent this much and stalls: only streaming can have shown it
        term.expect("To rotate an API key, open Settings")
        term.send("\x03")  # Ctrl-C
        term.expect("(answer cancelled)")
        term.expect("you> ")

        term.send("How do I rotate an API key?\r")
        answer = term.expect("you> ")
        assert "press Rotate" in answer and "Sources" in answer
        assert "https://docs.example.com/guide/install.md#rotating-api-keys" in answer

        term.send("exit\r")
        assert term.wait() == 0
    finally:
        term.kill()
