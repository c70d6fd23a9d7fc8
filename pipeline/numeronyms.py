"""Numeronyms ("k8s", "i18n", "a11y"): chat writes them, documentation spells the word out.

A numeronym keeps a word's first and last letters and counts the letters between, so the
knowledge base's own vocabulary says which word it stands for: "k8s" is the word of ten
letters from k to s that the documents write most. Left as written, it is a name no passage
has, and the evidence check refuses every question that uses it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

#: a letter, a count of at least three, a letter: short counts ("e2e", "p2p", "b2b") name
#: no single word
_NUMERONYM = re.compile(r"(?<![\w.-])([a-z])([3-9]|[1-9]\d)([a-z])(?![\w-])", re.I)

#: how often the documents must write the word a numeronym stands for
LEAST_USES = 2


def spelled_out(text: str, words: str) -> dict[str, str]:
    """Each numeronym in ``text`` that ``words`` (the documents' words, lower-case, one space
    apart) spells out, mapped to the word it stands for; a count the documents never fill
    stays as written."""
    found: dict[str, str] = {}
    for match in _NUMERONYM.finditer(text):
        first, count, last = match[1].lower(), int(match[2]), match[3].lower()
        pattern = re.compile(rf"(?<= ){first}[a-z]{{{count}}}{last}(?= )")
        uses = Counter(pattern.findall(words)).most_common(1)
        if uses and uses[0][1] >= LEAST_USES:
            found[match[0]] = uses[0][0]
    return found


def written(text: str) -> bool:
    """Whether ``text`` writes a numeronym."""
    return _NUMERONYM.search(text) is not None


def spell_out(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each numeronym of ``words`` (:func:`spelled_out`) replaced by its word."""
    return _NUMERONYM.sub(lambda m: words.get(m[0], m[0]), text)
