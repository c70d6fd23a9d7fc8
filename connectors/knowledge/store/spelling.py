"""One spelling for the full-text index, whichever side of the Atlantic wrote the word.

Documentation and askers spell alike words differently ("optimisation",
"optimization"; "behaviour", "behavior"; "catalogue", "catalog"), and the index's
stemmer keeps them apart ("optimis", "optim"). Stores fold the text they index and
the question they search with the same rules, so either spelling finds the other.
The rules are the regular endings that differ, not a list of words: a word that only
looks like one ("promise" → "promize") is folded on both sides alike, so it still
matches itself. Only the full-text index reads the folded text; the embedder and the
reader see the words as written.
"""

from __future__ import annotations

import functools
import re

__all__ = ["SPELLING_RULES", "folded_spelling", "spelling_variants"]

#: the version of these rules: what a store indexes depends on them, so a change must
#: re-ingest every document (it is part of the ingest fingerprint)
SPELLING_RULES = 1

# each: a word ending as one spelling writes it (after a stem of at least three letters,
# so "rise", "your" and "acre" stay), and how the other spelling writes that ending
_RULES = (
    # optimise, optimised, optimising, optimisation(s), optimiser: -ize
    (re.compile(r"(?i)\b([a-z]{3,})is(e|es|ed|ing|er|ers|ation|ations|able)\b"), r"\1iz\2"),
    # analyse, analysed, analysing: -yze
    (re.compile(r"(?i)\b([a-z]{2,})ys(e|es|ed|ing|er|ers)\b"), r"\1yz\2"),
    # behaviour, colours, favourite: -or
    (re.compile(r"(?i)\b([a-z]{3,})our(s|ed|ing|ite|ites|able|ful)?\b"), r"\1or\2"),
    # centre, metres, fibre: -er
    (re.compile(r"(?i)\b([a-z]{2,}[bt])re(s|d)?\b"), r"\1er\2"),
    # catalogue, dialogues: -og
    (re.compile(r"(?i)\b([a-z]{3,})ogue(s)?\b"), r"\1og\2"),
    # licence, defence, offence: -ense ("sentence" and "reference" are not of this kind)
    (re.compile(r"(?i)\b([a-z]{2,}[cf])ence(s|d)?\b"), r"\1ense\2"),
)


def folded_spelling(text: str) -> str:
    """``text`` with each regular British or American ending written one way."""
    folded = text
    for pattern, replacement in _RULES:
        folded = pattern.sub(functools.partial(_as_cased, replacement), folded)
    return folded


def _as_cased(replacement: str, match: re.Match[str]) -> str:
    """The replacement in upper case when the word is ("BEHAVIOUR" → "BEHAVIOR")."""
    word = match.expand(replacement)
    return word.upper() if match.group(0).isupper() else word


def spelling_variants(text: str) -> list[str]:
    """The folded form of each word of ``text`` that folding changes, each once: for an
    index that reads the text as written and these terms beside it (Weaviate's)."""
    found: dict[str, None] = {}
    for word in re.findall(r"[a-z]+", text.lower()):
        folded = folded_spelling(word)
        if folded != word:
            found[folded] = None
    return list(found)
