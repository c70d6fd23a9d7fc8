"""Offline follow-ups: the new question's words lead, the thread's topic follows."""

from __future__ import annotations

from pipeline.followup import condense_offline
from pipeline.question import Turn


def test_a_follow_up_keeps_its_own_words_first_and_the_topic_after() -> None:
    history = (Turn("user", "How do I configure retries for webhooks?"),)
    query = condense_offline("what about the timeout?", history)
    assert query.startswith("what about the timeout?")
    assert "webhooks" in query and "How do I" not in query


def test_undo_asks_for_the_opposite_of_what_the_thread_did() -> None:
    history = (
        Turn("user", "What happens when my endpoint answers with 410 Gone?"),
        Turn("assistant", "A 410 Gone response stops retries and disables the endpoint. [1]"),
    )
    query = condense_offline("and how do I undo it?", history)
    assert "enable" in query.split() and "undo" not in query and "410" in query
    assert query.startswith("and how do I enable it?")
    created = (Turn("user", "How do I create an API key?"), Turn("assistant", "Run it. [1]"))
    assert "revoke" in condense_offline("and how do I undo that?", created)


def test_without_an_earlier_question_the_follow_up_stands_alone() -> None:
    assert condense_offline("and then?", (Turn("assistant", "Hi."),)) == "and then?"


def test_a_follow_up_gains_what_the_answer_named_and_the_asker_did_not() -> None:
    # "it" is the retention policy that only the assistant's turn named
    history = (
        Turn("user", "how do I keep only the last 30 days of logs automatically?"),
        Turn("assistant", "Give the index a TTL, for example `retention` set to 30d. [1]"),
    )
    query = condense_offline("and how do I switch it off later?", history)
    assert "TTL" in query.split() and "retention" in query.split()
    # its numbers are the answer's example, not terms the docs must state
    assert "30d" not in query
    # a sentence's first word is not a name, and the asker's own words are not repeated
    named = condense_offline(
        "and where do I see it?",
        (
            Turn("user", "how do I run Tracker?"),
            Turn("assistant", "Start Tracker with Docker. [1] Docker keeps its logs. [2]"),
        ),
    ).split()
    assert named[-1] == "Docker" and named.count("Docker") == 1
    assert "Start" not in named and named.count("Tracker") == 1
