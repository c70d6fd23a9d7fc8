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
