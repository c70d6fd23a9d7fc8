"""The knowledge-base leg of the workflow: condense, retrieve and grade.

``condense`` makes a thread's follow-up a question that stands alone, ``retrieve`` searches
the knowledge base within the question's scope and adds the question's attachments, and
``grade`` scores each passage and weighs its evidence (``pipeline/passage_support.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from workflows import Context, step

from citations.model import Source
from pipeline import chatter, numeronyms, pasted, prompts, shorthand, typos
from pipeline.attachments import attachment_hits, skipped_notes
from pipeline.errors import failure_reason, one_line
from pipeline.extracted import numbered
from pipeline.followup import condense_offline
from pipeline.graders import LLMGrader
from pipeline.llm_failures import (
    LLMFailed,
    classify,
    malformed_reply,
    stage_note,
    traceback_if_debug,
)
from pipeline.passage_support import best_grade, strongest_support, supplemented
from pipeline.ports import Hit
from pipeline.question import Question
from pipeline.run_state import RunState
from pipeline.speculation import Speculation
from pipeline.trace import Clock
from pipeline.usage import collecting
from pipeline.workflow_base import WorkflowBase, one_line_reply
from pipeline.workflow_events import AskEvent, GradedEvent, RetrievedEvent, RetrieveEvent

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

log = logging.getLogger("citebot.pipeline")


class RetrievalSteps(WorkflowBase):
    """condense → retrieve → grade: the question as a search, and how well each passage
    speaks to it."""

    @staticmethod
    def _unwrapped(run: RunState, question: Question) -> Question:
        """``question`` and the thread's earlier questions in the asker's own words: without the
        greeting, thanks and emoji their messages wrap them in (``pipeline/chatter.py``) and
        the config or log they paste (``pipeline/pasted.py``)."""

        def own(text: str) -> str:
            return pasted.prose(chatter.unwrapped(text))

        text = own(question.text)
        history = tuple(
            replace(turn, text=own(turn.text)) if turn.role == "user" else turn
            for turn in question.history
        )
        if text == question.text and history == question.history:
            return question
        if text != question.text:
            run.own = own(run.own)
            run.trace("condense", "read without the chat around it or what it pastes", query=text)
        return replace(question, text=text, history=history)

    @staticmethod
    def _reread(
        run: RunState,
        text: str,
        words: Mapping[str, str],
        rewrite: Callable[[str, Mapping[str, str]], str],
        how: str,
    ) -> str:
        """``text`` with ``words`` (as written → as read) rewritten by ``rewrite``, and the
        asker's own words with them; the trace says how they were read."""
        if not words:
            return text
        run.own = rewrite(run.own, words)
        run.trace("condense", f"{how} " + ", ".join(f"{k} as {v}" for k, v in words.items()))
        return rewrite(text, words)

    async def _spelled_out(self, run: RunState, question: Question) -> Question:
        """``question`` as the documents spell it: in lower case if typed in capitals, its
        numeronyms spelt out ("k8s"), its chat shorthand read out ("deps"), a closed compound
        as the two words the documents write ("sidebar") and its typos read as the words meant
        ("retension"), the last told in a note."""
        lexicon = await self.lexicons.get()
        if lexicon is None:
            return question
        # a word only the embedder knows may be a name in capitals ("SENTRY", "CLOUD RUN"):
        # read as one, it keeps the question off documents that never write it
        text = chatter.unshouted(question.text, lexicon.writes)
        if text != question.text:
            run.own = chatter.unshouted(run.own, lexicon.writes)
            run.trace("condense", "read in lower case", query=text)
        words = numeronyms.spelled_out(text, lexicon.phrases) if numeronyms.written(text) else {}
        text = self._reread(run, text, words, numeronyms.spell_out, "spelled out")
        uses = lexicon.speller.uses
        short = shorthand.spelled_out(text, lambda w: uses.get(w, 0))
        text = self._reread(run, text, short, shorthand.spell_out, "read")
        split = typos.apart(text, lexicon.writes, lexicon.writes_apart)
        text = self._reread(run, text, split, typos.respelled, "read")
        vocabulary = self.embedding_grader.embedder.vocabulary
        misspelt = typos.typos(text, lexicon.speller, lexicon.writes, vocabulary)
        if misspelt:
            run.own = typos.respelled(run.own, misspelt)
            text = typos.respelled(text, misspelt)
            read = ", ".join(f"“{k}” as “{v}”" for k, v in misspelt.items())
            run.trace("condense", "read " + read)
            run.note(f"Read {read}.")
        return question if text == question.text else replace(question, text=text)

    @step
    async def condense(self, ctx: Context, ev: AskEvent) -> RetrieveEvent:
        run = ev.run
        question = ev.question
        clock = Clock()
        previous = [t.text for t in question.history if t.role == "user" and t.text.strip()]
        question = self._unwrapped(run, question)
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
                run.standalone = one_line_reply(text) or question.text
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

    async def _search(self, query: str, scope: Sequence[str] | None) -> list[Hit]:
        """The ``top_k`` passages that decide, and the ``supplementary`` ones after them."""
        top_k, more = self.settings.top_k, self.settings.supplementary
        if not more:
            return await self.retriever.retrieve(query, top_k=top_k, scope=scope)
        deciding, deeper = await asyncio.gather(
            self.retriever.retrieve(query, top_k=top_k, scope=scope),
            self.retriever.retrieve(query, top_k=top_k + more, scope=scope),
        )
        return supplemented(deciding, deeper)

    @step
    async def retrieve(self, ctx: Context, ev: RetrieveEvent) -> RetrievedEvent:
        run = ev.run
        self._status(ctx, "Searching the knowledge base…", "retrieve")
        clock = Clock()
        scope = run.question.scope
        try:
            hits = await self._search(ev.query, scope)
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
                supplementary=self.settings.supplementary,
                scope=list(scope) if scope is not None else "all",
                scores=[round(h.score, 4) for h in hits],
            )
        for note in skipped_notes(run.question):
            run.note(note)
        attached = attachment_hits(run.question)
        if attached:
            run.trace("retrieve", f"{len(attached)} passages of the question's attachments")
        run.supplementary = frozenset(hit.source for hit in hits if hit.supplementary)
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
        # offline, passages are ordered by how closely they read on the question too; read
        # first, so that grading finds their vectors made
        closeness = (
            await self._closeness(question, ev.hits) if grader is self.embedding_grader else []
        )
        try:
            with collecting(run.usage):
                async with asyncio.timeout(self.settings.grade_timeout):
                    if isinstance(grader, LLMGrader):
                        grades, unparsed = await grader.graded(question, texts)
                    else:
                        grades, unparsed = await grader.grade(question, texts), 0
            if len(grades) != len(texts):
                raise ValueError(
                    f"grader {grader.name!r} returned {len(grades)} grades for {len(texts)} texts"
                )
            run.llm_answered = run.llm_answered or isinstance(grader, LLMGrader)
            if unparsed and unparsed == len(texts):
                run.note(stage_note("grade", "the model's grades did not parse"))
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
                reason = failure_reason(exc, self.settings.grade_timeout)
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
            closeness = await self._closeness(question, ev.hits)
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
            **({"closeness": [round(c, 4) for c in closeness]} if closeness else {}),
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
            closeness=closeness,
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
            upper = self.settings.upper
            if best_grade(hits, grades) <= upper or strongest_support(
                hits, supports, carries
            ) < self._evidence_threshold(run):
                return []
            return [hit.source for hit, grade in zip(hits, grades, strict=True) if grade >= upper]

        async def stream(sources: list[Source]) -> Any:
            messages = prompts.answer_messages(
                run.standalone, numbered(sources), stricter=False, persona=run.question.persona
            )
            return await llm.astream_chat(messages)

        return Speculation(guess, stream)
