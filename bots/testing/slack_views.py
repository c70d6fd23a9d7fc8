"""The fake Slack's interactive surfaces: trigger ids, modals, ephemeral messages, payloads.

What the real Slack does, with the page each number comes from:

- a ``trigger_id`` arrives in an interaction payload, may be exchanged once, and
  expires 3 seconds after the interaction (docs.slack.dev/interactivity/handling-user-interaction,
  "trigger_id ... expires in 3 seconds"); ``views.open`` answers ``invalid_trigger_id``,
  ``exchanged_trigger_id`` or ``expired_trigger_id`` (docs.slack.dev/reference/methods/views.open);
- a modal view (docs.slack.dev/reference/views/modal-views): ``type`` "modal", a
  ``plain_text`` ``title`` of at most 24 characters, ``submit`` and ``close`` at most 24,
  ``submit`` required when an input block is present, at most 100 blocks,
  ``private_metadata`` at most 3000 characters, ``callback_id`` at most 255;
- an input block's label at most 2000 characters and a ``plain_text_input``'s
  ``max_length`` at most 3000 (docs.slack.dev/reference/block-kit/blocks/input-block,
  .../block-elements/plain-text-input-element);
- ``chat.postEphemeral`` answers ``message_ts`` and the message is seen by ``user`` only;
  a ``user`` who is not in the channel gets ``user_not_in_channel`` ("Cannot post user
  messages to a channel they are not in", docs.slack.dev/reference/methods/chat.postEphemeral),
  checked by ``FakeSlack`` against its ``members``.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from bots.testing.slack_rules import block_problem, error, text_of

TRIGGER_TTL = 3.0
VIEW_TITLE = 24
VIEW_BUTTON = 24
VIEW_BLOCKS = 100
PRIVATE_METADATA = 3000
CALLBACK_ID = 255
INPUT_LABEL = 2000
PLAIN_TEXT_INPUT = 3000

TRIGGER = re.compile(r"^\d+\.\d+\.[0-9a-f]+$")


@dataclass
class Ephemeral:
    """A message only ``user`` sees (chat.postEphemeral)."""

    channel: str
    user: str
    ts: str
    thread_ts: str | None
    text: str
    blocks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class OpenView:
    id: str
    user: str
    view: dict[str, Any]


class Interactivity:
    """The fake's trigger ids, open views and ephemeral messages."""

    def __init__(self) -> None:
        self._triggers: dict[str, tuple[float, str]] = {}
        self._exchanged: set[str] = set()
        self._ids = itertools.count(1)
        self.views: list[OpenView] = []
        self.ephemerals: list[Ephemeral] = []

    def trigger_id(self, user: str) -> str:
        """A fresh trigger id for an interaction by ``user``, as Slack puts in a payload."""
        n = next(self._ids)
        trigger = f"{n}.{int(time.time())}.{secrets.token_hex(8)}"
        self._triggers[trigger] = (time.monotonic(), user)
        return trigger

    def expire(self, trigger_id: str) -> None:
        """Age ``trigger_id`` past its 3 seconds."""
        _, user = self._triggers[trigger_id]
        self._triggers[trigger_id] = (time.monotonic() - TRIGGER_TTL - 1, user)

    def open_view(self, params: dict[str, Any]) -> dict[str, Any]:
        trigger = str(params.get("trigger_id") or "")
        if not TRIGGER.match(trigger) or trigger not in self._triggers:
            return error("invalid_trigger_id")
        if trigger in self._exchanged:
            return error("exchanged_trigger_id")
        issued, user = self._triggers[trigger]
        if time.monotonic() - issued > TRIGGER_TTL:
            return error("expired_trigger_id")
        view = params.get("view")
        if isinstance(view, str):
            try:
                view = json.loads(view)
            except ValueError:
                return error("invalid_arguments", "[ERROR] view must be JSON [json-pointer:/view]")
        problem = view_rejected(view)
        if problem is not None or not isinstance(view, dict):
            return problem or error("invalid_arguments")
        self._exchanged.add(trigger)
        opened = OpenView(f"V{next(self._ids):08d}", user, view)
        self.views.append(opened)
        return {"ok": True, "view": {"id": opened.id, "team_id": "T111", **view}}

    def post_ephemeral(self, params: dict[str, Any], ts: str) -> dict[str, Any]:
        self.ephemerals.append(
            Ephemeral(
                params["channel"],
                params["user"],
                ts,
                params.get("thread_ts"),
                str(params.get("text") or ""),
                list(params.get("blocks") or []),
            )
        )
        return {"ok": True, "message_ts": ts}


