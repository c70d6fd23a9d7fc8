"""The web leg of the workflow: search the web, then keep the strips of its pages that
speak to the question."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from workflows import Context, step

from citations.model import Origin, Source
from pipeline import prompts
from pipeline.errors import failure_reason
from pipeline.extractive import NOT_FOUND_ANYWHERE
from pipeline.llm_failures import traceback_if_debug
from pipeline.text import strips
from pipeline.trace import Clock
from pipeline.workflow_base import WorkflowBase, drop_speculation
from pipeline.workflow_events import FinalizeEvent, GenerateEvent, RefineEvent, WebEvent

log = logging.getLogger("citebot.pipeline")

MAX_STRIPS = 8
STRIP_CHARS = 400


class WebSteps(WorkflowBase):
    """web → refine: the web's pages, cut into strips, and the strips that speak to the
    question."""

    @step
    async def web_search(
        self, ctx: Context, ev: WebEvent
    ) -> RefineEvent | GenerateEvent | FinalizeEvent:
        run = ev.run
        web = self._web(run)
        assert web is not None
        run.web_used = True
        drop_speculation(run)
        query = await self._rewrite(run, prompts.REWRITE_WEB_PROMPT, run.standalone, "web-rewrite")
        self._status(ctx, "Searching the web…", "web")
        clock = Clock()
        try:
            async with asyncio.timeout(self.settings.web_timeout):
                pages = await web.search(query)
        except Exception as exc:
            reason = failure_reason(exc, self.settings.web_timeout)
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
