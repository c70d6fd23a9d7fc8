"""``/healthz``, ``/readyz`` and ``/metrics`` over aiohttp.

A ``run`` command wraps its serving loop in :func:`serving`, which sets up
logging and serves the routes on ``ops.metrics_port``:

    async with serving(settings):
        await serve_http(bot, host, port)

Mount them on an aiohttp app that already serves (Slack's HTTP mode) with
:func:`add_routes`, or serve them on their own port with :func:`start`.

``/healthz`` answers while the event loop runs: a liveness probe restarts a
wedged process, nothing more. ``/readyz`` checks what answering needs (the
store, the LLM's base URL, Redis when configured, the Slack installation store when
installed by OAuth), each check bounded by
``ops.probe_timeout``, and says which failed. Redis down is "degraded" (200):
claims fall back to the process's own memory, so the replica still answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from bots.ops import insights, metrics
from bots.ops.logging import RedactingFilter, configure_logging, secrets_of
from pipeline.errors import one_line

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = ["Probe", "add_routes", "default_probes", "ops_app", "serving", "start"]

log = logging.getLogger("citebot.ops")

#: A readiness check: returns normally when the dependency is usable, raises otherwise.
Probe = Callable[[], Awaitable[None]]

PROBES_KEY = web.AppKey("citebot_probes", dict)
TIMEOUT_KEY = web.AppKey("citebot_probe_timeout", float)
REDACT_KEY = web.AppKey("citebot_redact", RedactingFilter)

#: where ``connectors.knowledge.store.lancedb`` keeps its tables (not imported: too slow here)
LANCE_SUBDIR = "lancedb"

#: the Slack OAuth installation store in the data dir, when no install_database is set
SLACK_INSTALLATIONS_FILE = "slack-installations.sqlite3"
#: the table both slack_sdk stores (SQLite and SQLAlchemy) keep bot tokens in
_SLACK_BOTS_TABLE = "slack_bots"

#: checks the bot answers without (Redis: claims fall back to this process's memory), so a
#: failure is reported as "degraded" and the replica stays in rotation
DEGRADABLE = frozenset({"redis"})

_LLM_DEFAULT_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}


def http_probe(url: str, *, ok: Callable[[int], bool] = lambda status: status < 500) -> Probe:
    """Reachable means an HTTP answer that isn't a server error; 401/404 still prove it's up."""

    async def probe() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.get(url, allow_redirects=False) as resp,
        ):
            if not ok(resp.status):
                raise RuntimeError(f"HTTP {resp.status}")

    return probe


def store_probe(path: Path) -> Probe:
    """The data dir is there and writable, and its LanceDB store opens.

    Never creates anything: a data dir deleted under a running bot is a fault to
    report, not one to paper over with an empty store.
    """

    async def probe() -> None:
        await asyncio.to_thread(check_data_dir, path)

    return probe


def check_data_dir(path: Path) -> None:
    """Raise ``RuntimeError`` naming what is wrong with the data dir at ``path``."""
    # no LanceDB import here: a cold import alone outlasts the probe timeout. A table
    # opens when its dataset holds a version manifest, which is what LanceDB reads first.
    if not path.is_dir():
        raise RuntimeError("data dir is missing" if not path.exists() else "data dir is a file")
    # access() asks the kernel, so a read-only mount fails it even for root; votes, claims
    # and ingests all write here
    if not os.access(path, os.W_OK | os.X_OK):
        raise RuntimeError("data dir is not writable")
    lance = path / LANCE_SUBDIR
    tables = (
        [entry for entry in os.scandir(lance) if entry.name.endswith(".lance")]
        if lance.is_dir()
        else []
    )
    for table in tables:
        versions = Path(table.path) / "_versions"
        if not versions.is_dir() or not any(versions.iterdir()):
            raise RuntimeError(f"table {table.name.removesuffix('.lance')} does not open")


def installations_probe(settings: Settings) -> Probe:
    """The Slack installation store opens and holds its bots table: the shared database
    answers, or the data dir's SQLite file (made when the bot starts) is there and reads."""
    database = settings.slack.install_database
    path = Path(settings.data_dir) / SLACK_INSTALLATIONS_FILE

    def check_file() -> None:
        if not path.is_file():
            raise RuntimeError(f"{SLACK_INSTALLATIONS_FILE} is missing")
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            conn.execute(f"select count(*) from {_SLACK_BOTS_TABLE}")

    async def check_database(url: str) -> None:
        from sqlalchemy import text
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                await conn.execute(text(f"select count(*) from {_SLACK_BOTS_TABLE}"))
        finally:
            await engine.dispose()

    async def probe() -> None:
        try:
            if database is None:
                await asyncio.to_thread(check_file)
            else:
                await check_database(database.get_secret_value())
        except Exception as exc:
            # SQLAlchemy's messages run to several lines (the SQL, a link)
            raise RuntimeError(f"installation store does not open: {one_line(exc)}") from None

    return probe


