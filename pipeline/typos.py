"""Typos: a word of the question that no chunk has, one slip of the keyboard from one the
documents use ("retension", "certficate", "promethues").

Chat is typed fast. A misspelt word is a word no passage has: the full-text search cannot
find it and the evidence check counts it as a word the documents lack, so on the ten
development sets one typo in a question's rarest long word made the offline pipeline refuse
or miss half of the questions it answered right (cited right 85.9% → 47.8%). The documents'
own words say which word was meant: the one they use most that is one edit away (two letters
swapped, one dropped, doubled or mistyped), as long as no other is used as often.

A word the documents write as two words ("sidebar" where they write "side bar", "filesystem"
where they write "file system") is read as those words (:func:`apart`): it is no typo, but the
search and the evidence check miss it the same way.

Only what looks like a typo is read as one:

- a word in lower case of at least ``SHORTEST`` letters, outside code spans, paths, file
  names and links; a name the asker writes ("Sanic", ``my_field``) is theirs;
- that no chunk has, in any form;
- that the embedder does not know as a word either (``vocabulary``): "tenant" or "theme" is a
  real word the documents never use, and a question about it is about something they do not
  cover. Without the embedder's vocabulary nothing is read as a typo;
- whose first letter is the meant word's, as in most typos.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from pipeline.asked import readable
from pipeline.markup import code_blanked
from pipeline.words import inflected, replaced

__all__ = ["SHORTEST", "Speller", "apart", "respelled", "slip", "typos"]

#: the fewest letters of a word read as a typo: a shorter one is one edit from too many words
SHORTEST = 5
#: the fewest letters of each word a closed compound is read as (:func:`apart`)
PART = 3

# a word in lower case, not part of a name, a path, a file name, a mention or a link
_WORD = re.compile(r"(?<![\w`'\"./@#$:\\-])[a-z]+(?![\w`'\"/@\\-])(?!\.\w)")
# a consonant English doubles before -ed or -ing: one after a single vowel ("gzipped",
# "setting"), not after another consonant or two vowels ("holdding", "breakking" are typos)
_DOUBLED = re.compile(r"(?<=[^aeiou][aeiou])([bdgklmnprtv])\1(ed|ing)$")
# an autolink or a bare link, whose words are an address
_LINK = re.compile(r"<[^<>\s]+>|\S+://\S+")


@dataclass(frozen=True, slots=True)
class Speller:
    """The documents' words by first letter and length, and how many chunks write each."""

    words: Mapping[tuple[str, int], list[str]]
    uses: Mapping[str, int]

    @classmethod
    def of(cls, uses: Mapping[str, int]) -> Speller:
        """From each word as written (lower case) and the number of chunks that have it."""
        words: defaultdict[tuple[str, int], list[str]] = defaultdict(list)
        kept = {w: n for w, n in uses.items() if w.isalpha() and w.isascii()}
        for word in sorted(kept):
            words[word[0], len(word)].append(word)
        return cls(dict(words), kept)

    def meant(self, typed: str, vocabulary: Collection[str]) -> str | None:
        """The word ``typed`` stands for: one edit from it, or from another form of it (the
        documents write "expires", the asker "exipre"), in the form typed, and of such words
        the one whose form the documents write most. The word must be, or inflect, one of the
        embedder's ``vocabulary``, or be written by more than one chunk: documentation has
        typos too ("beginer"), and a form put back may be no word ("cloes" is not "clos",
        "closed" - ed). None when there is none, or two are written as often (no way to
        tell which was meant)."""
        uses: dict[str, int] = {}
        for variant, form in _variants(typed):
            if uses and variant != typed:
                # a word one slip from the form typed is what was meant ("runbing" is
                # "running", not "run" + ing): another form is read only when none is
                break
            for written in self._near(variant):
                word = form(written)
                if word is None or word == typed:
                    continue
                if self.uses.get(word, 0) > 1 or readable(
                    word, vocabulary, prefixed=False, derived=False
                ):
                    uses[word] = max(uses.get(word, 0), self.uses[written])
        ranked = sorted(uses.items(), key=lambda item: -item[1])
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    def _near(self, typed: str) -> list[str]:
        """The documents' words that ``typed`` slips for (:func:`slip`)."""
        near = [
            word
            for length in (len(typed) - 1, len(typed), len(typed) + 1)
            for word in self.words.get((typed[0], length), ())
        ]
        found = process.extract(typed, near, scorer=OSA.distance, score_cutoff=1, limit=None)
        return [word for word, _, _ in found if word != typed and slip(typed, word)]


_ENDINGS = ("s", "es", "ed", "ing", "ly", "er")