def view_rejected(view: Any) -> dict[str, Any] | None:
    """Slack's answer to a modal it refuses, or ``None``."""
    if not isinstance(view, dict) or view.get("type") != "modal":
        return _invalid("must be a valid enum value", "/view/type")
    title = view.get("title")
    if not isinstance(title, dict) or title.get("type") != "plain_text":
        return _invalid("must be a plain_text text object", "/view/title")
    if not 1 <= len(text_of(title) or "") <= VIEW_TITLE:
        return _invalid(_length(VIEW_TITLE), "/view/title/text")
    for name in ("submit", "close"):
        button = view.get(name)
        if button is not None and not 1 <= len(text_of(button) or "") <= VIEW_BUTTON:
            return _invalid(_length(VIEW_BUTTON), f"/view/{name}/text")
    if len(str(view.get("private_metadata") or "")) > PRIVATE_METADATA:
        return _invalid(_length(PRIVATE_METADATA), "/view/private_metadata")
    if len(str(view.get("callback_id") or "")) > CALLBACK_ID:
        return _invalid(_length(CALLBACK_ID), "/view/callback_id")
    blocks = view.get("blocks")
    if not isinstance(blocks, list) or len(blocks) > VIEW_BLOCKS:
        return _invalid(f"no more than {VIEW_BLOCKS} items allowed", "/view/blocks")
    for i, block in enumerate(blocks):
        where = f"/view/blocks/{i}"
        problem = block_problem(block, where) if isinstance(block, dict) else None
        if problem is not None:
            return error("invalid_arguments", *problem["response_metadata"]["messages"])
        if isinstance(block, dict) and block.get("type") == "input":
            problem = _input(block, where)
            if problem is not None:
                return problem
            if view.get("submit") is None:
                return _invalid("submit is required when an input block is present", "/view")
    return None


def _input(block: dict[str, Any], where: str) -> dict[str, Any] | None:
    if not 1 <= len(text_of(block.get("label")) or "") <= INPUT_LABEL:
        return _invalid(_length(INPUT_LABEL), f"{where}/label/text")
    element = block.get("element")
    if not isinstance(element, dict) or not element.get("type"):
        return _invalid("must provide an element", f"{where}/element")
    if element["type"] == "plain_text_input":
        limit = element.get("max_length", PLAIN_TEXT_INPUT)
        if not isinstance(limit, int) or not 1 <= limit <= PLAIN_TEXT_INPUT:
            return _invalid(
                f"must be between 1 and {PLAIN_TEXT_INPUT}", f"{where}/element/max_length"
            )
    return None


def _invalid(message: str, pointer: str) -> dict[str, Any]:
    return error("invalid_arguments", f"[ERROR] {message} [json-pointer:{pointer}]")


def _length(limit: int) -> str:
    return f"must be less than {limit + 1} characters"


# -- payloads Slack sends the app ------------------------------------------------


def block_actions(
    interactivity: Interactivity,
    *,
    team: str,
    user: str,
    channel: str,
    block_id: str,
    action_id: str,
    value: str,
    response_url: str,
    message_ts: str,
    thread_ts: str | None = None,
    ephemeral: bool = False,
) -> dict[str, Any]:
    """A button click as Slack posts it; an ephemeral message's click carries no message."""
    container: dict[str, Any] = {
        "type": "message",
        "message_ts": message_ts,
        "channel_id": channel,
        "is_ephemeral": ephemeral,
    }
    if thread_ts:
        container["thread_ts"] = thread_ts
    payload: dict[str, Any] = {
        "type": "block_actions",
        "team": {"id": team},
        "user": {"id": user},
        "api_app_id": "A111",
        "channel": {"id": channel},
        "container": container,
        "response_url": response_url,
        "trigger_id": interactivity.trigger_id(user),
        "actions": [
            {
                "type": "button",
                "block_id": block_id,
                "action_id": action_id,
                "value": value,
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }
    if not ephemeral:
        payload["message"] = {"ts": message_ts, "text": "", "thread_ts": thread_ts}
    return payload


def view_submission(
    interactivity: Interactivity,
    opened: OpenView,
    *,
    team: str,
    values: dict[str, dict[str, str]],
) -> dict[str, Any]:
    """The user pressed Submit on ``opened`` with ``values`` (block_id → action_id → text).

    Slack's client checks input blocks before sending: a required input left
    empty, or text over ``max_length``, never reaches the app; neither does it here.
    """
    state: dict[str, dict[str, Any]] = {}
    for block in opened.view.get("blocks") or []:
        if block.get("type") != "input":
            continue
        element = block["element"]
        text = values.get(block.get("block_id", ""), {}).get(element.get("action_id", ""))
        if not text and not block.get("optional"):
            raise ValueError(f"Slack would not submit: input {block.get('block_id')} is required")
        if text and len(text) > element.get("max_length", PLAIN_TEXT_INPUT):
            raise ValueError(f"Slack would not submit: input {block.get('block_id')} is too long")
        state.setdefault(block["block_id"], {})[element["action_id"]] = {
            "type": element["type"],
            "value": text or None,
        }
    return {
        "type": "view_submission",
        "team": {"id": team},
        "user": {"id": opened.user},
        "api_app_id": "A111",
        "trigger_id": interactivity.trigger_id(opened.user),
        "view": {
            **opened.view,
            "id": opened.id,
            "team_id": team,
            "state": {"values": state},
            "hash": secrets.token_hex(8),
        },
    }
