"""How well each retrieved passage speaks to the question: its grade plus its lexical evidence.

The grade step, the answer started while the LLM grades and the runner's fallback all weigh
the passages this way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from pipeline.asked import asked
from pipeline.attachments import ATTACHED
from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicon, Lexicons, evidence, support
from pipeline.ports import Hit


async def passage_support(
    question: str,
    hits: Sequence[Hit],
    grades: Sequence[float],
    *,
    own: str,
    lexicons: Lexicons,
    vocabulary: Collection[str] | None,
    settings: PipelineSettings,
) -> tuple[list[float], list[bool]]:
    """Each hit's grade plus its lexical evidence (pipeline/evidence.py), and whether it
    has the numbers and quoted names of ``own``, the asker's words. The evidence weighs
    terms by the knowledge base's statistics (``lexicons``; the passages' own when it has
    none) and knows the words of the embedder's ``vocabulary``."""
    passages = [f"{hit.source.title}\n{hit.source.text}" for hit in hits]
    lexicon = await lexicons.get() or Lexicon.build(passages)
    attached = [p for hit, p in zip(hits, passages, strict=True) if hit.collection == ATTACHED]
    if attached:
        # words the asker's own file contains are known words, not the mark of a
        # question the knowledge base was never about
        lexicon = lexicon.including(attached)
    wanted = asked(question, own=own, vocabulary=vocabulary)
    share = settings.evidence_subject_share
    found = [
        evidence(
            wanted,
            hit.source.text,
            lexicon,
            subject_share=share,
            thing_share=settings.evidence_thing_share,
            identifier_share=settings.evidence_identifier_share,
            title=hit.source.title,
        )
        for hit in hits
    ]
    supports = [
        support(
            grade,
            e,
            coverage_weight=settings.evidence_coverage_weight,
            unknown_weight=settings.evidence_unknown_weight,
            word_factor=settings.evidence_word_factor,
        )
        for grade, e in zip(grades, found, strict=True)
    ]
    return supports, [e.carries for e in found]


def supplemented(deciding: Sequence[Hit], deeper: Sequence[Hit]) -> list[Hit]:
    """``deciding`` (the first ``top_k``, as a search for ``top_k`` alone gives them: a deeper
    search fuses a deeper pool, and its first ``top_k`` may differ), then the passages of
    ``deeper`` they lack, marked ``supplementary``, as many as ``deeper`` has beyond them."""
    have = {hit.source for hit in deciding}
    more = [replace(hit, supplementary=True) for hit in deeper if hit.source not in have]
    return [*deciding, *more[: max(len(deeper) - len(deciding), 0)]]


def carried(carries: Sequence[bool], count: int) -> Sequence[bool]:
    """Per passage, whether it has the question's numbers and quoted names: ``carries``, or
    all of the ``count`` passages when it was not computed (empty)."""
    return carries or [True] * count


def best_grade(hits: Sequence[Hit], grades: Sequence[float]) -> float:
    """The best grade of the passages that decide whether the knowledge base answers (the
    first ``top_k``: not those ``supplementary``)."""
    return max(
        (g for hit, g in zip(hits, grades, strict=True) if not hit.supplementary), default=0.0
    )


def strongest_support(
    hits: Sequence[Hit], supports: Sequence[float], carries: Sequence[bool]
) -> float:
    """The best support among the deciding passages that carry the question's numbers and
    quoted names (``carries`` empty: all do), or -1 when none does. A passage ranked after
    the first ``top_k`` adds to an answer but never makes one: the deeper a passage ranks,
    the likelier one close reading of it is a near miss (measured on the dev sets: reading
    two more found 21 more right sections and answered 4 more uncovered questions when they
    could decide)."""
    return max(
        (
            s
            for hit, s, c in zip(hits, supports, carried(carries, len(supports)), strict=True)
            if c and not hit.supplementary
        ),
        default=-1.0,
    )