def _variants(typed: str) -> list[tuple[str, Callable[[str], str | None]]]:
    """``typed`` and its other forms, each with how to put a word of that form back into the
    form typed: "imagges" is also "imagge" (+s), and "exipre" is also "exipres" (-s)."""
    variants: list[tuple[str, Callable[[str], str | None]]] = [(typed, _same)]
    for ending in _ENDINGS:
        if typed.endswith(ending) and len(typed) - len(ending) >= SHORTEST - 1:
            variants.append((typed[: -len(ending)], functools.partial(inflected, ending=ending)))
        variants.append((typed + ending, functools.partial(_unended, ending)))
    return variants


def _same(word: str) -> str:
    return word


def _unended(ending: str, word: str) -> str | None:
    return word[: -len(ending)] if word.endswith(ending) else None


def slip(typed: str, meant: str) -> bool:
    """Whether ``typed`` is ``meant`` (one edit away) as fingers slip or the ear spells: two
    letters swapped, one dropped, one hit on a key next to the right one or the one before or
    after it, or one that sounds alike ("seperate", "dependancy", "retension"). "commute" is
    not ``compute`` misspelt: m and p are far apart and sound nothing alike."""
    if len(typed) < len(meant):
        return True
    at = next((i for i, (a, b) in enumerate(zip(typed, meant, strict=False)) if a != b), len(meant))
    if len(typed) > len(meant):
        # an extra letter: a key pressed twice, or pressed with its neighbour
        return any(
            _beside(typed[at], n) for n in typed[max(at - 1, 0) : at] + typed[at + 1 : at + 2]
        )
    if typed[at + 1 :] == meant[at + 1 :]:
        return _beside(typed[at], meant[at]) or any(
            typed[at] in same and meant[at] in same for same in _ALIKE
        )
    return (
        typed[at] == meant[at + 1]
        and typed[at + 1] == meant[at]
        and typed[at + 2 :] == meant[at + 2 :]
    )


_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
# letters spelt for one another: vowels, a soft or hard c, and "-sion" for "-tion"
_ALIKE = ("aeiou", "cksz", "st")
# each row sits half a key right of the one above: "s" touches "w" and "e"
_KEYS = {
    key: (row, col + row / 2) for row, keys in enumerate(_ROWS) for col, key in enumerate(keys)
}


def _beside(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` or a key next to it on a QWERTY keyboard."""
    if a == b:
        return True
    if a not in _KEYS or b not in _KEYS:
        return False
    (row_a, col_a), (row_b, col_b) = _KEYS[a], _KEYS[b]
    return abs(row_a - row_b) <= 1 and abs(col_a - col_b) <= 1


def typos(
    text: str, speller: Speller, known: Callable[[str], bool], vocabulary: Collection[str] | None
) -> dict[str, str]:
    """Each word of ``text`` read as a typo, mapped to the word the documents write that was
    meant. ``known``: whether some chunk has the word in any form; ``vocabulary``: the
    embedder's whole words (None: unknown, and nothing is read as a typo)."""
    if vocabulary is None:
        return {}
    found: dict[str, str] = {}
    for match in _words(text):
        word = match[0]
        if len(word) < SHORTEST or word in found or known(word):
            continue
        undoubled = _DOUBLED.sub(r"\1\2", word)
        if undoubled != word and known(undoubled):
            # "gzipped" where the documents write "gzip": English doubles the consonant
            continue
        if readable(word, vocabulary, prefixed=False):
            continue
        meant = speller.meant(word, vocabulary)
        if meant is not None:
            found[word] = meant
    return found


def apart(
    text: str, known: Callable[[str], bool], written_apart: Callable[[str, str], bool]
) -> dict[str, str]:
    """Each word of ``text`` that no chunk has (``known``) and the documents write as two
    words in a row (``written_apart``), mapped to those words: "sidebar" → "side bar". Each
    part has ``PART`` letters or more, so that "rebuild" is not "re build"."""
    found: dict[str, str] = {}
    for match in _words(text):
        word = match[0]
        if word in found or known(word):
            continue
        for at in range(PART, len(word) - PART + 1):
            first, second = word[:at], word[at:]
            if known(first) and known(second) and written_apart(first, second):
                found[word] = f"{first} {second}"
                break
    return found


def respelled(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each typo of ``words`` (:func:`typos`) replaced by the word meant, where
    :func:`typos` reads words (not in a code span or a link)."""
    return replaced(text, _words(text), words) if words else text


def _words(text: str) -> Iterator[re.Match[str]]:
    """The words of ``text`` that may be typos, where they are; code spans and links are
    blanked out first, keeping every other word where it is."""
    return _WORD.finditer(_LINK.sub(lambda m: " " * len(m[0]), code_blanked(text)))
