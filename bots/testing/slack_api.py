"""A local fake of Slack's Web API (and Socket Mode) that records every call.

It speaks the real wire protocol on 127.0.0.1, so the real ``slack_sdk``
``AsyncWebClient`` and Bolt run against it unchanged: form, JSON and query
parameters in, ``{"ok": ...}`` JSON out, ``429`` with ``Retry-After`` when told
to rate-limit. It refuses what Slack refuses (``slack_rules``): unknown methods,
missing arguments, blocks and text over Slack's limits; ``rejected`` lists them. Messages are kept with their text, blocks and streamed markdown
so tests can assert what a user would finally see.

    fake = FakeSlack()
    await fake.start()
    ...  # point the client at fake.base_url
    call = await fake.wait_for("chat.stopStream")
    await fake.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

from bots.testing import slack_rules
from bots.testing.slack_rules import block_texts
from bots.testing.slack_views import Interactivity
from bots.testing.slack_workspaces import DEFAULT, Workspaces, bearer

TEAM = DEFAULT.team_id
BOT_USER = DEFAULT.bot_user_id
BOT_ID = DEFAULT.bot_id

_JSON_FIELDS = (
    "blocks",
    "chunks",
    "loading_messages",
    "attachments",
    "metadata",
    "view",
    "prompts",
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)

    @property
    def token(self) -> str | None:
        """The bearer token the call was made with."""
        return bearer(self.headers.get("Authorization"))


@dataclass
class Message:
    channel: str
    ts: str
    thread_ts: str | None
    text: str = ""
    markdown: str = ""
    blocks: list[dict[str, Any]] = field(default_factory=list)
    streaming: bool = False
    edits: int = 0
    token: str | None = None
    """the bot token that posted it (each workspace has its own)"""

    @property
    def visible_text(self) -> str:
        """What a reader sees: the text (or the streamed markdown) and every block's text."""
        parts = [self.markdown or self.text]
        parts += block_texts(self.blocks)
        return "\n".join(p for p in parts if p)


