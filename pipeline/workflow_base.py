"""What every stage of the workflow shares: its collaborators, its calls to the LLM under a
timeout, whether the web may be searched, and the status it streams."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

# LlamaIndex's own workflow package: ``llama_index.core.workflow`` re-exports it, and
# importing that runs all of ``llama_index.core`` (over a CPU second, offline for nothing)
from workflows import Context, Workflow

from pipeline.asked import asks_capability
from pipeline.closeness import read_closeness
from pipeline.config import PipelineSettings
from pipeline.errors import one_line
from pipeline.evidence import Lexicons
from pipeline.graders import EmbeddingGrader
from pipeline.llm_failures import (
    LLMFailed,
    classify,
    malformed_reply,
    stage_note,
    traceback_if_debug,
)
from pipeline.passage_support import passage_support
from pipeline.ports import Grader, Hit, Retriever, WebSearch
from pipeline.run_state import RunState
from pipeline.trace import Clock
from pipeline.usage import collecting
from pipeline.workflow_events import StatusEvent

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

log = logging.getLogger("citebot.pipeline")

T = TypeVar("T")


class WorkflowBase(Workflow):
    """The base of the stage groups ``CitebotWorkflow`` is made of: the collaborators its
    constructor sets, and the helpers more than one group calls."""

    retriever: Retriever
    grader: Grader
    embedding_grader: EmbeddingGrader
    llm: LLM | None
    web: WebSearch | None
    settings: PipelineSettings
    web_disabled_reason: str | None
    grader_note: str | None
    lexicons: Lexicons

    def _web(self, run: RunState) -> WebSearch | None:
        """Web search for this question: off where its place does not allow it."""
        return self.web if run.question.web else None

    def _web_off_reason(self, run: RunState) -> str | None:
        if self.web is not None and not run.question.web:
            return "web search is off in this channel"
        return self.web_disabled_reason

    @staticmethod
    def _status(ctx: Context, text: str, stage: str) -> None:
        ctx.write_event_to_stream(StatusEvent(text=text, stage=stage))

    def _llm_usable(self, run: RunState) -> LLM | None:
        return self.llm if run.llm_down is None else None

    async def _llm_call(self, run: RunState, what: str, call: Awaitable[T], seconds: float) -> T:
        """Run one LLM call under its timeout; a failure raises ``LLMFailed``.

        Malformed replies propagate as they are; they say nothing about the LLM's health.
        """
        try:
            with collecting(run.usage):
                async with asyncio.timeout(seconds):
                    reply = await call
        except malformed_reply():
            run.llm_answered = True
            raise
        except Exception as exc:
            failure = classify(exc, seconds=seconds, answered=run.llm_answered)
            raise self._llm_failed(run, what, failure, exc) from exc
        run.llm_answered = True
        return reply

    @staticmethod
    def _llm_failed(run: RunState, stage: str, failure: LLMFailed, exc: BaseException) -> LLMFailed:
        """Log and trace a failed LLM call; a model that is down is not called again.

        A rejected request costs only its own stage, and says so in a note; a model
        that is down is named once, by the stage whose answer it changes (generate,
        check) or at the end.
        """
        log.warning(
            "LLM %s failed for question %s: %s",
            stage,
            run.question.id,
            failure.reason,
            exc_info=traceback_if_debug(log, exc),
        )
        if failure.down:
            run.llm_down = failure.reason
            run.llm_down_stage = stage
        if not failure.down or stage in ("generate", "check"):
            run.note(stage_note(stage, failure.reason))
        run.trace(stage, "LLM failed; continuing without it", reason=failure.reason)
        return failure

    async def _rewrite(self, run: RunState, template: Any, query: str, what: str) -> str:
        llm = self._llm_usable(run)
        if llm is None:
            return query
        clock = Clock()
        try:
            text = await self._llm_call(
                run,
                what,
                llm.apredict(template, question=query),
                self.settings.rewrite_timeout,
            )
        except malformed_reply(LLMFailed):
            return query
        rewritten = one_line_reply(text) or query
        run.trace(what, "rewrote the query", ms=clock.ms, query=rewritten)
        return rewritten

    def _evidence_threshold(self, run: RunState) -> float:
        """The support a passage needs for the knowledge base to answer this question: more
        for one asking, in the asker's own words, whether something can be done."""
        if asks_capability(run.own):
            return self.settings.evidence_capability_threshold
        return self.settings.evidence_threshold

    async def _support(
        self, question: str, hits: Sequence[Hit], grades: Sequence[float], *, own: str
    ) -> tuple[list[float], list[bool]]:
        """``passage_support`` with this workflow's term statistics, embedder and settings."""
        return await passage_support(
            question,
            hits,
            grades,
            own=own,
            lexicons=self.lexicons,
            vocabulary=self.embedding_grader.embedder.vocabulary,
            settings=self.settings,
        )

    async def _closeness(self, question: str, hits: Sequence[Hit]) -> list[float]:
        """How closely each hit's passage reads on ``question``, word for word
        (``pipeline/closeness.py``); empty when the embedder gives no token states or
        fails. The passages' vectors come from the same run, so grading them after this
        costs nothing more."""
        texts = [hit.source.text for hit in hits]
        try:
            near = await read_closeness(self.embedding_grader.embedder, question, texts)
        except Exception as exc:
            log.warning("passages not read token by token: %s", one_line(exc, named=True))
            return []
        return near or []


def drop_speculation(run: RunState) -> None:
    """Cancel the answer started while the LLM graded, if one is still running."""
    if run.speculation is not None:
        run.speculation.cancel()
        run.speculation = None


def one_line_reply(text: Any) -> str:
    """The model's reply on one line, without the quotes it may have put around it."""
    line = " ".join(str(text).split())
    return line.strip().strip('"').strip()
