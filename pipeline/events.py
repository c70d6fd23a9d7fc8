"""The progress stream a pipeline run yields to platform adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from citations.model import CitedAnswer


class Outcome(StrEnum):
    """How a question ended. Adapters, metrics and the CLI branch on this, never on text."""

    ANSWERED = "answered"
    NO_ANSWER = "no_answer"  # the sources hold nothing that answers it; said politely
    REFUSED = "refused"  # a plugin's rule declined the question
    RATE_LIMITED = "rate_limited"
    TOO_LONG = "too_long"
    EMPTY = "empty"
    FAILED = "failed"  # something broke; the text apologises (perhaps with a partial answer)

    @property
    def is_answer(self) -> bool:
        """An answer worth a vote: recorded for feedback and shown with the buttons."""
        return self in (Outcome.ANSWERED, Outcome.NO_ANSWER)

    @property
    def is_failure(self) -> bool:
        """Shown with the platform's warning sign; the rest are the asker's to fix or wait out."""
        return self is Outcome.FAILED


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a question did not end in a plain answer; for logs, metrics and traces, never shown.

    ``code`` is short and from a small set (an exception's type, a limit's name,
    a plugin rule's name), so it can label a metric; ``detail`` is one line;
    ``by`` names who decided (a plugin, the limiter) when it is not the pipeline.
    """

    code: str
    detail: str = ""
    by: str = ""

    def __str__(self) -> str:
        who = f"{self.by}: " if self.by else ""
        return f"{who}{self.code}: {self.detail}" if self.detail else f"{who}{self.code}"


class Route(StrEnum):
    KNOWLEDGE_BASE = "knowledge_base"
    WEB = "web"
    MIXED = "mixed"
    NO_ANSWER = "no_answer"


@dataclass(frozen=True, slots=True)
class Decision:
    """One entry of the trace: what a stage decided, why, and how long it took."""

    stage: str
    detail: str
    ms: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Status:
    """A short, user-facing progress text ("Searching the knowledge base…")."""

    text: str
    stage: str = ""


@dataclass(frozen=True, slots=True)
class AnswerDelta:
    """Answer text whose citation markers are already resolved to ``[n]``."""

    text: str


@dataclass(frozen=True, slots=True)
class Done:
    """The end of a run: the answer to show, how the question ended, and why.

    A run that found nothing is a :attr:`Outcome.NO_ANSWER` whether or not its
    maker said so: the route already tells, and two fields must not disagree.
    """

    answer: CitedAnswer
    route: Route
    trace: tuple[Decision, ...] = ()
    question: str = ""
    outcome: Outcome = Outcome.ANSWERED
    reason: Reason | None = None

    def __post_init__(self) -> None:
        if self.outcome is Outcome.ANSWERED and self.route is Route.NO_ANSWER:
            object.__setattr__(self, "outcome", Outcome.NO_ANSWER)


Progress = Status | AnswerDelta | Done
