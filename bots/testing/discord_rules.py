"""What Discord's REST API rejects in a message, so that the fake rejects it too.

The numbers are Discord's own (discord-api-docs ``developers/resources/message.mdx``,
"Create Message" and "Embed Limits"): content 2000 characters; at most 10 embeds; an
embed's title 256, description 4096, fields 25, field name 256, field value 1024, footer
text 2048, author name 256; all embeds of a message together 6000. A message with
nothing in it is refused too.

Discord answers 400 with code 50035 "Invalid Form Body" and an ``errors`` tree whose
leaves are ``{"_errors": [{"code": ..., "message": ...}]}``; an empty message is 50006.
"""

from __future__ import annotations

from typing import Any

CONTENT = 2000
EMBEDS = 10
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBEDS_TOTAL = 6000

INVALID_FORM_BODY = 50035
EMPTY_MESSAGE = 50006

Error = tuple[int, dict[str, Any]]


def _too_long(limit: int) -> dict[str, Any]:
    return {
        "_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
        ]
    }


def _form(errors: dict[str, Any], prefix: tuple[str, ...]) -> Error:
    for key in reversed(prefix):
        errors = {key: errors}
    return 400, {"code": INVALID_FORM_BODY, "message": "Invalid Form Body", "errors": errors}


def rejected(body: dict[str, Any], *, creating: bool, prefix: tuple[str, ...] = ()) -> Error | None:
    """(status, JSON) Discord answers to this message payload, or ``None`` when it takes it.

    ``creating`` is a new message (an edit may leave everything out); ``prefix`` is
    where the message sits in the request (``("data",)`` in an interaction response).
    """
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        return _form({"content": _too_long(CONTENT)}, prefix)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        return _form({"embeds": _too_long(EMBEDS)}, prefix)
    total = 0
    for i, embed in enumerate(embeds):
        problem, size = _embed(embed)
        if problem:
            return _form({"embeds": {str(i): problem}}, prefix)
        total += size
    if total > EMBEDS_TOTAL:
        size_error = {
            "code": "MAX_EMBED_SIZE_EXCEEDED",
            "message": f"Embed size exceeds maximum size of {EMBEDS_TOTAL}",
        }
        return _form({"embeds": {"_errors": [size_error]}}, prefix)
    components = body.get("components")
    if isinstance(components, list):
        problem = components_problem(components)
        if problem:
            return _form(problem, prefix)
    if creating and not any(
        body.get(k) for k in ("content", "embeds", "components", "attachments")
    ):
        return 400, {"code": EMPTY_MESSAGE, "message": "Cannot send an empty message"}
    return None


def _embed(embed: dict[str, Any]) -> tuple[dict[str, Any] | None, int]:
    # leading and trailing whitespace does not count (message.mdx, Embed Limits)
    title = str(embed.get("title") or "").strip()
    description = str(embed.get("description") or "").strip()
    footer = str((embed.get("footer") or {}).get("text") or "").strip()
    author = str((embed.get("author") or {}).get("name") or "").strip()
    fields = embed.get("fields") or []
    for name, value, limit in (
        ("title", title, TITLE),
        ("description", description, DESCRIPTION),
    ):
        if len(value) > limit:
            return {name: _too_long(limit)}, 0
    if len(footer) > FOOTER:
        return {"footer": {"text": _too_long(FOOTER)}}, 0
    if len(author) > AUTHOR:
        return {"author": {"name": _too_long(AUTHOR)}}, 0
    if len(fields) > FIELDS:
        return {"fields": _too_long(FIELDS)}, 0
    size = len(title) + len(description) + len(footer) + len(author)
    for j, field in enumerate(fields):
        name = str(field.get("name") or "").strip()
        value = str(field.get("value") or "").strip()
        if len(name) > FIELD_NAME:
            return {"fields": {str(j): {"name": _too_long(FIELD_NAME)}}}, 0
        if len(value) > FIELD_VALUE:
            return {"fields": {str(j): {"value": _too_long(FIELD_VALUE)}}}, 0
        size += len(name) + len(value)
    return None, size


# -- components, modals and interaction callbacks ---------------------------------
#
# discord-api-docs ``components/reference.mdx`` and ``interactions/receiving-and-responding.mdx``:
# a message has at most 5 action rows; a row holds up to 5 buttons or one select; a
# custom_id is at most 100 characters; a string select has 1–25 options, each label,
# value and description at most 100, its placeholder at most 150. A modal (callback
# type 9) has a custom_id of at most 100, a title of at most 45 and 1–5 components;
# a label (type 18) text at most 45, description 100; a text input (type 4) value and
# max_length at most 4000, placeholder 100. Type 9 MODAL is not a valid answer to a
# modal submit, and 7 UPDATE_MESSAGE / 6 DEFERRED_UPDATE_MESSAGE need a message (a
# component, or a modal submitted from one). An interaction is answered once
# (40060 "Interaction has already been acknowledged").

ACTION_ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
SELECT_PLACEHOLDER = 150
MODAL_TITLE = 45
MODAL_COMPONENTS = 5
LABEL_TEXT = 45
LABEL_DESCRIPTION = 100
TEXT_INPUT = 4000
TEXT_PLACEHOLDER = 100
ALREADY_ACKNOWLEDGED = 40060


