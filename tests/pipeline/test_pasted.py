"""What an asker pastes is their material, not their question (pipeline/pasted.py)."""

from __future__ import annotations

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.pasted import prose
from pipeline.ports import Embedder
from pipeline.question import Question

ASKED = "how long is the retention of samples?"
CONFIG = "```yaml\nglobal:\n  scrape_interval: 15s\nstorage:\n  retention_time: 30d\n```"


@pytest.mark.parametrize(
    "message",
    [
        f"{ASKED} our config:\n{CONFIG}",
        f"here's our config:\n{CONFIG}\n{ASKED}",
        f"my prometheus.yml: {CONFIG} {ASKED}",
        f"{ASKED}\n> retention_time: 30d\n> scrape_interval: 15s",
        # a block left open runs to the end of the message
        f"{ASKED} ours:\n```\nretention_time: 30d",
        f"{ASKED} ~~~\nretention_time: 30d\n~~~",
        # a block inside the sentence leaves one space
        "how long is the ```30d``` retention of samples?",
        # six words announce
        f"{ASKED} this is what we have here:\n{CONFIG}",
    ],
)
def test_pasted_blocks_and_the_words_announcing_them_are_left_out(message: str) -> None:
    assert prose(message) == ASKED


@pytest.mark.parametrize(
    ("message", "question"),
    [
        # the asker's words ask nothing by themselves: the paste is what is asked about
        ("why? ```Error: x509: unknown authority```", "why? ```Error: x509: unknown authority```"),
        ("> Error: x509\nwhat is this?", "> Error: x509\nwhat is this?"),
        # a clause of more than a few words before a block is the question, not an announcement
        (
            "how do I keep samples longer in our setup:\n```\nx\n```",
            "how do I keep samples longer in our setup:",
        ),
        # seven words are a clause of the question
        (
            f"{ASKED} this is what we have right here:\n{CONFIG}",
            f"{ASKED} this is what we have right here:",
        ),
        # inline code is the asker's words
        ("how do I set `retention_time`?", "how do I set `retention_time`?"),
    ],
)
def test_the_askers_own_words_stay(message: str, question: str) -> None:
    assert prose(message) == question


async def test_a_question_with_a_pasted_config_is_answered_as_the_question(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    plain = await p.answer(Question(text=f"{ASKED} by default"))
    pasted = await p.answer(Question(text=f"here's our config:\n{CONFIG}\n{ASKED} by default"))
    assert plain.route is Route.KNOWLEDGE_BASE
    assert pasted.route is Route.KNOWLEDGE_BASE
    assert pasted.answer.text == plain.answer.text
