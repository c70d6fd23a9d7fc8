"""Quote verification of a finished answer; ``citations`` does the matching."""

from __future__ import annotations

from citations import CitedAnswer, verify_quotes
from pipeline.config import PipelineSettings


def check_quotes(answer: CitedAnswer, settings: PipelineSettings) -> CitedAnswer:
    """The answer with a check for every quoted span, handled per ``settings.quote_policy``.

    Only quotes are checked: a paraphrase is the model's job, a quote is a claim
    that these exact words are in the source.
    """
    return verify_quotes(
        answer, threshold=settings.quote_threshold, policy=settings.quote_policy, sentences=False
    )
