"""Small text helpers for Slack's message format."""

from __future__ import annotations

import re

_USER_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_SPACES = re.compile(r"[ \t]{2,}")


def mentions(text: str, user_id: str | None) -> bool:
    return bool(user_id) and any(m.group(1) == user_id for m in _USER_MENTION.finditer(text))


def strip_mention(text: str, user_id: str | None) -> str:
    """The question without the bot's own ``<@U…>``; other mentions stay as they are."""
    if not user_id:
        return text.strip()
    stripped = _USER_MENTION.sub(lambda m: "" if m.group(1) == user_id else m.group(0), text)
    return _SPACES.sub(" ", stripped).strip()


def approx_tokens(text: str) -> int:
    # ~4 characters per token for English prose; exact counts would need the model's tokenizer
    return len(text) // 4 + 1


_BROADCAST = re.compile(r"<!([^>]*)>")
_AT_BROADCAST = re.compile(r"@(?=(?:channel|here|everyone)\b)", re.IGNORECASE)


def quiet(text: str) -> str:
    """A person's text, safe to repeat: ``<!here>``, ``<!subteam^…>`` and ``@channel`` lose their ping."""
    text = _BROADCAST.sub(lambda m: "@\u2060" + m.group(1).split("|")[-1].lstrip("@"), text)
    return _AT_BROADCAST.sub("@\u2060", text)