def redis_probe(url: str) -> Probe:
    async def probe() -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url)
        try:
            await client.ping()
        finally:
            await client.aclose()

    return probe


def default_probes(settings: Settings) -> dict[str, Probe]:
    probes: dict[str, Probe] = {}
    store = settings.store
    if store.kind == "weaviate" and store.weaviate_url:
        # Weaviate's readiness endpoint answers 200 only once it can serve queries
        probes["store"] = http_probe(
            store.weaviate_url.rstrip("/") + "/v1/.well-known/ready", ok=lambda s: s == 200
        )
    else:
        probes["store"] = store_probe(Path(settings.data_dir))
    llm = settings.llm
    if llm.provider != "none":
        base = llm.base_url or _LLM_DEFAULT_URLS.get(llm.provider)
        if base:
            probes["llm"] = http_probe(base.rstrip("/") + "/models")
    if settings.slack.oauth:
        probes["slack_installations"] = installations_probe(settings)
    if settings.ops.redis_url is not None:
        probes["redis"] = redis_probe(settings.ops.redis_url.get_secret_value())
    return probes


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "pid": os.getpid()})


async def readyz(request: web.Request) -> web.Response:
    probes: dict[str, Probe] = request.app[PROBES_KEY]
    timeout = request.app[TIMEOUT_KEY]
    redact = request.app[REDACT_KEY]

    async def run(name: str, probe: Probe) -> tuple[str, str]:
        try:
            await asyncio.wait_for(probe(), timeout)
        except TimeoutError:
            return name, f"timed out after {timeout:g}s"
        except Exception as exc:
            return name, redact.redact(f"{type(exc).__name__}: {exc}".strip())
        return name, "ok"

    results = dict(await asyncio.gather(*(run(n, p) for n, p in probes.items())))
    failed = {name for name, outcome in results.items() if outcome != "ok"}
    for name in failed:
        metrics.error(f"not_ready_{name}")
    if failed - DEGRADABLE:
        status, code = "not ready", 503
    else:
        status, code = ("degraded", 200) if failed else ("ready", 200)
    return web.json_response({"status": status, "checks": results}, status=code)


async def metrics_view(request: web.Request) -> web.Response:
    body = await asyncio.to_thread(metrics.render)
    return web.Response(body=body, headers={"Content-Type": metrics.CONTENT_TYPE_LATEST})


def add_routes(
    app: web.Application,
    settings: Settings,
    probes: Mapping[str, Probe] | None = None,
) -> web.Application:
    """Add the three ops routes to ``app`` (before it starts serving)."""
    app[PROBES_KEY] = dict(default_probes(settings) if probes is None else probes)
    app[TIMEOUT_KEY] = settings.ops.probe_timeout
    app[REDACT_KEY] = RedactingFilter(secrets_of(settings))
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_view)
    insights.add_route(app, settings)
    return app


def ops_app(settings: Settings, probes: Mapping[str, Probe] | None = None) -> web.Application:
    return add_routes(web.Application(), settings, probes)


async def start(
    settings: Settings,
    probes: Mapping[str, Probe] | None = None,
    *,
    host: str | None = None,
    port: int | None = None,
) -> web.AppRunner | None:
    """Serve the ops routes on ``ops.metrics_host:ops.metrics_port``; ``None`` if disabled.

    ``port=0`` passed here (not in settings) binds a free port; read it from
    ``runner.addresses``.
    """
    if port is None:
        port = settings.ops.metrics_port
        if port == 0:
            return None
    runner = web.AppRunner(ops_app(settings, probes), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host or settings.ops.metrics_host, port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    return runner


@contextlib.asynccontextmanager
async def serving(
    settings: Settings, probes: Mapping[str, Probe] | None = None
) -> AsyncIterator[web.AppRunner | None]:
    """Configure logging and serve the ops routes for the life of the block.

    A port that is taken is logged, not fatal: the bot itself still answers.
    """
    configure_logging(settings)
    try:
        runner = await start(settings, probes)
    except OSError as exc:
        log.error("ops server not started on port %s: %s", settings.ops.metrics_port, exc)
        runner = None
    if runner is not None:
        log.info("ops server on %s (/healthz /readyz /metrics)", runner.addresses)
    try:
        yield runner
    finally:
        if runner is not None:
            await runner.cleanup()
