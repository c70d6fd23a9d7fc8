"""A tiny aiohttp server on 127.0.0.1 that runs in its own thread and event loop.

Sync tests (slack-bolt) and async tests (the pipeline) can both use it, and a
handler that hangs on purpose never blocks the test's own loop.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Self

from aiohttp import web


class ThreadedServer:
    def __init__(self) -> None:
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name=type(self).__name__, daemon=True
        )
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None

    def routes(self, app: web.Application) -> None:
        raise NotImplementedError

    def start(self) -> Self:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)
        return self

    async def _start(self) -> None:
        self._closing = asyncio.Event()
        app = web.Application()
        self.routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def stall(self) -> None:
        """Block a handler until the server closes (a service that never answers)."""
        assert self._closing is not None
        await self._closing.wait()

    def stop(self) -> None:
        if not self._thread.is_alive():
            return

        async def _stop() -> None:
            assert self._closing is not None
            self._closing.set()
            if self._runner is not None:
                await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(_stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
