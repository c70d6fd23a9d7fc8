"""What one question's run knows so far. It travels with every workflow event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from citations.model import Source
from pipeline.errors import scrub
from pipeline.events import Decision
from pipeline.question import Question
from pipeline.speculation import Speculation
from pipeline.trace import Tracer
from pipeline.usage import TokenUsage

Verdict = Literal["correct", "ambiguous", "incorrect"]
"""The CRAG verdict on the best grade: above ``upper``, between, below ``lower``."""


@dataclass
class RunState:
    """What one question's run knows so far. Travels with every event."""

    question: Question
    standalone: str = ""
    #: the asker's own words as the documents spell them ("k8s" → "kubernetes",
    #: ``pipeline/numeronyms.py``); the question's text until condense reads it
    own: str = ""
    tracer: Tracer = field(default_factory=Tracer)
    notes: list[str] = field(default_factory=list)
    retries: int = 0
    rewrites: int = 0
    web_used: bool = False
    llm_down: str | None = None
    #: the stage whose call found the model down, named by the note that says so
    llm_down_stage: str = ""
    llm_answered: bool = False
    streamed: bool = False
    verdict: Verdict | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)
    #: an answer started while the LLM grades (``pipeline/speculation.py``)
    speculation: Speculation | None = None
    #: the passages retrieved after the first ``top_k`` (``Hit.supplementary``), as retrieved:
    #: an extractive answer quoting only these is no answer
    supplementary: frozenset[Source] = frozenset()

    def __post_init__(self) -> None:
        self.own = self.own or self.question.text

    def __repr__(self) -> str:
        # The workflows package summarises each step's input and output with repr() and
        # keeps 200 characters; the whole tree (question, trace, usage) cost milliseconds
        # of every question.
        return (
            f"RunState(question={self.question.id!r}, verdict={self.verdict!r}, "
            f"retries={self.retries}, rewrites={self.rewrites}, web_used={self.web_used})"
        )

    def note(self, text: str) -> None:
        """Add a note for the user; paths and host names from exceptions are left out."""
        text = scrub(text)
        if text not in self.notes:
            self.notes.append(text)

    def trace(self, stage: str, detail: str, *, ms: float = 0.0, **data: Any) -> Decision:
        return self.tracer.add(stage, detail, ms=ms, **data)
