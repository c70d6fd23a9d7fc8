"""The progress stream a pipeline run yields to platform adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from citations.model import CitedAnswer


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
    answer: CitedAnswer
    route: Route
    trace: tuple[Decision, ...] = ()
    question: str = ""
    error: str | None = None


Progress = Status | AnswerDelta | Done
