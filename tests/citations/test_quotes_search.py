"""Where ``match_quote`` looks for a quote: the search-cost limits, which pieces of the
quote lead the search in a long source, the candidate regions they vote for, and the
span (and deep link) a match reports.

The limits are written as literals: a test failing here means a limit moved, which
changes what is found, not only how fast.
"""

from __future__ import annotations

import functools
import random

from citations import (
    CitedAnswer,
    QuoteMatch,
    Reference,
    Segment,
    Source,
    match_quote,
    verify_quotes,
)
from citations.normalize import fold
from citations.quotes import _anchors, _regions


@functools.cache
def _filler(size: int, seed: int = 7) -> str:
    """Sentences of made-up lower-case words of two to nine letters, none with a q, x,
    y or z: the tests' own made-up words have one, so the filler never holds them."""
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("abcdefghijklmnoprstuvw") for _ in range(rng.randint(2, 9)))
        for _ in range(3000)
    ]
    out: list[str] = []
    length = 0
    while length < size:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))) + ". "
        out.append(sentence)
        length += len(sentence)
    return "".join(out)[:size]


def _sized(head: str, size: int) -> str:
    """``head``, then filler, exactly ``size`` characters long."""
    text = head + " " + _filler(size)
    return text[:size]


# -- the search-cost limits -------------------------------------------------------


def test_a_source_of_up_to_6000_characters_is_aligned_whole() -> None:
    # Every distinctive piece of this quote is misspelt, so none is found verbatim.
    # A source of up to 6,000 characters (WHOLE_SOURCE_LIMIT) is aligned whole and the
    # slips are forgiven; one character more and the search goes by verbatim pieces
    # only, which find nothing.
    quote = "we kept the logz for ninty days"
    head = "We kept the logs for ninety days."
    assert _anchors(fold(quote))  # it has pieces to look for: they just are not there
    whole = match_quote(quote, _sized(head, 6_000))
    assert (whole.verified, whole.start, whole.end) == (True, 0, len(head) - 1)
    searched = match_quote(quote, _sized(head, 6_001))
    assert searched == QuoteMatch(False, 0.0, reason="not found in the source")


def test_a_quote_with_nothing_distinctive_is_scanned_in_sources_up_to_50000() -> None:
    # no word of five letters and no three words of twelve characters: nothing to
    # look for, so the source is scanned whole up to 50,000 characters (SCAN_WHOLE_LIMIT)
    quote = "we are at it as we go to it"
    assert _anchors(fold(quote)) == []
    for size, found in ((50_000, True), (50_001, False)):
        text = _filler(size)[: size - len(quote) - 2] + ". " + quote
        assert len(text) == size
        match = match_quote(quote, text)
        assert match.verified is found, size
        if found:
            assert (match.start, match.end) == (size - len(quote), size)
        else:
            assert match == QuoteMatch(False, 0.0, reason="not found in the source")


def _only(quote: str, *kept: str) -> str:
    """``quote`` with every character but those of the ``kept`` pieces masked: a
    place that holds those pieces at the quote's spacing and nothing else of it."""
    masked = ["%"] * len(quote)
    for piece in kept:
        at = quote.index(piece)
        masked[at : at + len(piece)] = piece
    return "".join(masked)


# Two made-up words that the filler never holds, and a quote whose only distinctive
# pieces are these two words (its runs of three words are all under 12 characters).
_RARE_QUOTE = "so qzxvy is on a wjkpz at us"


def _with_repeats(times: int, word: str = "qzxvy", other: str = "wjkpz") -> str:
    """The quote at the start of an 8,000-character source whose later part repeats
    ``word`` and ``other`` so that each occurs ``times`` times in all."""
    tail = " ".join(f"A {word}. B {other}." for _ in range(times - 1))
    return _RARE_QUOTE + ". " + _filler(8_000) + " " + tail


