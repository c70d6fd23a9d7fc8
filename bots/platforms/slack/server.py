"""Running the bot: HTTP mode (``POST /slack/events`` on aiohttp) or Socket Mode."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.signature import SignatureVerifier

from bots.ops import metrics
from pipeline.errors import one_line

if TYPE_CHECKING:
    from .bot import SlackBot

log = logging.getLogger("citebot.slack")

EVENTS_PATH = "/slack/events"


def signed(verifier: SignatureVerifier | None, body: bytes, headers: Mapping[str, str]) -> bool:
    """Slack's signature over the raw bytes, checked before anything reads them."""
    if verifier is None:
        return False
    timestamp = headers.get("X-Slack-Request-Timestamp", "")
    signature = headers.get("X-Slack-Signature", "")
    if not (timestamp.isascii() and timestamp.isdigit() and signature):
        return False
    try:
        return verifier.is_valid(body, timestamp, signature)
    except (ValueError, UnicodeDecodeError):
        return False


def _object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


#: where Bolt looks for a user and a channel before any listener runs
_NESTED = ("event", "message", "previous_message", "item", "assistant_thread")


def _addressable(payload: dict[str, Any]) -> bool:
    """Whether Bolt can read the user and channel of ``payload``: each is an id or an
    object (it tests ``"id" in`` anything else, and a number raises)."""
    if any(
        payload.get(key) is not None and not isinstance(payload[key], str | dict)
        for key in ("user", "channel")
    ):
        return False
    return all(_addressable(payload[key]) for key in _NESTED if isinstance(payload.get(key), dict))


def well_formed(body: bytes, content_type: str) -> bool:
    """What Bolt will parse is an object; an event envelope carries an event object."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    # Bolt reads any body that starts with "{" as JSON, whatever its content type says
    if content_type == "application/json" or text.startswith("{"):
        envelope = _object(text)
        if envelope is None:
            return False
        if envelope.get("type") == "event_callback" and not isinstance(envelope.get("event"), dict):
            return False
        return _addressable(envelope)
    form = parse_qs(text, keep_blank_values=True)
    payload = form.get("payload")
    if payload is None:
        return True
    parsed = _object(payload[0]) if len(payload) == 1 else None
    return parsed is not None and _addressable(parsed)


def _reject(request: web.Request, status: int, reason: str) -> web.Response:
    metrics.error(f"slack_{reason.replace(' ', '_')}")
    log.warning("rejected a %s request from %s", reason, request.remote)
    return web.json_response({"error": reason}, status=status)


def web_app(bot: SlackBot, path: str = EVENTS_PATH) -> web.Application:
    """An aiohttp app serving Slack's Events API, slash commands and interactions on ``path``.

    Unsigned requests get 401 and signed junk 400, each with one WARNING line and
    a count, before Bolt (which parses first and verifies second) sees them.
    """
    secret = bot.settings.signing_secret
    verifier = SignatureVerifier(secret.get_secret_value()) if secret is not None else None

    async def events(request: web.Request) -> web.Response:
        body = await request.read()
        if not signed(verifier, body, request.headers):
            return _reject(request, 401, "unsigned")
        if not well_formed(body, request.content_type):
            return _reject(request, 400, "malformed")
        bolt_response = await bot.app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    async def alive(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post(path, events)
    app.router.add_get(path, alive)
    add_oauth_routes(app, bot)
    return app


def add_oauth_routes(app: web.Application, bot: SlackBot) -> None:
    """``GET`` install and redirect pages, when installed by OAuth. They carry no Slack
    signature (a browser calls them); the OAuth ``state``, bound to a cookie, guards them."""
    flow = bot.app.oauth_flow
    if flow is None:
        return

    async def install(request: web.Request) -> web.Response:
        return await _oauth_page(request, flow.handle_installation)

    async def redirect(request: web.Request) -> web.Response:
        return await _oauth_page(request, flow.handle_callback)

    app.router.add_get(flow.install_path, install)
    app.router.add_get(flow.redirect_uri_path, redirect)


async def _oauth_page(
    request: web.Request, handle: Callable[[AsyncBoltRequest], Awaitable[BoltResponse]]
) -> web.Response:
    try:
        bolt_response = await handle(await to_bolt_request(request))
    except Exception as exc:
        # an unreachable installation store must not show a browser a traceback
        metrics.error("slack_oauth")
        log.error("the Slack install page failed: %s", one_line(exc, named=True))
        return web.Response(status=500, text="The installation failed; please try again later.")
    return await to_aiohttp_response(bolt_response)


async def start_http(bot: SlackBot, host: str, port: int) -> web.AppRunner:
    """Start serving and return the runner (``await runner.cleanup()`` stops it)."""
    await bot.open_installations()
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
