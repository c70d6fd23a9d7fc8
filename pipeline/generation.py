"""The answer's stages: generate, check and retry.

``generate`` streams the LLM's answer through the citation stream (offline, or when the LLM
fails, the extractive answer), ``check`` asks whether it is grounded and useful and verifies
its quotes, and ``retry`` regenerates, searches again or goes to the web, a bounded number of
times.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

from workflows import Context, step

from citations.model import CitedAnswer, Origin, Source
from citations.refusal import is_refusal
from citations.stream import CitationStream
from pipeline import prompts
from pipeline.errors import one_line
from pipeline.extracted import extractive_answer, numbered
from pipeline.llm_failures import LLMFailed, classify, malformed_reply, stage_note
from pipeline.passages import standing
from pipeline.ports import Sections
from pipeline.quotes import check_quotes
from pipeline.run_state import RunState
from pipeline.sections import read_on
from pipeline.trace import Clock
from pipeline.usage import collecting
from pipeline.workflow_base import WorkflowBase
from pipeline.workflow_events import (
    CheckEvent,
    DeltaEvent,
    FinalizeEvent,
    GenerateEvent,
    RetrieveEvent,
    RetryEvent,
    WebEvent,
)

log = logging.getLogger("citebot.pipeline")


class GenerationSteps(WorkflowBase):
    """generate → check → retry: the answer, whether it holds, and what to try when not."""

    @step
    async def generate(self, ctx: Context, ev: GenerateEvent) -> CheckEvent | FinalizeEvent:
        run = ev.run
        sources = numbered(ev.sources)
        support: Sequence[float] = ev.support
        live = not run.streamed
        run.streamed = True
        llm = self._llm_usable(run)
        speculation, run.speculation = run.speculation, None
        if llm is not None and sources:
            self._status(ctx, "Writing the answer…" if live else "Revising the answer…", "generate")
            clock = Clock()
            early = None
            if speculation is not None and live and not ev.stricter:
                early = await speculation.take(ev.sources)
                if early is not None and speculation.sources is not None:
                    sources = numbered(speculation.sources)  # the order it was asked in
                    support = ()
            stream = CitationStream(sources, merge_fragments=self.settings.merge_fragments)
            raw: list[str] = []
            started = False
            messages = prompts.answer_messages(
                run.standalone, sources, stricter=ev.stricter, persona=run.question.persona
            )
            try:
                with collecting(run.usage):
                    async with asyncio.timeout(self.settings.generate_timeout):
                        tokens = early or await llm.astream_chat(messages)
                        async for chunk in tokens:
                            delta = chunk.delta or ""
                            raw.append(delta)
                            shown = stream.feed(delta)
                            if shown and live:
                                ctx.write_event_to_stream(DeltaEvent(text=shown))
                                started = True
                tail = stream.close()
                if tail and live:
                    ctx.write_event_to_stream(DeltaEvent(text=tail))
            except Exception as exc:
                # a model that stopped mid-answer answered: it is not "unavailable"
                failure = classify(
                    exc,
                    seconds=self.settings.generate_timeout,
                    answered=run.llm_answered or any(d.strip() for d in raw),
                )
                self._llm_failed(run, "generate", failure, exc)
                # what was shown of the broken answer is replaced whole, not run on into
                live = live and not started
            else:
                run.llm_answered = True
                if not "".join(raw).strip():
                    # a reasoning model that spent its tokens thinking says nothing; asking
                    # again the same way says nothing again, so the sources speak instead
                    empty = LLMFailed("the model returned an empty answer", down=False)
                    self._llm_failed(run, "generate", empty, empty)
                    return await self._extractive(ctx, run, sources, live=live, support=support)
                answer = stream.answer
                run.trace(
                    "generate",
                    f"LLM answer, {len(answer.references)} references",
                    ms=clock.ms,
                    sources=len(sources),
                    stricter=ev.stricter,
                    chars=len(answer.text),
                    warnings=list(answer.warnings),
                    **({"started_while_grading": True} if early is not None else {}),
                )
                return CheckEvent(
                    sources=sources, answer=answer, raw="".join(raw), extractive=False, run=run
                )
        if speculation is not None:
            speculation.cancel()
        if self.llm is not None and run.llm_down is not None and sources:
            run.note(stage_note("generate", run.llm_down))
        return await self._extractive(ctx, run, sources, live=live, support=support)

    async def _extractive(
        self,
        ctx: Context,
        run: RunState,
        sources: list[Source],
        *,
        live: bool,
        support: Sequence[float] = (),
    ) -> CheckEvent | FinalizeEvent:
        clock = Clock()
        # sources are numbered by now; the run knows the supplementary ones as retrieved
        extra = {s.id for s in sources if replace(s, id=0) in run.supplementary}
        sections = self.retriever if isinstance(self.retriever, Sections) else None
        # reading on keeps each source's id, and folds a source into a better one of its
        # section, whose support it then shares
        by_id = dict(zip((s.id for s in sources), support, strict=True)) if support else {}
        sources = await read_on(sections, sources, run.question.scope)
        # one passage that answers clearly better than the rest leads (pipeline/passages.py)
        standings = (
            standing([by_id[s.id] for s in sources], lead_margin=self.settings.passage_lead_margin)
            if by_id
            else None
        )
        extracted = await extractive_answer(
            run.standalone,
            sources,
            self.embedding_grader,
            self.settings,
            await self.lexicons.get(),
            support=standings,
        )
        picks = extracted.picks if extracted is not None else []
        # passages ranked after the first top_k add to an answer, but never make one alone
        alone = bool(picks) and all(p.source_id in extra for p in picks)
        run.trace(
            "generate",
            f"extractive answer from {len(picks)} sentences"
            + (", all of passages after the first top_k: none" if alone else ""),
            ms=clock.ms,
            sentences=[round(p.score, 4) for p in picks],
        )
        if extracted is None or alone:
            return FinalizeEvent(answer=None, run=run)
        if live and extracted.shown:
            ctx.write_event_to_stream(DeltaEvent(text=extracted.shown))
        return CheckEvent(
            sources=sources, answer=extracted.answer, raw=extracted.raw, extractive=True, run=run
        )

    @step
    async def check(self, ctx: Context, ev: CheckEvent) -> FinalizeEvent | RetryEvent:
        run = ev.run
        self._status(ctx, "Checking the answer…", "check")
        clock = Clock()
        answer = check_quotes(ev.answer, self.settings, sentences=ev.extractive)
        bad_quotes = [q.quote for q in answer.quotes if not q.verified]
        data: dict[str, Any] = {
            "quotes": len(answer.quotes),
            "unverified_quotes": len(bad_quotes),
        }
        refusal = not answer.references
        if ev.extractive:
            run.trace("check", "extractive: grounded by construction", ms=clock.ms, **data)
            return FinalizeEvent(answer=answer, run=run)
        if refusal:
            declined = is_refusal(answer.plain_text)
            run.trace(
                "check",
                "the answer declines" if declined else "the answer cites no source",
                ms=clock.ms,
                **data,
            )
            problem: Literal["ungrounded", "not_useful"] = (
                "not_useful" if declined else "ungrounded"
            )
            return RetryEvent(
                sources=ev.sources, answer=answer, raw=ev.raw, problem=problem, run=run
            )
        llm = self._llm_usable(run)
        if llm is None:
            run.note(stage_note("check", run.llm_down or "the language model is unavailable"))
            run.trace("check", "skipped: the LLM is down", ms=clock.ms, **data)
            return FinalizeEvent(answer=_warn(answer, "not checked against its sources"), run=run)
        cited = [
            s for s in ev.sources if any(s in r.sources for r in answer.references)
        ] or ev.sources
        try:
            verdict = await self._llm_call(
                run,
                "check",
                llm.astructured_predict(
                    prompts.AnswerCheck,
                    prompts.CHECK_PROMPT,
                    sources=prompts.source_block(cited),
                    question=run.standalone,
                    answer=ev.raw,
                ),
                self.settings.check_timeout,
            )
        except malformed_reply(TypeError) as exc:
            log.warning(
                "malformed answer check for question %s: %s",
                run.question.id,
                one_line(exc, named=True),
            )
            run.trace(
                "check",
                "malformed check reply",
                ms=clock.ms,
                error=one_line(exc, named=True),
                **data,
            )
            run.note(stage_note("check", "the model's verdict did not parse"))
            return FinalizeEvent(answer=_warn(answer, "not checked against its sources"), run=run)
        except LLMFailed:
            return FinalizeEvent(answer=_warn(answer, "not checked against its sources"), run=run)
        grounded = verdict.grounded and not bad_quotes
        run.trace(
            "check",
            f"grounded={grounded} useful={verdict.useful}",
            ms=clock.ms,
            grounded=verdict.grounded,
            useful=verdict.useful,
            unsupported=verdict.unsupported,
            **data,
        )
        if grounded and verdict.useful:
            return FinalizeEvent(answer=answer, run=run)
        problem = "ungrounded" if not grounded else "not_useful"
        return RetryEvent(
            sources=ev.sources,
            answer=answer,
            raw=ev.raw,
            problem=problem,
            unsupported=[*verdict.unsupported, *bad_quotes],
            run=run,
        )

    @step
    async def retry(
        self, ctx: Context, ev: RetryEvent
    ) -> GenerateEvent | RetrieveEvent | WebEvent | FinalizeEvent | CheckEvent:
        run = ev.run
        if run.retries >= self.settings.max_retries:
            return await self._exhausted(ctx, run, ev)
        run.retries += 1
        attempt = f"retry {run.retries}/{self.settings.max_retries}"
        if ev.problem == "ungrounded":
            run.trace(
                "retry",
                f"{attempt}: regenerate, the answer is not grounded",
                unsupported=ev.unsupported,
            )
            return GenerateEvent(sources=ev.sources, stricter=True, run=run)
        kb = [s for s in ev.sources if s.origin is Origin.KB]
        if run.rewrites == 0 and self._llm_usable(run) is not None:
            run.rewrites += 1
            query = await self._rewrite(
                run, prompts.REWRITE_KB_PROMPT, run.standalone, "kb-rewrite"
            )
            if query != run.standalone:
                run.trace("retry", f"{attempt}: not useful; rewrite and search again", query=query)
                return RetrieveEvent(query=query, run=run)
        if self._web(run) is not None and not run.web_used:
            run.trace("retry", f"{attempt}: not useful; fall back to the web")
            return WebEvent(kb=kb, run=run)
        run.trace("retry", f"{attempt}: not useful, and nothing else to try")
        return FinalizeEvent(answer=None if not ev.answer.references else ev.answer, run=run)

    async def _exhausted(
        self, ctx: Context, run: RunState, ev: RetryEvent
    ) -> FinalizeEvent | CheckEvent:
        run.trace(
            "retry", f"retries exhausted ({self.settings.max_retries}); last problem: {ev.problem}"
        )
        if ev.problem == "not_useful":
            return FinalizeEvent(answer=None if not ev.answer.references else ev.answer, run=run)
        # an answer that failed its check never reaches the user as is: quote the sources
        # instead, or, when no sentence of theirs speaks to the question, answer nothing
        result = await self._extractive(ctx, run, ev.sources, live=False)
        if isinstance(result, FinalizeEvent):
            run.note("The generated answer could not be verified against its sources.")
            warnings = (*ev.answer.warnings, "unverified claims: " + "; ".join(ev.unsupported))
            return FinalizeEvent(answer=CitedAnswer.empty("", warnings=warnings), run=run)
        run.note(
            "The generated answer could not be verified against its sources, so these are "
            "the most relevant passages instead."
        )
        return result


def _warn(answer: CitedAnswer, warning: str) -> CitedAnswer:
    return replace(answer, warnings=(*answer.warnings, warning))