def test_a_piece_found_more_than_64_times_does_not_lead_the_search() -> None:
    assert [a for a, _ in _anchors(_RARE_QUOTE)] == ["qzxvy", "wjkpz"]
    # 64 occurrences (_MAX_HITS_PER_ANCHOR) still vote; the place both words agree
    # on is the quote's
    at_limit = _with_repeats(64)
    assert at_limit.count("qzxvy") == 64
    assert match_quote(_RARE_QUOTE, at_limit) == QuoteMatch(True, 100.0, 0, len(_RARE_QUOTE))
    # at 65 neither word says anything about where the quote is
    past = _with_repeats(65)
    assert match_quote(_RARE_QUOTE, past) == QuoteMatch(
        False, 0.0, reason="not found in the source"
    )


def test_a_piece_at_the_very_start_of_the_source_is_found() -> None:
    quote = "qzxvy is on a key at us"
    assert [a for a, _ in _anchors(quote)] == ["qzxvy"]
    text = quote + ". " + _filler(8_000)
    assert match_quote(quote, text) == QuoteMatch(True, 100.0, 0, len(quote))


def test_a_common_piece_is_passed_over_and_the_next_one_leads() -> None:
    # "qzxvy" occurs 65 times and is skipped; "wjkpz", once, still finds the quote
    text = _with_repeats(65, other="cmnbz")
    assert match_quote(_RARE_QUOTE, text) == QuoteMatch(True, 100.0, 0, len(_RARE_QUOTE))


def test_overlapping_occurrences_of_a_piece_count() -> None:
    # a run of 68 x's holds "xxxxx" 64 times when overlaps count; with the quote's
    # own, 65: too common to lead. One x fewer, and it leads.
    quote = "so xxxxx is on a key at us"
    assert [a for a, _ in _anchors(quote)] == ["xxxxx"]
    text = quote + ". " + _filler(8_000) + " " + "x" * 68 + "."
    assert match_quote(quote, text) == QuoteMatch(False, 0.0, reason="not found in the source")
    fewer = quote + ". " + _filler(8_000) + " " + "x" * 67 + "."
    assert match_quote(quote, fewer) == QuoteMatch(True, 100.0, 0, len(quote))


def _decoyed(decoys: int) -> tuple[str, str]:
    """A source where ``decoys`` places hold both of the quote's rare words at the
    quote's spacing (two votes each) and the real place holds only one of them verbatim:
    its other word is spelt as the quote misspells it (one vote)."""
    real = "So qzxvy is on a wjkpy at us."  # the quote writes "wjkpz": a slip
    decoy = _only(_RARE_QUOTE, "qzxvy", "wjkpz")  # nothing else in common with the quote
    parts = [_filler(1_000, seed=s) + " " + decoy + " " for s in range(decoys)]
    text = "".join(parts) + _filler(2_000, seed=9) + " " + real + " " + _filler(4_000, seed=10)
    return text, real


def test_at_most_four_candidate_places_are_aligned() -> None:
    # three decoys with two votes each, then the real place with one: four places,
    # all aligned; the decoys align with nothing, the fourth is the quote
    text, real = _decoyed(3)
    assert len(text) > 6_000
    match = match_quote(_RARE_QUOTE, text)
    assert (match.verified, match.start) == (True, text.index(real))
    # four decoys push the real place out of the four (_MAX_REGIONS) that are aligned
    text, real = _decoyed(4)
    assert match_quote(_RARE_QUOTE, text) == QuoteMatch(
        False, 0.0, reason="not found in the source"
    )


# -- which pieces of a quote lead the search ---------------------------------------


