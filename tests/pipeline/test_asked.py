"""What a question asks for (pipeline/asked.py): the asker's own numbers and words, what a
word may inflect, and which questions name a thing."""

from __future__ import annotations

import pytest

from pipeline.asked import _bases, asked, asks_capability, readable
from pipeline.words import spelled_as, stem


def test_only_the_askers_own_numbers_must_match_not_the_threads() -> None:
    condensed = asked(
        "and how do I undo it? endpoint answers 410 Gone", own="and how do I undo it?"
    )
    assert condensed.musts == () and spelled_as("410") in condensed.terms


def test_only_the_askers_own_words_are_judged_unreadable() -> None:
    vocabulary = frozenset({"undo", "key"})
    condensed = asked("and how do I revoke delete that? API key", own="and how do I undo that?")
    assert condensed.names == {spelled_as("API")}  # a capital still marks a name
    assert asked("how do I revoke a key?", vocabulary=vocabulary).names == {stem("revoke")}
    assert (
        asked(
            "and how do I revoke that?", own="and how do I undo that?", vocabulary=vocabulary
        ).names
        == frozenset()
    )


def test_what_a_word_may_be_an_inflection_of() -> None:
    # a base of at least three letters, in either spelling, with or without a prefix
    assert {"run", "runs"} <= _bases("runs") and "optimization" in _bases("optimisations")
    assert _bases("async") == {"async"}
    assert {"lock", "build", "blocking"} <= _bases("unlock") | _bases("rebuild") | _bases(
        "nonblocking"
    )
    assert "s" not in _bases("its")


@pytest.mark.parametrize(
    "question",
    [
        # a way, a setting or an option asks how to do something, not whether a thing is,
        # and a limit how much
        "is there a way to apply it without restarting the server?",
        "is there an option for that?",
        "are there any settings to shrink pages?",
        "is there a limit on how many cookies a response can set?",
        "is there a cap on how big an upload can be?",
        # what kind of thing, or how good, without which: the docs name the thing, seldom its
        # kind, and a guide or an example is a page about something
        "is there a tool for that?",
        "is there a guide I should read first?",
        "is there documentation on configuring TLS?",
        "is there a quick way to get a throwaway certificate?",
        "is there a built-in way to send email?",
        "is there a lighter mode?",
        # a shortcut or a trick is a quicker way
        "is there a shortcut for that?",
        "is there a trick to it?",
        # "have to" is an obligation, and "do I"/"can we" ask what the asker may do
        "does the folder ID have to be identical on both machines?",
        "do I have to restart after editing the config?",
        "can we ship it inside our product?",
        # a clause where the thing would be names nothing
        "which middleware does every app include without me adding it?",
        "is there anything I should know first?",
        "how do I install the chart?",
    ],
)
def test_only_a_question_whether_a_thing_exists_names_one(question: str) -> None:
    assert asked(question).thing == ()


@pytest.mark.parametrize(
    ("question", "capability"),
    [
        ("can I cap the upload speed for just one folder?", True),
        ("Does dapr pubsub deliver each message exactly once?", True),
        ("could traefik cache backend responses like varnish does?", True),
        ("do the async log methods work under trio?", True),
        ("and can it also write them to a file?", True),
        ("so, does it retry?", True),
        # a judgement or a behaviour the docs state, not whether it can be done
        ("is it ok to bake my app and the runtime into one image?", False),
        ("will my view answer HEAD requests if I only wrote a get method?", False),
        # what to do about the asker's situation, told first
        ("disk is full, can I just delete a few old partition folders?", False),
        ("how can I see which files go into the crate?", False),
        ("what can I do when the sidecar fails its probe?", False),
        ("cannot connect to the dashboard", False),
        ("candidates: which release channel?", False),
    ],
)
def test_a_question_whether_something_can_be_done_opens_with_can_or_does(
    question: str, capability: bool
) -> None:
    assert asks_capability(question) is capability


def test_a_word_is_readable_as_the_embedder_reads_its_base() -> None:
    vocabulary = {"compress", "spoof", "copy"}
    # by default, after a prefix and with a derivation's ending too
    assert readable("uncompressed", vocabulary) and readable("spoofer", vocabulary)
    assert not readable("uncompressed", vocabulary, prefixed=False)
    assert not readable("spoofer", vocabulary, derived=False)
    # an inflection always: "-ied" is "-y"
    assert readable("copied", vocabulary, prefixed=False, derived=False)
    assert not readable("compost", vocabulary)
