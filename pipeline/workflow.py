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

The stages are grouped by leg, one module each, and ``CitebotWorkflow`` is made of them:
``pipeline/retrieval.py`` (condense, retrieve, grade), ``pipeline/routing.py`` (decide),
``pipeline/web_leg.py`` (web, refine), ``pipeline/generation.py`` (generate, check,
retry) and ``pipeline/finalizing.py``; what they share is in ``pipeline/workflow_base.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workflows.decorators import StepFunction

from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicons
from pipeline.finalizing import FinalizeStep
from pipeline.generation import GenerationSteps
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Corpus, Grader, Retriever, WebSearch
from pipeline.retrieval import RetrievalSteps
from pipeline.routing import RoutingSteps
from pipeline.web_leg import WebSteps

if TYPE_CHECKING:
    from llama_index.core.llms import LLM


class CitebotWorkflow(RetrievalSteps, RoutingSteps, WebSteps, GenerationSteps, FinalizeStep):
    """The stage groups together, with the collaborators they share."""

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


__all__: Sequence[str] = ("CitebotWorkflow",)
