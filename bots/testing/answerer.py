"""An answerer that needs no model, no store and no network: it answers from a script."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence

from citations.model import CitedAnswer, Reference, Segment, Source
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question

Script = Callable[[Question], AsyncIterator[Progress]]


def cited_answer(text: str, sources: Sequence[tuple[str, str]] = ()) -> CitedAnswer:
    """``text`` citing every ``(title, url)`` in ``sources`` with footnotes ``[1]``, ``[2]``…"""
    references = tuple(
        Reference(n, url, title, (Source(n, url, title, f"text of {title}"),))
        for n, (title, url) in enumerate(sources, 1)
    )
    cites = tuple(r.number for r in references)
    return CitedAnswer(segments=(Segment(text, cites),), references=references)


class ScriptedAnswerer:
    """Answers every question the same way and remembers what it was asked.

    ``ScriptedAnswerer("Deploys run nightly.", sources=[("Runbook", "https://…")])``;
    ``route=Route.NO_ANSWER`` plays a knowledge base that has nothing, ``script`` any
    other sequence of progress events.
    """

    def __init__(
        self,
        text: str = "Deploys run nightly.",
        *,
        sources: Sequence[tuple[str, str]] = (),
        route: Route = Route.KNOWLEDGE_BASE,
        script: Script | None = None,
    ) -> None:
        self.answer = cited_answer(text, sources) if route is not Route.NO_ANSWER else None
        self.text = text
        self.route = route
        self.script = script
        self.questions: list[Question] = []

    def stream(self, question: Question) -> AsyncIterator[Progress]:
        self.questions.append(question)
        if self.script is not None:
            return self.script(question)
        return self._stream(question)

    async def _stream(self, question: Question) -> AsyncIterator[Progress]:
        yield Status("Searching the knowledge base…", "retrieve")
        answer = self.answer or CitedAnswer.empty(self.text)
        yield AnswerDelta(answer.text)
        yield Done(answer=answer, route=self.route, question=question.text)


def knows_only(word: str, script: Script) -> Script:
    """``script`` for questions that mention ``word``; "I couldn't find this" for the rest."""

    async def answer(question: Question) -> AsyncIterator[Progress]:
        if word in question.text.lower():
            async for event in script(question):
                yield event
            return
        yield Done(
            CitedAnswer.empty("I couldn't find this."), Route.NO_ANSWER, question=question.text
        )

    return answer
