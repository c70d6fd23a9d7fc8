"""The offline answerer: the most relevant sentences of the relevant sources, each cited.

It never writes a word the sources do not contain, so its answers are grounded
by construction; it is also the fallback whenever the LLM is down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citations.model import Source
from citations.sentences import sentences
from pipeline.graders import EmbeddingGrader
from pipeline.text import is_prose

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
) -> tuple[str, list[Pick]]:
    """Answer text with ``[id]`` after every sentence, and the sentences picked.

    ``sources`` come best first. Only sentences that grade at least ``floor``
    are used; with none, the answer is empty (nothing relevant). Picks are shown
    in source order, then in reading order, so that they read as written.
    """
    candidates: list[Pick] = []
    seen: set[str] = set()
    for rank, source in enumerate(sources):
        for span in sentences(source.text):
            key = " ".join(span.text.casefold().split())
            if key in seen or not is_prose(span.text):
                continue
            seen.add(key)
            candidates.append(Pick(rank, span.start, span.text, source.id, 0.0))
    if not candidates:
        return "", []
    scores = await grader.sentence_scores(question, [c.text for c in candidates])
    ranked = sorted(
        (
            Pick(c.source_rank, c.start, c.text, c.source_id, s)
            for c, s in zip(candidates, scores, strict=True)
        ),
        key=lambda p: -p.score,
    )
    chosen = _with_continuation(ranked, limit=limit, floor=floor)
    chosen.sort(key=lambda p: (p.source_rank, p.start))
    text = " ".join(f"{_flat(p.text)} [{p.source_id}]" for p in chosen)
    return text, chosen


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
