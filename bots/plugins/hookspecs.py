"""The hooks a citebot plugin may implement.

A plugin is a module (or any object) with functions decorated by
``bots.plugins.hookimpl`` and named like the specs below. An implementation
may take any subset of a spec's arguments, in any order, and the event hooks
(``before_question``, ``after_answer``) may be ``async def``.

Registration hooks run once, when the host first needs their result; event
hooks run for every question. A plugin that raises is logged and skipped,
never fatal.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from bots.plugins.commands import ChatCommand
    from bots.plugins.context import PluginContext
    from bots.plugins.refusal import Refusal
    from citations.render.style import CitationStyle
    from connectors.knowledge.documents import Document
    from pipeline.events import Done
    from pipeline.ports import Grader
    from pipeline.question import Question

PROJECT = "citebot"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

#: Called with the connector's configured keyword arguments; yields documents.
ConnectorFactory = Callable[..., "Iterable[Document] | AsyncIterable[Document]"]
#: Called with the root ``Settings``; returns a ready grader.
GraderFactory = Callable[..., "Grader"]


@hookspec
def register_commands() -> Sequence[ChatCommand] | None:
    """Chat commands; each one becomes ``/ask NAME`` on Slack and ``/NAME`` on Discord."""


@hookspec
def register_connectors() -> Mapping[str, ConnectorFactory] | None:
    """Knowledge connectors by name: factories that produce ``connectors.knowledge.documents.Document``s."""


@hookspec
def register_graders() -> Mapping[str, GraderFactory] | None:
    """Relevance graders by name: factories that produce a ``pipeline.ports.Grader``."""


@hookspec
def register_citation_styles() -> Sequence[CitationStyle] | None:
    """Citation styles (``citations.render.CitationStyle``), each known by its ``name``."""


@hookspec
def before_question(question: Question, context: PluginContext) -> Question | Refusal | None:
    """Rewrite the question (return a new ``Question``), refuse it (return a ``Refusal``)
    or let it through (return ``None``). ``context`` says where it was asked and by whom.

    Rewrites chain: the next plugin sees the rewritten question. The first
    refusal wins and the question never reaches the pipeline. A rewrite keeps
    the asker, the place and the id, and may narrow the knowledge scope but
    never widen it.
    """


@hookspec
def after_answer(question: Question, done: Done, context: PluginContext) -> Done | None:
    """See every final answer: annotate it (return a new ``Done``, for example with
    ``add_note``), log it, or hand it to a human (return ``None``). Annotations chain
    like rewrites. Only say that a question was handed on once it really was.
    """
