"""A Redis server on 127.0.0.1 for tests: the real ``redis-server`` when installed.

Without the Debian package, fakeredis's TCP server speaks the same RESP
protocol (Lua included, through lupa), so the real ``redis`` client still runs
against a socket. ``TEST_REDIS=fake`` picks fakeredis even when the real one
is installed.

    with redis_server() as url:
        client = redis.asyncio.Redis.from_url(url)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator

__all__ = ["free_port", "redis_server"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.02)
    raise RuntimeError("redis-server did not start within 10 s")


class Stoppable(str):
    """A ``redis://`` URL whose server can be stopped early (``url.stop()``: "Redis died")."""

    stop: Callable[[], None]


def _stoppable(url: str, stop: Callable[[], None]) -> Stoppable:
    handle = Stoppable(url)
    handle.stop = stop
    return handle


@contextlib.contextmanager
def _real(binary: str) -> Iterator[Stoppable]:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="citebot-redis-") as workdir:
        proc = subprocess.Popen(
            [
                binary,
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", workdir,
                "--protected-mode", "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

        def stop() -> None:
            if proc.poll() is None:
                proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

        try:
            _wait_for_port(port, proc, time.monotonic() + 10)
            yield _stoppable(f"redis://127.0.0.1:{port}/0", stop)
        finally:
            stop()


@contextlib.contextmanager
def _fake() -> Iterator[Stoppable]:
    from fakeredis import TcpFakeServer

    server = TcpFakeServer(("127.0.0.1", 0))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stopped = threading.Event()

    def stop() -> None:
        if not stopped.is_set():
            stopped.set()
            server.shutdown()
            server.server_close()

    try:
        port = server.server_address[1]
        yield _stoppable(f"redis://127.0.0.1:{port}/0", stop)
    finally:
        stop()


@contextlib.contextmanager
def redis_server() -> Iterator[Stoppable]:
    """Yields a ``redis://`` URL for an empty, private Redis; stops it afterwards (or when
    the test calls ``url.stop()``)."""
    binary = None if os.environ.get("TEST_REDIS") == "fake" else shutil.which("redis-server")
    if binary is None and os.environ.get("CI") and os.environ.get("TEST_REDIS") != "fake":
        # CI installs Debian's redis-server (.ci/run); falling back there would hide a broken setup
        raise RuntimeError(
            "redis-server is not installed: CI needs the real one (apt-get install redis-server)"
        )
    with _real(binary) if binary else _fake() as url:
        yield url


def kind() -> str:
    """Which server :func:`redis_server` starts, for test ids and reports."""
    if os.environ.get("TEST_REDIS") == "fake":
        return "fakeredis"
    return "redis-server" if shutil.which("redis-server") else "fakeredis"
