"""What the real Slack Web API rejects, so that the fake rejects it too.

Every number here is Slack's own, with the page it comes from:

- methods and their required arguments: docs.slack.dev/reference/methods/<method>
  (an unknown method answers ``unknown_method``; a missing ``channel`` answers
  ``channel_not_found``; ``chat.postMessage`` without content answers ``no_text``);
- 50 blocks per message: docs.slack.dev/reference/block-kit/blocks;
- section text 3000, section fields 10 of 2000 each, header text 150, context elements 10,
  actions elements 25, block_id 255: the Block Kit reference pages (and slack_sdk's
  ``models/blocks/blocks.py``), answered with ``invalid_blocks`` and a JSON pointer;
- all ``markdown`` blocks together 12,000 characters: docs.slack.dev/reference/block-kit/blocks/markdown-block;
- ``markdown_text`` 12,000 characters: docs.slack.dev/reference/methods/chat.startStream;
- message ``text`` over 40,000 characters is truncated with the warning ``message_truncated``:
  api.slack.com/changelog/2018-04-truncating-really-long-messages;
- at most four suggested prompts, each with a ``title`` and a ``message``:
  docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts (``thread_ts`` is
  optional there); at most 10 ``loading_messages``: docs.slack.dev/reference/methods/assistant.threads.setStatus;
- about 13,000 characters of block text in one message answer ``msg_blocks_too_long``
  even under every per-block limit (observed, github.com/slackapi/bolt-js/issues/2509).
"""

from __future__ import annotations

from typing import Any

#: method → arguments it cannot do without (the token travels in the Authorization header)
METHODS: dict[str, tuple[str, ...]] = {
    "api.test": (),
    "auth.test": (),
    "auth.revoke": (),
    "apps.connections.open": (),
    "assistant.threads.setStatus": ("channel_id", "thread_ts", "status"),
    "assistant.threads.setSuggestedPrompts": ("channel_id", "prompts"),
    "assistant.threads.setTitle": ("channel_id", "thread_ts", "title"),
    "chat.postMessage": ("channel",),
    "chat.postEphemeral": ("channel", "user"),
    "chat.update": ("channel", "ts"),
    "chat.delete": ("channel", "ts"),
    "chat.getPermalink": ("channel", "message_ts"),
    "chat.startStream": ("channel", "thread_ts"),
    "chat.appendStream": ("channel", "ts"),
    "chat.stopStream": ("channel", "ts"),
    "conversations.replies": ("channel", "ts"),
    "conversations.history": ("channel",),
    "conversations.info": ("channel",),
    # the client credentials may travel in HTTP Basic auth instead (slack_workspaces checks them)
    "oauth.v2.access": (),
    "reactions.add": ("channel", "name", "timestamp"),
    "users.info": ("user",),
    "views.open": ("trigger_id", "view"),
    "views.publish": ("user_id", "view"),
}
#: methods whose message needs content: text, blocks, attachments or markdown_text
NEEDS_CONTENT = frozenset({"chat.postMessage", "chat.postEphemeral"})

MAX_BLOCKS = 50
SECTION_TEXT = 3000
SECTION_FIELDS = 10
FIELD_TEXT = 2000
HEADER_TEXT = 150
CONTEXT_ELEMENTS = 10
ACTIONS_ELEMENTS = 25
BLOCK_ID = 255
MARKDOWN_BLOCKS_TOTAL = 12_000
MARKDOWN_TEXT = 12_000
MESSAGE_TEXT = 40_000
SUGGESTED_PROMPTS = 4
LOADING_MESSAGES = 10
BLOCKS_TEXT_OBSERVED = 13_000

BLOCK_TYPES = frozenset(
    {
        "actions",
        "context",
        "context_actions",
        "divider",
        "file",
        "header",
        "image",
        "input",
        "markdown",
        "rich_text",
        "section",
        "table",
        "video",
    }
)


#: the scope ``conversations.info`` needs for each kind of conversation
#: (docs.slack.dev/reference/methods/conversations.info); without it: ``missing_scope``
INFO_SCOPES = {
    "channel": "channels:read",
    "group": "groups:read",
    "im": "im:read",
    "mpim": "mpim:read",
}


