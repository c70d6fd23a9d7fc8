"""Sentences and knowledge strips: the small text cuts the pipeline needs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# A sentence ends at . ! ? or their CJK forms, before whitespace or at a CJK stop.
_SENTENCE_END = re.compile(
    r"(?<=[.!?…])[\"')\]]*\s+|(?<=[。！？])|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)]|#+)\s)"
)
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|Dr|Mr|Mrs|Ms|No|Fig|approx)|\b[A-Z])\.$")


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a text with its character offsets in that text."""

    text: str
    start: int
    end: int


def sentences(text: str) -> list[Span]:
    """Split into sentences, keeping offsets; abbreviations do not end a sentence."""
    spans: list[Span] = []
    start = 0
    pending = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.start()
        if _ABBREVIATION.search(text[pending:end]) and "\n" not in match.group():
            continue
        spans.extend(_span(text, start, end))
        start = pending = match.end()
    spans.extend(_span(text, start, len(text)))
    return spans


def _span(text: str, start: int, end: int) -> Iterator[Span]:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        lead = len(piece) - len(piece.lstrip())
        yield Span(stripped, start + lead, start + lead + len(stripped))


def strips(text: str, *, max_chars: int = 400) -> list[Span]:
    """Cut a page into knowledge strips: runs of whole sentences within ``max_chars``.

    A sentence longer than the budget becomes a strip of its own, so no strip
    ever cuts a sentence (a cut sentence could not be quoted faithfully).
    """
    out: list[Span] = []
    current: list[Span] = []
    for sentence in sentences(text):
        if current and sentence.end - current[0].start > max_chars:
            out.append(_join(text, current))
            current = []
        current.append(sentence)
    if current:
        out.append(_join(text, current))
    return out


def _join(text: str, run: list[Span]) -> Span:
    start, end = run[0].start, run[-1].end
    return Span(text[start:end], start, end)


def is_prose(sentence: str) -> bool:
    """Worth quoting in an answer: not a bare heading, list bullet or code line."""
    words = sentence.split()
    if len(words) < 4:
        return False
    if sentence.lstrip().startswith(("#", "```", "|", "<")):
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    return letters >= len(sentence) * 0.5
