"""A question's typos read as the word the documents write (pipeline/typos.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.evidence import Lexicon
from pipeline.ports import Embedder
from pipeline.question import Question
from pipeline.typos import Speller, apart, respelled, slip, typos

# the embedder's whole words, as far as these tests need them
VOCABULARY = frozenset(
    {"retention", "expire", "image", "tenant", "deploy", "quick", "build", "cache", "type", "begin"}
)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("promethues", "prometheus"),  # two letters swapped
        ("certficate", "certificate"),  # one dropped
        ("retenttion", "retention"),  # one pressed twice
        ("retebtion", "retention"),  # b is next to n
        ("rwtention", "retention"),  # w is next to e
        ("seperate", "separate"),  # vowels are spelt for one another
        ("retension", "retention"),  # and "-sion" for "-tion"
        ("dependancy", "dependency"),
        ("retdntion", "retention"),  # d is under e, a row down
        ("retsntion", "retention"),  # s sits under w and e, half a key right of a
        ("retentionn", "retention"),  # the last letter pressed twice
        ("retentuion", "retention"),  # u pressed with the i beside it
    ],
)
def test_a_slip_of_the_finger_or_the_ear_is_a_typo(typed: str, meant: str) -> None:
    assert slip(typed, meant)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("commute", "compute"),  # m and p are far apart and sound nothing alike
        ("retentxion", "retention"),  # an extra letter near none of its neighbours
        ("pypy", "pypi"),  # y and i are neither neighbours nor both vowels
        ("flake", "flaky"),
        ("retcntion", "retention"),  # c is two rows below e
        ("comuute", "compute"),  # a far key, whatever the next letter is
        ("retent1on", "retention"),  # not a letter
    ],
)
def test_a_letter_far_from_the_right_key_is_no_typo(typed: str, meant: str) -> None:
    assert not slip(typed, meant)


def test_the_word_meant_is_the_one_the_documents_write_most() -> None:
    speller = Speller.of({"retention": 12, "detention": 3, "prometheus": 40})
    assert speller.meant("retension", VOCABULARY) == "retention"
    assert speller.meant("promethues", VOCABULARY) == "prometheus"
    # two words one slip away and written as often: no way to tell which was meant
    tied = Speller.of({"parsed": 4, "passed": 4})
    assert tied.meant("pased", VOCABULARY) is None
    assert Speller.of({"parsed": 5, "passed": 4}).meant("pased", VOCABULARY) == "parsed"


def test_a_typo_of_another_form_reads_as_the_word_in_the_form_typed() -> None:
    # the documents write "expires" and "image", the asker "exipre" and "imagges"
    speller = Speller.of({"expires": 3, "image": 2})
    assert speller.meant("exipre", VOCABULARY) == "expire"
    assert speller.meant("imagges", VOCABULARY) == "images"
    # each ending, either way: "delpoyed" is "deploy" + ed, "qiuck" what "quickly" is - ly
    speller = Speller.of({"deploy": 3, "quickly": 2, "builder": 2, "caches": 2})
    assert speller.meant("delpoyed", VOCABULARY) == "deployed"
    assert speller.meant("delpoying", VOCABULARY) == "deploying"
    assert speller.meant("qiuck", VOCABULARY) == "quick"
    assert speller.meant("biuld", VOCABULARY) == "build"
    assert speller.meant("cahce", VOCABULARY) == "cache"
    assert Speller.of({"building": 2}).meant("biuld", VOCABULARY) == "build"
    # a form as short as four letters still counts: "tpye" + s
    assert Speller.of({"type": 3}).meant("tpyes", VOCABULARY) == "types"
    # identifiers and words in other scripts are no words a typo is meant for
    assert Speller.of({"log_level": 5, "naïve": 5}).uses == {}


def test_a_word_one_slip_from_the_form_typed_wins_over_another_form() -> None:
    # "runbing" is "running", which the documents write twice, not "run" + ing, written often
    speller = Speller.of({"running": 2, "run": 50})
    assert speller.meant("runbing", VOCABULARY | {"run"}) == "running"


def test_a_form_put_back_is_spelt_as_english_spells_it_and_must_be_a_word() -> None:
    vocabulary = VOCABULARY | {"raise", "copy", "mount"}
    # "raise" + ing is "raising", "copy" + es "copies", + ed "copied"
    assert Speller.of({"raise": 5}).meant("raissing", vocabulary) == "raising"
    assert Speller.of({"copy": 5}).meant("cpoyes", vocabulary) == "copies"
    assert Speller.of({"copy": 5}).meant("cpoyed", vocabulary) == "copied"
    # "mounts" + ing and "begin" + er are no words: nothing is read rather than a non-word
    assert Speller.of({"mounts": 3}).meant("mountting", vocabulary) is None
    assert Speller.of({"begin": 3}).meant("beginner", vocabulary) is None


def test_a_word_the_documents_write_once_and_the_embedder_does_not_know_is_not_meant() -> None:
    # documentation has typos too: "beginer", once, is no word the asker's "beginner" slips for
    assert Speller.of({"beginer": 1}).meant("beginner", VOCABULARY) is None
    assert Speller.of({"beginer": 2}).meant("beginner", VOCABULARY) == "beginer"


def test_only_an_unknown_lower_case_word_outside_code_is_read_as_a_typo() -> None:
    speller = Speller.of({"retention": 12, "prometheus": 40, "tenants": 2, "gzip": 3})
    known = {"retention", "prometheus", "gzip", "gziped"}
    found = typos(
        "gzipped bodies, tenant ids, prometheus and reten set retension for Promethues in "
        "`retension.yml` and `set promethues`, see /etc/promethues and promethues.yml",
        speller,
        known.__contains__,
        VOCABULARY,
    )
    # the name, the code span, the path, the file name, a word the embedder knows ("tenant"),
    # a doubled consonant of a known word ("gzipped") and a short word are left as written
    assert found == {"retension": "retention"}
    assert typos("set retension", speller, known.__contains__, None) == {}
    # a consonant doubled after two letters that English never doubles it after is a typo
    doubled = Speller.of({"holding": 3, "gziped": 2})
    assert typos("holdding, gzipped", doubled, {"holding", "gziped"}.__contains__, VOCABULARY) == {
        "holdding": "holding"
    }
    # five letters are enough, four are not: "sacle" is "scale", "sclae" may be many words
    short = Speller.of({"scale": 3, "case": 2})
    assert typos("sacle it, in any csae", short, known.__contains__, VOCABULARY) == {
        "sacle": "scale"
    }


def test_typos_are_replaced_where_they_were_read() -> None:
    text = "is retension in `a retension` the retension?"
    assert respelled(text, {"retension": "retention"}) == (
        "is retention in `a retension` the retention?"
    )
    assert respelled(text, {}) == text


async def test_a_question_with_a_typo_is_answered_and_says_how_it_was_read(
    storage_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(storage_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    done = await p.answer(Question(text="how long is the retension of samples by default?"))
    assert done.route is Route.KNOWLEDGE_BASE
    assert done.answer.references[0].url == "https://docs.example.com/storage.md#retention"
    assert "15 days" in done.answer.text
    assert done.answer.text.startswith("Note: Read \u201cretension\u201d as \u201cretention\u201d.")
    # a real word the documents never write is no typo: the question is about something else
    done = await p.answer(Question(text="how long is the retention of samples for each tenant?"))
    assert "Read" not in done.answer.text


def test_the_documents_write_a_word_in_any_form_or_as_written() -> None:
    lexicon = Lexicon.build(["The retention of gzip bodies.", "Whatever happens, it runs."])
    assert lexicon.writes("retentions") and lexicon.writes("gzip")
    # a stop word's form has no stem among the terms, but a chunk writes it
    assert lexicon.writes("whatever") and lexicon.writes("happens")
    assert not lexicon.writes("retension")


def test_a_word_the_documents_write_as_two_words_is_read_as_them() -> None:
    lexicon = Lexicon.build(
        [
            "Mounts are not shown in the Finder's side bar.",
            "Set the time zone of the file system. Rebuild the index.",
            "Pre release notes.",
        ]
    )
    text = (
        "the sidebar, the filesystem and its timezone, a rebuild, a prerelease, `sidebar`, sideba"
    )
    found = apart(text, lexicon.writes, lexicon.writes_apart)
    assert found == {
        "sidebar": "side bar",
        "filesystem": "file system",
        "timezone": "time zone",
        "prerelease": "pre release",
    }
    # a word some chunk writes whole stays, and so do parts of fewer than three letters
    assert apart("rebuild the index", lexicon.writes, lexicon.writes_apart) == {}
    lexicon = Lexicon.build(["Go to the side bar.", "The sidebar lists mounts.", "A log in page."])
    assert apart("the sidebar, the login", lexicon.writes, lexicon.writes_apart) == {}
    assert lexicon.writes_apart("side", "bar") and not lexicon.writes_apart("bar", "side")
    # six letters are two words of three, five are not
    lexicon = Lexicon.build(["Log out of the console.", "Log on as root."])
    assert apart("logout, then logon", lexicon.writes, lexicon.writes_apart) == {
        "logout": "log out"
    }


async def test_a_closed_compound_is_searched_and_weighed_as_the_documents_two_words(
    tmp_path: Path, embedder: Embedder
) -> None:
    from tests.pipeline.devset_eval import ingest_pages

    page = (
        "# Scheduling\n\n## Time zone\n\nJobs run in UTC unless the time zone is set with"
        " `TZ`; it applies to every job.\n\n## Retries\n\nA failed job is retried three times.\n"
    )
    (tmp_path / "docs").mkdir()
    kb = ingest_pages({"scheduling.md": page}, tmp_path / "docs", tmp_path / "data")
    try:
        p = Pipeline(kb, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
        done = await p.answer(Question(text="which timezone do the jobs run in?"))
        assert done.route is Route.KNOWLEDGE_BASE
        assert done.answer.references[0].url == "https://docs.example.com/scheduling.md#time-zone"
        assert "UTC" in done.answer.text and "Read" not in done.answer.text
    finally:
        kb.close()
