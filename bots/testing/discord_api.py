"""A fake Discord (REST API v10 + gateway) on 127.0.0.1, shaped for citebot's tests.

The real discord.py client logs in, identifies over the WebSocket gateway,
parses dispatches, runs its ``CommandTree`` and sends REST requests here.
Every REST request is recorded as a ``Call`` (method, path, JSON body, time)
so tests can assert on payloads (``allowed_mentions``, ``flags``, ``embeds``,
``components``) and wait for them without sleeping.

Point a client at it with ``CITEBOT_DISCORD__API_URL=fake.api_url`` and
``CITEBOT_DISCORD__GATEWAY_URL=fake.gateway_url``.

Like real Discord, it dispatches MESSAGE_CREATE for the bot's own messages and
THREAD_CREATE when a thread is started, returns history newest first, and
rejects webhook calls once an interaction token has expired (401, code 50027).
Like real Discord it refuses messages over its limits (``discord_rules``: 400, code
50035 "Invalid Form Body") and answers unknown routes with 404; ``rejected`` lists
the refusals. It does not model rate limits, permissions or MESSAGE_CONTENT stripping.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from aiohttp import WSMsgType, web

from bots.testing import discord_rules

T = TypeVar("T")

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 50) - 1)

APP_ID = 1000
BOT_ID = 1001
USER_ID = 2001
OTHER_USER_ID = 2002
OTHER_BOT_ID = 2100
GUILD_ID = 3001
CHANNEL_ID = 4001
OTHER_CHANNEL_ID = 4002
DM_CHANNEL_ID = 4900

BOT = {
    "id": str(BOT_ID),
    "username": "citebot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}
USER = {
    "id": str(USER_ID),
    "username": "alice",
    "discriminator": "0",
    "global_name": "Alice",
    "avatar": None,
}
OTHER_USER = {
    "id": str(OTHER_USER_ID),
    "username": "bob",
    "discriminator": "0",
    "global_name": "Bob",
    "avatar": None,
}
OTHER_BOT = {
    "id": str(OTHER_BOT_ID),
    "username": "helper",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}


def _json(obj: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly application/json
    return web.Response(
        body=json.dumps(obj).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _not_found() -> web.Response:
    return _json({"message": "404: Not Found", "code": 0}, status=404)


def _refused(method: str, path: str, body: Any) -> discord_rules.Error | None:
    """Discord's answer to a message payload over its limits, on every route that sends one."""
    if not isinstance(body, dict):
        return None
    parts = path.strip("/").split("/")
    if parts[0] == "channels" and parts[2:3] == ["messages"]:
        if method == "POST" and len(parts) == 3:
            return discord_rules.rejected(body, creating=True)
        if method == "PATCH" and len(parts) == 4:
            return discord_rules.rejected(body, creating=False)
    if parts[0] == "interactions" and parts[-1] == "callback" and body.get("type") in (4, 7):
        data = body.get("data") or {}
        return discord_rules.rejected(data, creating=body["type"] == 4, prefix=("data",))
    if parts[0] == "webhooks":
        if method == "POST" and len(parts) == 3:
            return discord_rules.rejected(body, creating=True)
        if method == "PATCH" and parts[3:4] == ["messages"]:
            return discord_rules.rejected(body, creating=False)
    return None


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class Call:
    method: str
    path: str
    body: Any
    query: dict[str, str]
    at: float

    @property
    def json(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}


@dataclass
class Interaction:
    id: str
    token: str
    channel_id: str
    payload: dict[str, Any]
    original: dict[str, Any] | None = None
    expired: bool = False
    followups: list[dict[str, Any]] = field(default_factory=list)
    #: the interaction was answered (a second callback is refused, code 40060)
    answered: bool = False
    #: the modal the bot answered with (callback type 9), for :meth:`FakeDiscord.submit_modal`
    modal: dict[str, Any] | None = None


