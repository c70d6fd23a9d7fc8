"""``Pipeline``: the object the bots talk to. It streams progress and never raises."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from citations.model import CitedAnswer, Segment
from pipeline.config import PipelineSettings
from pipeline.errors import SORRY, one_line
from pipeline.events import AnswerDelta, Done, Outcome, Progress, Reason, Route, Status
from pipeline.extracted import extractive_answer, numbered
from pipeline.extractive import NOT_FOUND
from pipeline.graders import CachedEmbedder, EmbeddingGrader, default_graders, select_grader
from pipeline.llm_failures import traceback_if_debug
from pipeline.ports import Embedder, Grader, Retriever, WebSearch
from pipeline.question import Question
from pipeline.run_state import RunState
from pipeline.workflow import CitebotWorkflow
from pipeline.workflow_events import AskEvent, DeltaEvent, StatusEvent

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

log = logging.getLogger("citebot.pipeline")


class Pipeline:
    """Answers questions with ``CitebotWorkflow``.

    ``llm=None`` (the default) answers offline: embedding grader and
    extractive answers. ``web=None`` turns the web fallback off; pass
    ``web_disabled_reason`` so the trace can say why.
    """

    def __init__(
        self,
        retriever: Retriever,
        *,
        embedder: Embedder,
        llm: LLM | None,
        web: WebSearch | None,
        settings: PipelineSettings,
        graders: Mapping[str, Grader] | None = None,
        web_disabled_reason: str | None = None,
    ) -> None:
        self.settings = settings
        self.retriever = retriever
        self.embedder = CachedEmbedder(embedder)
        self.graders = default_graders(self.embedder, llm, graders)
        embedding = self.graders.get("embedding")
        self.embedding_grader = (
            embedding if isinstance(embedding, EmbeddingGrader) else EmbeddingGrader(self.embedder)
        )
        grader, note = select_grader(self.graders, settings.grader)
        if note:
            log.warning(note)
        self.workflow = CitebotWorkflow(
            retriever=retriever,
            grader=grader,
            embedding_grader=self.embedding_grader,
            llm=llm,
            web=web,
            settings=settings,
            web_disabled_reason=web_disabled_reason,
            grader_note=note,
            timeout=_run_timeout(settings),
            verbose=False,
        )

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        """``Status`` and ``AnswerDelta`` events, then exactly one ``Done``.

        Deltas stream the first generated answer as it is written. ``Done.answer``
        is authoritative: when the check rejects that answer, the regenerated (or
        extractive) one arrives only in ``Done``, so adapters replace the streamed
        text with the final render.
        """
        run = RunState(question=question)
        done: Done | None = None
        handler = None
        try:
            handler = self.workflow.run(start_event=AskEvent(question=question, run=run))
            async for event in handler.stream_events():
                if isinstance(event, StatusEvent):
                    yield Status(event.text, event.stage)
                elif isinstance(event, DeltaEvent):
                    yield AnswerDelta(event.text)
            result = await handler
            if not isinstance(result, Done):
                raise TypeError(f"the workflow returned {type(result).__name__}, not Done")
            done = result
        except Exception as exc:
            log.error(
                "pipeline run failed for question %s: %s",
                question.id,
                one_line(exc, named=True),
                exc_info=traceback_if_debug(log, exc),
            )
            done = await self._fallback(question, run, exc)
        finally:
            if done is None and handler is not None and not handler.is_done():
                # the caller stopped listening: do not leave the run going in the background
                await handler.cancel_run()
        yield done

    async def answer(self, question: Question) -> Done:
        done: Done | None = None
        async for event in self.stream(question):
            if isinstance(event, Done):
                done = event
        assert done is not None
        return done

    async def _fallback(self, question: Question, run: RunState, exc: BaseException) -> Done:
        """What the knowledge base alone supports, after the workflow itself failed."""
        cause = Reason(type(exc).__name__, one_line(exc, 160))
        # the tokens spent before the failure still count
        run.trace("fallback", "the workflow failed; knowledge base only", **run.usage.data())
        trace = (*run.tracer.freeze(),)
        query = run.standalone or question.text
        try:
            hits = await self.retriever.retrieve(
                query, top_k=self.settings.top_k, scope=question.scope
            )
            relevant = numbered(await self.workflow.knowledge_base_only(query, hits, run))
            extracted = await extractive_answer(
                query, relevant, self.embedding_grader, self.settings
            )
        except Exception as exc:
            log.error(
                "the knowledge-base-only fallback failed too for question %s: %s",
                question.id,
                one_line(exc, named=True),
                exc_info=traceback_if_debug(log, exc),
            )
            extracted = None
        if extracted is not None:
            answer = replace(
                extracted.answer,
                segments=(
                    Segment(f"{SORRY} Here is what the knowledge base says.\n\n"),
                    *extracted.answer.segments,
                ),
            )
            route = Route.KNOWLEDGE_BASE
        else:
            answer = CitedAnswer.empty(f"{SORRY} {NOT_FOUND}")
            route = Route.NO_ANSWER
        return Done(
            answer=answer,
            route=route,
            trace=trace,
            question=question.text,
            outcome=Outcome.FAILED,
            reason=cause,
        )


def _run_timeout(settings: PipelineSettings) -> float:
    """A ceiling for one run: every stage's timeout, once per attempt, plus slack."""
    attempt = (
        settings.rewrite_timeout * 2
        + settings.grade_timeout
        + settings.web_timeout
        + settings.generate_timeout
        + settings.check_timeout
    )
    return attempt * (settings.max_retries + 1) + 30.0