def test_runs_of_three_words_with_digits_lead_then_the_longest_then_long_words() -> None:
    quote = "keys rotate every 30 days and old keys are revoked after 2 weeks"
    assert _anchors(quote) == [
        # runs of three words (12 characters or more) with a digit: rarest
        ("rotate every 30", 5),
        ("revoked after 2", 43),
        ("every 30 days", 12),
        ("after 2 weeks", 51),  # the quote's last three words are a run too
        # then the longest runs, eight runs in all
        ("keys rotate every", 0),
        ("are revoked after", 39),
        ("keys are revoked", 34),
        ("days and old", 21),
        # then words of five letters or more, longest first, four of them
        ("revoked", 43),
        ("rotate", 5),
        ("every", 12),
        ("after", 51),
    ]


def test_a_piece_repeated_in_the_quote_is_looked_for_once() -> None:
    quote = "the key keeps working until midnight and the key keeps working"
    anchors = [a for a, _ in _anchors(quote)]
    assert anchors == [
        "working until midnight",
        "keeps working until",
        "until midnight and",
        "key keeps working",
        "midnight and the",
        "the key keeps",
        "midnight",
        "working",
        "keeps",
    ]


def test_cjk_text_leads_with_pieces_of_six_characters_every_four() -> None:
    ja = "このサービスは東京と大阪のデータセンターで運用されており毎日自動でバックアップされます料金は月額千円です"
    # each six characters long, starting every four characters; ten pieces at most
    # (this run of 52 characters has thirteen)
    assert _anchors(ja) == [
        ("このサービス", 0),
        ("ビスは東京と", 4),
        ("京と大阪のデ", 8),
        ("のデータセン", 12),
        ("センターで運", 16),
        ("で運用されて", 20),
        ("れており毎日", 24),
        ("毎日自動でバ", 28),
        ("でバックアッ", 32),
        ("アップされま", 36),
    ]
    # a run of eight characters gives two pieces, the second of four characters;
    # a run of seven gives one (a last piece of three would be too common)
    assert _anchors("申請は不要です、制度は毎年変わる") == [
        ("申請は不要で", 0),
        ("制度は毎年変", 8),
        ("年変わる", 12),
    ]
    # runs of three characters are pieces of their own; two are too few
    assert _anchors("東京都、大阪府、京都") == [("東京都", 0), ("大阪府", 4)]


# -- the regions the pieces vote for ----------------------------------------------


def test_a_region_spans_the_voted_place_with_a_margin_of_the_quote_and_32() -> None:
    quote = "the retention period for audit logs is 90 days"  # 46 characters
    text = _filler(5_000) + " " + quote + " " + _filler(5_000, seed=8)
    at = text.index(quote)  # 5001
    # the pieces vote for buckets of half the quote's length (23 characters):
    # 5001 // 23 = 217, which starts at 4991; the region pads it by the quote's
    # length + 32 = 78 before, and by 78 + the quote's length after the bucket's end
    assert at == 5_001
    assert _regions(quote, text) == [(4_991 - 78, 5_014 + 78 + 46)]


def test_a_short_quote_votes_in_buckets_of_16_characters() -> None:
    quote = "old keys expire soon"  # 20 characters: half would be 10, the floor is 16
    text = _filler(5_000) + " " + quote + " " + _filler(5_000, seed=8)
    assert text.index(quote) == 5_001
    # 5001 // 16 = 312, from 4992 to 5008; padded by 20 + 32 = 52
    assert _regions(quote, text) == [(4_992 - 52, 5_008 + 52 + 20)]


def test_a_region_never_starts_before_the_source_or_ends_after_it() -> None:
    quote = "the retention period for audit logs is 90 days"
    text = quote + " " + _filler(7_000)
    assert _regions(quote, text) == [(0, 23 + 78 + 46)]
    text = _filler(7_000) + " " + quote
    # at 7001: bucket 304 starts at 6992, less 78 is 6914; 7015 + 78 + 46 would pass
    # the source's end, 7047
    assert len(text) == 7_047
    assert _regions(quote, text) == [(6_914, 7_047)]


