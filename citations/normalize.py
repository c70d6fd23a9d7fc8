"""Text normalisation for matching quotes against sources, with offset maps.

Both sides are compared after NFKC, casefolding, folding every run of
whitespace to one space, and writing curly quotes as straight ones and every
dash as ``-``. ``normalize_map`` also returns, for every output character, the
index of the input character it came from, so a match in normalised text
points back at exact offsets in the original.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_QUOTES = "‘’‚‛′‵ʹʼˈ＇`´"
_DQUOTES = "“”„‟″‶«»「」『』〝〞〟＂"
_DASHES = "‐‑‒–—―−⁃﹘﹣－᠆"
_DROP = "\u00ad\u200b\u200c\u200d\u2060\ufeff"

_FOLD = str.maketrans(
    {
        **{c: "'" for c in _QUOTES},
        **{c: '"' for c in _DQUOTES},
        **{c: "-" for c in _DASHES},
        **{c: None for c in _DROP},
    }
)
_SPACES = re.compile(r"\s+")

# The same folds, one character for one, so positions in the coarse text are
# positions in the source.
_COARSE = str.maketrans(
    {
        **{c: "'" for c in _QUOTES},
        **{c: '"' for c in _DQUOTES},
        **{c: "-" for c in _DASHES},
        **{c: " " for c in "\t\n\r\f\v\u00a0\u2028\u2029\u3000"},
    }
)


def fold(text: str, *, casefold: bool = True) -> str:
    """Normalise ``text`` as a whole (no offset map)."""
    text = unicodedata.normalize("NFKC", text)
    if casefold:
        text = text.casefold()
    return _SPACES.sub(" ", text.translate(_FOLD)).strip()


@lru_cache(maxsize=8)
def coarse(text: str) -> str:
    """A fast whole-text fold for finding where a quote may be (C speed, no map):
    NFKC, lower case, and ``fold``'s quotes, dashes and spaces without joining
    runs of spaces."""
    return unicodedata.normalize("NFKC", text).lower().translate(_COARSE)


def normalize_map(text: str, *, casefold: bool = True) -> tuple[str, list[int]]:
    """Normalise ``text`` and map every output character to its input index."""
    if text.isascii():
        return _normalize_ascii(text, casefold)
    out: list[str] = []
    index: list[int] = []
    space = True  # drop leading whitespace
    for i, char in enumerate(text):
        if char.isascii():
            if char.isspace():
                if not space:
                    out.append(" ")
                    index.append(i)
                    space = True
                continue
            piece = char.lower() if casefold else char
            if piece == "`":
                piece = "'"
        else:
            piece = unicodedata.normalize("NFKC", char)
            if casefold:
                piece = piece.casefold()
            piece = piece.translate(_FOLD)
        for c in piece:
            if c.isspace():
                if not space:
                    out.append(" ")
                    index.append(i)
                    space = True
                continue
            out.append(c)
            index.append(i)
            space = False
    if out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


_WORDS = re.compile(r"\S+")


def _normalize_ascii(text: str, casefold: bool) -> tuple[str, list[int]]:
    # ASCII needs no NFKC and lowercases one to one: only whitespace folds.
    parts: list[str] = []
    index: list[int] = []
    for m in _WORDS.finditer(text):
        start, end = m.span()
        if parts:
            parts.append(" ")
            index.append(start - 1)
        parts.append(m.group())
        index.extend(range(start, end))
    out = "".join(parts).replace("`", "'")
    return (out.lower() if casefold else out), index


@lru_cache(maxsize=32)
def normalize_map_cached(text: str) -> tuple[str, tuple[int, ...]]:
    """``normalize_map`` for texts that are matched against many times."""
    normalized, index = normalize_map(text)
    return normalized, tuple(index)
