"""Condensing a follow-up without an LLM: the new question's own words, then the thread's topic.

Prepending the whole previous question lets the old question outweigh the new one,
so "and how do I undo it?" retrieves the answer that was just given. Instead the
follow-up keeps its own words first and gains only the previous question's content
words (the topic). A follow-up that asks to undo what the thread did names the
opposite action ("disables the endpoint" → "enable"), which is what the section
that undoes it says; "undo" itself is rarely written in documentation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.question import Turn
from pipeline.words import STOP, stem, written_as_names

_WORD = re.compile(r"[^\W_][\w.-]*[^\W_]|[^\W_]")
_MARKER = re.compile(r"\[\d+\]")
_UNDO = re.compile(r"\b(?:undo|revert|reverse|roll\s*back|rollback|take\s+back)\b", re.I)

#: actions and what undoes them, keyed by stem (pipeline.words.stem)
_OPPOSITES: dict[str, tuple[str, ...]] = {
    stem(verb): opposite
    for verb, opposite in (
        ("create", ("revoke", "delete")),
        ("add", ("remove",)),
        ("enable", ("disable",)),
        ("disable", ("enable",)),
        ("install", ("uninstall",)),
        ("deploy", ("rollback", "roll back")),
        ("publish", ("unpublish",)),
        ("subscribe", ("unsubscribe",)),
        ("lock", ("unlock",)),
        ("block", ("unblock",)),
        ("archive", ("unarchive", "restore")),
        ("delete", ("restore",)),
        ("remove", ("restore",)),
        ("pause", ("resume",)),
        ("suspend", ("resume",)),
        ("mute", ("unmute",)),
        ("revoke", ("restore",)),
        ("ban", ("unban",)),
        ("hide", ("unhide",)),
        ("pin", ("unpin",)),
        ("merge", ("revert",)),
        ("migrate", ("downgrade",)),
        ("upgrade", ("downgrade",)),
        ("set", ("unset", "delete")),
    )
}

#: how many of the previous question's words keep the topic; more drown the new question
TOPIC_WORDS = 5
NAMED_WORDS = 3
_CODE_SPAN = re.compile(r"`[^`\n]+`")


def condense_offline(text: str, history: Sequence[Turn]) -> str:
    """``text`` as a standalone query, given the thread so far (oldest turn first)."""
    users = [t.text for t in history if t.role == "user" and t.text.strip()]
    if not users:
        return text
    question = text
    if _UNDO.search(text):
        last_answer = next((t.text for t in reversed(history) if t.role == "assistant"), "")
        # what the asker asked to do counts before what the answer says happened
        opposites = _opposites(users[-1]) or _opposites(_MARKER.sub(" ", last_answer))
        if opposites:
            question = _UNDO.sub(" ".join(opposites), text, count=1)
    own = {stem(w) for w in _WORD.findall(question.lower())}
    topic: list[str] = []
    for word in _WORD.findall(users[-1]):
        key = stem(word.lower())
        if word.lower() in STOP or key in own or len(word) < 2 or key in _OPPOSITES:
            continue
        own.add(key)
        topic.append(word)
    last_answer = next((t.text for t in reversed(history) if t.role == "assistant"), "")
    named = _named(_MARKER.sub(" ", last_answer), own)
    return " ".join([question.strip(), *topic[:TOPIC_WORDS], *named[:NAMED_WORDS]])


def _named(answer: str, own: set[str]) -> list[str]:
    """The names the answer wrote that the thread's words don't have: what "it" most often
    refers to when the asker never named it ("Give the table a TTL" → "switch it off")."""
    spans = [s.strip("`") for s in _CODE_SPAN.findall(answer)]
    words = written_as_names(answer) + [s for s in spans if _WORD.fullmatch(s)]
    found: list[str] = []
    for word in words:
        key = stem(word.lower())
        if key in own or word.lower() in STOP or any(c.isdigit() for c in word):
            continue
        own.add(key)
        found.append(word)
    return found


def _opposites(text: str) -> list[str]:
    found: list[str] = []
    for word in _WORD.findall(text.lower()):
        for opposite in _OPPOSITES.get(stem(word), ()):
            if opposite not in found:
                found.append(opposite)
    return found