class FakeDiscord:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        #: (method, path, error JSON) of every request refused as the real Discord would
        self.rejected: list[tuple[str, str, dict[str, Any]]] = []
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.dispatched: list[tuple[str, dict[str, Any]]] = []
        self.intents = 0
        self.valid_token = "fake-token"
        #: the user blocks DMs from server members: Discord refuses the bot's DMs (50007)
        self.dms_closed = False
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._counter = itertools.count(1)
        self._changed = asyncio.Condition()
        for cid, name in ((CHANNEL_ID, "general"), (OTHER_CHANNEL_ID, "random")):
            self.channels[str(cid)] = {
                "id": str(cid),
                "type": 0,
                "name": name,
                "position": 0,
                "permission_overwrites": [],
                "guild_id": str(GUILD_ID),
            }
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{channel}/{id}/{filename}", self._cdn)
        #: attachment id → bytes served like Discord's CDN; see :meth:`attachment`
        self.attachments: dict[str, bytes] = {}
        self._app = app
        self._runner: web.AppRunner | None = None
        self.base = ""

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        self._runner = web.AppRunner(self._app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"http://{self.base}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.base}/gateway"

    # ------------------------------------------------------------------ waiting
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], T | None], within: float = 5.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every request) and return it."""
        result: list[T] = []

        def check() -> bool:
            value = predicate()
            if value:
                result.append(value)
                return True
            return False

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(check), within)
        return result[0]

    def find(self, method: str, pattern: str) -> list[Call]:
        rx = re.compile(pattern)
        return [c for c in self.calls if c.method == method and rx.fullmatch(c.path)]

    async def wait_call(
        self,
        method: str,
        pattern: str,
        where: Callable[[Call], bool] = lambda c: True,
        within: float = 5.0,
    ) -> Call:
        return await self.wait_for(
            lambda: next((c for c in self.find(method, pattern) if where(c)), None), within
        )

    def message_calls(self) -> list[Call]:
        """Every request that created or edited a message (channel, webhook or interaction callback)."""
        return [
            c
            for c in self.calls
            if c.method in ("POST", "PATCH")
            and (
                re.fullmatch(r"/channels/\d+/messages(/\d+)?", c.path)
                or c.path.startswith("/webhooks/")
                or (c.path.endswith("/callback") and c.json.get("type") in (4, 7))
            )
        ]

    # ------------------------------------------------------------------ ids and objects
    def snowflake(self, age: float = 0.0) -> str:
        ms = int((time.time() - age) * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))

    def guild(self) -> dict[str, Any]:
        everyone = {
            "id": str(GUILD_ID),
            "name": "@everyone",
            "permissions": ALL_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

        def member(user: dict[str, Any]) -> dict[str, Any]:
            return {
                "user": user,
                "roles": [],
                "joined_at": _now(),
                "deaf": False,
                "mute": False,
                "flags": 0,
            }

        return {
            "id": str(GUILD_ID),
            "name": "test",
            "icon": None,
            "owner_id": str(USER_ID),
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 4,
            "large": False,
            "unavailable": False,
            "members": [member(BOT), member(USER), member(OTHER_USER)],
            "voice_states": [],
            "presences": [],
            # as Discord sends it: every active thread the bot may view (Gateway "Guild Create")
            "threads": [t for t in self.threads() if not t["thread_metadata"]["archived"]],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "joined_at": _now(),
            "premium_tier": 0,
            "preferred_locale": "en-US",
        }

    def _message(
        self, channel_id: str, content: str, author: dict[str, Any], **extra: Any
    ) -> dict[str, Any]:
        guild = channel_id != str(DM_CHANNEL_ID)
        m: dict[str, Any] = {
            "id": self.snowflake(),
            "channel_id": channel_id,
            "author": author,
            "content": content,
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }
        if guild:
            m["guild_id"] = str(GUILD_ID)
            m["member"] = {
                "roles": [],
                "joined_at": _now(),
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        m.update(extra)
        self.messages.setdefault(channel_id, []).append(m)
        return m

    def get_message(self, message_id: str) -> dict[str, Any]:
        for msgs in self.messages.values():
            for m in msgs:
                if m["id"] == message_id:
                    return m
        raise KeyError(message_id)

    def add_thread(
        self,
        name: str,
        *,
        tid: str | None = None,
        parent: int | str = CHANNEL_ID,
        owner: int = USER_ID,
        archive_minutes: int = 1440,
    ) -> dict[str, Any]:
        """A public thread (by default one a user started, which the bot has not joined)."""
        thread: dict[str, Any] = {
            "id": tid or self.snowflake(),
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": str(parent),
            "name": name,
            "owner_id": str(owner),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": archive_minutes,
                "archive_timestamp": _now(),
                "locked": False,
            },
        }
        self.channels[thread["id"]] = thread
        return thread

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]

    # ------------------------------------------------------------------ gateway
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None, "the bot has not connected to the gateway"
        self._seq += 1
        self.dispatched.append((event, data))
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                self.intents = payload["d"]["intents"]
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": BOT,
                        "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                        "session_id": "session",
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(APP_ID), "flags": 0},
                        "shard": [0, 1],
                    },
                )
                await self.dispatch("GUILD_CREATE", self.guild())
                await self._notify()
        return ws

    # ------------------------------------------------------------------ test drivers
    def attachment(
        self,
        filename: str,
        data: bytes,
        content_type: str | None = "text/plain; charset=utf-8",
        *,
        channel_id: int | str = CHANNEL_ID,
    ) -> dict[str, Any]:
        """An attachment object for a message's ``attachments``; its bytes are on the CDN."""
        ident = self.snowflake()
        self.attachments[ident] = data
        url = f"http://{self.base}/attachments/{channel_id}/{ident}/{filename}"
        found: dict[str, Any] = {
            "id": ident,
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
        }
        if content_type is not None:
            found["content_type"] = content_type
        return found

    async def _cdn(self, request: web.Request) -> web.Response:
        data = self.attachments.get(request.match_info["id"])
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    async def user_says(
        self,
        content: str,
        *,
        channel_id: int | str = CHANNEL_ID,
        mention_bot: bool = False,
        author: dict[str, Any] = USER,
        **extra: Any,
    ) -> dict[str, Any]:
        if mention_bot and f"<@{BOT_ID}>" not in content:
            content = f"<@{BOT_ID}> {content}"
        mentions = [BOT] if mention_bot else []
        m = self._message(str(channel_id), content, author, mentions=mentions, **extra)
        await self.dispatch("MESSAGE_CREATE", m)
        return m

    async def slash(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: int | str = CHANNEL_ID,
        age: float = 0.0,
    ) -> Interaction:
        """Run ``/name`` as USER; ``age`` back-dates the interaction (its token lives 15 min)."""
        kinds = {str: 3, int: 4, bool: 5, float: 10}
        opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in (options or {}).items()]
        return await self._interact(
            2,
            {"id": "5001", "name": name, "type": 1, "options": opts},
            channel_id=str(channel_id),
            age=age,
        )

    async def click(
        self, message: dict[str, Any], custom_id: str, *, user: dict[str, Any] = USER
    ) -> Interaction:
        return await self._interact(
            3,
            {"custom_id": custom_id, "component_type": 2},
            channel_id=message["channel_id"],
            message=message,
            user=user,
        )

    async def select(
        self,
        message: dict[str, Any],
        custom_id: str,
        values: list[str],
        *,
        user: dict[str, Any] = USER,
    ) -> Interaction:
        """Pick ``values`` in the string select ``custom_id`` of ``message``.

        Like Discord's client, only the select's own option values can be picked.
        """
        options = [
            o["value"]
            for row in message.get("components") or []
            for c in row.get("components") or []
            if c.get("custom_id") == custom_id
            for o in c.get("options") or []
        ]
        if not options or not set(values) <= set(options):
            raise ValueError(f"the message has no select {custom_id!r} offering {values!r}")
        return await self._interact(
            3,
            {"custom_id": custom_id, "component_type": 3, "values": values},
            channel_id=message["channel_id"],
            message=message,
            user=user,
        )

    async def submit_modal(
        self, shown: Interaction, values: dict[str, str], *, user: dict[str, Any] = USER
    ) -> Interaction:
        """Submit the modal the bot showed in answer to ``shown`` (text input custom_id → text).

        Discord's client never sends a required input left empty or text over
        ``max_length``; neither does this.
        """
        modal = shown.modal
        if modal is None:
            raise ValueError("the bot did not answer that interaction with a modal")
        submitted = []
        for component in modal["components"]:
            labelled = component.get("type") == 18
            inputs = [component["component"]] if labelled else component.get("components") or []
            filled = []
            for item in inputs:
                text = values.get(item["custom_id"], "")
                if not text and item.get("required", True):
                    raise ValueError(f"Discord would not submit: {item['custom_id']} is required")
                if len(text) > item.get("max_length", discord_rules.TEXT_INPUT):
                    raise ValueError(f"Discord would not submit: {item['custom_id']} is too long")
                filled.append(
                    {
                        "type": 4,
                        "id": item.get("id", 0),
                        "custom_id": item["custom_id"],
                        "value": text,
                    }
                )
            if labelled:
                submitted.append({"type": 18, "id": component.get("id", 0), "component": filled[0]})
            else:
                submitted.append({"type": 1, "id": component.get("id", 0), "components": filled})
        return await self._interact(
            5,
            {"custom_id": modal["custom_id"], "components": submitted},
            channel_id=shown.channel_id,
            message=shown.payload.get("message"),
            user=user,
        )

    async def _interact(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        channel_id: str,
        age: float = 0.0,
        message: dict[str, Any] | None = None,
        user: dict[str, Any] = USER,
    ) -> Interaction:
        iid = self.snowflake(age)
        token = f"itok-{iid}"
        channel = dict(self.channels[channel_id])
        payload: dict[str, Any] = {
            "id": iid,
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": channel_id,
            "channel": channel,
            "member": {
                "user": user,
                "roles": [],
                "joined_at": _now(),
                "permissions": ALL_PERMISSIONS,
                "deaf": False,
                "mute": False,
                "flags": 0,
            },
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "attachment_size_limit": 10485760,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message
        interaction = Interaction(iid, token, channel_id, payload)
        self.interactions[token] = interaction
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def expire(self, interaction: Interaction) -> None:
        """From now on Discord rejects this interaction's token, as it does after 15 minutes."""
        interaction.expired = True

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if part.name == "payload_json":  # type: ignore[union-attr]
                        body = json.loads(await part.text())  # type: ignore[union-attr]
        self.calls.append(Call(request.method, path, body, dict(request.query), time.monotonic()))
        try:
            if (
                path == "/users/@me"
                and request.headers.get("Authorization") != f"Bot {self.valid_token}"
            ):
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            refused = _refused(request.method, path, body)
            if refused is not None:
                status, error = refused
                self.rejected.append((request.method, path, error))
                return _json(error, status=status)
            response = await self._route(request.method, path, body or {}, request.query)
        finally:
            await self._notify()
        return response

    async def _route(
        self, method: str, path: str, body: dict[str, Any], query: Any
    ) -> web.Response:
        parts = path.strip("/").split("/")
        if path == "/users/@me" and method == "GET":
            return _json(BOT)
        if path == "/users/@me/channels" and method == "POST":
            return _json(
                {"id": str(DM_CHANNEL_ID), "type": 1, "recipients": [USER], "last_message_id": None}
            )
        if path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "citebot",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": USER,
                    "verify_key": "00",
                    "flags": 0,
                }
            )
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            where = parts[3] if len(parts) == 5 else "global"
            self.commands[where] = [
                {**c, "id": self.snowflake(), "application_id": str(APP_ID), "version": "1"}
                for c in cast("list[dict[str, Any]]", body)
            ]
            return _json(self.commands[where])
        if parts[0] == "channels":
            return await self._channels(method, parts, body, query)
        if parts[0] == "interactions" and parts[-1] == "callback":
            return await self._callback(parts[2], body)
        if parts[0] == "webhooks":
            return self._webhook(method, parts, body)
        return _not_found()

    async def _channels(
        self, method: str, parts: list[str], body: dict[str, Any], query: Any
    ) -> web.Response:
        cid = parts[1]
        if parts[2:3] != ["messages"]:
            return _not_found()
        if self.dms_closed and cid == str(DM_CHANNEL_ID) and method == "POST":
            error = {"message": "Cannot send messages to this user", "code": 50007}
            self.rejected.append((method, "/" + "/".join(parts), error))
            return _json(error, status=403)
        if method == "POST" and len(parts) == 3:
            extra: dict[str, Any] = {
                k: body[k] for k in ("embeds", "components", "flags") if k in body
            }
            if "message_reference" in body:
                ref = body["message_reference"]
                extra["message_reference"] = ref
                extra["type"] = 19
            m = self._message(cid, body.get("content") or "", BOT, **extra)
            await self.dispatch("MESSAGE_CREATE", m)
            return _json(m)
        if method == "PATCH" and len(parts) == 4:
            try:
                m = self.get_message(parts[3])
            except KeyError:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            m.update(
                {k: v for k, v in body.items() if k in ("content", "embeds", "flags", "components")}
            )
            m["edited_timestamp"] = _now()
            return _json(m)
        if method == "GET" and len(parts) == 4:
            try:
                return _json(self.get_message(parts[3]))
            except KeyError:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
        if method == "GET" and len(parts) == 3:
            msgs = sorted(self.messages.get(cid, []), key=lambda m: int(m["id"]))
            limit = int(query.get("limit", 50))
            if "after" in query:
                picked = [m for m in msgs if int(m["id"]) > int(query["after"])][:limit]
            else:
                if "before" in query:
                    msgs = [m for m in msgs if int(m["id"]) < int(query["before"])]
                picked = msgs[-limit:]
            return _json(list(reversed(picked)))  # Discord answers newest first
        if method == "POST" and parts[4:5] == ["threads"]:
            # a thread started from a message has that message's id
            thread = self.add_thread(
                body["name"],
                tid=parts[3],
                parent=cid,
                owner=BOT_ID,
                archive_minutes=body.get("auto_archive_duration", 1440),
            )
            await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
            return _json(thread)
        return _json({"message": "unknown message route", "code": 0}, status=404)

    async def _callback(self, token: str, body: dict[str, Any]) -> web.Response:
        interaction = self.interactions[token]
        refused = discord_rules.callback_rejected(
            body, interaction=interaction.payload, answered=interaction.answered
        )
        if refused is not None:
            status, error = refused
            self.rejected.append(
                ("POST", f"/interactions/{interaction.id}/{token}/callback", error)
            )
            return _json(error, status=status)
        interaction.answered = True
        data = body.get("data") or {}
        kind = body["type"]
        if kind == 9:
            interaction.modal = data
        if kind == 7:
            shown = self.get_message(interaction.payload["message"]["id"])
            shown.update(
                {k: v for k, v in data.items() if k in ("content", "embeds", "components")}
            )
            shown["edited_timestamp"] = _now()
        response: dict[str, Any] = {
            "interaction": {"id": interaction.id, "type": interaction.payload["type"]}
        }
        if kind in (4, 5):
            flags = (data.get("flags") or 0) | (128 if kind == 5 else 0)
            m = self._message(
                interaction.channel_id,
                data.get("content") or "",
                BOT,
                embeds=data.get("embeds") or [],
                components=data.get("components") or [],
                flags=flags,
                webhook_id=str(APP_ID),
                interaction={
                    "id": interaction.id,
                    "type": interaction.payload["type"],
                    "name": interaction.payload["data"].get("name", ""),
                    "user": USER,
                },
            )
            interaction.original = m
            response["interaction"]["response_message_loading"] = kind == 5
            response["resource"] = {"type": kind, "message": m}
        return _json(response)

    def _webhook(self, method: str, parts: list[str], body: dict[str, Any]) -> web.Response:
        interaction = self.interactions.get(parts[2])
        if interaction is None or interaction.expired:
            return _json({"message": "Invalid Webhook Token", "code": 50027}, status=401)
        fields = {
            k: v for k, v in body.items() if k in ("content", "embeds", "flags", "components")
        }
        if method == "PATCH" and parts[-1] == "@original":
            if interaction.original is None:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            interaction.original.update(fields)
            interaction.original["flags"] = interaction.original.get("flags", 0) & ~128
            return _json(interaction.original)
        original = interaction.original
        if method == "POST" and len(parts) == 3:
            if original is not None and original.get("flags", 0) & 128:
                # the first followup after a deferred response *is* that response: it
                # replaces "thinking…" and keeps its visibility, whatever flags it sends
                # (discord-api-docs#2860)
                original.update({k: v for k, v in fields.items() if k != "flags"})
                original["flags"] &= ~128
                return _json(original)
            m = self._message(
                interaction.channel_id,
                body.get("content") or "",
                BOT,
                **{k: v for k, v in fields.items() if k != "content"},
                webhook_id=str(APP_ID),
            )
            interaction.followups.append(m)
            return _json(m)
        if method == "PATCH" and len(parts) == 5:
            m = self.get_message(parts[4])
            m.update(fields)
            return _json(m)
        if method == "DELETE" and len(parts) == 5:
            shown = original if parts[4] == "@original" else None
            if shown is None:
                shown = next((m for m in interaction.followups if m["id"] == parts[4]), None)
            if shown is None or not self._drop(shown):
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if shown is original:
                interaction.original = None
            return web.Response(status=204)
        return _not_found()

    def _drop(self, message: dict[str, Any]) -> bool:
        shown = self.messages.get(message["channel_id"], [])
        if message not in shown:
            return False
        shown.remove(message)
        return True
