"""Quote verification of a finished answer; ``citations`` does the matching."""

from __future__ import annotations

from citations import CitedAnswer, verify_quotes
from pipeline.config import PipelineSettings


def check_quotes(
    answer: CitedAnswer, settings: PipelineSettings, *, sentences: bool = False
) -> CitedAnswer:
    """The answer with a check for every quoted span, handled per ``settings.quote_policy``.

    Generated answers check only quotes: a paraphrase is the model's job, a quote
    is a claim that these exact words are in the source. Extractive answers are
    all verbatim, so each cited sentence is checked and so gains a deep link.
    """
    return verify_quotes(
        answer,
        threshold=settings.quote_threshold,
        policy=settings.quote_policy,
        sentences=sentences,
    )
