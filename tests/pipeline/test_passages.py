"""Which passage leads an offline answer: one that answers clearly better than the rest."""

from __future__ import annotations

import pytest

from citations.model import Locator, Source
from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicon
from pipeline.extractive import extract
from pipeline.graders import EmbeddingGrader
from pipeline.passages import standing
from pipeline.ports import Embedder

# an FAQ whose heading is the question; its answer never repeats the subject
GATEWAY = """## Why do my office laptops always connect through the gateway?

A device that joins a new wireless network marks it as public by default. On a public \
network the firewall blocks incoming connections, so two devices cannot reach each \
other directly. Mark the network as private on both."""

# a neighbouring answer that mentions the gateway in passing, in the question's words
SLOW = """## Why is copying files so slow?

If your laptops connect through the gateway, copying is limited by the gateway's bandwidth. \
Check the connection type in the device list first."""


def source(text: str, n: int) -> Source:
    return Source(
        id=n, url=f"https://docs.example/faq#{n}", title=f"FAQ {n}", text=text, locator=Locator()
    )


def test_a_clear_lead_counts_twice() -> None:
    assert standing([1.0, 0.85, 0.6], lead_margin=0.1) == pytest.approx([1.15, 0.85, 0.6])
    # exactly at the margin still leads, wherever the leader is
    assert standing([0.75, 1.0], lead_margin=0.25) == [0.75, 1.25]


def test_close_supports_leave_the_choice_to_the_sentences() -> None:
    assert standing([1.0, 0.95, 0.6], lead_margin=0.1) == [1.0, 0.95, 0.6]
    # two chunks of one section share its support: neither leads the other
    assert standing([1.0, 1.0, 0.5], lead_margin=0.1) == [1.0, 1.0, 0.5]


def test_a_margin_of_zero_turns_it_off_and_a_lone_passage_leads_no_one() -> None:
    assert standing([1.0, 0.2], lead_margin=0.0) == [1.0, 0.2]
    assert standing([0.9], lead_margin=0.1) == [0.9]
    assert standing([], lead_margin=0.1) == []


def test_the_default_margin_is_the_setting() -> None:
    assert PipelineSettings().passage_lead_margin == 0.1


async def lead(
    question: str, sources: list[Source], embedder: Embedder, support: list[float]
) -> str:
    lexicon = Lexicon.build(s.text for s in sources)
    _, picks = await extract(
        question, sources, EmbeddingGrader(embedder), limit=1, lexicon=lexicon, support=support
    )
    return max(picks, key=lambda p: p.score).text


async def test_the_passage_that_answers_as_a_whole_leads_over_an_echo(embedder: Embedder) -> None:
    question = "both our laptops only ever connect through the gateway at the office, why?"
    sources = [source(GATEWAY, 1), source(SLOW, 2)]
    support = [1.2, 0.95]
    # sentence by sentence, the neighbour's echo of the question wins
    assert (await lead(question, sources, embedder, support)).startswith("If your laptops connect")
    led = standing(support, lead_margin=0.1)
    assert (await lead(question, sources, embedder, led)).startswith("On a public network")
    # the neighbour still adds to the answer: it is outranked, not pushed out
    lexicon = Lexicon.build(s.text for s in sources)
    _, picks = await extract(
        question, sources, EmbeddingGrader(embedder), limit=3, lexicon=lexicon, support=led
    )
    assert {p.source_id for p in picks} == {1, 2}
