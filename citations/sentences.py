"""Sentences, and runs of them within a size budget, with their offsets in the text."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["PROSE", "Boundaries", "Span", "pack", "sentences"]


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a text with its character offsets in that text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Boundaries:
    """Where a sentence ends: ``end`` matches the gap after it, unless the sentence
    so far matches ``not_after`` (an abbreviation) and the gap holds no line break."""

    end: re.Pattern[str]
    not_after: re.Pattern[str] | None = None


# A sentence ends at . ! ? or their CJK forms, before whitespace or at a CJK stop;
# also at a blank line or before a list item or heading. Closing quotes and
# brackets after the stop belong to the sentence (group "close"), French » too.
_CLOSERS = re.escape("\"')]}’”»›」』〉》")
PROSE = Boundaries(
    re.compile(
        rf"(?<=[.!?…])(?P<close>[{_CLOSERS}]*(?:[ \u00a0\u202f][»›])?)\s+|(?<=[。！？])(?P<cjk>[{_CLOSERS}]*)"
        r"|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)]|#+)\s)"
    ),
    re.compile(
        r"(?:\b(?:e\.g|i\.e|a\.m|p\.m|A\.M|P\.M|etc|vs|cf|al|ca|approx|incl|esp|resp|dept|est"
        r"|[Ff]ig|[Ff]igs|[Ee]q|[Vv]ol|[Nn]o|[Nn]os|pp|[Cc]h|[Ss]ec|Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St"
        r"|Mt|Rev|Gen|Col|Lt|Sgt|Capt|Gov|Sen|Rep|Inc|Ltd|Co|Corp|Jan|Feb|Mar|Apr|Jun|Jul|Aug"
        r"|Sep|Sept|Oct|Nov|Dec)|\b[A-Z])\.$"
    ),
)


def sentences(text: str, boundaries: Boundaries = PROSE) -> list[Span]:
    """Split into sentences, whitespace trimmed, keeping offsets."""
    spans: list[Span] = []
    start = 0
    for match in boundaries.end.finditer(text):
        end = match.start()
        if (
            boundaries.not_after is not None
            and boundaries.not_after.search(text[start:end])
            and "\n" not in match.group()
        ):
            continue
        end += len(_closing(match))
        spans.extend(_trimmed(text, start, end))
        start = match.end()
    spans.extend(_trimmed(text, start, len(text)))
    return spans


def _closing(match: re.Match[str]) -> str:
    """The closing quotes and brackets a boundary match kept for its sentence."""
    groups = match.groupdict()
    return groups.get("close") or groups.get("cjk") or ""


def pack(
    text: str,
    max_chars: int,
    *,
    cut: bool = False,
    overlap: int = 0,
    boundaries: Boundaries = PROSE,
) -> list[Span]:
    """Runs of whole sentences, each at most ``max_chars`` long.

    A sentence over the budget is cut when ``cut`` is set (at the last line break in the
    second half of the budget, or else at the last space that fits), and otherwise becomes
    a run of its own (longer than the budget), for text that must be quoted as it stands.
    ``overlap`` repeats that many trailing sentences at the start of the next run.
    """
    parts = sentences(text, boundaries)
    if cut:
        parts = [piece for part in parts for piece in _cut(text, part, max_chars)]
    runs: list[Span] = []
    first = 0
    while first < len(parts):
        last = first
        while last + 1 < len(parts) and parts[last + 1].end - parts[first].start <= max_chars:
            last += 1
        runs.append(_join(text, parts[first : last + 1]))
        if last + 1 >= len(parts):
            break
        # Overlap repeats trailing sentences but must always move forward.
        first = max(first + 1, last + 1 - overlap)
    return runs


def _trimmed(text: str, start: int, end: int) -> Iterator[Span]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield Span(text[start:end], start, end)


def _cut(text: str, sentence: Span, max_chars: int) -> Iterator[Span]:
    start, end = sentence.start, sentence.end
    while end - start > max_chars:
        # a line break in the second half of the budget first: a code block cut at a space
        # splits one of its lines in two, which no reader can join back
        cut = text.rfind("\n", start + max_chars // 2, start + max_chars)
        if cut <= start:
            cut = text.rfind(" ", start + 1, start + max_chars)
        if cut <= start:
            cut = start + max_chars
        yield from _trimmed(text, start, cut)
        start = cut
    yield from _trimmed(text, start, end)


def _join(text: str, run: Sequence[Span]) -> Span:
    start, end = run[0].start, run[-1].end
    return Span(text[start:end], start, end)
