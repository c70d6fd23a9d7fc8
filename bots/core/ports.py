"""What the runtime needs of its collaborators, as Protocols.

The composition root (:mod:`bots.app`) passes the real ones in; tests pass
small fakes. The core imports no platform, no plugin module and no composition
root: everything above it reaches it through these shapes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bots.core.feedback import DownReason, FeedbackStats, Vote
from bots.core.limits import Limiter
from citations.render import CitationStyle
from pipeline.events import Done, Progress
from pipeline.question import Question

__all__ = [
    "Answerer",
    "AnswererFactory",
    "Claims",
    "FeedbackLog",
    "Held",
    "Limiter",
    "PluginHooks",
    "RuleRefusal",
    "Vote",
]


class Answerer(Protocol):
    """Anything that streams progress for a question (``pipeline.Pipeline``)."""

    def stream(self, question: Question) -> AsyncIterator[Progress]: ...


#: Builds the answerer on the first question (``citebot run`` starts before the store opens).
AnswererFactory = Callable[[], Answerer]


class FeedbackLog(Protocol):
    """Durable answers and votes (:class:`bots.core.feedback.FeedbackStore`)."""

    def record_answer(
        self,
        answer_id: str,
        *,
        platform: str,
        question: str,
        route: str,
        references: list[dict[str, Any]],
        answer: str = "",
        outcome: str = "answered",
        asker: str = "",
        workspace: str = "",
        channel: str = "",
        thread: str = "",
        timings: dict[str, float] | None = None,
    ) -> None: ...

    def vote(self, answer_id: str, *, user: str, vote: Vote, platform: str) -> None: ...

    def set_reason(
        self, answer_id: str, *, user: str, reason: DownReason | str, text: str = ""
    ) -> bool: ...

    def stats(self, *, platform: str | None = None) -> FeedbackStats: ...

    def close(self) -> None: ...


class Held(Protocol):
    """A lease on one delivery (:class:`bots.core.dedupe.Lease`): ``async with lease.held():``
    keeps it while answering and marks it done afterwards."""

    def held(self) -> AbstractAsyncContextManager[None]: ...


class Claims(Protocol):
    """Exactly-once claims on delivery keys (:class:`bots.core.dedupe.Dedupe`)."""

    @property
    def degraded(self) -> bool: ...

    @property
    def shared(self) -> bool:
        """Claims are seen by other processes (Redis), not only this one."""
        ...

    async def first(self, *parts: str, ttl: float | None = None) -> bool: ...

    async def lease(self, *parts: str) -> Held | None: ...

    def lock(self, *parts: str) -> AbstractAsyncContextManager[None]: ...

    async def remember(self, *parts: str, ttl: float | None = None) -> None: ...

    async def seen(self, *parts: str) -> bool: ...

    async def close(self) -> None: ...


class RuleRefusal(Protocol):
    """What a plugin's ``before_question`` rule returns to stop a question."""

    @property
    def text(self) -> str: ...

    @property
    def reason(self) -> str: ...

    @property
    def plugin(self) -> str: ...


class PluginHooks(Protocol):
    """The plugin host's hooks around a question (:class:`bots.plugins.manager.PluginHost`)."""

    async def before_question(
        self, question: Question, *, runtime: Any = None
    ) -> Question | RuleRefusal: ...

    async def after_answer(
        self, question: Question, done: Done, *, runtime: Any = None
    ) -> Done: ...

    def citation_styles(self) -> Mapping[str, CitationStyle]: ...
