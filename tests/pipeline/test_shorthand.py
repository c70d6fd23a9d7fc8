"""Chat shorthand read as the words the documents write (pipeline/shorthand.py)."""

from __future__ import annotations

from collections import Counter

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.ports import Embedder
from pipeline.question import Question
from pipeline.shorthand import spell_out, spelled_out

#: chunks that write each word, as a set of docs might
USES = Counter({"dependencies": 40, "minimum": 3, "minute": 9, "app": 50, "application": 12})


def test_shorthand_the_documents_never_write_is_read_as_the_long_form_they_write() -> None:
    text = "how do I pin deps w/o a lock file, r they checked every min?"
    found = spelled_out(text, USES.__getitem__)
    # of two long forms, the one written more; everyday words always
    assert found == {"deps": "dependencies", "w/o": "without", "r": "are", "min": "minute"}
    assert spell_out(text, found) == (
        "how do I pin dependencies without a lock file, are they checked every minute?"
    )


def test_shorthand_the_documents_write_or_whose_long_form_they_do_not_stays() -> None:
    # "app" is the documents' own word; no chunk writes "certificate"
    assert spelled_out("where does the app keep its certs?", USES.__getitem__) == {}


def test_shorthand_in_code_paths_flags_and_names_stays() -> None:
    for text in (
        "what does `deps` do?",
        "what does `cargo deps list` do?",
        "is target/deps cleaned?",
        "what is --deps for?",
        "does deps.json matter?",
        "what is my-deps?",
        "does Deps matter?",
    ):
        assert spelled_out(text, USES.__getitem__) == {}, text
    found = {"deps": "dependencies"}
    assert spell_out("`deps` and deps", found) == "`deps` and dependencies"
    assert spell_out("`x deps y` and deps", found) == "`x deps y` and dependencies"
    # a word in code before the shorthand outside it does not hide it
    assert spelled_out("is `x deps y` or deps right?", USES.__getitem__) == {"deps": "dependencies"}
    assert spell_out("deps `x`", {}) == "deps `x`"


async def test_a_question_in_shorthand_is_answered_and_the_trace_says_how_it_was_read(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    plain = await p.answer(Question(text="is the retention for the whole database or per series?"))
    # refused when "db" was a word no chunk has
    short = await p.answer(Question(text="is the retention for the whole db or per series?"))
    assert plain.route is Route.KNOWLEDGE_BASE
    assert short.route is Route.KNOWLEDGE_BASE
    assert short.answer.text == plain.answer.text
    assert any(d.stage == "condense" and d.detail == "read db as database" for d in short.trace)
