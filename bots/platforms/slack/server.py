"""Running the bot: HTTP mode (``POST /slack/events`` on aiohttp) or Socket Mode."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

if TYPE_CHECKING:
    from .bot import SlackBot

log = logging.getLogger("citebot.slack")

EVENTS_PATH = "/slack/events"


def web_app(bot: SlackBot, path: str = EVENTS_PATH) -> web.Application:
    """An aiohttp app serving Slack's Events API, slash commands and interactions on ``path``."""

    async def events(request: web.Request) -> web.Response:
        try:
            bolt_request = await to_bolt_request(request)
        except ValueError:
            # Bolt parses the body before it checks the signature; junk is not worth a traceback
            log.info("rejected a malformed request from %s", request.remote)
            return web.json_response({"error": "malformed request"}, status=400)
        bolt_response = await bot.app.async_dispatch(bolt_request)
        return await to_aiohttp_response(bolt_response)

    async def alive(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post(path, events)
    app.router.add_get(path, alive)
    return app


async def start_http(bot: SlackBot, host: str, port: int) -> web.AppRunner:
    """Start serving and return the runner (``await runner.cleanup()`` stops it)."""
    runner = web.AppRunner(web_app(bot), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def serve_http(bot: SlackBot, host: str, port: int) -> None:
    runner = await start_http(bot, host, port)
    log.warning("citebot is listening for Slack on http://%s:%s%s", host, port, EVENTS_PATH)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await bot.close()


async def start_socket(bot: SlackBot) -> AsyncSocketModeHandler:
    """Connect in Socket Mode; ``apps.connections.open`` goes through the bot's Web API base."""
    token = bot.settings.app_token
    if token is None:  # pragma: no cover - SlackBot checks this first
        raise RuntimeError("Socket Mode needs slack.app_token")
    handler = AsyncSocketModeHandler(bot.app, token.get_secret_value())
    await handler.connect_async()  # type: ignore[no-untyped-call]
    return handler


async def serve_socket(bot: SlackBot) -> None:
    handler = await start_socket(bot)
    log.warning("citebot is connected to Slack in Socket Mode")
    try:
        await asyncio.Event().wait()
    finally:
        await handler.close_async()  # type: ignore[no-untyped-call]
        await bot.close()
