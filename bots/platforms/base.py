"""The adapter contract: what every platform (Slack, Discord, the console, yours) implements.

1. **An event becomes a** :class:`~pipeline.question.Question`: the text without
   the mention, the asker, the :class:`~pipeline.question.Place` (with its
   :class:`~pipeline.question.PlaceKind`, which decides the knowledge scope),
   the trigger and the thread history within ``pipeline.history_tokens``. The
   adapter never sets the scope itself: :meth:`Runtime.prepare` does.
2. **The progress stream is shown on a** :class:`Surface`: statuses, then the
   answer as it grows.
3. **The final render replaces it**: :meth:`Surface.finish` gets the ``Done``
   and, when the answer may be rated, the answer id its vote buttons carry.
4. **Votes come back to the core**: a click calls :meth:`Runtime.vote`, which
   stores it; the answer it joins was recorded once, by :meth:`Runtime.votable`.
5. **A 👎 asks why**: the adapter offers :class:`~bots.core.feedback.DownReason`'s
   choices in a small follow-up only the voter sees (free text for ``OTHER``),
   and the answer goes to :meth:`Runtime.reason`; every id it needs travels in
   the follow-up's own component ids, so any replica can take the reply.

:class:`Responder` drives one answer through a surface and is the same on every
platform; an adapter writes a surface, turns its events into questions, and
routes clicks to :meth:`Runtime.vote`, wording its reply from the receipt.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Protocol

from bots.core.runtime import Runtime, VoteReceipt
from pipeline.events import AnswerDelta, Done, Outcome, Route, Status
from pipeline.question import Question

__all__ = ["Responder", "Surface"]

log = logging.getLogger("citebot.platforms")


class Surface(Protocol):
    """Where one answer is drawn on a platform.

    ``open`` runs first; if it raises, nothing can be shown and the answer is
    dropped (logged). Any other method may raise: the responder then calls
    ``fail``, which must leave a visible apology whatever state the surface is in.
    """

    async def open(self) -> None: ...

    async def status(self, text: str) -> None: ...

    async def delta(self, text: str) -> None: ...

    async def finish(self, done: Done, answer_id: str | None) -> None: ...

    async def fail(self) -> None: ...


class Responder:
    """Shows ``runtime.ask(question)`` on ``surface``: the one answer loop of every platform."""

    def __init__(self, runtime: Runtime, surface: Surface, *, votes: bool = True) -> None:
        self.runtime = runtime
        self.surface = surface
        self.votes = votes

    async def run(
        self, question: Question, *, screened: bool = False, quiet: bool = False
    ) -> Done | None:
        """The ``Done`` that was shown, or ``None`` when the apology was shown instead.

        ``quiet`` (a question nobody addressed to the bot: auto-reply) shows nothing
        until the answer is known: an answer is drawn whole; no answer, a refusal, a
        rate limit or a failure leaves the channel untouched and returns ``None``.
        """
        if quiet:
            return await self._quietly(question, screened=screened)
        if not await self._open(question):
            return None
        return await self._show(question, self._streamed(question, screened=screened))

    async def _open(self, question: Question) -> bool:
        try:
            await self.surface.open()
        except Exception:
            log.exception("could not start the answer to question %s", question.id)
            return False
        return True

    async def _streamed(self, question: Question, *, screened: bool) -> Done:
        """Statuses and the growing answer onto the surface; the ``Done`` at the end."""
        async for event in self.runtime.ask(question, screened=screened):
            if isinstance(event, Status):
                await self.surface.status(event.text)
            elif isinstance(event, AnswerDelta):
                await self.surface.delta(event.text)
            elif isinstance(event, Done):
                return event
        raise RuntimeError("the answer stream ended without a result")

    async def _show(self, question: Question, answering: Awaitable[Done]) -> Done | None:
        """The final render of what ``answering`` ends in, or the apology if anything fails."""
        try:
            done = await answering
            answer_id = await self.runtime.votable(question, done) if self.votes else None
            await self.surface.finish(done, answer_id)
        except Exception:
            log.exception("answering question %s failed", question.id)
            await self._fail(question)
            return None
        return done

    async def _quietly(self, question: Question, *, screened: bool) -> Done | None:
        done: Done | None = None
        async for event in self.runtime.ask(question, screened=screened):
            if isinstance(event, Done):
                done = event
                break
        if done is not None and done.outcome is Outcome.NO_ANSWER:
            # unseen, but a question the docs do not answer belongs on the knowledge-gaps list
            await self.runtime.votable(question, done)
        if done is None or done.outcome is not Outcome.ANSWERED or done.route is Route.NO_ANSWER:
            log.info(
                "auto-reply to question %s stays silent: %s",
                question.id,
                done.outcome if done is not None else "no result",
            )
            return None
        if not await self._open(question):
            return None
        return await self._show(question, _ready(done))

    async def _fail(self, question: Question) -> None:
        try:
            await self.surface.fail()
        except Exception:
            log.exception("could not show the apology for question %s", question.id)


async def _ready(done: Done) -> Done:
    return done


def receipt_text(receipt: VoteReceipt, recorded: str) -> str:
    """What a voter reads after a vote or a 👎 reason: ``recorded`` when it was stored."""
    return {
        VoteReceipt.RECORDED: recorded,
        VoteReceipt.OFF: "Feedback is not enabled here.",
        VoteReceipt.FAILED: "Sorry, your feedback could not be saved. Please try again later.",
        VoteReceipt.NO_VOTE: "That answer has no 👎 from you any more, so there is nothing to explain.",
    }[receipt]
