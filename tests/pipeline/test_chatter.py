"""The chat a question is wrapped in is not the question (pipeline/chatter.py)."""

from __future__ import annotations

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.chatter import unshouted, unwrapped
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.ports import Embedder
from pipeline.question import Question, Turn

ASKED = "how long are samples kept?"


@pytest.mark.parametrize(
    "message",
    [
        f"hey team, {ASKED}",
        f"Hi all! {ASKED}",
        f"hi there {ASKED}",
        f"hey @alice {ASKED}",
        f"yo {ASKED}",
        f"hello {ASKED}",
        f"Good morning! {ASKED}",
        f"morning :wave: {ASKED}",
        f"quick q - {ASKED}",
        f"Quick question for y'all: {ASKED}",
        f"sorry if this is a dumb question, but {ASKED}",
        f"not sure if this is the right channel but {ASKED}",
        f"does anyone know {ASKED}",
        f"any idea {ASKED}",
        f"thanks! {ASKED}",
        f"great, {ASKED}",
        f"got it. {ASKED}",
        f"{ASKED} thanks!",
        f"{ASKED} Thanks a lot!",
        f"{ASKED} thx in advance",
        f"{ASKED} thank you so much",
        f"{ASKED} any help appreciated",
        f"{ASKED} much appreciated",
        f"{ASKED} cheers",
        f"{ASKED} TIA",
        f"{ASKED} cc",
        f"{ASKED} - cheers",
        f"{ASKED} :pray:",
        f"{ASKED} :thumbsup::skin-tone-2:",
        f"{ASKED} :+1:",
        f"{ASKED} 🙏🏽",
        f"{ASKED} <:blobthink:1234567890>",
        f"hey team :wave: quick q - {ASKED} thx in advance :pray:",
        # emphasis as chat writes it: the words stay, the marks go
        "how long are *samples* kept?",
        "how long are **samples** kept?",
        "how long are _samples_ kept?",
        "how long are samples ~stored~ kept?",
    ],
)
def test_greetings_openers_thanks_and_emoji_are_taken_off(message: str) -> None:
    assert unwrapped(message) == ASKED


@pytest.mark.parametrize(
    ("message", "question"),
    [
        # what follows a word that may be a greeting is no message: its words are the question
        ("hello world example?", "hello world example?"),
        ("morning builds fail, why?", "morning builds fail, why?"),
        # "does anyone know if" asks whether: taking it off would lose that it asks
        ("does anyone know if I can keep samples?", "does anyone know if I can keep samples?"),
        # colons inside code and paths, and an emoji written as code, are not emoji
        ("is `:smile:` rendered?", "is `:smile:` rendered?"),
        ("why does std::fs::read fail at 10:30:00?", "why does std::fs::read fail at 10:30:00?"),
        ("what does a.b:c:d mean?", "what does a.b:c:d mean?"),
        # an emoji inside the question only leaves its words
        ("I ❤️ the TSDB, how big does it get?", "I the TSDB, how big does it get?"),
        # a name in underscores and a glob are not emphasis
        ("what does __init__ do with _private?", "what does __init__ do with _private?"),
        ("does *.py match **/*.md?", "does *.py match **/*.md?"),
        ("is 2 * 3 * 4 too many?", "is 2 * 3 * 4 too many?"),
        # all wrapping, no question: left as written
        ("thanks!", "thanks!"),
        (":wave:", ":wave:"),
        ("hi", "hi"),
        # a word that ends the question is no sign-off unless it stands on its own
        ("where is the metadata?", "where is the metadata?"),
    ],
)
def test_what_is_not_wrapping_stays(message: str, question: str) -> None:
    assert unwrapped(message) == question


async def test_a_wrapped_question_is_answered_as_the_question_itself(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    plain = await p.answer(Question(text="how long is the retention of samples by default?"))
    wrapped = await p.answer(
        Question(
            text="hey team :wave: quick q - how long is the retention of samples by default? thx :pray:"
        )
    )
    assert plain.route is Route.KNOWLEDGE_BASE
    assert wrapped.route is Route.KNOWLEDGE_BASE
    assert wrapped.answer.text == plain.answer.text
    assert wrapped.answer.references[0].url == "https://docs.example.com/storage.md#retention"
    condensed = [d for d in wrapped.trace if d.stage == "condense"]
    assert condensed[0].data["query"] == "how long is the retention of samples by default?"


async def test_a_wrapped_capability_question_needs_the_capability_evidence(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    settings = PipelineSettings()
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=settings)
    done = await p.answer(Question(text="Hey everyone :wave: can prometheus keep samples forever?"))
    decided = next(d for d in done.trace if d.stage == "decide")
    assert decided.data["evidence_threshold"] == settings.evidence_capability_threshold


async def test_the_threads_earlier_questions_are_read_without_their_wrapping(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    history = (
        Turn("user", "hey team :wave: how long are samples kept? thx in advance :pray:"),
        Turn("assistant", "Prometheus keeps samples for 15 days by default."),
    )
    done = await p.answer(Question(text="cheers! and how do I keep them longer?", history=history))
    query = next(d for d in reversed(done.trace) if d.stage == "condense").data["query"]
    assert query.startswith("and how do I keep them longer?")
    for chatter in ("team", "wave", "pray", "thx", "cheers"):
        assert chatter not in query
    assert "samples" in query


#: the words a set of docs writes, lower-case
WRITTEN = frozenset({"how", "long", "are", "samples", "kept", "do", "set", "is", "on", "by"})


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("HOW LONG ARE SAMPLES KEPT?", "how long are samples kept?"),
        # a word the documents never write stays a name, which a passage must have
        ("HOW LONG ARE SAMPLES KEPT IN DATADOG?", "how long are samples kept in Datadog?"),
        ("HOW DO I SET `MAX_AGE`?", "how do I set `MAX_AGE`?"),
        # a few capitals are names and acronyms, not shouting
        ("what is TLS?", "what is TLS?"),
        ("WAL SIZE?", "WAL SIZE?"),
        ("is WAL ON by default?", "is WAL ON by default?"),
    ],
)
def test_a_message_typed_in_capitals_is_read_in_lower_case(message: str, question: str) -> None:
    assert unshouted(message, WRITTEN.__contains__) == question


async def test_a_question_in_capitals_is_answered_unless_it_names_what_the_docs_never_write(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    # every word an acronym, none of which the documents write: refused before
    done = await p.answer(Question(text="HOW LONG IS THE RETENTION OF SAMPLES BY DEFAULT?"))
    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.references[0].url == "https://docs.example.com/storage.md#retention"
    done = await p.answer(Question(text="HOW LONG IS THE RETENTION OF SAMPLES IN DATADOG?"))
    assert done.route is Route.NO_ANSWER
