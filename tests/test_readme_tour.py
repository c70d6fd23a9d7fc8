"""The README's quick start and tour work as written, in order, in a fresh data dir.

The README's commands run through ``uv run --frozen --no-dev``; here the same ``citebot``
entry point of the test environment runs them, offline, in a fresh working directory, so
the default data dir (``.citebot/``) starts empty.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CITEBOT = Path(sys.executable).with_name("citebot")
UV_RUN = ["uv", "run", "--frozen", "--no-dev"]


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def _fenced(section: str, lang: str) -> str:
    match = re.search(rf"```{lang}\n(.*?)```", section, re.DOTALL)
    assert match, f"no ```{lang} block in the section"
    return match.group(1)


def _quick_start(text: str) -> list[str]:
    block = _fenced(_section(text, "Quick start"), "sh")
    lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    return [line.split("&&")[-1].strip() for line in lines]


def _tour(text: str) -> list[Step]:
    steps: list[Step] = []
    for line in _fenced(_section(text, "A tour"), "console").splitlines():
        if line.startswith("$ "):
            steps.append(Step(line[2:]))
        elif line.strip():
            steps[-1].expected.append(line)
    return steps


def _argv(command: str) -> list[str]:
    words = shlex.split(command, comments=True)
    at = words.index("citebot")
    assert words[:4] == UV_RUN, f"{command!r}: the README runs citebot with {' '.join(UV_RUN)}"
    return [str(CITEBOT), *words[at + 1 :]]


def _run(command: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    result = subprocess.run(
        _argv(command), cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr, f"{command}\n{result.stderr}"
    return result.stdout


def _shows(expected: str, lines: list[str]) -> bool:
    """A line ending in … stands for any line that starts with what comes before it."""
    if expected.endswith("…"):
        return any(line.startswith(expected[:-1].rstrip()) for line in lines)
    return expected in lines


@pytest.mark.timeout(900)
def test_the_quick_start_and_the_tour_work_in_order_in_a_fresh_data_dir(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    demo, tests = _quick_start(text)
    assert "citebot demo" in demo
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()[-1], ".ci/run must run exactly the README's test command"

    out = _run(demo, tmp_path)
    assert "\nSources\n[1] " in out, f"the demo answers with footnotes:\n{out}"
    assert (tmp_path / ".citebot").is_dir(), "the demo keeps its data in the default data dir"

    steps = _tour(text)
    assert steps, "the README has a tour"
    for step in steps:
        lines = _run(step.command, tmp_path).splitlines()
        missing = [e for e in step.expected if not _shows(e, lines)]
        assert not missing, f"{step.command} did not show {missing}:\n" + "\n".join(lines)
    assert any("[1] " in line for s in steps for line in s.expected), "the tour shows footnotes"
