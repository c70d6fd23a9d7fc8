"""The offline answerer: the most relevant sentences of the relevant sources, each cited.

It never writes a word the sources do not contain, so its answers are grounded
by construction; it is also the fallback whenever the LLM is down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citations.model import Source
from pipeline.graders import EmbeddingGrader
from pipeline.text import is_prose, sentences

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
    chosen = [p for p in ranked[:limit] if p.score >= floor]
    chosen.sort(key=lambda p: (p.source_rank, p.start))
    text = " ".join(f"{_flat(p.text)} [{p.source_id}]" for p in chosen)
    return text, chosen


def _flat(sentence: str) -> str:
    return " ".join(sentence.split())