class FakeSlack:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[str, Message] = {}
        #: channel id → name, for conversations.info (see ``conversations`` for which ids exist)
        self.channel_names: dict[str, str] = {"C111": "general"}
        #: channel id → the users in it; a channel not listed here has everyone in it.
        #: ``chat.postEphemeral`` to someone outside a listed channel is ``user_not_in_channel``
        self.members: dict[str, set[str]] = {}
        #: (channel, thread_ts) → messages conversations.replies returns, oldest first
        self.threads: dict[tuple[str, str], list[dict[str, Any]]] = {}
        #: the workspace's conversations, id → kind ("channel", "group", "im", "mpim"), or
        #: ``None`` for one Slack does not know (``channel_not_found``); an id not listed
        #: is known by its prefix: D… a DM, G… a private channel, C… a public channel
        self.conversations: dict[str, str | None] = {
            "C111": "channel",
            "G222": "group",
            "D333": "im",
            "G444": "mpim",
        }
        #: the bot token's scopes; ``None`` grants every scope
        self.scopes: set[str] | None = None
        self._errors: dict[str, list[str]] = {}
        #: (method, error) of every call refused as the real Slack would refuse it
        self.rejected: list[tuple[str, str]] = []
        self._limits: dict[str, list[int]] = {}
        self._outages: dict[str, list[int]] = {}
        self._changed = asyncio.Condition()
        self._ts = 1_700_000_000.0
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.ws_acks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._sockets: list[web.WebSocketResponse] = []
        self._socket_ready = asyncio.Event()
        #: trigger ids, open modals and ephemeral messages (:mod:`bots.testing.slack_views`)
        self.interactive = Interactivity()
        #: file id → bytes served at its url_private_download; see :meth:`share_file`
        self.files: dict[str, bytes] = {}
        self.downloads: list[tuple[str, str | None]] = []
        #: bot tokens of apps installed without files:read: Slack sends them its sign-in page
        self.without_files_read: set[str] = set()
        #: workspaces, their bot tokens and the OAuth app (``slack_workspaces``)
        self.workspaces = Workspaces()

    # -- lifecycle ---------------------------------------------------------

    async def start(self) -> FakeSlack:
        app = web.Application()
        app.router.add_get("/link", self._socket)
        app.router.add_get("/_calls", self._calls)
        app.router.add_get("/oauth/v2/authorize", self._authorize)
        app.router.add_route("*", "/response/{rest:.*}", self._response_url)
        app.router.add_get("/files-pri/{file_id}/{name}", self._file_download)
        app.router.add_route("*", "/{method}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/"
        return self

    async def close(self) -> None:
        for ws in self._sockets:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- scripting ---------------------------------------------------------

    def fail(self, method: str, error: str, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer ``{"ok": false, "error": error}``."""
        self._errors.setdefault(method, []).extend([error] * times)

    def rate_limit(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        self._limits.setdefault(method, []).extend([retry_after] * times)

    def server_error(self, method: str, status: int = 500, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer HTTP ``status`` (Slack's own outages)."""
        self._outages.setdefault(method, []).extend([status] * times)

    def share_file(self, name: str, data: bytes, mimetype: str = "text/plain") -> dict[str, Any]:
        """A file as Slack describes it in a message's ``files``, its bytes served here."""
        file_id = f"F{len(self.files) + 1:08d}"
        self.files[file_id] = data
        return {
            "id": file_id,
            "name": name,
            "title": name,
            "mimetype": mimetype,
            "filetype": name.rsplit(".", 1)[-1],
            "size": len(data),
            "mode": "hosted",
            "url_private": f"{self.base_url}files-pri/{file_id}/{name}",
            "url_private_download": f"{self.base_url}files-pri/{file_id}/{name}",
            "permalink": f"https://citebot-testing.slack.com/files/U222/{file_id}/{name}",
        }

    async def _file_download(self, request: web.Request) -> web.Response:
        """Like files.slack.com: the bytes for a bot token, the sign-in page for anyone else."""
        auth = request.headers.get("Authorization")
        self.downloads.append((request.match_info["file_id"], auth))
        data = self.files.get(request.match_info["file_id"])
        if data is None:
            return web.Response(status=404, text="Not Found")
        token = bearer(auth)
        if not (token or "").startswith("xox") or token in self.without_files_read:
            page = "<!DOCTYPE html><html><body>Sign in to Slack</body></html>"
            return web.Response(text=page, content_type="text/html")
        return web.Response(body=data, content_type="application/octet-stream")

    def assistant_thread_started(
        self,
        *,
        user: str,
        channel: str = "D0ASSIST",
        team: str = TEAM,
        viewing: str | None = None,
    ) -> dict[str, Any]:
        """Open an assistant thread as Slack does when a user opens the app's panel: the
        ``assistant_thread_started`` event to deliver (signed over HTTP, or ``socket_send``).
        The thread is known to ``conversations.replies`` from then on; ``viewing`` is the
        channel the user has open next to the panel."""
        thread_ts = self.next_ts()
        app = self.workspaces.workspace(team)
        # the thread's root is the app's, as every assistant thread is opened by the app
        root = {"user": app.bot_user_id, "bot_id": app.bot_id, "text": "", "ts": thread_ts}
        self.threads[(channel, thread_ts)] = [{**root, "thread_ts": thread_ts}]
        return {
            "type": "assistant_thread_started",
            "assistant_thread": {
                "user_id": user,
                "context": {"channel_id": viewing, "team_id": team, "enterprise_id": None},
                "channel_id": channel,
                "thread_ts": thread_ts,
            },
            "event_ts": thread_ts,
        }

    def response_url(self, name: str = "cmd") -> str:
        return f"{self.base_url}response/{name}"

    def next_ts(self) -> str:
        self._ts += 1
        return f"{self._ts:.6f}"

    # -- queries -----------------------------------------------------------

    def methods(self) -> list[str]:
        return [c.method for c in self.calls]

    def called(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def in_thread(self, channel: str, thread_ts: str) -> list[Message]:
        return [
            m for m in self.messages.values() if m.channel == channel and m.thread_ts == thread_ts
        ]

    async def wait_for(
        self, what: str | Callable[[FakeSlack], Any], *, count: int = 1, within: float = 10.0
    ) -> Any:
        """Wait until ``what`` (a method name, or a predicate on the fake) holds; return its value."""

        def check() -> Any:
            if callable(what):
                return what(self)
            found = self.called(what)
            return found[count - 1] if len(found) >= count else None

        async with asyncio.timeout(within):
            async with self._changed:
                while not (result := check()):
                    await self._changed.wait()
        return result

    # -- Socket Mode -------------------------------------------------------

    async def socket_send(self, envelope: dict[str, Any]) -> None:
        await asyncio.wait_for(self._socket_ready.wait(), 10)
        await self._sockets[-1].send_json(envelope)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json(
            {"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A111"}}
        )
        self._socket_ready.set()
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await self.ws_acks.put(json.loads(msg.data))
        return ws

    # -- HTTP --------------------------------------------------------------

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        raw = await request.text()
        if raw:
            if request.content_type == "application/json":
                params.update(json.loads(raw))
            else:
                params.update(dict(parse_qsl(raw, keep_blank_values=True)))
        for key in _JSON_FIELDS:
            if isinstance(params.get(key), str):
                with contextlib.suppress(ValueError):
                    params[key] = json.loads(params[key])
        return params

    async def _record(self, method: str, request: web.Request) -> dict[str, Any]:
        params = await self._params(request)
        async with self._changed:
            self.calls.append(Call(method, params, dict(request.headers)))
            self._changed.notify_all()
        return params

    async def _calls(self, request: web.Request) -> web.Response:
        """Every recorded call, for a test driving this fake in another process."""
        return web.json_response([{"method": c.method, "params": c.params} for c in self.calls])

    async def _response_url(self, request: web.Request) -> web.Response:
        await self._record("response_url:" + request.match_info["rest"], request)
        return web.Response(text="ok")

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._record(method, request)
        limits = self._limits.get(method)
        if limits:
            return web.json_response(
                {"ok": False, "error": "ratelimited"},
                status=429,
                headers={"Retry-After": str(limits.pop(0))},
            )
        outages = self._outages.get(method)
        if outages:
            return web.Response(text="upstream connect error", status=outages.pop(0))
        errors = self._errors.get(method)
        if errors:
            return web.json_response({"ok": False, "error": errors.pop(0)})
        refused = slack_rules.rejected(method, params)
        if refused is not None:
            self.rejected.append((method, refused["error"]))
            async with self._changed:
                self._changed.notify_all()
            return web.json_response(refused)
        warned = slack_rules.warnings(params)
        if warned:
            params["text"] = params["text"][: slack_rules.MESSAGE_TEXT]
        authorization = request.headers.get("Authorization")
        if method == "oauth.v2.access":
            body = self.workspaces.access(params, authorization)
        elif method == "auth.test":
            body = self._auth_test(bearer(authorization))
        elif method == "auth.revoke":
            body = self.workspaces.revoke_token(bearer(authorization), test=params.get("test"))
        else:
            body = self.respond(method, params)
            posted = self.messages.get(str(body.get("ts", "")))
            if method in ("chat.postMessage", "chat.startStream") and posted is not None:
                posted.token = bearer(authorization)
        if warned and body.get("ok"):
            body["warning"] = ",".join(warned)
        async with self._changed:
            self._changed.notify_all()
        return web.json_response(body)

    def _auth_test(self, token: str | None) -> dict[str, Any]:
        found = self.workspaces.of_token(token)
        if isinstance(found, dict):
            return found
        return {
            "ok": True,
            "url": f"https://{found.team_id.lower()}.slack.com/",
            "team": found.name,
            "team_id": found.team_id,
            "user_id": found.bot_user_id,
            "bot_id": found.bot_id,
            "user": "citebot",
            "is_enterprise_install": False,
        }

    async def _authorize(self, request: web.Request) -> web.Response:
        """Slack's consent page: approves at once and sends the browser back with a code."""
        status, where = self.workspaces.authorize(dict(request.query))
        await self._record("oauth/v2/authorize", request)
        if status == 302:
            raise web.HTTPFound(where)
        return web.Response(status=status, text=where)

    def respond(self, method: str, p: dict[str, Any]) -> dict[str, Any]:
        if method == "apps.connections.open":
            return {"ok": True, "url": self.base_url.replace("http", "ws", 1) + "link"}
        if method in ("chat.postMessage", "chat.startStream"):
            ts = self.next_ts()
            posted = Message(
                p["channel"], ts, p.get("thread_ts"), streaming=method == "chat.startStream"
            )
            self._write(posted, p)
            self.messages[ts] = posted
            return {
                "ok": True,
                "channel": p["channel"],
                "ts": ts,
                "message": {"text": posted.text},
            }
        if method in ("chat.appendStream", "chat.stopStream"):
            message = self.messages.get(p.get("ts", ""))
            if message is None:
                return {"ok": False, "error": "message_not_found"}
            if not message.streaming:
                return {"ok": False, "error": "message_not_in_streaming_state"}
            self._write(message, p, append=True)
            if method == "chat.stopStream":
                message.streaming = False
            return {"ok": True, "channel": message.channel, "ts": message.ts}
        if method == "chat.update":
            message = self.messages.get(p.get("ts", ""))
            if message is None:
                return {"ok": False, "error": "message_not_found"}
            message.streaming = False
            message.text, message.markdown, message.blocks = "", "", []
            self._write(message, p)
            message.edits += 1
            return {"ok": True, "channel": message.channel, "ts": message.ts}
        if method in ("chat.postEphemeral", "views.open"):
            return self._interactive(method, p)
        if method == "conversations.info":
            return self._conversation(p["channel"])
        if method == "conversations.replies":
            key = (p.get("channel", ""), p.get("ts", ""))
            found = self.threads.get(key, [{"user": "U222", "text": "parent", "ts": key[1]}])
            return {"ok": True, "messages": found, "has_more": False}
        return {"ok": True}

    def in_channel(self, user: str, channel: str) -> bool:
        """Whether ``user`` is a member of ``channel`` (see :attr:`members`)."""
        members = self.members.get(channel)
        return members is None or user in members

    def _interactive(self, method: str, p: dict[str, Any]) -> dict[str, Any]:
        if method == "chat.postEphemeral":
            if not self.in_channel(p["user"], p["channel"]):
                self.rejected.append((method, "user_not_in_channel"))
                return slack_rules.error("user_not_in_channel")
            return self.interactive.post_ephemeral(p, self.next_ts())
        opened = self.interactive.open_view(p)
        if not opened["ok"]:
            self.rejected.append((method, opened["error"]))
        return opened

    def _conversation(self, channel: str) -> dict[str, Any]:
        """``conversations.info``: the channel's kind, if the token may read that kind."""
        prefixes = {"D": "im", "G": "group", "C": "channel"}
        kind = self.conversations.get(channel, prefixes.get(channel[:1]))
        if kind is None:
            return slack_rules.error("channel_not_found")
        needed = slack_rules.INFO_SCOPES[kind]
        if self.scopes is not None and needed not in self.scopes:
            return slack_rules.error(
                "missing_scope", needed=needed, provided=",".join(sorted(self.scopes))
            )
        return {
            "ok": True,
            "channel": {
                "id": channel,
                **({"name": self.channel_names[channel]} if channel in self.channel_names else {}),
                "is_channel": kind == "channel",
                "is_group": kind == "group",
                "is_im": kind == "im",
                "is_mpim": kind == "mpim",
                "is_private": kind != "channel",
            },
        }

    @staticmethod
    def _write(message: Message, p: dict[str, Any], *, append: bool = False) -> None:
        if p.get("text"):
            message.text = p["text"]
        markdown = p.get("markdown_text") or ""
        for chunk in p.get("chunks") or []:
            if isinstance(chunk, dict) and chunk.get("type") == "markdown_text":
                markdown += chunk.get("text", "")
        message.markdown = message.markdown + markdown if append else markdown
        if p.get("blocks"):
            message.blocks = list(p["blocks"]) if not append else message.blocks + list(p["blocks"])


async def _serve_forever() -> None:
    fake = await FakeSlack().start()
    print(fake.base_url, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    # ``python -m bots.testing.slack_api`` serves the fake in its own process and prints its URL
    asyncio.run(_serve_forever())