def test_a_region_stretches_by_how_much_folding_changed_the_source() -> None:
    # "ﬃ" folds to "ffi": 100 of them make the folded text 200 characters longer, so
    # folded positions run ahead of the source's. The region scales the bucket back by
    # 10,048 / 10,248 and widens by the 200 characters of drift each way.
    quote = "the retention period for audit logs is 90 days"
    text = "ﬃ" * 100 + _filler(4_900) + " " + quote + " " + _filler(5_000, seed=8)
    assert len(text) == 10_048 and text.index(quote) == 5_001
    # folded, the quote is at 5201: bucket 226 covers 5198-5221 folded characters,
    # 5096-5119 scaled back; 5096 - 78 - 200 = 4818 and 5119 + 78 + 46 + 200 = 5443
    assert _regions(quote, text) == [(4_818, 5_443)]


def test_a_region_from_the_second_character_maps_back_from_its_own_start() -> None:
    # 2,100 ligatures fold to 6,300 characters, so the region stretches by 4,200 of
    # drift each way; with the quote placed here it runs from the source's second
    # character to its end: offsets found in it are counted from that character
    quote = "the retention period for audit logs is 90 days"
    body = _filler(6_000)
    text = "ﬃ" * 2_100 + body[:185] + " " + quote + " " + body[185:]
    assert _regions(quote, text) == [(1, len(text))]
    match = match_quote(quote, text)
    assert match.start is not None and text[match.start : match.end] == quote


# -- when the vote stops ----------------------------------------------------------
# Two quotes whose distinctive pieces are known exactly: no word but these is five
# letters long and no three words make 12 characters, except "keep your old".
_VOTED = "keep your old x y kappaxx y z sigmax y z thetax y z omegax"
_SETTLED = "x y kappaxx y z sigmax y z thetax y z omegax"


def _places(*places: str) -> str:
    """``places`` 1,000 characters of filler apart, in an 8,000-character source."""
    parts = [_filler(1_000, seed=20 + n) + " " + place + ". " for n, place in enumerate(places)]
    return "".join(parts) + _filler(8_000 - 1_000 * len(places), seed=40)


def test_pieces_that_do_not_agree_yet_do_not_stop_the_search() -> None:
    assert [a for a, _ in _anchors(_VOTED)] == [
        "keep your old",
        "kappaxx",
        "sigmax",
        "thetax",
        "omegax",
    ]
    # four decoys hold the first two pieces at the quote's spacing (two votes each);
    # the real place has them with a slip ("yuor", "kappayx", which the check forgives)
    # and holds the last three verbatim (three votes). After three pieces no place has three votes,
    # so the search goes on until the real place has them.
    decoy = _only(_VOTED, "keep your old", "kappaxx")
    real = "keep yuor old x y kappayx y z sigmax y z thetax y z omegax"
    text = _places(decoy, decoy, decoy, decoy, real)
    match = match_quote(_VOTED, text)
    assert (match.verified, match.start) == (True, text.index(real))


def test_three_pieces_agreeing_on_a_place_settle_it() -> None:
    assert [a for a, _ in _anchors(_SETTLED)] == ["kappaxx", "sigmax", "thetax", "omegax"]
    # "lead" holds the first three pieces (three votes: the search stops there);
    # three decoys hold the first two, and the real place, which has the first with a
    # slip ("kappyxx"), has two votes when the search stops. Four places are aligned: the lead and the
    # decoys, which hold nothing else of the quote, so the quote is not found. The
    # fourth piece, which would have given the real place its third vote, is never
    # looked for: three agreeing pieces are taken to be enough.
    lead = _only(_SETTLED, "kappaxx", "sigmax", "thetax")
    decoy = _only(_SETTLED, "kappaxx", "sigmax")
    real = "x y kappyxx y z sigmax y z thetax y z omegax"
    text = _places(lead, decoy, decoy, decoy, real)
    assert match_quote(_SETTLED, text) == QuoteMatch(False, 0.0, reason="not found in the source")
    # without the lead, the real place is among the four aligned
    text = _places(decoy, decoy, decoy, real)
    match = match_quote(_SETTLED, text)
    assert (match.verified, match.start) == (True, text.index(real))


