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


#: a person, a user group or a broadcast: ``<@U…>``, ``<@U…|name>``, ``<!subteam^S…|@team>``,
#: ``<!here>``
_ADDRESS = re.compile(r"<[@!][^<>]*>")
_CHANNEL = re.compile(r"<#[CG][A-Z0-9]+(?:\|(?P<name>[^<>]*))?>")
#: a link as Slack sends it: the URL, then what the person typed when it differs
_LINK = re.compile(r"<(?P<url>(?:https?|mailto|ftp|tel):[^<>|]*)(?:\|(?P<label>[^<>]*))?>")


def question_text(text: str, user_id: str | None) -> str:
    """What a person asked, as they typed it: Slack's message format read back to plain text.

    Who is addressed is no part of the question ("<@U024BE7LH> can you check: …", "cc
    <@U…>"): a user id is a name no document has, so it would leave every passage short of it.
    A link is the text the person typed (Slack sends ``<https://…|what they typed>``), a
    channel its ``#name``, and ``&lt;``, ``&gt;`` and ``&amp;`` the characters they stand for
    (`Slack's formatting reference <https://docs.slack.dev/messaging/formatting-message-text>`_).
    """
    text = _ADDRESS.sub(" ", strip_mention(text, user_id))
    text = _CHANNEL.sub(lambda m: f"#{m['name']}" if m["name"] else " ", text)
    text = _LINK.sub(lambda m: m["label"] or m["url"], text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return _SPACES.sub(" ", text).strip()


def approx_tokens(text: str) -> int:
    # ~4 characters per token for English prose; exact counts would need the model's tokenizer
    return len(text) // 4 + 1


_BROADCAST = re.compile(r"<!([^>]*)>")
_AT_BROADCAST = re.compile(r"@(?=(?:channel|here|everyone)\b)", re.IGNORECASE)


def quiet(text: str) -> str:
    """A person's text, safe to repeat: ``<!here>``, ``<!subteam^…>`` and ``@channel`` lose their ping."""
    text = _BROADCAST.sub(lambda m: "@\u2060" + m.group(1).split("|")[-1].lstrip("@"), text)
    return _AT_BROADCAST.sub("@\u2060", text)
