"""A quote verifies only if the source says every word of it: the words at its
edges, names, and the CJK negations and numerals around a changed token."""

from __future__ import annotations

import pytest

from citations import match_quote

MINUTES = (
    "According to the minutes, Dr. Alice Martin approved the new retention policy "
    "for all regional backups. Refunds are issued within 90 days. Shipping is free."
)


def _refused_though_close(quote: str, source: str) -> str:
    """The reason ``quote`` is refused, though its wording alone would pass."""
    match = match_quote(quote, source)
    assert match.score >= 90
    assert not match.verified
    return match.reason


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
    assert _refused_though_close(quote, MINUTES) == reason


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
    assert _refused_though_close(quote, source) == reason


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


TEXT = (
    "The retention period for audit logs is 90 days. After that, logs are deleted "
    "automatically. The API does not support streaming uploads, and requests larger "
    "than 25 MB are rejected. Dr. Alice Martin approved the policy in March 2021."
)


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        # a word cut in half at one end does not excuse the extra word next to it
        (
            "tention policy period for audit logs is 90 days. After that, logs are deleted "
            "automatically",
            "the quote says 'tention policy' where the source says 'The retention'",
        ),
        (
            "The retention period for audit logs is 90 days plus Aft",
            "the quote says 'plus Aft' where the source says 'After'",
        ),
    ],
)
def test_an_extra_word_beside_a_cut_word_is_refused(quote: str, reason: str) -> None:
    match = match_quote(quote, TEXT)
    assert (match.verified, match.reason) == (False, reason)


def test_a_source_word_that_merely_ends_with_the_quotes_word_is_not_it() -> None:
    match = match_quote(
        "Backups of the audit logs are stored", "Backups of the audit logs are restored nightly."
    )
    assert (match.verified, match.reason) == (
        False,
        "the quote says 'stored' where the source says 'restored'",
    )


@pytest.mark.parametrize(
    "quote",
    [
        "The retention period for audit logs is 90 da",  # the last word cut in half
        "tention peroid for audit logs is 90 days",  # cut, then a typo fixed
        "After that, logs are deleted automaticaly. Th",  # a typo fixed, then cut
    ],
)
def test_a_cut_word_beside_a_typo_is_the_sources_own(quote: str) -> None:
    assert match_quote(quote, TEXT).verified


def test_a_quote_with_no_word_in_common_verifies_only_if_every_word_is_a_typo() -> None:
    source = "internationalisation localisation"
    assert match_quote("internationalization localization", source).verified
    plural = match_quote("internationalization localizations", source)
    assert (plural.verified, plural.reason) == (
        False,
        "the quote says 'internationalization localizations' "
        "where the source says 'internationalisation localisation'",
    )


def test_a_short_name_one_letter_off_is_a_different_name() -> None:
    match = match_quote(
        "Dr. Mary Smith approved the policy in March",
        "Dr. Mark Smith approved the policy in March.",
    )
    assert (match.verified, match.reason) == (
        False,
        "the quote says 'Mary' where the source says 'Mark'",
    )


def test_a_typo_fixed_earlier_does_not_hide_a_changed_number_later() -> None:
    match = match_quote("The retention periood for audit logs is 60 days", TEXT)
    assert (match.verified, match.reason) == (
        False,
        "the quote says '60' where the source says '90'",
    )


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        # the first word at the very start of the source, the last at its very end
        (
            "The dashboard approves 849 MB of dashboard data for Emil Novak every quarter",
            "The nightly dashboard approves 849 MB of dashboard data for Emil Novak every quarter",
        ),
        (
            "The legacy scheduler stores 667 days of dashboard data for Emil Novak week",
            "The legacy scheduler stores 667 days of dashboard data for Emil Novak every week",
        ),
    ],
)
def test_the_edge_words_are_reached_at_the_ends_of_the_source(quote: str, source: str) -> None:
    match = match_quote(quote, source)
    assert (match.verified, match.start, match.end) == (True, 0, len(source))


def test_an_edge_word_is_reached_only_as_a_whole_word() -> None:
    match = match_quote(
        "log files are kept for 90 days and then deleted",
        "The catalog nightly files are kept for 90 days and then deleted.",
    )
    assert (match.verified, match.reason) == (
        False,
        "the quote says 'log' where the source says 'nightly'",
    )


def test_quotes_with_short_parts_or_no_words_are_located() -> None:
    short = match_quote("The retention period for audit logs … days", TEXT)
    assert (short.verified, short.start, short.end) == (True, 0, 46)
    source = "He said ?!?! !?!? ?!?! and left"
    marks = match_quote("?!?! !?!? ?!?!", source)
    assert (marks.verified, marks.start, marks.end) == (True, 8, 22)


