"""The workflow's last step: the answer with its notes, its route and its trace."""

from __future__ import annotations

from dataclasses import replace

from workflows import Context, step
from workflows.events import StopEvent

from citations.model import CitedAnswer, Origin, Segment
from pipeline.errors import scrub
from pipeline.events import Done, Route
from pipeline.llm_failures import stage_note
from pipeline.workflow_base import WorkflowBase, drop_speculation
from pipeline.workflow_events import FinalizeEvent


class FinalizeStep(WorkflowBase):
    """finalize: the ``Done`` that ends every run."""

    @step
    async def finalize(self, ctx: Context, ev: FinalizeEvent) -> StopEvent:
        run = ev.run
        drop_speculation(run)
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
            run.note(stage_note(run.llm_down_stage, run.llm_down))
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
