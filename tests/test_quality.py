"""The quality gates run with the suite, so the one README test command checks everything."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed in the test environment (dev dependency group)")
    result = _run(ruff, "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed in the test environment (dev dependency group)")
    result = _run(ruff, "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]


def test_top_level_layout() -> None:
    allowed = {
        "bots",
        "pipeline",
        "citations",
        "connectors",
        "tests",
        "deploy",
        "docs",
        "examples",
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "uv.lock",
        ".ci",
        ".git",
        ".gitignore",
        ".dockerignore",
        ".venv",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
        ".citebot",
    }
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    tops = {path.split("/", 1)[0] for path in tracked}
    assert tops <= allowed, f"unexpected top-level entries: {sorted(tops - allowed)}"
    assert {"bots", "pipeline", "citations", "connectors", "tests", "deploy"} <= tops
