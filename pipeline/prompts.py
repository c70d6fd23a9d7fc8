"""Every prompt the pipeline sends. The model sees source ids and titles, never URLs.

Each prompt starts with a ``Task:`` line so that logs, traces and scripted test
models can tell the calls apart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from citations.model import Source
from pipeline.question import Turn

if TYPE_CHECKING:
    from llama_index.core.llms import ChatMessage
    from llama_index.core.prompts import PromptTemplate

    CONDENSE_PROMPT: PromptTemplate
    REWRITE_KB_PROMPT: PromptTemplate
    REWRITE_WEB_PROMPT: PromptTemplate
    CHECK_PROMPT: PromptTemplate


@functools.cache
def template(text: str) -> PromptTemplate:
    """The LlamaIndex template of a prompt text, built when an LLM first needs it: the
    import costs over a CPU second, and an offline question sends no prompt."""
    from llama_index.core.prompts import PromptTemplate

    return PromptTemplate(text)


ANSWER_SYSTEM = (
    "Task: answer with citations.\n"
    "You answer questions for a team using only the numbered sources you are given.\n"
    "Rules:\n"
    "- After every sentence that states a fact, cite the ids of the sources that support it "
    "in square brackets, like [1] or [2][3].\n"
    "- Use only what the sources say. Do not add facts from memory.\n"
    "- If the sources do not answer the question, say that you could not find the answer, "
    "and cite nothing.\n"
    "- Never write URLs and never add a list of sources at the end; the footnotes are added for you.\n"
    "- Be brief: a few sentences, or a short list."
)

STRICTER = (
    "\n\nYour previous answer made claims the sources do not support. This time, state only "
    "what the sources say, close to their wording, and cite every sentence."
)


def source_block(sources: Sequence[Source], *, chars: int = 1800) -> str:
    """The sources as the model sees them: ``[id] title`` and the text. No URLs."""
    parts = []
    for source in sources:
        text = source.text if len(source.text) <= chars else source.text[:chars] + " …"
        parts.append(f"[{source.id}] {source.title}\n{text}")
    return "\n\n".join(parts)


PERSONA = "\n\nIn this channel the team also asks for the following; the rules above come first: "


def answer_messages(
    question: str, sources: Sequence[Source], *, stricter: bool, persona: str = ""
) -> list[ChatMessage]:
    system = ANSWER_SYSTEM + (STRICTER if stricter else "")
    if persona.strip():
        system += PERSONA + " ".join(persona.split())
    user = f"Sources:\n\n{source_block(sources)}\n\nQuestion: {question}"
    from llama_index.core.llms import ChatMessage, MessageRole

    return [
        ChatMessage(role=MessageRole.SYSTEM, content=system),
        ChatMessage(role=MessageRole.USER, content=user),
    ]


_CONDENSE = (
    "Task: condense a follow-up.\n"
    "Rewrite the follow-up message as one standalone question that can be understood "
    "without the conversation. Keep names, versions and numbers. Reply with the question only.\n\n"
    "Conversation:\n{history}\n\n"
    "Follow-up: {question}\n\n"
    "Standalone question:"
)

_REWRITE_KB = (
    "Task: rewrite for the knowledge base.\n"
    "A search of the team's documentation for this question found nothing useful. Rewrite it "
    "as a search query with the key terms and likely synonyms. Reply with the query only.\n\n"
    "Question: {question}\n\n"
    "Query:"
)

_REWRITE_WEB = (
    "Task: rewrite for web search.\n"
    "Rewrite the question as a short web search query with the key terms. Reply with the "
    "query only.\n\n"
    "Question: {question}\n\n"
    "Query:"
)


class AnswerCheck(BaseModel):
    """Is an answer supported by its sources, and does it answer the question?"""

    grounded: bool = Field(description="every claim is supported by the cited sources")
    useful: bool = Field(description="the answer addresses the question")
    unsupported: list[str] = Field(
        default_factory=list, description="claims that the sources do not support"
    )


_CHECK = (
    "Task: check an answer.\n"
    "Decide two things about the answer below.\n"
    "grounded: is every claim in the answer supported by the numbered sources? A claim with a "
    "number, name or negation that differs from the sources is not supported.\n"
    "useful: does the answer address the question (an answer that only says it could not find "
    "anything is not useful)?\n"
    "List the unsupported claims, if any.\n\n"
    "Sources:\n\n{sources}\n\n"
    "Question: {question}\n\n"
    "Answer:\n{answer}\n"
)


def history_text(history: Sequence[Turn], *, max_chars: int) -> str:
    """The newest turns that fit ``max_chars``, oldest first."""
    lines: list[str] = []
    used = 0
    for turn in reversed(history):
        line = f"{turn.role}: {' '.join(turn.text.split())}"
        if used + len(line) > max_chars and lines:
            break
        lines.append(line[:max_chars])
        used += len(line)
    return "\n".join(reversed(lines))


_TEMPLATES = {
    "CONDENSE_PROMPT": _CONDENSE,
    "REWRITE_KB_PROMPT": _REWRITE_KB,
    "REWRITE_WEB_PROMPT": _REWRITE_WEB,
    "CHECK_PROMPT": _CHECK,
}


def __getattr__(name: str) -> Any:
    if name in _TEMPLATES:
        return template(_TEMPLATES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
