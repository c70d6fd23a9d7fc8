"""The workflow's decide step: which route a graded question takes.

It applies the CRAG thresholds and the evidence, and keeps the passages the answer is made
from; ``knowledge_base_only`` applies the same rule for the runner's fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workflows import Context, step

from citations.model import Source
from pipeline.extractive import NOT_FOUND
from pipeline.passage_support import best_grade, carried, strongest_support
from pipeline.ports import Hit
from pipeline.run_state import RunState, Verdict
from pipeline.workflow_base import WorkflowBase
from pipeline.workflow_events import FinalizeEvent, GenerateEvent, GradedEvent, WebEvent

#: passages whose support is within this of the evidence threshold still contribute: on the
#: ten dev sets, 0.15 rather than 0.1 let two more answers cite the answering section, with the
#: fact, and changed no other answer's outcome (0.05: two fewer; 0.2: one more citation, and a
#: little more of the footnotes wrong)
KEEP_MARGIN = 0.15
#: offline, a passage graded within this of the best one may contribute though its grade is
#: under ``upper``: when the best grade only just clears ``upper``, the grade no longer tells
#: the answer's section from its neighbours and the evidence must (Click's colours section,
#: graded 0.69 next to a 0.74, was dropped). A wider spread let in passages that crowded
#: the bundled samples' install answer out (fitted on the dev sets and the samples).
GRADE_SPREAD = 0.25


class RoutingSteps(WorkflowBase):
    """decide: the CRAG verdict on the grades and the evidence, and the passages kept."""

    @step
    async def decide(
        self, ctx: Context, ev: GradedEvent
    ) -> GenerateEvent | WebEvent | FinalizeEvent:
        run = ev.run
        upper, lower = self.settings.upper, self.settings.lower
        best = best_grade(ev.hits, ev.grades)
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
            threshold = self._evidence_threshold(run)
            # no passage with the question's numbers and quoted names: nothing can carry it
            strongest = strongest_support(ev.hits, ev.support, ev.carries)
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
        floor = min(floor, max(self.settings.lower, best_grade(ev.hits, ev.grades) - GRADE_SPREAD))
        least = self.settings.evidence_threshold - KEEP_MARGIN
        weight = self.settings.closeness_weight
        closeness = ev.closeness or [0.0] * len(ev.hits)
        # the passage that carries the answer comes first, the one that reads closest on the
        # question word for word among them; others may add to it
        ranked = sorted(
            zip(ev.hits, ev.grades, ev.support, self._carries(ev), closeness, strict=True),
            key=lambda t: (not t[3], -(t[2] + weight * t[4])),
        )
        return [(hit.source, s) for hit, grade, s, _, _ in ranked if grade >= floor and s >= least]

    async def knowledge_base_only(
        self, query: str, hits: Sequence[Hit], run: RunState
    ) -> list[Source]:
        """The sources an offline run would answer ``query`` from: graded above ``upper``
        by the embedding grader *and* carried by the evidence, or none. The runner's
        fallback answers from these, so a failed run never skips the evidence check."""
        if not hits:
            return []
        closeness = await self._closeness(query, hits)
        grades = await self.embedding_grader.grade(query, [h.source.text for h in hits])
        supports, carries = await self._support(query, hits, grades, own=run.own)
        ev = GradedEvent(
            query=query,
            hits=list(hits),
            grades=list(grades),
            support=supports,
            carries=carries,
            closeness=closeness,
            run=run,
        )
        if strongest_support(hits, supports, carries) < self._evidence_threshold(run):
            return []
        return self._kept(ev, self.settings.upper, True)

    @staticmethod
    def _carries(ev: GradedEvent) -> Sequence[bool]:
        return carried(ev.carries, len(ev.support))

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