def components_problem(components: list[Any]) -> dict[str, Any] | None:
    """The ``errors`` tree for a message's components over Discord's limits, or ``None``."""
    if len(components) > ACTION_ROWS:
        return {"components": _too_long(ACTION_ROWS)}
    for i, row in enumerate(components):
        children = row.get("components") or [] if isinstance(row, dict) else []
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if len(children) > ROW_BUTTONS or (selects and len(children) > 1):
            return {"components": {str(i): {"components": _too_long(ROW_BUTTONS)}}}
        for j, child in enumerate(children):
            problem = _component(child)
            if problem:
                return {"components": {str(i): {"components": {str(j): problem}}}}
    return None


def _component(child: dict[str, Any]) -> dict[str, Any] | None:
    if len(str(child.get("custom_id") or "")) > CUSTOM_ID:
        return {"custom_id": _too_long(CUSTOM_ID)}
    if child.get("type") != 3:
        return None
    options = child.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS:
        return {"options": _too_long(SELECT_OPTIONS)}
    if len(str(child.get("placeholder") or "")) > SELECT_PLACEHOLDER:
        return {"placeholder": _too_long(SELECT_PLACEHOLDER)}
    for k, option in enumerate(options):
        for name in ("label", "value", "description"):
            if len(str(option.get(name) or "")) > OPTION_TEXT:
                return {"options": {str(k): {name: _too_long(OPTION_TEXT)}}}
    return None


def modal_problem(data: dict[str, Any]) -> dict[str, Any] | None:
    """The ``errors`` tree (under ``data``) for a modal over Discord's limits, or ``None``."""
    custom_id = str(data.get("custom_id") or "")
    if not 1 <= len(custom_id) <= CUSTOM_ID:
        return {"custom_id": _too_long(CUSTOM_ID)}
    if not 1 <= len(str(data.get("title") or "")) <= MODAL_TITLE:
        return {"title": _too_long(MODAL_TITLE)}
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS:
        return {"components": _too_long(MODAL_COMPONENTS)}
    for i, component in enumerate(components):
        problem = _modal_component(component)
        if problem:
            return {"components": {str(i): problem}}
    return None


def _modal_component(component: dict[str, Any]) -> dict[str, Any] | None:
    if component.get("type") == 18:
        if not 1 <= len(str(component.get("label") or "")) <= LABEL_TEXT:
            return {"label": _too_long(LABEL_TEXT)}
        if len(str(component.get("description") or "")) > LABEL_DESCRIPTION:
            return {"description": _too_long(LABEL_DESCRIPTION)}
        inner = component.get("component") or {}
        problem = _text_input(inner, labelled=True)
        return {"component": problem} if problem else None
    if component.get("type") == 1:
        for j, inner in enumerate(component.get("components") or []):
            problem = _text_input(inner, labelled=False)
            if problem:
                return {"components": {str(j): problem}}
        return None
    return {"type": {"_errors": [{"code": "UNION_TYPE_CHOICES", "message": "Invalid type"}]}}


def _text_input(item: dict[str, Any], *, labelled: bool) -> dict[str, Any] | None:
    if item.get("type") != 4:
        return None
    if not 1 <= len(str(item.get("custom_id") or "")) <= CUSTOM_ID:
        return {"custom_id": _too_long(CUSTOM_ID)}
    if not labelled and not 1 <= len(str(item.get("label") or "")) <= LABEL_TEXT:
        return {"label": _too_long(LABEL_TEXT)}
    if len(str(item.get("placeholder") or "")) > TEXT_PLACEHOLDER:
        return {"placeholder": _too_long(TEXT_PLACEHOLDER)}
    for name in ("min_length", "max_length"):
        value = item.get(name)
        if value is not None and not 0 <= value <= TEXT_INPUT:
            return {name: _too_long(TEXT_INPUT)}
    if len(str(item.get("value") or "")) > TEXT_INPUT:
        return {"value": _too_long(TEXT_INPUT)}
    return None


def callback_rejected(
    body: dict[str, Any], *, interaction: dict[str, Any], answered: bool
) -> Error | None:
    """Discord's answer to an interaction callback it refuses, or ``None``."""
    if answered:
        return 400, {
            "message": "Interaction has already been acknowledged.",
            "code": ALREADY_ACKNOWLEDGED,
        }
    kind, source = body.get("type"), interaction.get("type")
    data = body.get("data") or {}
    wrong_type = {
        "type": {
            "_errors": [
                {"code": "INTERACTION_CALLBACK_TYPE_INVALID", "message": "Invalid callback type"}
            ]
        }
    }
    if kind == 9:
        if source not in (2, 3):
            return _form(wrong_type, ())
        problem = modal_problem(data)
        return _form(problem, ("data",)) if problem else None
    if kind in (6, 7) and "message" not in interaction:
        return _form(wrong_type, ())
    if kind in (4, 7):
        problem = components_problem(data.get("components") or [])
        if problem:
            return _form(problem, ("data",))
    return None
