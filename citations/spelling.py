"""One spelling for words whose regular ending British and American English write apart.

Documentation and askers spell alike words differently ("optimisation", "optimization";
"behaviour", "behavior"; "catalogue", "catalog"). Whatever compares words (the full-text
index and its query, the evidence check's stems) folds both sides with these rules, so
either spelling finds the other. They are the regular endings that differ, not a list of
words: a word that only looks British ("promise" -> "promize") is folded on both sides
alike, so it still matches itself. Readers and the embedder see words as written.
"""

from __future__ import annotations

import functools
import re

__all__ = ["SPELLING_RULES", "american", "folded_spelling", "spelling_variants"]

#: the version of these rules: what a store indexes depends on them, so a change must
#: re-ingest every document (it is part of the ingest fingerprint)
SPELLING_RULES = 2

# each: the ending one spelling writes, after a stem long enough that "rise", "your",
# "acre" and "genre" stay, and how the other spelling writes it
_RULES = (
    # optimise, optimised, optimising, optimisation(s), optimiser, recognisable: -ize
    (re.compile(r"(?<=[a-z]{3})is(?=(?:e|es|ed|ing|er|ers|ation|ations|able)$)"), "iz"),
    # analyse, analysed, analysing: -yze
    (re.compile(r"(?<=[a-z]{2})ys(?=(?:e|es|ed|ing|er|ers)$)"), "yz"),
    # behaviour, colours, favourite, behavioural: -or
    (re.compile(r"(?<=[a-z]{3})our(?=(?:s|ed|ing|ite|ites|able|ful|al|ally)?$)"), "or"),
    # centre, metres, fibre: -er
    (re.compile(r"(?<=[a-z]{2})([bt])re(?=[sd]?$)"), r"\1er"),
    # catalogue, dialogues: -og
    (re.compile(r"(?<=[a-z]{3})ogue(?=s?$)"), "og"),
    # licence, defence, offence: -ense ("sentence" and "reference" are not of this kind)
    (re.compile(r"(?<=[a-z]{2}[cf])ence(?=[sd]?$)"), "ense"),
)
_WORD = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=50_000)
def american(word: str) -> str:
    """``word`` (lower-case) with its regular British ending written the American way."""
    for pattern, replacement in _RULES:
        word = pattern.sub(replacement, word)
    return word


def _folded_word(match: re.Match[str]) -> str:
    word = match.group(0)
    lower = word.lower()
    folded = american(lower)
    if folded == lower:
        return word
    if word.isupper():
        return folded.upper()
    # only the ending changes: the stem keeps the case it was written in
    kept = next(
        (i for i, (a, b) in enumerate(zip(lower, folded, strict=False)) if a != b), len(folded)
    )
    return word[:kept] + folded[kept:]


def folded_spelling(text: str) -> str:
    """``text`` with each word's regular British or American ending written one way."""
    return _WORD.sub(_folded_word, text)


def spelling_variants(text: str) -> list[str]:
    """The folded form of each word of ``text`` that folding changes, each once: for an
    index that reads the text as written and these terms beside it (Weaviate's)."""
    found: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        folded = american(word)
        if folded != word:
            found[folded] = None
    return list(found)
