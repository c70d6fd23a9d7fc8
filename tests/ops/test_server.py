from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bots.ops import metrics, server
from bots.settings import load_settings
from tests.fakes.redis_server import free_port


@pytest.fixture
async def llm_stub() -> AsyncIterator[str]:
    """Something listening where an OpenAI-compatible server would; answers /models with 401."""
    seen: list[str] = []

    async def models(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.json_response({"error": "no key"}, status=401)

    app = web.Application()
    app.router.add_get("/v1/models", models)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield f"http://127.0.0.1:{port}/v1"
    assert seen, "the readiness check never called the LLM"
    await runner.cleanup()


async def serve(settings: Any, probes: Any = None) -> tuple[web.AppRunner, str]:
    runner = await server.start(settings, probes, host="127.0.0.1", port=0)
    assert runner is not None
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}"


async def get(url: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        if resp.content_type == "application/json":
            return resp.status, await resp.json()
        return resp.status, await resp.text()


async def test_healthz_and_metrics() -> None:
    metrics.dedupe_hit("server-test")
    runner, base = await serve(load_settings(), probes={})
    try:
        status, body = await get(base + "/healthz")
        assert status == 200 and body["status"] == "ok"
        async with aiohttp.ClientSession() as session, session.get(base + "/metrics") as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"].startswith("text/plain; version=")
            text = await resp.text()
        assert 'citebot_dedupe_hits_total{platform="server-test"} 1.0' in text
    finally:
        await runner.cleanup()


async def test_readyz_checks_store_llm_and_redis(
    llm_stub: str, redis_url: str, tmp_path: Path
) -> None:
    (tmp_path / "data").mkdir()
    settings = load_settings(
        data_dir=tmp_path / "data",
        llm={"provider": "openai_compatible", "base_url": llm_stub, "api_key": "k-secret-123"},
        ops={"redis_url": redis_url},
    )
    assert set(server.default_probes(settings)) == {"store", "llm", "redis"}
    runner, base = await serve(settings)
    try:
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert status == 200, body
    assert body == {"status": "ready", "checks": {"store": "ok", "llm": "ok", "redis": "ok"}}


async def test_readyz_does_not_recreate_a_deleted_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "lancedb" / "docs.lance" / "_versions").mkdir(parents=True)
    (data / "lancedb" / "docs.lance" / "_versions" / "1.manifest").write_bytes(b"")
    settings = load_settings(data_dir=data, llm={"provider": "none"})
    runner, base = await serve(settings)
    try:
        assert await get(base + "/readyz") == (200, {"status": "ready", "checks": {"store": "ok"}})
        shutil.rmtree(data)
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert (status, body["checks"]) == (503, {"store": "RuntimeError: data dir is missing"})
    assert not data.exists()


def _store_fault_as_another_user(data: Path) -> str:
    """What the store check says of ``data`` when run by a user who may not write there:
    this user after a chmod, or, for root (whom modes do not stop), a forked child that has
    become ``nobody``."""
    data.chmod(0o555)
    if os.geteuid() != 0:
        try:
            server.check_data_dir(data)
        except RuntimeError as exc:
            return str(exc)
        return "ok"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child only checks, writes and leaves
        said = b"ok"
        try:
            os.setuid(65534)
            server.check_data_dir(data)
        except Exception as exc:
            said = (str(exc) if isinstance(exc, RuntimeError) else repr(exc)).encode()
        finally:
            os.write(write, said)
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as pipe:
        return pipe.read().decode()


def test_a_data_dir_the_bot_may_not_write_is_not_ready() -> None:
    # pytest's tmp_path sits under a directory only its owner may enter
    with tempfile.TemporaryDirectory() as parent:
        Path(parent).chmod(0o755)
        data = Path(parent) / "data"
        data.mkdir()
        server.check_data_dir(data)  # writable: no fault
        assert _store_fault_as_another_user(data) == "data dir is not writable"


