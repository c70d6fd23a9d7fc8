"""Knowledge strips and prose: the small text cuts the pipeline needs."""

from __future__ import annotations

import re

from citations.sentences import Span, pack

#: a fenced code block, to its closing fence (group ``close``) or, when the text ends
#: inside it (a chunk cut in the middle of a block), to the end of the text
FENCED = re.compile(
    r"^[ \t]*(?P<fence>```|~~~).*?(?:(?P<close>^[ \t]*(?P=fence)[ \t]*$)|\Z)", re.M | re.S
)


def strips(text: str, *, max_chars: int = 400) -> list[Span]:
    """Cut a page into knowledge strips: runs of whole sentences within ``max_chars``.

    A sentence longer than the budget becomes a strip of its own, so no strip
    ever cuts a sentence (a cut sentence could not be quoted faithfully).
    """
    return pack(text, max_chars)


def is_prose(sentence: str) -> bool:
    """Worth quoting in an answer: not a bare heading, list bullet or code line."""
    words = sentence.split()
    if len(words) < 4:
        return False
    if sentence.lstrip().startswith(("#", "```", "|", "<")):
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    return letters >= len(sentence) * 0.5
