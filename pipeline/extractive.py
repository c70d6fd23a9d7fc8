"""The offline answerer: the most relevant sentences of the relevant sources, each cited.

It never writes a word the sources do not contain, so its answers are grounded
by construction; it is also the fallback whenever the LLM is down.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from citations.model import Source
from citations.sentences import sentences
from pipeline.evidence import Lexicon, evidence, question_terms, split_code
from pipeline.graders import EmbeddingGrader
from pipeline.text import is_prose

# A list item with its indented continuation lines; the bullet is not part of the text.
_ITEM = re.compile(
    r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+(?P<body>\S.*(?:\n(?![ \t]*(?:[*+-]|\d+[.)])[ \t])[ \t]+\S.*)*)",
    re.M,
)

#: how much a sentence's share of the question's (IDF-weighted) terms adds to its score
COVERAGE_WEIGHT = 0.5

NOT_FOUND = "I couldn't find this in the knowledge base."
NOT_FOUND_ANYWHERE = "I couldn't find this in the knowledge base or on the web."


@dataclass(frozen=True, slots=True)
class Pick:
    source_rank: int
    start: int
    text: str
    source_id: int
    score: float


async def extract(
    question: str,
    sources: Sequence[Source],
    grader: EmbeddingGrader,
    *,
    limit: int = 3,
    floor: float = 0.3,
    lexicon: Lexicon | None = None,
) -> tuple[str, list[Pick]]:
    """Answer text with ``[id]`` after every sentence, and the sentences picked.

    ``sources`` come best first. Only sentences that grade at least ``floor``
    are used; with none, the answer is empty (nothing relevant). Picks are shown
    in source order, then in reading order, so that they read as written.
    """
    candidates: list[Pick] = []
    seen: set[str] = set()
    for rank, source in enumerate(sources):
        # code and API listings may support an answer but are never quoted as prose
        prose = split_code(source.text).prose
        for start, text in _units(source.text):
            key = " ".join(text.casefold().split())
            if key in seen or not is_prose(text) or text.strip() not in prose:
                continue
            seen.add(key)
            candidates.append(Pick(rank, start, text, source.id, 0.0))
    if not candidates:
        return "", []
    scores = await grader.sentence_scores(question, [c.text for c in candidates])
    if lexicon is not None:
        # by how much of the question a sentence answers, not by similarity alone
        wanted = question_terms(question)
        scores = [
            s + COVERAGE_WEIGHT * evidence(wanted, c.text, lexicon).coverage
            for s, c in zip(scores, candidates, strict=True)
        ]
    ranked = sorted(
        (
            Pick(c.source_rank, c.start, c.text, c.source_id, s)
            for c, s in zip(candidates, scores, strict=True)
        ),
        key=lambda p: -p.score,
    )
    chosen = _with_continuation(ranked, limit=limit, floor=floor)
    chosen.sort(key=lambda p: (p.source_rank, p.start))
    return _cited(chosen), chosen


def _units(text: str) -> Iterator[tuple[int, str]]:
    """Sentences, except that a list item is one unit however many sentences it has."""
    items = [(m.start(), m.start("body"), m.end("body")) for m in _ITEM.finditer(text)]
    for _, start, end in items:
        yield start, text[start:end]
    for span in sentences(text):
        if not any(line <= span.start < end for line, _, end in items):
            yield span.start, span.text


def _cited(picks: Sequence[Pick]) -> str:
    """The picks in order, one marker after each run of adjacent sentences of one source."""
    parts: list[str] = []
    for i, pick in enumerate(picks):
        parts.append(_flat(pick.text))
        after = picks[i + 1] if i + 1 < len(picks) else None
        if after is None or not _adjacent(pick, after):
            parts.append(f"[{pick.source_id}]")
    return " ".join(parts)


def _adjacent(first: Pick, second: Pick) -> bool:
    return (
        first.source_id == second.source_id
        and first.source_rank == second.source_rank
        and 0 <= second.start - (first.start + len(first.text)) <= 2
    )


def _with_continuation(ranked: list[Pick], *, limit: int, floor: float) -> list[Pick]:
    """The best sentence, the relevant sentences that directly follow it, then the next best.

    A best sentence often announces what follows ("… in three steps."); the
    sentences after it carry the substance but score lower on their own.
    """
    if not ranked or ranked[0].score < floor:
        return []
    best = ranked[0]
    following = sorted(
        (p for p in ranked if p.source_rank == best.source_rank and p.start > best.start),
        key=lambda p: p.start,
    )
    chosen = [best]
    for pick in following:
        if len(chosen) >= limit or pick.score < floor:
            break
        chosen.append(pick)
    for pick in ranked[1:]:
        if len(chosen) >= limit or pick.score < floor:
            break
        if pick not in chosen:
            chosen.append(pick)
    return chosen


def _flat(sentence: str) -> str:
    return " ".join(sentence.split())
