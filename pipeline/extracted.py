"""An extractive answer: the most relevant sentences of the sources, cited.

The workflow's generate step answers this way without an LLM, and so does the runner's
fallback when a run fails.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citations.model import CitedAnswer, Source
from citations.stream import CitationStream
from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicon
from pipeline.extractive import Pick, extract
from pipeline.graders import EmbeddingGrader
from pipeline.text import shown

__all__ = ["Extracted", "extractive_answer", "numbered"]

log = logging.getLogger("citebot.pipeline")


def numbered(sources: Sequence[Source]) -> list[Source]:
    """The sources with ids 1, 2, … in order: the ids the answer's markers cite."""
    return [replace(source, id=i) for i, source in enumerate(sources, start=1)]


@dataclass(frozen=True, slots=True)
class Extracted:
    """An extractive answer: the picked sentences with the sources' ids, and as resolved."""

    raw: str
    shown: str
    answer: CitedAnswer
    picks: list[Pick]


async def extractive_answer(
    query: str,
    sources: Sequence[Source],
    grader: EmbeddingGrader,
    settings: PipelineSettings,
    lexicon: Lexicon | None = None,
    *,
    support: Sequence[float] | None = None,
) -> Extracted | None:
    """The most relevant sentences of ``sources``, cited; ``None`` when none is relevant.
    ``support``, per source, is what the passage was kept on (grade plus evidence)."""
    text, picks = await extract(
        query,
        sources,
        grader,
        limit=settings.extractive_sentences,
        floor=settings.lower,
        lexicon=lexicon or Lexicon.build(s.text for s in sources),
        support=support,
        support_weight=settings.extract_support_weight,
    )
    if not text:
        return None
    # the answer quotes what the built page shows (a cross-reference as its name), so its
    # sentences are checked against, and deep-link to, the sources as shown
    as_shown = [replace(source, text=shown(source.text)) for source in sources]
    stream = CitationStream(as_shown, merge_fragments=settings.merge_fragments)
    drawn = stream.feed(text) + stream.close()
    if not stream.answer.references:
        # quotes whose footnotes did not resolve would be shown as an answer without sources
        log.warning("an extractive answer resolved none of its footnotes: no answer")
        return None
    return Extracted(raw=text, shown=drawn, answer=stream.answer, picks=picks)
