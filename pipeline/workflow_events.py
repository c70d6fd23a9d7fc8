"""The typed events between the workflow's steps, and the two it streams to the caller."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema
from workflows.events import Event, StartEvent

from citations.model import CitedAnswer, Source
from pipeline.extractive import NOT_FOUND
from pipeline.ports import Hit
from pipeline.question import Question
from pipeline.run_state import RunState


class _Passed:
    """Marks a field pydantic checks with ``isinstance`` only and keeps as it is.

    The steps build these objects themselves and hand the same instances on (the run state
    is shared and changed as the run goes). A schema derived from each dataclass, down to
    the tracer and the speculation, cost about 75 ms of every start-up and checked nothing
    more than ``isinstance`` does.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.is_instance_schema(source)


_Run = Annotated[RunState, _Passed()]
_Sources = list[Annotated[Source, _Passed()]]
_Hits = list[Annotated[Hit, _Passed()]]
_Answer = Annotated[CitedAnswer, _Passed()]


class AskEvent(StartEvent):
    question: Annotated[Question, _Passed()]
    run: _Run


class RetrieveEvent(Event):
    query: str
    run: _Run


class RetrievedEvent(Event):
    query: str
    hits: _Hits
    run: _Run


class GradedEvent(Event):
    query: str
    hits: _Hits
    grades: list[float]
    #: grade plus lexical evidence per hit (pipeline/evidence.py); empty when not computed
    support: list[float] = Field(default_factory=list)
    #: per hit, whether it has the question's numbers and quoted names (empty: all do)
    carries: list[bool] = Field(default_factory=list)
    #: per hit, how closely it reads on the question word for word (pipeline/closeness.py);
    #: empty when the embedder gives no token states
    closeness: list[float] = Field(default_factory=list)
    run: _Run


class WebEvent(Event):
    kb: _Sources
    run: _Run


class RefineEvent(Event):
    pages: _Sources
    kb: _Sources
    run: _Run


class GenerateEvent(Event):
    sources: _Sources
    stricter: bool = False
    #: per source, the support it was kept on (grade plus evidence); empty when unknown
    support: list[float] = Field(default_factory=list)
    run: _Run


class CheckEvent(Event):
    sources: _Sources
    answer: _Answer
    raw: str
    extractive: bool
    run: _Run


class RetryEvent(Event):
    sources: _Sources
    answer: _Answer
    raw: str
    problem: Literal["ungrounded", "not_useful"]
    unsupported: list[str] = Field(default_factory=list)
    run: _Run


class FinalizeEvent(Event):
    answer: _Answer | None
    run: _Run
    not_found: str = NOT_FOUND


class StatusEvent(Event):
    """Streamed to the caller: a progress line."""

    text: str
    stage: str


class DeltaEvent(Event):
    """Streamed to the caller: answer text with resolved ``[n]`` markers."""

    text: str
