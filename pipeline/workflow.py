"""The corrective, self-checking RAG workflow.

One step per stage, typed events between them::

    condense → retrieve → grade → decide ─┬─────────────→ generate → check → finalize
                 ↑                        └→ web → refine ─↗   ↑        │
                 └──────────────── retry ←──────────────────────┴────────┘

- **decide** applies the CRAG thresholds to the best grade: above ``upper`` the
  knowledge base is used, below ``lower`` the web replaces it, in between both.
- **check** asks whether the answer is grounded in its sources and whether it
  answers the question, and verifies its quotes.
- **retry** regenerates (ungrounded), or rewrites the question and retrieves
  again, then falls back to the web (not useful), at most ``max_retries`` times.

Every stage that talks to an outside service catches that service's failure,
logs it with its cause, adds a user-facing note and carries on with what the
knowledge base alone supports. The run state travels with the events.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar

# LlamaIndex's own workflow package: ``llama_index.core.workflow`` re-exports it, and
# importing that runs all of ``llama_index.core`` (over a CPU second, offline for nothing)
from workflows import Context, Workflow, step
from workflows.decorators import StepFunction
from workflows.events import StopEvent

from citations.model import CitedAnswer, Origin, Segment, Source
from citations.refusal import is_refusal
from citations.stream import CitationStream
from pipeline import numeronyms, prompts
from pipeline.attachments import attachment_hits, skipped_notes
from pipeline.config import PipelineSettings
from pipeline.errors import one_line, scrub
from pipeline.events import Done, Route
from pipeline.evidence import Lexicons
from pipeline.extracted import extractive_answer, numbered
from pipeline.extractive import NOT_FOUND, NOT_FOUND_ANYWHERE
from pipeline.followup import condense_offline
from pipeline.graders import EmbeddingGrader, LLMGrader
from pipeline.llm_failures import (
    LLMFailed,
    classify,
    malformed_reply,
    stage_note,
    traceback_if_debug,
)
from pipeline.passage_support import passage_support
from pipeline.passages import standing
from pipeline.ports import Corpus, Grader, Hit, Retriever, Sections, WebSearch
from pipeline.question import Question
from pipeline.quotes import check_quotes
from pipeline.run_state import RunState, Verdict
from pipeline.sections import read_on
from pipeline.speculation import Speculation
from pipeline.text import strips
from pipeline.trace import Clock
from pipeline.usage import collecting
from pipeline.workflow_events import (
    AskEvent,
    CheckEvent,
    DeltaEvent,
    FinalizeEvent,
    GenerateEvent,
    GradedEvent,
    RefineEvent,
    RetrievedEvent,
    RetrieveEvent,
    RetryEvent,
    StatusEvent,
    WebEvent,
)

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

log = logging.getLogger("citebot.pipeline")

T = TypeVar("T")

MAX_STRIPS = 8
#: passages whose support is within this of the evidence threshold still contribute
KEEP_MARGIN = 0.1
#: offline, a passage graded within this of the best one may contribute though its grade is
#: under ``upper``: when the best grade only just clears ``upper``, the grade no longer tells
#: the answer's section from its neighbours and the evidence must (Click's colours section,
#: graded 0.69 next to a 0.74, was dropped). A wider spread let in passages that crowded
#: the bundled samples' install answer out (fitted on the dev sets and the samples).
GRADE_SPREAD = 0.25
STRIP_CHARS = 400


class CitebotWorkflow(Workflow):
    def __init__(
        self,
        *,
        retriever: Retriever,
        grader: Grader,
        embedding_grader: EmbeddingGrader,
        llm: LLM | None,
        web: WebSearch | None,
        settings: PipelineSettings,
        web_disabled_reason: str | None = None,
        grader_note: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._steps: tuple[int, dict[str, StepFunction[..., Any]]] | None = None
        super().__init__(**kwargs)
        self.retriever = retriever
        self.grader = grader
        self.embedding_grader = embedding_grader
        self.llm = llm
        self.web = web
        self.settings = settings
        self.web_disabled_reason = web_disabled_reason or (
            "web search is off" if web is None else None
        )
        self.grader_note = grader_note
        self.lexicons = Lexicons(retriever if isinstance(retriever, Corpus) else None)

    def _get_steps(self) -> dict[str, StepFunction[..., Any]]:
        # The workflows package looks the steps up with inspect.getmembers at every step of
        # every run, about a third of the workflow's own CPU per question. They change only
        # when a step is added to the class, which bumps its _step_functions_version.
        version = type(self)._step_functions_version
        if self._steps is None or self._steps[0] != version:
            self._steps = (version, super()._get_steps())
        return self._steps[1]

    # -- helpers ------------------------------------------------------------------------

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
        rewritten = _one_line(text) or query
        run.trace(what, "rewrote the query", ms=clock.ms, query=rewritten)
        return rewritten

    # -- steps --------------------------------------------------------------------------

    async def _spelled_out(self, run: RunState, question: Question) -> Question:
        """``question`` with its numeronyms as the documents spell them out ("k8s")."""
        lexicon = await self.lexicons.get() if numeronyms.written(question.text) else None
        if lexicon is None:
            return question
        words = numeronyms.spelled_out(question.text, lexicon.phrases)
        if not words:
            return question
        run.own = numeronyms.spell_out(run.own, words)
        run.trace("condense", "spelled out " + ", ".join(f"{k} as {v}" for k, v in words.items()))
        return replace(question, text=numeronyms.spell_out(question.text, words))

    @step
    async def condense(self, ctx: Context, ev: AskEvent) -> RetrieveEvent:
        run = ev.run
        question = ev.question
        clock = Clock()
        previous = [t.text for t in question.history if t.role == "user" and t.text.strip()]
        question = await self._spelled_out(run, question)
        if not question.history:
            run.standalone = question.text
            run.trace("condense", "no thread history; the question stands alone")
            return RetrieveEvent(query=run.standalone, run=run)
        llm = self._llm_usable(run)
        if llm is not None:
            history = prompts.history_text(
                question.history, max_chars=self.settings.history_tokens * 4
            )
            try:
                text = await self._llm_call(
                    run,
                    "condense",
                    llm.apredict(prompts.CONDENSE_PROMPT, history=history, question=question.text),
                    self.settings.rewrite_timeout,
                )
                run.standalone = _one_line(text) or question.text
                run.trace(
                    "condense", "LLM rewrote the follow-up", ms=clock.ms, query=run.standalone
                )
                return RetrieveEvent(query=run.standalone, run=run)
            except malformed_reply(LLMFailed):
                pass
        run.standalone = condense_offline(question.text, question.history)
        run.trace(
            "condense",
            "the follow-up's words, then the thread's topic"
            if previous
            else "no earlier question in the thread",
            ms=clock.ms,
            query=run.standalone,
        )
        return RetrieveEvent(query=run.standalone, run=run)

    @step
    async def retrieve(self, ctx: Context, ev: RetrieveEvent) -> RetrievedEvent:
        run = ev.run
        self._status(ctx, "Searching the knowledge base…", "retrieve")
        clock = Clock()
        scope = run.question.scope
        try:
            hits = await self.retriever.retrieve(ev.query, top_k=self.settings.top_k, scope=scope)
        except Exception as exc:
            log.error(
                "knowledge base search failed for question %s: %s",
                run.question.id,
                one_line(exc, named=True),
                exc_info=traceback_if_debug(log, exc),
            )
            run.note(f"The knowledge base could not be searched ({one_line(exc, named=True)}).")
            run.trace("retrieve", "search failed", ms=clock.ms, error=one_line(exc, named=True))
            hits = []
        else:
            run.trace(
                "retrieve",
                f"{len(hits)} chunks",
                ms=clock.ms,
                query=ev.query,
                top_k=self.settings.top_k,
                scope=list(scope) if scope is not None else "all",
                scores=[round(h.score, 4) for h in hits],
            )
        for note in skipped_notes(run.question):
            run.note(note)
        attached = attachment_hits(run.question)
        if attached:
            run.trace("retrieve", f"{len(attached)} passages of the question's attachments")
        return RetrievedEvent(query=ev.query, hits=hits + attached, run=run)

    @step
    async def grade(self, ctx: Context, ev: RetrievedEvent) -> GradedEvent:
        run = ev.run
        if not ev.hits:
            return GradedEvent(query=ev.query, hits=[], grades=[], run=run)
        clock = Clock()
        texts = [hit.source.text for hit in ev.hits]
        # grade against the user's question: a keyword rewrite is for search only
        question = run.standalone or ev.query
        grader = self.grader
        if isinstance(grader, LLMGrader) and run.llm_down is not None:
            grader = self.embedding_grader
        llm = self._llm_usable(run)
        if (
            isinstance(grader, LLMGrader)
            and llm is not None
            and self.settings.speculate
            and not run.streamed
            and run.speculation is None
        ):
            with collecting(run.usage):
                run.speculation = self._speculate(run, llm, question, ev.hits)
        try:
            with collecting(run.usage):
                async with asyncio.timeout(self.settings.grade_timeout):
                    grades = await grader.grade(question, texts)
            if len(grades) != len(texts):
                raise ValueError(
                    f"grader {grader.name!r} returned {len(grades)} grades for {len(texts)} texts"
                )
            run.llm_answered = run.llm_answered or isinstance(grader, LLMGrader)
        except Exception as exc:
            if grader is self.embedding_grader:
                log.error(
                    "grading failed for question %s: %s",
                    run.question.id,
                    one_line(exc, named=True),
                    exc_info=traceback_if_debug(log, exc),
                )
                run.trace(
                    "grade",
                    "grading failed; nothing counts as relevant",
                    ms=clock.ms,
                    error=one_line(exc, named=True),
                )
                return GradedEvent(query=ev.query, hits=ev.hits, grades=[0.0] * len(texts), run=run)
            if isinstance(grader, LLMGrader):
                failure = classify(
                    exc, seconds=self.settings.grade_timeout, answered=run.llm_answered
                )
                self._llm_failed(run, "grade", failure, exc)
            else:
                reason = (
                    f"it did not answer within {self.settings.grade_timeout:g} s"
                    if isinstance(exc, TimeoutError)
                    else one_line(exc, named=True)
                )
                log.error(
                    "grader %r failed for question %s: %s",
                    grader.name,
                    run.question.id,
                    reason,
                    exc_info=traceback_if_debug(log, exc),
                )
                run.trace(
                    "grade",
                    f"grader {grader.name!r} failed; using the embedding grader",
                    error=reason,
                )
            grader = self.embedding_grader
            grades = await self.embedding_grader.grade(question, texts)
        supports, carries = await self._support(question, ev.hits, grades, own=run.own)
        note = {"note": self.grader_note} if self.grader_note else {}
        run.trace(
            "grade",
            f"graded {len(texts)} chunks with {grader.name!r}, best {max(grades):.2f}",
            ms=clock.ms,
            grades=[round(g, 4) for g in grades],
            support=[round(s, 4) for s in supports],
            **(
                {"lacking": [i for i, c in enumerate(carries) if not c]} if not all(carries) else {}
            ),
            grader=grader.name,
            graded=len(texts),
            **note,
        )
        return GradedEvent(
            query=ev.query,
            hits=ev.hits,
            grades=list(grades),
            support=supports,
            carries=carries,
            run=run,
        )

    def _speculate(
        self, run: RunState, llm: LLM, question: str, hits: Sequence[Hit]
    ) -> Speculation:
        """The answer over the passages the embedding grade keeps as "correct", started now
        (see ``pipeline/speculation.py``), numbered in retrieval order."""

        async def guess() -> list[Source]:
            # only when the cheap grade and the evidence already say "the knowledge base
            # answers this": elsewhere the call would mostly be thrown away
            grades = await self.embedding_grader.grade(question, [h.source.text for h in hits])
            supports, carries = await self._support(question, hits, grades, own=run.own)
            carrying = [s for s, c in zip(supports, carries, strict=True) if c]
            upper = self.settings.upper
            if (
                max(grades) <= upper
                or max(carrying, default=-1.0) < self.settings.evidence_threshold
            ):
                return []
            return [hit.source for hit, grade in zip(hits, grades, strict=True) if grade >= upper]

        async def stream(sources: list[Source]) -> Any:
            messages = prompts.answer_messages(
                run.standalone, numbered(sources), stricter=False, persona=run.question.persona
            )
            return await llm.astream_chat(messages)

        return Speculation(guess, stream)

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

    @step
    async def decide(
        self, ctx: Context, ev: GradedEvent
    ) -> GenerateEvent | WebEvent | FinalizeEvent:
        run = ev.run
        upper, lower = self.settings.upper, self.settings.lower
        best = max(ev.grades, default=0.0)
        verdict: Verdict = (
            "correct" if best > upper else "incorrect" if best < lower else "ambiguous"
        )
        data: dict[str, Any] = {"best": round(best, 4), "upper": upper, "lower": lower}
        unsupported = False
        judged_by_llm = self.grader is not self.embedding_grader and run.llm_down is None
        if ev.support and verdict != "incorrect":
            # an embedding grade says "on the topic"; the evidence says "it speaks to the
            # question". An LLM's grade already judges that, so the evidence only settles an
            # ambiguous grade when no web search can add to the knowledge base.
            threshold = self.settings.evidence_threshold
            carrying = [s for s, c in zip(ev.support, self._carries(ev), strict=True) if c]
            # no passage with the question's numbers and quoted names: nothing can carry it
            strongest = max(carrying, default=-1.0)
            data["support"] = round(strongest, 4)
            data["evidence_threshold"] = threshold
            kb_alone = self._web(run) is None or run.web_used
            if strongest < threshold and (
                not judged_by_llm or (verdict == "ambiguous" and kb_alone)
            ):
                unsupported = True
                verdict = "incorrect"
        run.verdict = verdict
        floor = upper if verdict == "correct" else lower
        supported = (
            [] if verdict == "incorrect" else self._kept_supported(ev, floor, not judged_by_llm)
        )
        kept = [source for source, _ in supported]
        support = [s for _, s in supported]
        data["kept"] = len(kept)
        if unsupported:
            data["evidence"] = (
                "no passage speaks to the question's terms"
                if any(self._carries(ev))
                else "no passage has the question's numbers or quoted names"
            )
        web_off = self._web(run) is None
        if web_off:
            data["web"] = self._web_off_reason(run)
        if verdict == "correct":
            run.trace("decide", f"correct: best grade {best:.2f} > upper {upper}", **data)
            return GenerateEvent(sources=kept, support=support, run=run)
        if web_off or run.web_used:
            why = "web search already tried" if run.web_used else self._web_off_reason(run)
            if verdict == "ambiguous":
                data["web"] = why
                run.trace("decide", f"ambiguous, but {why}: knowledge base only", **data)
                return GenerateEvent(sources=kept, support=support, run=run)
            data["web"] = why
            reason = (
                f"no evidence: best support {data['support']:.2f} < {data['evidence_threshold']}"
                if unsupported
                else f"best grade {best:.2f} < lower {lower}"
            )
            run.trace("decide", f"incorrect: {reason}, and {why}", **data)
            return FinalizeEvent(answer=None, run=run, not_found=self._not_found(ev, NOT_FOUND))
        if verdict == "ambiguous":
            run.trace(
                "decide",
                f"ambiguous: {lower} <= best grade {best:.2f} <= {upper}: knowledge base and web",
                **data,
            )
        else:
            run.trace(
                "decide", f"incorrect: best grade {best:.2f} < lower {lower}: web instead", **data
            )
        return WebEvent(kb=kept, run=run)

    def _kept(self, ev: GradedEvent, floor: float, by_support: bool) -> list[Source]:
        """Hits graded at least ``floor``; offline, only those with enough support, best first,
        and the floor falls to ``GRADE_SPREAD`` below the best grade (not below ``lower``)."""
        return [source for source, _ in self._kept_supported(ev, floor, by_support)]

    def _kept_supported(
        self, ev: GradedEvent, floor: float, by_support: bool
    ) -> list[tuple[Source, float]]:
        """``_kept``'s sources, each with its support (its grade when there is none)."""
        if not ev.support or not by_support:
            scores = ev.support or ev.grades
            graded = sorted(zip(ev.hits, ev.grades, scores, strict=True), key=lambda t: -t[1])
            return [(hit.source, s) for hit, grade, s in graded if grade >= floor]
        floor = min(floor, max(self.settings.lower, max(ev.grades) - GRADE_SPREAD))
        least = self.settings.evidence_threshold - KEEP_MARGIN
        # the passage that carries the answer comes first; others may add to it
        ranked = sorted(
            zip(ev.hits, ev.grades, ev.support, self._carries(ev), strict=True),
            key=lambda t: (not t[3], -t[2]),
        )
        return [(hit.source, s) for hit, grade, s, _ in ranked if grade >= floor and s >= least]

    async def knowledge_base_only(
        self, query: str, hits: Sequence[Hit], run: RunState
    ) -> list[Source]:
        """The sources an offline run would answer ``query`` from: graded above ``upper``
        by the embedding grader *and* carried by the evidence, or none. The runner's
        fallback answers from these, so a failed run never skips the evidence check."""
        if not hits:
            return []
        grades = await self.embedding_grader.grade(query, [h.source.text for h in hits])
        supports, carries = await self._support(query, hits, grades, own=run.own)
        ev = GradedEvent(
            query=query,
            hits=list(hits),
            grades=list(grades),
            support=supports,
            carries=carries,
            run=run,
        )
        carrying = [s for s, c in zip(supports, self._carries(ev), strict=True) if c]
        if max(carrying, default=-1.0) < self.settings.evidence_threshold:
            return []
        return self._kept(ev, self.settings.upper, True)

    @staticmethod
    def _carries(ev: GradedEvent) -> list[bool]:
        return ev.carries or [True] * len(ev.support)

    def _not_found(self, ev: GradedEvent, text: str) -> str:
        """``text``, and with ``closest_match`` on, the closest passage's title, unlinked,
        when that passage is on the topic (graded above ``upper``): for a question the
        documents are not about at all, any title would only be noise."""
        if not self.settings.closest_match or not ev.hits:
            return text
        scores = ev.support or ev.grades
        closest, grade, _ = max(zip(ev.hits, ev.grades, scores, strict=True), key=lambda t: t[2])
        title = " ".join(closest.source.title.split())
        if not title or grade <= self.settings.upper:
            return text
        return f"{text}\n\nClosest match, which may not answer it: “{title}”."

    @step
    async def web_search(
        self, ctx: Context, ev: WebEvent
    ) -> RefineEvent | GenerateEvent | FinalizeEvent:
        run = ev.run
        web = self._web(run)
        assert web is not None
        run.web_used = True
        _drop_speculation(run)
        query = await self._rewrite(run, prompts.REWRITE_WEB_PROMPT, run.standalone, "web-rewrite")
        self._status(ctx, "Searching the web…", "web")
        clock = Clock()
        try:
            async with asyncio.timeout(self.settings.web_timeout):
                pages = await web.search(query)
        except Exception as exc:
            reason = (
                f"no reply within {self.settings.web_timeout:g} s"
                if isinstance(exc, TimeoutError)
                else one_line(exc, named=True)
            )
            log.warning(
                "web search failed for question %s: %s",
                run.question.id,
                reason,
                exc_info=traceback_if_debug(log, exc),
            )
            run.note(f"Web search failed ({reason}), so this answer uses the knowledge base only.")
            run.trace("web", "search failed", ms=clock.ms, error=reason)
            if ev.kb:
                return GenerateEvent(sources=ev.kb, run=run)
            return FinalizeEvent(answer=None, run=run)
        run.trace(
            "web",
            f"{len(pages)} pages",
            ms=clock.ms,
            query=query,
            urls=[p.url for p in pages],
        )
        if not pages and not ev.kb:
            return FinalizeEvent(answer=None, run=run, not_found=NOT_FOUND_ANYWHERE)
        return RefineEvent(pages=pages, kb=ev.kb, run=run)

    @step
    async def refine(self, ctx: Context, ev: RefineEvent) -> GenerateEvent | FinalizeEvent:
        run = ev.run
        clock = Clock()
        pieces: list[Source] = []
        for page in ev.pages:
            base = page.locator.start or 0
            for span in strips(page.text, max_chars=STRIP_CHARS):
                pieces.append(
                    Source(
                        id=0,
                        url=page.url,
                        title=page.title,
                        text=span.text,
                        locator=replace(page.locator, start=base + span.start, end=base + span.end),
                        origin=Origin.WEB,
                    )
                )
        grades = (
            await self.embedding_grader.grade(run.standalone, [p.text for p in pieces])
            if pieces
            else []
        )
        ranked = sorted(zip(pieces, grades, strict=True), key=lambda pair: -pair[1])
        kept = [piece for piece, grade in ranked if grade >= self.settings.lower][:MAX_STRIPS]
        run.trace(
            "refine",
            f"kept {len(kept)} of {len(pieces)} knowledge strips from {len(ev.pages)} pages",
            ms=clock.ms,
            grades=[round(g, 4) for _, g in ranked[:MAX_STRIPS]],
        )
        sources = [*ev.kb, *kept]
        if not sources:
            return FinalizeEvent(answer=None, run=run, not_found=NOT_FOUND_ANYWHERE)
        return GenerateEvent(sources=sources, run=run)

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
                tail = stream.close()
                if tail and live:
                    ctx.write_event_to_stream(DeltaEvent(text=tail))
            except Exception as exc:
                failure = classify(
                    exc, seconds=self.settings.generate_timeout, answered=run.llm_answered
                )
                self._llm_failed(run, "generate", failure, exc)
            else:
                run.llm_answered = True
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
        run.trace(
            "generate",
            f"extractive answer from {len(picks)} sentences",
            ms=clock.ms,
            sentences=[round(p.score, 4) for p in picks],
        )
        if extracted is None:
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

    @step
    async def finalize(self, ctx: Context, ev: FinalizeEvent) -> StopEvent:
        run = ev.run
        _drop_speculation(run)
        answer = ev.answer
        if answer is None or not answer.references:
            route = Route.NO_ANSWER
            body = (
                answer.plain_text.strip()
                if answer is not None and answer.plain_text.strip()
                else ev.not_found
            )
            answer = CitedAnswer.empty(body, warnings=answer.warnings if answer is not None else ())
        else:
            origins = {ref.origin for ref in answer.references}
            route = (
                Route.MIXED
                if len(origins) > 1
                else Route.WEB
                if Origin.WEB in origins
                else Route.KNOWLEDGE_BASE
            )
        if run.llm_down is not None and not any(scrub(run.llm_down) in n for n in run.notes):
            run.note(run.llm_down[:1].upper() + run.llm_down[1:] + ".")
        if run.notes:
            notes = "\n".join(f"Note: {n}" for n in run.notes)
            answer = replace(
                answer,
                segments=(Segment(notes + "\n\n"), *answer.segments),
                warnings=(*answer.warnings, *run.notes),
            )
        run.trace(
            "finalize",
            f"route {route.value}",
            route=route.value,
            verdict=run.verdict or "",
            references=[r.url for r in answer.references],
            retries=run.retries,
            **run.usage.data(),
        )
        done = Done(
            answer=answer, route=route, trace=run.tracer.freeze(), question=run.question.text
        )
        return StopEvent(result=done)


def _drop_speculation(run: RunState) -> None:
    if run.speculation is not None:
        run.speculation.cancel()
        run.speculation = None


def _warn(answer: CitedAnswer, warning: str) -> CitedAnswer:
    return replace(answer, warnings=(*answer.warnings, warning))


def _one_line(text: Any) -> str:
    line = " ".join(str(text).split())
    return line.strip().strip('"').strip()


__all__: Sequence[str] = ("CitebotWorkflow",)
