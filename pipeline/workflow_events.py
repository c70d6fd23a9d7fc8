"""The typed events between the workflow's steps, and the two it streams to the caller."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from workflows.events import Event, StartEvent

from citations.model import CitedAnswer, Source
from pipeline.extractive import NOT_FOUND
from pipeline.ports import Hit
from pipeline.question import Question
from pipeline.run_state import RunState


class AskEvent(StartEvent):
    question: Question
    run: RunState


class RetrieveEvent(Event):
    query: str
    run: RunState


class RetrievedEvent(Event):
    query: str
    hits: list[Hit]
    run: RunState


class GradedEvent(Event):
    query: str
    hits: list[Hit]
    grades: list[float]
    #: grade plus lexical evidence per hit (pipeline/evidence.py); empty when not computed
    support: list[float] = Field(default_factory=list)
    #: per hit, whether it has the question's numbers and quoted names (empty: all do)
    carries: list[bool] = Field(default_factory=list)
    run: RunState


class WebEvent(Event):
    kb: list[Source]
    run: RunState


class RefineEvent(Event):
    pages: list[Source]
    kb: list[Source]
    run: RunState


class GenerateEvent(Event):
    sources: list[Source]
    stricter: bool = False
    run: RunState


class CheckEvent(Event):
    sources: list[Source]
    answer: CitedAnswer
    raw: str
    extractive: bool
    run: RunState


class RetryEvent(Event):
    sources: list[Source]
    answer: CitedAnswer
    raw: str
    problem: Literal["ungrounded", "not_useful"]
    unsupported: list[str] = Field(default_factory=list)
    run: RunState


class FinalizeEvent(Event):
    answer: CitedAnswer | None
    run: RunState
    not_found: str = NOT_FOUND


class StatusEvent(Event):
    """Streamed to the caller: a progress line."""

    text: str
    stage: str


class DeltaEvent(Event):
    """Streamed to the caller: answer text with resolved ``[n]`` markers."""

    text: str