# -- CJK: numerals and negation morphemes, with two characters of context a side --


@pytest.mark.parametrize(
    ("quote", "source", "reason"),
    [
        (  # twelve for twenty: the same numerals, in another order
            "参加者は十二人で、会議は毎週金曜日に開かれます",
            "参加者は二十人で、会議は毎週金曜日に開かれます。",
            "the quote says 'nothing' where the source says '二'",
        ),
        (  # a negation dropped inside the quote
            "この機能は設定画面で変更できます。料金は月額千円です",
            "この機能は設定画面で変更できません。料金は月額千円です。",
            "the quote says 'nothing' where the source says 'せ'",
        ),
        (  # a negation added inside the quote
            "この機能は設定画面で変更できません。料金は月額千円です",
            "この機能は設定画面で変更できます。料金は月額千円です。",
            "the quote says 'せ' where the source says 'す'",
        ),
    ],
)
def test_a_cjk_numeral_or_negation_changed_inside_the_quote_is_refused(
    quote: str, source: str, reason: str
) -> None:
    assert _refused_though_close(quote, source) == reason


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        # 不 three characters before and three after the changed one: outside its context
        ("この申請に不要な文類は不可として扱います", "この申請に不要な書類は不可として扱います。"),
        # 不 the first character, just before the changed one: in both contexts
        ("不用な書類は窓口で受け付けます", "不要な書類は窓口で受け付けます。"),
    ],
)
def test_a_cjk_negation_that_did_not_change_is_no_mismatch(quote: str, source: str) -> None:
    assert match_quote(quote, source).verified


def test_a_changed_negation_one_letter_off_is_no_typo() -> None:
    match = match_quote(
        "You can use neither option with the new gateway",
        "You can use either option with the new gateway.",
    )
    assert (match.verified, match.reason) == (
        False,
        "the quote says 'neither' where the source says 'either'",
    )


def test_a_number_between_two_fixed_typos_is_no_difference() -> None:
    quote = "The retention periood for audit logs is 90 days. Aftre that, logs are deleted"
    assert match_quote(quote, TEXT).verified


# -- where the span lies: its score and its edges --------------------------------


@pytest.mark.parametrize(
    ("quote", "source", "found"),
    [
        # a left-out word: the window grows by half its slack at the end
        (
            "The retention period audit logs is 90 days",
            "The retention period for audit logs is 90 days.",
            (True, 95.45, 0, 46),
        ),
        (
            "After that, logs are automatically",
            "After that, logs are deleted automatically.",
            (False, 86.49, 0, 40),
        ),
        # a source as long as the quote is scored whole, not by its best window
        (
            "After that, logs are deleted automatically",
            "that, logs are deleted automatically After",
            (False, 92.31, 0, 36),
        ),
    ],
)
def test_the_score_and_span_of_a_quote_that_differs(
    quote: str, source: str, found: tuple[bool, float, int, int]
) -> None:
    match = match_quote(quote, source)
    assert (match.verified, round(match.score, 2), match.start, match.end) == found


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("After logs are deleted automatically", "After that, logs are deleted automatically."),
        (
            "The nightly exports 796 km of backup data for Alice Martin every month",
            "The nightly backup exports 796 km of backup data for Alice Martin every month.",
        ),
    ],
)
def test_a_verified_span_starts_at_the_quotes_first_word(quote: str, source: str) -> None:
    match = match_quote(quote, source)
    assert (match.verified, match.start) == (True, 0)


def test_a_span_reaches_out_but_never_moves_in() -> None:
    source = (
        "The manual service encrypts 19 ms of endpoint data for Chen Wei every quarter. "
        "After that, logs are deleted automatically. The primary scheduler retains 69 ms "
        "of scheduler data for Chen Wei every month."
    )
    match = match_quote("After that, logs deleted automatically", source)
    # the alignment starts at the space before the first word: that is where the span stays
    assert (match.verified, match.start, match.end) == (True, 78, 122)


def test_a_refused_span_starts_at_the_quotes_first_word_too() -> None:
    source = (
        "The nightly gateway rejects 723 ms of cluster data for Dana Okafor every week. "
        "The legacy dashboard retains 592 MB of gateway data for Chen Wei every week. "
        "The nightly service rejects 559 ms of report data for Alice Martin every month."
    )
    quote = "The legacy dashboard retains 592 MB of gateway data for Wei every week"
    match = match_quote(quote, source)
    assert (match.verified, match.start, match.reason) == (
        False,
        79,
        "the quote says 'nothing' where the source says 'Chen'",
    )
