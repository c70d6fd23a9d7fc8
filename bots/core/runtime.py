"""The bot runtime: one object that every platform adapter talks to.

It turns a ``Question`` into a stream of ``Progress`` events and applies the
rules that are the same on every platform: size limits, knowledge scopes,
rate limits, plugin hooks, feedback. It never raises to an adapter: every
question ends in a ``Done`` whose ``outcome`` says how, and whose ``reason``
says why in one line when it did not end in an answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING

from bots.core.channels import ChannelConfig, ChannelRules
from bots.core.dedupe import Dedupe
from bots.core.feedback import DownReason, references_of, timings_of
from bots.core.ports import (
    Answerer,
    AnswererFactory,
    Claims,
    FeedbackLog,
    Limiter,
    PluginHooks,
    RuleRefusal,
    Vote,
)
from bots.core.queue import ThreadQueue
from bots.core.scope import scope_for
from bots.ops import metrics, tracing
from bots.ops.logging import bind_request_id
from citations.model import CitedAnswer
from connectors.errors import ConnectorError
from pipeline.errors import SORRY, one_line
from pipeline.events import AnswerDelta, Done, Outcome, Progress, Reason, Route, Status
from pipeline.question import Place, Question, Trigger

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = ["SORRY", "Answerer", "Runtime", "VoteReceipt", "refusal"]

log = logging.getLogger("citebot.runtime")


def refusal(question: Question, text: str, outcome: Outcome, reason: Reason) -> Done:
    return Done(
        answer=CitedAnswer.empty(text),
        route=Route.NO_ANSWER,
        question=question.text,
        outcome=outcome,
        reason=reason,
    )


class VoteReceipt(StrEnum):
    """What became of a vote; each platform words its reply from this."""

    RECORDED = "recorded"
    OFF = "off"  # the bot keeps no feedback
    FAILED = "failed"
    NO_VOTE = "no_vote"  # a reason for a 👎 this user no longer has (changed to 👍)


class Runtime:
    def __init__(
        self,
        settings: Settings,
        *,
        answerer: Answerer | None = None,
        build_answerer: AnswererFactory | None = None,
        feedback: FeedbackLog | None = None,
        dedupe: Claims | None = None,
        limiter: Limiter | None = None,
        plugins: PluginHooks | None = None,
    ) -> None:
        """``answerer`` is the pipeline; or ``build_answerer`` builds it on the first question."""
        self.settings = settings
        self._answerer = answerer
        self._build = build_answerer
        self.feedback = feedback
        # one place for claims: every adapter dedupes through the runtime's
        self.dedupe: Claims = (
            dedupe
            if dedupe is not None
            else Dedupe(ttl=settings.ops.dedupe_ttl, lease_ttl=settings.ops.lease_ttl)
        )
        self.limiter = limiter
        self.plugins = plugins
        self.threads = ThreadQueue(self.dedupe)
        self.channels = ChannelRules(settings.channels)

    @property
    def answerer(self) -> Answerer:
        if self._answerer is None:
            if self._build is None:
                raise RuntimeError("this runtime was built without an answerer")
            self._answerer = self._build()
        return self._answerer

    def scope_for(self, place: Place, trigger: Trigger = Trigger.MENTION) -> tuple[str, ...] | None:
        """Collections this place may search; ``None`` means all of them."""
        return scope_for(self.settings.access, place, trigger, self.channels)

    def channel(self, place: Place) -> ChannelConfig:
        """The place's per-channel settings (``[channels."PATTERN"]``)."""
        return self.channels.config_for(place)

    def prepare(self, question: Question) -> Question:
        """Attach what the place decides: knowledge scope, persona, web search.

        Adapters call this and never set these themselves.
        """
        config = self.channel(question.place)
        return replace(
            question,
            scope=self.scope_for(question.place, question.trigger),
            persona=config.persona,
            web=config.web_search is not False,
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
                        Outcome.FAILED,
                        Reason("NoAnswer", "the pipeline ended without an answer"),
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
        return refusal(
            question, refused.message, Outcome.RATE_LIMITED, Reason(refused.limit, by="limiter")
        )

    async def screen(self, question: Question) -> Question | Done:
        """Size limits and the plugins' ``before_question`` rules.

        Returns the question to answer (perhaps rewritten) or the refusal to show.
        Adapters that must post something public before answering (Slack's
        restated slash question) screen first, so a refused question is never shown.
        """
        text = question.text.strip()
        limit = self.settings.access.max_question_chars
        if not text:
            return refusal(
                question,
                "Please ask a question: the message was empty.",
                Outcome.EMPTY,
                Reason("empty"),
            )
        if len(text) > limit:
            return refusal(
                question,
                f"Sorry, that question is too long ({len(text):,} characters; the limit is {limit:,}). "
                "Please shorten it.",
                Outcome.TOO_LONG,
                Reason("too_long", f"{len(text)} characters, limit {limit}"),
            )
        question = replace(question, text=text)
        checked = await self._before_question(question)
        if isinstance(checked, Question):
            return checked
        refused = refusal(
            question, checked.text, Outcome.REFUSED, Reason(checked.reason, by=checked.plugin)
        )
        return await self._after_answer(question, refused)

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
            failed = refusal(
                question, SORRY, Outcome.FAILED, Reason(type(exc).__name__, one_line(exc))
            )
            yield await self._after_answer(question, failed)

    async def _before_question(self, question: Question) -> Question | RuleRefusal:
        if self.plugins is None:
            return question
        try:
            checked: Question | RuleRefusal = await self.plugins.before_question(
                question, runtime=self
            )
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

    # -- feedback: recorded here, once, with one payload, for every platform ----

    async def votable(self, question: Question, done: Done) -> str | None:
        """Record ``done`` for later votes; the answer id its buttons carry, or ``None``
        for no buttons (no store, not an answer, or the store failed: the answer still goes out)."""
        if self.feedback is None or not done.outcome.is_answer:
            return None
        try:
            await asyncio.to_thread(
                self.feedback.record_answer,
                question.id,
                platform=question.place.platform,
                question=question.text,
                route=str(done.route),
                references=references_of(done.answer),
                answer=done.answer.text,
                outcome=str(done.outcome),
                asker=question.asker,
                workspace=question.place.workspace or "",
                channel=question.place.channel or "",
                thread=question.place.thread or "",
                timings=timings_of(done),
            )
        except Exception:
            log.exception(
                "could not record answer %s; sending it without feedback buttons", question.id
            )
            return None
        return question.id

    async def vote(self, answer_id: str, *, user: str, vote: Vote, platform: str) -> VoteReceipt:
        """Store one click; a :class:`VoteReceipt` value says what became of it."""
        if self.feedback is None:
            return VoteReceipt.OFF
        try:
            await asyncio.to_thread(
                self.feedback.vote, answer_id, user=user, vote=vote, platform=platform
            )
        except Exception:
            log.exception("could not store a vote on %s", answer_id)
            return VoteReceipt.FAILED
        return VoteReceipt.RECORDED

    async def reason(
        self, answer_id: str, *, user: str, reason: DownReason, text: str = "", platform: str
    ) -> VoteReceipt:
        """Store why ``user`` gave ``answer_id`` a 👎 (the follow-up every platform asks)."""
        if self.feedback is None:
            return VoteReceipt.OFF
        try:
            kept = await asyncio.to_thread(
                self.feedback.set_reason, answer_id, user=user, reason=reason, text=text
            )
        except Exception:
            log.exception("could not store the reason for a vote on %s", answer_id)
            return VoteReceipt.FAILED
        if not kept:
            log.info("a %s reason for %s came without a 👎 from that user", platform, answer_id)
            return VoteReceipt.NO_VOTE
        metrics.feedback_reason(platform, str(reason))
        return VoteReceipt.RECORDED