async def test_readyz_store_that_does_not_open_is_not_ready(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "lancedb" / "docs.lance").mkdir(parents=True)  # a table cut short, no manifest
    settings = load_settings(data_dir=data, llm={"provider": "none"})
    runner, base = await serve(settings)
    try:
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert status == 503
    assert body["checks"]["store"] == "RuntimeError: table docs does not open"


async def test_readyz_redis_down_is_degraded_not_unready(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    settings = load_settings(
        data_dir=tmp_path / "data",
        llm={"provider": "none"},
        ops={"redis_url": f"redis://127.0.0.1:{free_port()}/0", "probe_timeout": 2},
    )
    runner, base = await serve(settings)
    try:
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert (status, body["status"], body["checks"]["store"]) == (200, "degraded", "ok")
    assert body["checks"]["redis"] != "ok"


async def test_readyz_names_what_is_down(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    dead = free_port()
    secret_pw = "pw-should-not-show"
    settings = load_settings(
        data_dir=blocked,
        llm={"provider": "openai_compatible", "base_url": f"http://127.0.0.1:{dead}/v1"},
        ops={"redis_url": f"redis://:{secret_pw}@127.0.0.1:{dead}/0", "probe_timeout": 2},
    )
    runner, base = await serve(settings)
    try:
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert status == 503
    assert body["status"] == "not ready"
    assert set(body["checks"]) == {"store", "llm", "redis"}
    assert all(v != "ok" for v in body["checks"].values())
    assert secret_pw not in str(body)


async def test_readyz_times_out_a_hanging_check() -> None:
    async def hangs() -> None:
        await asyncio.Event().wait()

    async def fine() -> None:
        return None

    settings = load_settings(ops={"probe_timeout": 0.2})
    runner, base = await serve(settings, probes={"store": fine, "llm": hangs})
    try:
        status, body = await get(base + "/readyz")
    finally:
        await runner.cleanup()
    assert status == 503
    assert body["checks"] == {"store": "ok", "llm": "timed out after 0.2s"}


async def test_weaviate_store_probe_wants_200(tmp_path: Path) -> None:
    ready = {"status": 503}

    async def well_known(request: web.Request) -> web.Response:
        return web.Response(status=ready["status"])

    app = web.Application()
    app.router.add_get("/v1/.well-known/ready", well_known)
    stub = web.AppRunner(app)
    await stub.setup()
    await web.TCPSite(stub, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{stub.addresses[0][1]}"
    settings = load_settings(store={"kind": "weaviate", "weaviate_url": url})
    probe = server.default_probes(settings)["store"]
    try:
        with pytest.raises(RuntimeError, match="HTTP 503"):
            await probe()
        ready["status"] = 200
        await probe()
    finally:
        await stub.cleanup()


async def test_routes_mount_on_an_existing_app() -> None:
    async def events(request: web.Request) -> web.Response:
        return web.Response(text="slack")

    app = web.Application()
    app.router.add_post("/slack/events", events)
    server.add_routes(app, load_settings(), probes={})
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        assert (await get(base + "/healthz"))[0] == 200
        assert (await get(base + "/readyz")) == (200, {"status": "ready", "checks": {}})
        async with aiohttp.ClientSession() as session, session.post(base + "/slack/events") as resp:
            assert await resp.text() == "slack"
    finally:
        await runner.cleanup()


async def test_disabled_when_port_is_zero() -> None:
    assert await server.start(load_settings(ops={"metrics_port": 0})) is None


async def test_container_healthcheck_command(tmp_path: Path) -> None:
    runner, _ = await serve(load_settings(), probes={})
    port = runner.addresses[0][1]
    cmd = [sys.executable, "-m", "bots.ops.healthcheck"]
    try:
        ok = await asyncio.to_thread(
            subprocess.run,
            cmd,
            env=_env(port),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        await runner.cleanup()
    assert ok.returncode == 0, ok.stderr
    down = await asyncio.to_thread(
        subprocess.run,
        cmd,
        env=_env(free_port()),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert down.returncode == 1
    assert down.stderr.startswith("unhealthy: http://127.0.0.1:")
    assert len(down.stderr.strip().splitlines()) == 1


def _env(port: int) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEBOT_")}
    env["CITEBOT_OPS__METRICS_PORT"] = str(port)
    return env


async def test_serving_configures_logs_and_survives_a_taken_port(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import logging

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    blocker = await server.start(load_settings(), probes={}, host="127.0.0.1", port=0)
    assert blocker is not None
    taken = blocker.addresses[0][1]
    try:
        settings = load_settings(ops={"metrics_port": taken, "metrics_host": "127.0.0.1"})
        async with server.serving(settings, probes={}) as runner:
            assert runner is None
            assert any(h.get_name() == "citebot" for h in root.handlers)
        assert any("ops server not started" in r.message for r in caplog.records)
        free = load_settings(ops={"metrics_port": free_port(), "metrics_host": "127.0.0.1"})
        async with server.serving(free, probes={}) as runner:
            assert runner is not None
            status, _ = await get(f"http://127.0.0.1:{free.ops.metrics_port}/healthz")
            assert status == 200
    finally:
        await blocker.cleanup()
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)


async def test_readyz_checks_the_slack_installation_store(tmp_path: Path) -> None:
    from slack_sdk.oauth.installation_store.sqlite3 import SQLite3InstallationStore

    data = tmp_path / "data"
    data.mkdir()
    oauth = {"client_id": "111.222", "client_secret": "c-secret", "mode": "http"}
    settings = load_settings(data_dir=data, slack=oauth)
    probes = server.default_probes(settings)
    runner, base = await serve(settings, {"slack_installations": probes["slack_installations"]})
    try:
        status, body = await get(base + "/readyz")
        assert status == 503
        assert body["checks"] == {
            "slack_installations": "RuntimeError: installation store does not open: "
            "slack-installations.sqlite3 is missing"
        }
        file = data / "slack-installations.sqlite3"
        file.write_bytes(b"not a database" * 100)
        status, body = await get(base + "/readyz")
        assert status == 503 and body["checks"]["slack_installations"] == (
            "RuntimeError: installation store does not open: file is not a database"
        )
        file.unlink()
        SQLite3InstallationStore(database=str(file), client_id="111.222").init()
        assert await get(base + "/readyz") == (
            200,
            {"status": "ready", "checks": {"slack_installations": "ok"}},
        )
    finally:
        await runner.cleanup()
    assert "slack_installations" not in server.default_probes(load_settings(data_dir=data))


async def test_readyz_checks_a_shared_install_database(tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy", reason="slack.install_database needs SQLAlchemy")
    pytest.importorskip("aiosqlite", reason="an SQLite file as install_database needs aiosqlite")
    from slack_sdk.oauth.installation_store.sqlalchemy import AsyncSQLAlchemyInstallationStore
    from sqlalchemy.ext.asyncio import create_async_engine

    url = f"sqlite+aiosqlite:///{tmp_path / 'installs.sqlite3'}"
    settings = load_settings(
        data_dir=tmp_path / "data",
        slack={
            "client_id": "111.222",
            "client_secret": "c-secret",
            "mode": "http",
            "state_secret": "s",
            "install_database": url,
        },
    )
    probe = server.default_probes(settings)["slack_installations"]
    with pytest.raises(RuntimeError, match=r"does not open: .*no such table: slack_bots$"):
        await probe()  # the database answers, but no bot ever made its tables
    engine = create_async_engine(url)
    await AsyncSQLAlchemyInstallationStore(client_id="111.222", engine=engine).create_tables()
    await engine.dispose()
    await probe()


def test_a_data_dir_that_is_a_file_is_named_so(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"^data dir is a file$"):
        server.check_data_dir(tmp_path / "data")
    with pytest.raises(RuntimeError, match=r"^data dir is missing$"):
        server.check_data_dir(tmp_path / "nothing")
