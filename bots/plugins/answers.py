"""Small helpers for ``after_answer`` hooks."""

from __future__ import annotations

from dataclasses import replace

from citations.model import Segment
from pipeline.events import Done, Outcome


def add_note(done: Done, text: str) -> Done:
    """``done`` with ``text`` as its own paragraph after the answer (it cites nothing)."""
    segments = (*done.answer.segments, Segment(f"\n\n{text.strip()}"))
    return replace(done, answer=replace(done.answer, segments=segments))


def unanswered(done: Done) -> bool:
    """The pipeline found nothing to answer with (not a refusal, a limit or a failure)."""
    return done.outcome is Outcome.NO_ANSWER