def error(name: str, *messages: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ok": False, "error": name, **extra}
    if messages:
        body["response_metadata"] = {"messages": list(messages)}
    return body


def rejected(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """Slack's answer to a call it refuses, or ``None`` when it takes the call."""
    if method not in METHODS:
        return error("unknown_method", req_method=method)
    for name in METHODS[method]:
        value = params.get(name)
        if name in ("channel", "channel_id") and not value:
            return error("channel_not_found")
        # an empty string is an argument (``status=""`` clears an assistant thread's status)
        if value is None:
            return error("invalid_arguments", f"[ERROR] missing required field: {name}")
    if method in NEEDS_CONTENT and not any(
        params.get(k) for k in ("text", "blocks", "attachments", "markdown_text")
    ):
        return error("no_text")
    if method.startswith("assistant.threads."):
        problem = _assistant(method, params)
        if problem is not None:
            return problem
    markdown = params.get("markdown_text")
    if isinstance(markdown, str) and len(markdown) > MARKDOWN_TEXT:
        return error("msg_too_long")
    for chunk in params.get("chunks") or []:
        text = chunk.get("text") if isinstance(chunk, dict) else None
        if isinstance(text, str) and len(text) > MARKDOWN_TEXT:
            return error("msg_too_long")
    blocks = params.get("blocks")
    if blocks is not None:
        return _blocks(blocks)
    return None


def _assistant(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    prompts = params.get("prompts")
    if prompts is not None:
        if not isinstance(prompts, list) or not 1 <= len(prompts) <= SUGGESTED_PROMPTS:
            return error(
                "invalid_arguments", f"[ERROR] between 1 and {SUGGESTED_PROMPTS} prompts allowed"
            )
        for i, prompt in enumerate(prompts):
            if not (
                isinstance(prompt, dict)
                and isinstance(prompt.get("title"), str)
                and prompt["title"]
                and isinstance(prompt.get("message"), str)
                and prompt["message"]
            ):
                return error(
                    "invalid_arguments", f"[ERROR] prompts/{i} needs a title and a message"
                )
    loading = params.get("loading_messages")
    if loading is not None and (not isinstance(loading, list) or len(loading) > LOADING_MESSAGES):
        return error("invalid_arguments", f"[ERROR] at most {LOADING_MESSAGES} loading_messages")
    title = params.get("title")
    if method == "assistant.threads.setTitle" and not (isinstance(title, str) and title.strip()):
        return error("invalid_arguments", "[ERROR] title must not be empty")
    return None


def warnings(params: dict[str, Any]) -> list[str]:
    """What Slack accepts with a warning (and how it changes the message)."""
    text = params.get("text")
    return ["message_truncated"] if isinstance(text, str) and len(text) > MESSAGE_TEXT else []


def _blocks(blocks: Any) -> dict[str, Any] | None:
    if not isinstance(blocks, list):
        return error("invalid_blocks_format")
    if len(blocks) > MAX_BLOCKS:
        return _invalid(f"no more than {MAX_BLOCKS} items allowed", "/blocks")
    markdown_total = 0
    for i, block in enumerate(blocks):
        where = f"/blocks/{i}"
        if not isinstance(block, dict) or block.get("type") not in BLOCK_TYPES:
            return _invalid("must provide a valid block type", f"{where}/type")
        problem = block_problem(block, where)
        if problem is not None:
            return problem
        if block["type"] == "markdown":
            markdown_total += len(str(block.get("text") or ""))
    if markdown_total > MARKDOWN_BLOCKS_TOTAL:
        return _invalid(
            f"markdown blocks must total {MARKDOWN_BLOCKS_TOTAL} characters or fewer", "/blocks"
        )
    if sum(len(t) for t in block_texts(blocks)) > BLOCKS_TEXT_OBSERVED:
        return error("msg_blocks_too_long")
    return None


def block_problem(block: dict[str, Any], where: str) -> dict[str, Any] | None:
    kind = block["type"]
    if len(str(block.get("block_id") or "")) > BLOCK_ID:
        return _invalid(f"must be less than {BLOCK_ID + 1} characters", f"{where}/block_id")
    if kind == "section":
        text = text_of(block.get("text"))
        fields = block.get("fields") or []
        if text is None and not fields:
            return _invalid("must provide either text or fields", where)
        if text is not None and not 1 <= len(text) <= SECTION_TEXT:
            return _invalid(_length(SECTION_TEXT), f"{where}/text/text")
        if len(fields) > SECTION_FIELDS:
            return _invalid(f"no more than {SECTION_FIELDS} items allowed", f"{where}/fields")
        for j, field in enumerate(fields):
            if len(text_of(field) or "") > FIELD_TEXT:
                return _invalid(_length(FIELD_TEXT), f"{where}/fields/{j}/text")
    elif kind == "header":
        text = text_of(block.get("text"))
        if not text or len(text) > HEADER_TEXT:
            return _invalid(_length(HEADER_TEXT), f"{where}/text/text")
    elif kind == "context":
        elements = block.get("elements") or []
        if not 1 <= len(elements) <= CONTEXT_ELEMENTS:
            return _invalid(f"no more than {CONTEXT_ELEMENTS} items allowed", f"{where}/elements")
    elif kind == "actions":
        elements = block.get("elements") or []
        if not 1 <= len(elements) <= ACTIONS_ELEMENTS:
            return _invalid(f"no more than {ACTIONS_ELEMENTS} items allowed", f"{where}/elements")
    elif kind == "markdown" and not isinstance(block.get("text"), str):
        return _invalid("must provide text", f"{where}/text")
    return None


def _invalid(message: str, pointer: str) -> dict[str, Any]:
    return error("invalid_blocks", f"[ERROR] {message} [json-pointer:{pointer}]")


def _length(limit: int) -> str:
    return f"must be between 1 and {limit} characters"


def text_of(obj: Any) -> str | None:
    if isinstance(obj, dict) and isinstance(obj.get("text"), str):
        return str(obj["text"])
    return None


def block_texts(node: Any) -> list[str]:
    """Every ``text`` string in a Block Kit payload, in order."""
    if isinstance(node, list):
        return [t for item in node for t in block_texts(item)]
    if isinstance(node, dict):
        own = [node["text"]] if isinstance(node.get("text"), str) else []
        return own + [t for v in node.values() if not isinstance(v, str) for t in block_texts(v)]
    return []