# -- the span a match reports -----------------------------------------------------


def test_a_span_grows_to_whole_words_but_at_most_40_characters_each_way() -> None:
    first = "abcdefghij" * 6  # 60 letters: no word, a run of letters (a hash, a key)
    second = "klmnopqrst" * 6
    text = "Set " + first + " as the key and " + second + " as the salt."
    quote = first[45:] + " as the key and " + second[:15]
    match = match_quote(quote, text)
    assert match.verified, match.reason
    at_first, at_second = text.index(first), text.index(second)
    # the match starts 45 letters into the first run and grows back 40 of them; it
    # ends 15 letters into the second and grows on 40
    assert (match.start, match.end) == (at_first + 5, at_second + 55)


def test_a_span_grows_to_the_start_of_a_source_and_to_word_edges() -> None:
    text = "Retention periods for audit logs are set per workspace."
    match = match_quote("tion periods for audit logs are set per works", text)
    assert match.verified, match.reason
    assert text[match.start : match.end] == "Retention periods for audit logs are set per workspace"
    mid = match_quote("riods for audit logs are set per workspace", text)
    assert mid.verified, mid.reason
    assert text[mid.start : mid.end] == "periods for audit logs are set per workspace"


def test_a_span_grows_over_latin_letters_but_not_into_cjk_characters() -> None:
    # a CJK character is a word of its own: the span stops growing at one
    text = "設定ファイルはconfigディレクトリにあります。"
    match = match_quote("onfigディレクトリにあります", text)
    assert match.verified, match.reason
    assert text[match.start : match.end] == "configディレクトリにあります"


# -- which source a quote is checked against --------------------------------------

_PAGE = "https://docs.example.com/policy"
_EXACT = "Audit logs are kept for 90 days and then deleted."
_SLIPPED = "Audit logs are kept for 90 days and then deletted."  # verified, under 100


def _checked(*texts: str) -> tuple[int | None, str | None]:
    sources = [Source(n + 1, _PAGE, "Policy", text) for n, text in enumerate(texts)]
    answer = CitedAnswer(
        (Segment('It says "Audit logs are kept for 90 days and then deleted"', (1,)),),
        (Reference(1, _PAGE, "Policy", tuple(sources)),),
    )
    [check] = verify_quotes(answer).quotes
    assert check.verified
    return check.source_id, check.deep_link


def test_a_verified_quote_links_to_the_source_that_holds_it_exactly() -> None:
    # the first source holds the quote with a slip (verified, scoring under 100):
    # the check goes on to the second, which holds it exactly, and links there
    source_id, link = _checked(_SLIPPED, _EXACT)
    assert source_id == 2
    assert link is not None and link.endswith("deleted")


def test_among_equally_good_sources_the_first_is_linked() -> None:
    assert _checked(_SLIPPED, _SLIPPED)[0] == 1
    assert _checked(_EXACT, _EXACT)[0] == 1


def test_quoted_parts_are_looked_for_from_the_first_character() -> None:
    # the first part is looked for in the whole source: from the second character on
    # it would match "etention periods..." with a slip, and start one character late
    text = "Retention periods for audit logs are set per workspace."
    match = match_quote("Retention periods for audit logs ... per workspace", text)
    assert match == QuoteMatch(True, 100.0, 0, len(text) - 1)


def test_quoted_parts_out_of_order_are_refused_even_from_the_first_character() -> None:
    # the second part starts at the source's very first character, the first part
    # one character later
    text = "(Old keys expire after a day.) New keys never expire."
    match = match_quote("Old keys expire after a day ... (Old keys", text)
    assert match == QuoteMatch(False, 100.0, reason="the quoted parts appear in a different order")
