"""The bot runtime: one object that every platform adapter talks to.

It turns a ``Question`` into a stream of ``Progress`` events and applies the
rules that are the same on every platform: size limits, knowledge scopes,
rate limits, plugin hooks. It never raises to an adapter: every failure ends
in a ``Done`` whose ``error`` says what went wrong in one line.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from bots.core.queue import ThreadQueue
from bots.ops import metrics, tracing
from bots.ops.logging import bind_request_id
from bots.plugins.refusal import Refusal
from citations.model import CitedAnswer
from connectors.errors import ConnectorError
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Place, Question, Trigger

if TYPE_CHECKING:
    from bots.plugins.commands import ChatCommand
    from bots.settings import Settings

log = logging.getLogger("citebot.runtime")


class Answerer(Protocol):
    """Anything that streams progress for a question (``pipeline.Pipeline``)."""

    def stream(self, question: Question) -> AsyncIterator[Progress]: ...


#: What a user sees when answering failed; adapters add their platform's warning sign.
SORRY = "Sorry, something went wrong while answering. Please try again later."


def refusal(question: Question, text: str, *, error: str | None = None) -> Done:
    return Done(
        answer=CitedAnswer.empty(text),
        route=Route.NO_ANSWER,
        question=question.text,
        error=error,
    )


class Runtime:
    def __init__(
        self,
        settings: Settings,
        *,
        answerer: Answerer | None = None,
        feedback: Any = None,
        dedupe: Any = None,
        limiter: Any = None,
        plugins: Any = None,
    ) -> None:
        self.settings = settings
        self._answerer = answerer
        self.feedback = feedback
        self.dedupe = dedupe
        self.limiter = limiter
        self.plugins = plugins
        self.threads = ThreadQueue()

    @property
    def answerer(self) -> Answerer:
        if self._answerer is None:
            from bots.app import build_answerer

            self._answerer = build_answerer(self.settings, self.plugins)
        return self._answerer

    @property
    def commands(self) -> Sequence[ChatCommand]:
        return self.plugins.commands() if self.plugins is not None else ()

    def scope_for(self, place: Place, *, dm: bool = False) -> tuple[str, ...] | None:
        """Collections this place may search; ``None`` means all of them.

        The most specific entry wins: channel, then workspace or guild.
        """
        access = self.settings.access
        if dm:
            return tuple(access.dm_scope) if access.dm_scope is not None else self._default()
        keys = []
        if place.workspace and place.channel:
            keys.append(f"{place.platform}:{place.workspace}/{place.channel}")
        if place.channel:
            keys.append(f"{place.platform}:*/{place.channel}")
        if place.workspace:
            keys.append(f"{place.platform}:{place.workspace}")
        for key in keys:
            if key in access.scopes:
                return tuple(access.scopes[key])
        return self._default()

    def _default(self) -> tuple[str, ...] | None:
        scope = self.settings.access.default_scope
        return tuple(scope) if scope is not None else None

    def prepare(self, question: Question) -> Question:
        """Attach the place's knowledge scope; adapters call this, never set scope themselves."""
        return replace(
            question, scope=self.scope_for(question.place, dm=question.trigger is Trigger.DM)
        )

    def ask(self, question: Question, *, screened: bool = False) -> AsyncIterator[Progress]:
        """Rate limits, one answer at a time per thread, metrics, then :meth:`_ask`.

        ``screened`` says the caller already ran :meth:`screen` on this question
        (and must not run the plugin rules twice). With ``ops.otel`` on, each
        question is an OpenTelemetry span (see :mod:`bots.ops.tracing`).
        """
        return tracing.traced(
            self.settings.ops, question, self._answer(question, screened=screened)
        )

    async def _answer(
        self, question: Question, *, screened: bool
    ) -> AsyncGenerator[Progress, None]:
        # the request id tags every log line of this question, in every task it starts
        with bind_request_id(question.id):
            refused = await self._limited(question)
            if refused is not None:
                metrics.answered(question, refused)
                yield refused
                return
            if self.threads.busy(question.place):
                metrics.thread_queued(question.place.platform)
                yield Status("Waiting for the answer above to finish…", stage="queued")
            async with self.threads.turn(question.place):
                since = metrics.started(question)
                first = True
                try:
                    async for event in self._ask(question, screened=screened):
                        if first and isinstance(event, AnswerDelta):
                            first = False
                            metrics.first_token(question, since)
                        if isinstance(event, Done):
                            metrics.answered(question, event, since)
                            yield event
                            return
                        yield event
                    log.error("the pipeline ended without an answer for question %s", question.id)
                    done = refusal(
                        question,
                        SORRY,
                        error="NoAnswer: the pipeline ended without an answer",
                    )
                    metrics.answered(question, done, since)
                    yield done
                finally:
                    metrics.stopped(question)

    async def _limited(self, question: Question) -> Done | None:
        if self.limiter is None:
            return None
        try:
            refused = await self.limiter.check(question)
        except Exception:  # a broken limiter must not stop answers
            log.exception("rate limiter failed; answering without limits")
            metrics.error("limiter")
            return None
        if refused is None:
            return None
        return refusal(question, refused.message, error=f"rate_limited: {refused.limit}")

    async def screen(self, question: Question) -> Question | Done:
        """Size limits and the plugins' ``before_question`` rules.

        Returns the question to answer (perhaps rewritten) or the refusal to show.
        Adapters that must post something public before answering (Slack's
        restated slash question) screen first, so a refused question is never shown.
        """
        text = question.text.strip()
        limit = self.settings.access.max_question_chars
        if not text:
            return refusal(question, "Please ask a question: the message was empty.", error="empty")
        if len(text) > limit:
            return refusal(
                question,
                f"Sorry, that question is too long ({len(text):,} characters; the limit is {limit:,}). "
                "Please shorten it.",
                error="too_long",
            )
        question = replace(question, text=text)
        checked = await self._before_question(question)
        if isinstance(checked, Refusal):
            reason = f"refused by plugin {checked.plugin}: {checked.reason}"
            return await self._after_answer(question, refusal(question, checked.text, error=reason))
        return checked

    async def _ask(self, question: Question, *, screened: bool) -> AsyncIterator[Progress]:
        if not screened:
            checked = await self.screen(question)
            if isinstance(checked, Done):
                yield checked
                return
            question = checked
        try:
            async for event in self.answerer.stream(question):
                if isinstance(event, Done):
                    event = await self._after_answer(question, event)
                yield event
        except Exception as exc:  # the adapter must always get a Done
            if isinstance(exc, ConnectorError):  # a setting or a service, said in one line
                log.error("cannot answer question %s: %s", question.id, exc)
            else:
                log.exception("pipeline failed for question %s", question.id)
            yield await self._after_answer(
                question,
                refusal(
                    question,
                    SORRY,
                    error=f"{type(exc).__name__}: {exc}",
                ),
            )

    async def _before_question(self, question: Question) -> Question | Refusal:
        if self.plugins is None:
            return question
        try:
            checked: Question | Refusal = await self.plugins.before_question(question, runtime=self)
        except Exception:  # the host isolates plugins; this guards a host that is not ours
            log.exception("before_question hooks failed for question %s", question.id)
            return question
        return checked

    async def _after_answer(self, question: Question, done: Done) -> Done:
        if self.plugins is None:
            return done
        try:
            annotated: Done = await self.plugins.after_answer(question, done, runtime=self)
        except Exception:
            log.exception("after_answer hooks failed for question %s", question.id)
            return done
        return annotated
