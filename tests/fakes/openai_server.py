"""A fake OpenAI-compatible chat completions server (what Ollama, vLLM and llama.cpp speak).

It answers ``POST /v1/chat/completions`` plain or as an SSE stream, and replies
with a tool call when the request forces one (function-calling structured
output). Streams end with a usage chunk when the request asks for one
(``stream_options.include_usage``), as the real API does. Replies are scripted::

    with FakeOpenAI() as llm:
        llm.when("Task: grade relevance", '{"score": 0.9}')      # by prompt content
        llm.queue("Keys rotate every 90 days [1].")                # next unmatched call
        llm.when("Task: check", Fail(500))                         # a server error
        llm.when("Task: answer", Hang())                           # never answers
        settings = LLMSettings(provider="openai_compatible", base_url=llm.base_url)
        ...
        llm.requests  # every request body, in order

Rules are tried in the order they were added; ``times`` limits how often one
matches. A reply may also be a callable taking the prompt text.

``server`` makes the fake as strict as one real server, from their docs and issue
trackers:

- ``openai``: ``tool_choice`` only with ``tools``; ``stream_options`` only when streaming;
  ``response_format`` of type text, json_object or json_schema (with its schema).
- ``vllm`` (started without ``--enable-auto-tool-choice``/``--tool-call-parser``, the
  default): ``tool_choice`` without ``tools`` is a 400 (vllm#9426); any tool choice
  but ``none`` needs the tool parser (vllm#30613); ``stream_options`` only when streaming.
- ``ollama``: accepts ``response_format``; ignores ``tool_choice`` and answers in text
  (ollama#8421, ollama#17921).
- ``llamacpp`` (llama-server): ``response_format`` of type text, json_object or json_schema
  (llama.cpp#9522); a named ``tool_choice`` silently falls back to ``auto``
  (llama.cpp#26535), here answered in text.
- ``lmstudio``: ``response_format.type`` must be ``json_schema`` or ``text``
  (lmstudio-bug-tracker#189); ``tool_choice: required`` returns an empty message
  (lmstudio-bug-tracker#1904).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from bots.testing.http_server import ThreadedServer


@dataclass(frozen=True)
class Fail:
    status: int = 500
    message: str = "the fake server was told to fail"


@dataclass(frozen=True)
class Hang:
    """Never reply (until the server stops): drives client timeouts."""


@dataclass(frozen=True)
class Stall:
    """Stream ``text``, then stop sending without finishing (a server stuck mid-answer)."""

    text: str


Reply = str | Fail | Hang | Stall | Callable[[str], "str | Fail | Hang | Stall"]

ServerKind = Literal["openai", "vllm", "ollama", "llamacpp", "lmstudio"]
SERVER_KINDS: tuple[ServerKind, ...] = ("openai", "vllm", "ollama", "llamacpp", "lmstudio")


@dataclass
class Rule:
    contains: str
    reply: Reply
    times: int | None = None
    used: int = 0


@dataclass
class Request:
    body: dict[str, Any]
    headers: dict[str, str]
    prompt: str = field(init=False)
    usage: dict[str, int] | None = None  # what the server reported for this request
    rejected: str | None = None  # why the strict server refused it

    def __post_init__(self) -> None:
        self.prompt = prompt_of(self.body)


def prompt_of(body: dict[str, Any]) -> str:
    parts = []
    for message in body.get("messages") or ():
        content = message.get("content")
        if isinstance(content, list):
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        parts.append(str(content or ""))
    return "\n".join(parts)


@dataclass(frozen=True)
class Latency:
    """How long a real model takes, per call: a wait before the first token, then a steady rate.

    A token is counted as four characters (OpenAI's rule of thumb for English), so a reply
    takes ``first_token + len(text) / 4 / tokens_per_second`` whether streamed or not.
    """

    first_token: float = 0.4
    tokens_per_second: float = 40.0

    def of(self, text: str) -> float:
        return len(text) / 4 / self.tokens_per_second


class FakeOpenAI(ThreadedServer):
    def __init__(
        self,
        *,
        api_key: str | None = None,
        chunk_chars: int = 4,
        model: str = "fake-model",
        report_usage: bool = True,
        server: ServerKind = "openai",
        latency: Latency | None = None,
    ) -> None:
        super().__init__()
        self.server = server
        self.latency = latency
        self.api_key = api_key
        self.report_usage = report_usage  # False: like local servers that never count tokens
        self.chunk_chars = chunk_chars
        self.model = model
        self.requests: list[Request] = []
        self.rules: list[Rule] = []
        self.replies: deque[Reply] = deque()
        self.default: Reply | None = None
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    # -- scripting ----------------------------------------------------------------

    def when(self, contains: str, reply: Reply, *, times: int | None = None) -> FakeOpenAI:
        with self._lock:
            self.rules.append(Rule(contains, reply, times))
        return self

    def queue(self, *replies: Reply) -> FakeOpenAI:
        with self._lock:
            self.replies.extend(replies)
        return self

    def reset(self) -> None:
        with self._lock:
            self.rules.clear()
            self.replies.clear()
            self.requests.clear()
            self.default = None

    def calls(self, contains: str) -> list[Request]:
        return [r for r in self.requests if contains in r.prompt]

    def _pick(self, prompt: str) -> str | Fail | Hang | Stall:
        with self._lock:
            reply: Reply | None = None
            for rule in self.rules:
                if rule.contains in prompt and (rule.times is None or rule.used < rule.times):
                    rule.used += 1
                    reply = rule.reply
                    break
            if reply is None and self.replies:
                reply = self.replies.popleft()
            if reply is None:
                reply = self.default
        if reply is None:
            return Fail(500, f"no scripted reply for prompt starting {prompt[:80]!r}")
        return reply(prompt) if callable(reply) else reply

    # -- protocol ------------------------------------------------------------------

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": self.model, "object": "model"}]}
        )

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        if (
            self.api_key is not None
            and request.headers.get("Authorization") != f"Bearer {self.api_key}"
        ):
            return _error(401, "Incorrect API key provided.", "invalid_api_key")
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return _error(400, "the body is not JSON", "invalid_request_error")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return _error(400, "'messages' is required", "invalid_request_error")
        record = Request(body=body, headers=dict(request.headers))
        with self._lock:
            self.requests.append(record)
        rejected = _REJECTS[self.server](body)
        if rejected is not None:
            record.rejected = rejected
            return _server_error(self.server, 400, rejected)
        reply = self._pick(record.prompt)
        if isinstance(reply, Hang):
            await self.stall()
            return _error(503, "the fake server is shutting down", "server_error")
        if isinstance(reply, Fail):
            return _error(reply.status, reply.message, "server_error")
        tool = _forced_tool(body)
        if tool is not None and _ignores_tool_choice(self.server, body.get("tool_choice")):
            tool = None
        if self.server == "lmstudio" and body.get("tool_choice") == "required":
            tool, reply = None, ""
        if isinstance(reply, Stall):
            if not body.get("stream") or tool is not None:
                return _error(500, "Stall is scripted for streamed text replies", "server_error")
            return await self._stream(request, record, reply.text, None, stall=True)
        if body.get("stream"):
            return await self._stream(request, record, reply, tool)
        if self.latency is not None:
            await asyncio.sleep(self.latency.first_token + self.latency.of(reply))
        message: dict[str, Any] = {"role": "assistant", "content": reply}
        finish = "stop"
        if tool is not None:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [_tool_call(tool, reply)],
            }
            finish = "tool_calls"
        completion: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.model),
            "choices": [
                {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            ],
        }
        usage = self._usage(record, reply)
        if usage is not None:
            completion["usage"] = usage
        return web.json_response(completion)

    def _usage(self, record: Request, reply: str) -> dict[str, int] | None:
        if not self.report_usage:
            return None
        p, c = len(record.prompt.split()), len(reply.split())
        record.usage = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
        return record.usage

    async def _stream(
        self,
        request: web.Request,
        record: Request,
        reply: str,
        tool: str | None,
        *,
        stall: bool = False,
    ) -> web.StreamResponse:
        body = record.body
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        ident = f"chatcmpl-{len(self.requests)}"
        model = body.get("model", self.model)
        options = body.get("stream_options")
        with_usage = (
            self.report_usage and isinstance(options, dict) and options.get("include_usage") is True
        )

        async def write(choices: list[dict[str, Any]], usage: dict[str, int] | None) -> None:
            chunk: dict[str, Any] = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": choices,
            }
            if with_usage:
                # as the real API: null on every chunk, the totals on an extra last one
                chunk["usage"] = usage
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())

        async def send(delta: dict[str, Any], finish: str | None = None) -> None:
            await write(
                [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}], None
            )

        if self.latency is not None:
            await asyncio.sleep(self.latency.first_token)
        await send({"role": "assistant", "content": ""})
        if tool is not None:
            if self.latency is not None:
                await asyncio.sleep(self.latency.of(reply))
            call = _tool_call(tool, reply)
            call["index"] = 0
            await send({"tool_calls": [call]})
            await send({}, "tool_calls")
        else:
            step = max(1, self.chunk_chars)
            for i in range(0, len(reply), step):
                piece = reply[i : i + step]
                if self.latency is not None:
                    await asyncio.sleep(self.latency.of(piece))
                await send({"content": piece})
            if stall:
                await self.stall()
                return response
            await send({}, "stop")
        if with_usage:
            await write([], self._usage(record, reply))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


def _forced_tool(body: dict[str, Any]) -> str | None:
    tools = body.get("tools") or []
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return str(choice.get("function", {}).get("name"))
    return str(tools[0].get("function", {}).get("name"))


def _tool_call(name: str, arguments: str) -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}


def _error(status: int, message: str, code: str) -> web.Response:
    return web.json_response(
        {"error": {"message": message, "type": code, "param": None, "code": code}}, status=status
    )


# -- what each real server rejects or ignores -------------------------------------------


def _openai_rejects(body: dict[str, Any]) -> str | None:
    if "tool_choice" in body and not body.get("tools"):
        return (
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
            "specified."
        )
    if "stream_options" in body and not body.get("stream"):
        return "The 'stream_options' parameter is only allowed when 'stream' is enabled."
    return _response_format_problem(body, ("text", "json_object", "json_schema"))


def _vllm_rejects(body: dict[str, Any]) -> str | None:
    choice = body.get("tool_choice")
    if choice is not None and choice != "none" and not body.get("tools"):
        return "When using `tool_choice`, `tools` must be set."
    if body.get("tools") and choice != "none":
        shown = choice if isinstance(choice, str) else "named" if choice else "auto"
        return (
            f'"{shown}" tool choice requires --enable-auto-tool-choice and --tool-call-parser '
            "to be set"
        )
    if "stream_options" in body and not body.get("stream"):
        return "Stream options can only be defined when `stream=True`."
    return _response_format_problem(body, ("text", "json_object", "json_schema"))


def _ollama_rejects(body: dict[str, Any]) -> str | None:
    return None


def _llamacpp_rejects(body: dict[str, Any]) -> str | None:
    return _response_format_problem(body, ("text", "json_object", "json_schema"))


def _lmstudio_rejects(body: dict[str, Any]) -> str | None:
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") not in ("json_schema", "text"):
        return "'response_format.type' must be 'json_schema' or 'text'"
    return _response_format_problem(body, ("text", "json_schema"))


def _response_format_problem(body: dict[str, Any], allowed: tuple[str, ...]) -> str | None:
    fmt = body.get("response_format")
    if fmt is None:
        return None
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if kind not in allowed:
        return f"response_format type must be one of {', '.join(allowed)}, but got: {kind}"
    if kind == "json_schema":
        schema = fmt.get("json_schema")
        if not isinstance(schema, dict) or not isinstance(schema.get("schema"), dict):
            return "Missing required parameter: 'response_format.json_schema.schema'."
    return None


_REJECTS: dict[ServerKind, Callable[[dict[str, Any]], str | None]] = {
    "openai": _openai_rejects,
    "vllm": _vllm_rejects,
    "ollama": _ollama_rejects,
    "llamacpp": _llamacpp_rejects,
    "lmstudio": _lmstudio_rejects,
}


def _ignores_tool_choice(server: ServerKind, choice: object) -> bool:
    """Ollama ignores every tool choice; llama-server ignores the named (object) form."""
    return server == "ollama" or (server == "llamacpp" and isinstance(choice, dict))


def _server_error(server: ServerKind, status: int, message: str) -> web.Response:
    """The error body each server sends (they differ, and clients must cope with all)."""
    body: dict[str, Any]
    if server == "vllm":
        body = {
            "object": "error",
            "message": message,
            "type": "BadRequestError",
            "param": None,
            "code": status,
        }
    elif server == "lmstudio":
        body = {"error": message}
    elif server == "llamacpp":
        body = {"error": {"code": status, "message": message, "type": "invalid_request_error"}}
    else:
        body = {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": None,
            }
        }
    return web.json_response(body, status=status)
