"""A quote verifies only if the source says every word of it: the words at its
edges, names, and the CJK negations and numerals around a changed token."""

from __future__ import annotations

import pytest

from citations import match_quote

MINUTES = (
    "According to the minutes, Dr. Alice Martin approved the new retention policy "
    "for all regional backups. Refunds are issued within 90 days. Shipping is free."
)


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        (
            "Bob Martin approved the new retention policy for all regional backups",
            "the quote says 'Bob' where the source says 'Alice'",
        ),
        (
            "Dana Martin approved the new retention policy for all regional backups",
            "the quote says 'Dana' where the source says 'Alice'",
        ),
        (
            "Bob approved the new retention policy for all regional backups",
            "the quote says 'Bob' where the source says 'Martin'",
        ),
        (
            "Dr. Bob Martin approved the new retention policy for all regional backups",
            "the quote says 'Bob' where the source says 'Alice'",
        ),
    ],
)
def test_a_changed_first_name_is_refused(quote: str, reason: str) -> None:
    match = match_quote(quote, MINUTES)
    assert match.score >= 90  # the wording alone would pass
    assert (match.verified, match.reason) == (False, reason)


@pytest.mark.parametrize(
    "quote",
    [
        "Alice Martin approved the new retention policy for all regional backups",
        "Martin approved the new retention policy for all regional backups",
        "Dr. Alice Martin approved the new retention policy",
    ],
)
def test_a_quote_that_starts_at_a_name_the_source_has_verifies(quote: str) -> None:
    assert match_quote(quote, MINUTES).verified


@pytest.mark.parametrize(
    ("quote", "source", "reason"),
    [
        (
            "Refunds are issued within 90 days plus",
            "Refunds are issued within 90 days.",
            "the quote says 'plus' where the source says 'nothing'",
        ),
        (
            "Refunds are issued within 90 days plus",
            MINUTES,
            "the quote says 'plus' where the source says 'Shipping'",
        ),
        (
            "Sadly refunds are issued within 90 days",
            "Refunds are issued within 90 days.",
            "the quote says 'Sadly' where the source says 'nothing'",
        ),
        (
            "The retention period for audit logs is 90 days",
            "retention period for audit logs is 90 days",
            "the quote says 'The' where the source says 'nothing'",
        ),
    ],
)
def test_words_past_either_end_of_the_source_span_are_refused(
    quote: str, source: str, reason: str
) -> None:
    match = match_quote(quote, source)
    assert match.score >= 90
    assert (match.verified, match.reason) == (False, reason)


@pytest.mark.parametrize(
    ("quote", "covers"),
    [
        # the word left out shifts the best window past the quote's first word
        (
            "The dashboard approves 849 MB of dashboard data for Emil Novak every quarter.",
            "The nightly dashboard approves 849 MB of dashboard data for Emil Novak every quarter",
        ),
        (
            "The internal stores 494 ms of endpoint data for Farah Haddad every month.",
            "The internal backup stores 494 ms of endpoint data for Farah Haddad every month",
        ),
        # ... or short of its last
        (
            "The legacy scheduler stores 667 days of dashboard data for Emil Novak week.",
            "The legacy scheduler stores 667 days of dashboard data for Emil Novak every week",
        ),
    ],
)
def test_a_quote_that_leaves_out_a_word_reaches_its_own_first_and_last_words(
    quote: str, covers: str
) -> None:
    source = f"Last year it changed. {covers}. Then it changed again."
    match = match_quote(quote, source)
    assert match.verified, match.reason
    assert match.start is not None and match.end is not None
    assert covers in source[match.start : match.end]


def test_a_first_or_last_word_with_a_typo_fixed_is_the_sources_own() -> None:
    source = "Retnetion period for audit logs is 90 days, and then they are delteed."
    quote = "Retention period for audit logs is 90 days, and then they are deleted"
    assert match_quote(quote, source).verified
    assert not match_quote(quote.replace("deleted", "kept"), source).verified
