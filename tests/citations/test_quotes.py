from __future__ import annotations

import functools
import random
import re
import time
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations import (
    CitedAnswer,
    Locator,
    QuoteMatch,
    Reference,
    Segment,
    Source,
    match_quote,
    resolve,
    verify_quotes,
)
from citations.deeplinks import deep_link
from tests.citations.profiles import PROPERTY

TEXT = (
    "The retention period for audit logs is 90 days. After that, logs are deleted "
    "automatically. The API does not support streaming uploads, and requests larger "
    "than 25 MB are rejected. Dr. Alice Martin approved the policy in March 2021."
)


def web(text: str = TEXT, url: str = "https://docs.example.com/policy#retention") -> Source:
    return Source(1, url, "Policy", text)


@pytest.mark.parametrize(
    "quote",
    [
        "The retention period for audit logs is 90 days.",
        "the retention period for audit logs is 90 days",  # casing, punctuation
        "The API doesn’t support streaming uploads",  # curly apostrophe, contraction
        "requests larger than 25 MB are rejected",
        "Dr. Alice Martin approved the policy in March 2021",
        "The retention period for audit logs is 90 days ... requests larger than 25 MB are rejected",
        "logs are deleted  automaticaly",  # a fixed typo, extra space
    ],
)
def test_faithful_quotes_verify(quote: str) -> None:
    match = match_quote(quote, TEXT)
    assert match.verified, match.reason
    assert match.start is not None and match.end is not None
    assert match.score >= 90


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        (
            "The retention period for audit logs is 60 days.",
            "the quote says '60' where the source says '90'",
        ),
        (
            "The retention period for audit logs is 90 weeks.",
            "the quote says 'weeks' where the source says 'days'",
        ),
        (
            "The API does support streaming uploads",
            "the quote says 'nothing' where the source says 'not'",
        ),
        (
            "The API does not support streaming uploads, and requests larger than 25 GB are rejected",
            "the quote says 'GB' where the source says 'MB'",
        ),
        (
            "Dr. Alice Morgan approved the policy in March 2021",
            "the quote says 'Morgan' where the source says 'Martin'",
        ),
        (
            "Dr. Alice Martin approved the policy in March 2020",
            "the quote says '2020' where the source says '2021'",
        ),
    ],
)
def test_a_changed_fact_is_named_in_the_reason(quote: str, reason: str) -> None:
    # the wording matches well (the fuzzy score passes); the changed token fails it
    match = match_quote(quote, TEXT)
    assert not match.verified
    assert match.score >= 90
    assert match.reason == reason


@pytest.mark.parametrize(
    "quote",
    [
        "After that, logs are never deleted automatically.",
        "The retention period for audit logs is 90 days and requests larger than 25 MB are rejected",
    ],
)
def test_a_reworded_quote_fails_on_its_score(quote: str) -> None:
    match = match_quote(quote, TEXT)
    assert not match.verified
    assert 60 <= match.score < 90
    assert match.reason == f"closest source text scores {match.score:.0f} < 90"


def test_words_found_nowhere_are_not_found() -> None:
    match = match_quote("Bananas are a great source of potassium for athletes", TEXT)
    assert match == QuoteMatch(False, 0.0, reason="not found in the source")


def test_offsets_point_into_the_original_text() -> None:
    text = "Intro.\n\n  The   “quick”  brown fox — jumps.  End."
    match = match_quote('the "quick" brown fox - jumps', text)
    assert match.verified
    assert text[match.start : match.end] == "The   “quick”  brown fox — jumps"


def test_japanese_and_korean() -> None:
    ja = "東京都の人口は約1400万人です。この制度は2021年に導入されました。申請は不要です。"
    assert match_quote("この制度は2021年に導入されました", ja).verified
    assert not match_quote("この制度は2019年に導入されました", ja).verified
    assert not match_quote("申請は必要です", ja).verified
    assert not match_quote("この制度は2021年に導入されませんでした", ja).verified
    ko = "이 서비스는 2020년에 출시되었습니다. 사용자는 별도의 설치가 필요하지 않습니다."
    assert match_quote("이 서비스는 2020년에 출시되었습니다", ko).verified
    assert not match_quote("이 서비스는 2022년에 출시되었습니다", ko).verified
    zh = "该系统每天处理五百万个请求，并且不支持离线模式。"
    assert match_quote("该系统每天处理五百万个请求", zh).verified
    assert not match_quote("该系统每天处理三百万个请求", zh).verified
    assert not match_quote("并且支持离线模式", zh).verified


@functools.cache
def _prose(size: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(5000)
    ]
    out, length = [], 0
    while length < size:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize()
        out.append(sentence + ". ")
        length += len(sentence) + 2
    return "".join(out)


def test_long_source_finds_the_region_fast() -> None:
    text = _prose(1_000_000, seed=1)
    start = 700_003
    quote = text[start : start + 200]
    match_quote(quote, text)  # warm the per-source cache
    began = time.perf_counter()
    match = match_quote(quote, text)
    elapsed = time.perf_counter() - began
    assert match.verified
    assert match.start is not None and abs(match.start - start) <= 12
    assert elapsed < 0.25  # generous; the benchmark reports the real median


def test_text_fragment_is_percent_encoded() -> None:
    text = "Cost-benefit analysis, step 1 & 2: done."
    src = web(text, "https://x.com/page#intro")
    link = deep_link(src, 0, len(text))
    assert link is not None
    base, _, directive = link.partition("#intro:~:text=")
    assert base == "https://x.com/page"
    assert (
        "-" not in directive
        and "," not in directive
        and "&" not in directive
        and " " not in directive
    )
    assert unquote(directive) == text


def test_long_text_fragment_uses_start_and_end() -> None:
    src = web()
    link = deep_link(src, 0, len(TEXT))
    assert link is not None
    directive = link.split(":~:text=", 1)[1]
    start, end = directive.split(",")
    assert unquote(start) == "The retention period for"
    assert unquote(end) == "policy in March 2021."


def test_pdf_deep_link_uses_page() -> None:
    src = Source(1, "https://x.com/guide.pdf", "Guide", TEXT, Locator(page=7))
    assert deep_link(src, 0, 10) == "https://x.com/guide.pdf#page=7"
    assert deep_link(Source(1, "file:///a.md", "A", TEXT), 0, 10) is None


def _answer(text: str):
    return resolve(text, [web()])


def test_verify_quotes_marks_and_links() -> None:
    answer = _answer(
        'Logs are kept: "The retention period for audit logs is 90 days"[1]. '
        'Also "the API supports streaming uploads"[1].'
    )
    checked = verify_quotes(answer)
    assert [q.verified for q in checked.quotes] == [True, False]
    good = checked.quotes[0]
    assert good.reference == 1 and good.source_id == 1
    assert good.deep_link is not None and good.deep_link.startswith(
        "https://docs.example.com/policy#retention:~:text="
    )
    assert checked.text.count("(unverified quote)") == 1
    assert '"the API supports streaming uploads" (unverified quote)[1]' in checked.text
    assert any("unverified quote" in w for w in checked.warnings)


def test_verify_quotes_unquote_policy() -> None:
    answer = _answer("He wrote “logs are deleted after 30 days”[1].")
    checked = verify_quotes(answer, policy="unquote")
    assert checked.text == "He wrote logs are deleted after 30 days[1]."
    assert not checked.quotes[0].verified


def test_threshold_is_configurable() -> None:
    answer = _answer('"retention period for the audit logging is 90 days"[1]')
    assert not verify_quotes(answer).quotes[0].verified
    assert verify_quotes(answer, threshold=80).quotes[0].verified


def test_sentences_option_checks_cited_sentences() -> None:
    answer = _answer(
        "Audit logs are kept for 90 days[1]. Requests larger than 25 MB are rejected[1]."
    )
    checked = verify_quotes(answer, sentences=True)
    assert [q.kind for q in checked.quotes] == ["sentence", "sentence"]
    assert checked.text == answer.text  # sentences are reported, never rewritten


def test_short_scare_quotes_are_ignored() -> None:
    assert verify_quotes(_answer('It is "fast"[1].')).quotes == ()


def test_bad_policy_is_rejected() -> None:
    with pytest.raises(ValueError, match="policy"):
        verify_quotes(_answer("x[1]"), policy="drop")  # type: ignore[arg-type]


_SENTENCES = [
    "The cluster handles 4000 requests per second at peak load.",
    "Backups run every 6 hours and are kept for 14 days.",
    "Version 3.2 removed the legacy export endpoint entirely.",
    "Support tickets are answered within 2 business days.",
    "The free plan includes 5 GB of storage per workspace.",
]


@st.composite
def _fabrication(draw: st.DrawFn) -> str:
    sentence = draw(st.sampled_from(_SENTENCES))
    kind = draw(st.sampled_from(["number", "negate", "unit"]))
    if kind == "number":
        numbers = [w for w in sentence.split() if any(c.isdigit() for c in w)]
        target = draw(st.sampled_from(numbers))
        digits = re.search(r"\d+", target)
        assert digits is not None
        new = draw(st.integers(0, 99999).filter(lambda n: str(n) != digits.group()))
        return sentence.replace(target, target.replace(digits.group(), str(new), 1), 1)
    if kind == "negate":
        for verb in (" handles ", " run ", " removed ", " are answered ", " includes "):
            if verb in sentence:
                return sentence.replace(verb, verb.replace(" ", " not ", 1)[:-1] + " ", 1)
    units = {"second": "minute", "hours": "days", "days": "weeks", "GB": "MB"}
    for unit, other in units.items():
        if f" {unit}" in sentence:
            return sentence.replace(f" {unit}", f" {other}", 1)
    return sentence.replace("3.2", "3.3")


@PROPERTY
@given(_fabrication(), st.integers(0, 3))
def test_fabricated_quote_is_never_verified(quote: str, filler: int) -> None:
    text = " ".join(["Intro text about the service."] * filler + _SENTENCES)
    assert not match_quote(quote, text).verified


@pytest.mark.parametrize(
    "quoted",
    [
        '"The retention period for audit logs is 90 days"',
        "“The retention period for audit logs is 90 days”",
        "„The retention period for audit logs is 90 days“",
        "« The retention period for audit logs is 90 days »",
        "「The retention period for audit logs is 90 days」",
        "『The retention period for audit logs is 90 days』",
    ],
)
def test_every_kind_of_quote_mark_is_checked(quoted: str) -> None:
    checked = verify_quotes(_answer(f"It says {quoted}[1]."))
    assert [(q.quote, q.verified) for q in checked.quotes] == [
        ("The retention period for audit logs is 90 days", True)
    ]


def test_a_quote_is_at_least_twelve_characters_and_two_words() -> None:
    def quotes(text: str) -> list[str]:
        return [q.quote for q in verify_quotes(_answer(text)).quotes]

    assert quotes('x "logs are del"[1].') == ["logs are del"]
    assert quotes('x "logs are de"[1].') == []
    assert quotes('x "automatically"[1].') == []  # one word: emphasis


def test_each_unverified_quote_is_marked_and_warned_about() -> None:
    text = 'A "logs are kept forever now"[1] and "the API supports streaming uploads"[1].'
    checked = verify_quotes(_answer(text))
    assert checked.warnings == (
        "unverified quote cited as [1]: not found in the source",
        "unverified quote cited as [1]: closest source text scores 82 < 90",
    )
    assert checked.text == (
        'A "logs are kept forever now" (unverified quote)[1] and '
        '"the API supports streaming uploads" (unverified quote)[1].'
    )
    unquoted = verify_quotes(_answer(text), policy="unquote")
    assert (
        unquoted.text == "A logs are kept forever now[1] and the API supports streaming uploads[1]."
    )
    own_mark = verify_quotes(_answer('A "logs are kept forever now"[1].'), mark=" (?)")
    assert own_mark.text == 'A "logs are kept forever now" (?)[1].'


def test_a_quote_whose_reference_has_no_text_is_unverified() -> None:
    answer = CitedAnswer(
        (Segment('He said "logs are kept for ninety days"', (1,)),),
        (Reference(1, "https://a.com/x", "T", ()),),
    )
    [check] = verify_quotes(answer).quotes
    assert (check.verified, check.score, check.reason) == (
        False,
        0.0,
        "the cited reference has no source text",
    )


def test_quoted_parts_must_appear_in_order() -> None:
    forward = "The retention period ... requests larger than 25 MB"
    assert match_quote(forward, TEXT) == QuoteMatch(True, 100.0, 0, 166)
    backward = "requests larger than 25 MB are rejected ... The retention period for audit logs"
    assert match_quote(backward, TEXT) == QuoteMatch(
        False, 100.0, reason="the quoted parts appear in a different order"
    )
    assert match_quote("", TEXT).reason == "empty quote"
    assert match_quote("a ... b", TEXT).reason == "empty quote"  # parts under 3 characters


def test_a_one_letter_slip_is_a_typo_but_never_in_a_negation() -> None:
    assert match_quote("The retention pariod for audit logs is 90 days", TEXT).verified
    nat = match_quote("The API does nat support streaming uploads", TEXT)
    assert (nat.verified, nat.reason) == (False, "the quote says 'nat' where the source says 'not'")


@pytest.mark.parametrize(
    ("quote", "shown"),
    [
        # a slip of one letter, or two swapped, in a long word is a typo fixed
        ("Dr. Alice Martni approved the policy in March 2021", "Dr. Alice Martin approved"),
        ("Dr. Alice Matrin approved the policy in March 2021", "Dr. Alice Martin approved"),
        ("approved the policy in Marhc 2021", "approved the policy in March 2021"),
        ("The API does not supprot streaming uploads", "The API does not support streaming"),
        # a first or last word cut in half is still the source's word
        ("tention period for audit logs is 90 days", "retention period for audit logs is 90 days"),
        ("logs is 90 days. After that, logs are deleted", "logs is 90 days. After that, logs"),
        ("requests larger than 25 mb are rejected", "requests larger than 25 MB are rejected"),
        ("The retention period for audit logs is 90", "The retention period for audit logs is 90"),
        ("that, logs are deleted automatically. The API", "that, logs are deleted automatically."),
        ("API does not support streaming uploads, and requests", "API does not support"),
    ],
)
def test_a_faithful_quote_links_to_the_words_it_quotes(quote: str, shown: str) -> None:
    match = match_quote(quote, TEXT)
    assert match.verified, match.reason
    assert match.start is not None and match.end is not None
    quoted = TEXT[match.start : match.end]
    assert quoted.startswith(shown)
    assert len(quoted) <= len(quote) + 8  # the quoted words, out to whole words


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        # a name right after a title is a name, and a one-letter slip in a short word is no typo
        (
            "Dr. Carol Martin approved the policy",
            "the quote says 'Carol' where the source says 'Alice'",
        ),
        (
            "Dr. Alicia Martin approved the policy",
            "the quote says 'Alicia' where the source says 'Alice'",
        ),
        ("approved the policy in May 2021", "the quote says 'May' where the source says 'March'"),
        (
            "The retention period for audit logs is 900 days",
            "the quote says '900' where the source says '90'",
        ),
        (
            "period for audit logs is 95 days. After that",
            "the quote says '95' where the source says '90'",
        ),
        (
            "requests larger than 25 MiB are rejected",
            "the quote says 'MiB' where the source says 'MB'",
        ),
        (
            "does never support streaming uploads, and requests larger",
            "the quote says 'never' where the source says 'not'",
        ),
        (
            "After that, logs aren't deleted automatically",
            "the quote says 'not' where the source says 'nothing'",
        ),
        # a changed word at the quote's edge still counts
        (
            "The retention period for audit logs is 90 days. Then",
            "the quote says 'Then' where the source says 'After'",
        ),
        (
            "tion 60 for audit logs is 90 days. After that, logs are deleted",
            "the quote says 'tion 60' where the source says 'retention period'",
        ),
    ],
)
def test_a_misquote_is_refused_with_the_words_that_differ(quote: str, reason: str) -> None:
    match = match_quote(quote, TEXT)
    assert (match.verified, match.reason) == (False, reason)


_JA = "東京都の人口は約1400万人です。この制度は2021年に導入されました。申請は不要です。"
_ZH = "该系统每天处理五百万个请求，并且不支持离线模式。"


@pytest.mark.parametrize(
    ("quote", "source", "reason"),
    [
        ("人口は約1400万人です", _JA, ""),
        ("人口は約1400千人です", _JA, "the quote says '千' where the source says '万'"),
        ("处理五百万个请求，并且", _ZH, ""),
        ("每天处理五百个请求", _ZH, "the quote says 'nothing' where the source says '万'"),
        ("并且支持离线模式", _ZH, "the quote says 'nothing' where the source says '不'"),
    ],
)
def test_cjk_numerals_and_negations_must_match(quote: str, source: str, reason: str) -> None:
    match = match_quote(quote, source)
    assert (match.verified, match.reason) == (not reason, reason)


def _placed(sentence: str, at: int, text: str) -> str:
    cut = text.index(". ", at) + 2
    return text[:cut] + sentence + " " + text[cut:]


_LONG = 60_000  # past the 50,000 characters a quote with nothing distinctive may scan


@pytest.mark.parametrize(
    ("written", "quote"),
    [
        ("we can add two more\nof the new ones", "we can add two more of the new ones"),
        ("we can add\u00a0two more\u3000of the\tnew ones", "we can add two more of the new ones"),
        (
            "so “all of the” keys are now “set in” code",
            'so "all of the" keys are now "set in" code',
        ),
        ("the top—and the end—are the two ends", "the top-and the end-are the two ends"),
        ("it’s how we’d run it if we’re told", "it's how we'd run it if we're told"),
        (
            "The retention period for audit logs is 90 days and then they are deleted.",
            "The retention period for audit logs is 90 days and then they are deleted",
        ),
    ],
)
def test_a_quote_deep_in_a_long_source_is_found_at_its_place(written: str, quote: str) -> None:
    # short words only, spaces, quote marks and dashes written otherwise: the quote
    # is found through what the source and the quote share after folding
    text = _placed(written, 40_000, _prose(_LONG))
    match = match_quote(quote, text)
    assert match.verified, match.reason
    assert match.start is not None
    assert text[match.start : match.end] == written.removesuffix(".")


@pytest.mark.parametrize("before", ["ﬃ" * 1500, "ｶﾞ" * 2000])
def test_characters_that_fold_longer_or_shorter_do_not_move_the_quote(before: str) -> None:
    sentence = "The retention period for audit logs is 90 days and then they are deleted"
    text = _placed(sentence + ".", 9_000, before + " " + _prose(12_000))
    match = match_quote(sentence, text)
    assert match.verified and match.start is not None
    assert text[match.start : match.end] == sentence


def test_in_a_long_source_the_quote_is_checked_against_its_own_sentence() -> None:
    def sentence(days: int) -> str:
        return f"The retention period for audit logs is {days} days and then they are deleted"

    text = _placed(sentence(90) + ".", 40_000, _placed(sentence(30) + ".", 2_000, _prose(_LONG)))
    for days in (30, 90):
        match = match_quote(sentence(days), text)
        assert match.verified and match.start is not None
        assert text[match.start : match.end] == sentence(days)
    fake = match_quote(sentence(60), text)
    assert (fake.verified, fake.reason) == (False, "the quote says '60' where the source says '30'")


def test_a_cjk_quote_in_a_long_cjk_source() -> None:
    rng = random.Random(4)
    noise = "".join(
        rng.choice("あいうえおかきくけこさしすせそたちつてとなにぬねの山川田村木林森")
        for _ in range(_LONG)
    )
    sentence = "この制度は2021年に導入されました"
    text = noise[:30_000] + sentence + "。" + noise[30_000:]
    match = match_quote(sentence, text)
    assert match.verified and match.start == 30_000
    fake = match_quote("この制度は2019年に導入されました", text)
    assert (fake.verified, fake.reason) == (
        False,
        "the quote says '2019' where the source says '2021'",
    )


def test_a_quote_with_nothing_distinctive_is_scanned_for_up_to_50000_characters() -> None:
    quote = "we are at it as we go to it"  # no long word, no three words of 12 characters
    near = _placed(quote + ".", 17_000, _prose(20_000, seed=5))
    assert match_quote(quote, near).verified
    far = _placed(quote + ".", 49_000, _prose(52_000, seed=5))
    assert match_quote(quote, far) == QuoteMatch(False, 0.0, reason="not found in the source")


def test_a_quote_missing_from_a_long_source_is_not_found() -> None:
    match = match_quote("The retention period for audit logs is 90 days", _prose(_LONG))
    assert match == QuoteMatch(False, 0.0, reason="not found in the source")


def test_a_quote_scoring_above_60_reports_its_closest_text() -> None:
    match = match_quote("audit log retention lasts 90 days", TEXT)
    assert (match.verified, match.reason) == (False, "closest source text scores 61 < 90")


def test_quoted_parts_are_each_checked_and_looked_for_after_the_one_before() -> None:
    # "logs" is in the source twice: the part after "After that" is the second one
    assert match_quote("After that ... logs", TEXT) == QuoteMatch(True, 100.0, 48, 64)
    both = match_quote("audit logs is 90 days ... logs are deleted automatically", TEXT)
    assert both == QuoteMatch(True, 100.0, 25, 90)
    # a part of three letters counts; a part under three is left out, and the next still counts
    short = match_quote("The retention period for audit logs ... Bob", TEXT)
    assert (short.verified, short.reason) == (False, "not found in the source")
    later = match_quote("The retention period ... a ... requests larger than 60 MB", TEXT)
    assert (later.verified, later.reason) == (
        False,
        "the quote says '60' where the source says '25'",
    )
    assert (later.start, later.end) == (140, 166)


@pytest.mark.parametrize("quote", ["", "   ", "a ... b"])
def test_an_empty_quote_is_never_verified(quote: str) -> None:
    assert match_quote(quote, TEXT) == QuoteMatch(False, 0.0, reason="empty quote")


def test_a_quote_with_nothing_distinctive_at_the_very_start_of_a_long_source() -> None:
    quote = "we are at it as we go to it"
    text = quote + ". " + _prose(20_000, seed=5)
    assert match_quote(quote, text) == QuoteMatch(True, 100.0, 0, len(quote))


_JA_SOURCE = Source(1, "https://docs.example.com/ja", "JA", _JA)


@pytest.mark.parametrize(("quoted", "checked"), [("「申請は不要」", True), ("「は不要で」", False)])
def test_a_cjk_quote_is_checked_from_five_characters(quoted: str, checked: bool) -> None:
    answer = verify_quotes(resolve(f"It says {quoted}[1].", [_JA_SOURCE]))
    assert [(q.quote, q.verified) for q in answer.quotes] == (
        [(quoted[1:-1], True)] if checked else []
    )


def test_two_words_of_twelve_characters_are_a_quote() -> None:
    [check] = verify_quotes(_answer('The "retention period"[1] is set.')).quotes
    assert (check.quote, check.verified) == ("retention period", True)


def test_quotes_after_an_uncited_sentence_are_still_checked() -> None:
    reference = Reference(1, "https://docs.example.com/policy", "Policy", (web(),))
    answer = CitedAnswer(
        (Segment("Intro."), Segment(' Then "logs are kept forever now"', (1,))), (reference,)
    )
    checked = verify_quotes(answer)
    assert [(q.quote, q.verified) for q in checked.quotes] == [("logs are kept forever now", False)]
    assert checked.text == 'Intro. Then "logs are kept forever now" (unverified quote)[1]'


def test_each_cited_sentence_is_checked_whole() -> None:
    answer = _answer(
        "Logs are kept. Audit logs are kept for 90 days[1]. Requests larger than 25 MB are rejected[1]."
    )
    checked = verify_quotes(answer, sentences=True)
    assert [(q.quote, q.kind) for q in checked.quotes] == [
        ("Audit logs are kept for 90 days", "sentence"),
        ("Requests larger than 25 MB are rejected", "sentence"),
    ]
    assert checked.warnings == answer.warnings  # sentences are reported, not warned about


def test_only_a_verified_quote_gets_a_deep_link() -> None:
    checked = verify_quotes(_answer('It says "The retention period for audit logs is 60 days"[1].'))
    [check] = checked.quotes
    assert not check.verified and check.start is not None
    assert check.deep_link is None


def test_the_quote_is_checked_against_every_source_of_its_reference() -> None:
    # two chunks of the same page: one reference, and the quote is in the second chunk
    page = "https://docs.example.com/policy"
    first = Source(1, page, "Policy", "Logs older than a year are archived to cold storage.")
    second = Source(2, page, "Policy", TEXT)
    answer = resolve(
        'It says "The retention period for audit logs is 90 days"[1][2].', [first, second]
    )
    [check] = verify_quotes(answer).quotes
    assert (check.verified, check.reference, check.source_id) == (True, 1, 2)
    assert check.deep_link is not None and check.deep_link.startswith(page + "#:~:text=")
    near = verify_quotes(
        resolve(
            'It says "The retention period for audit logging is 90 days"[1][2].', [first, second]
        )
    )
    assert near.quotes[0].score == 94.74  # the best source's score, to two decimals


def test_words_past_the_end_of_a_short_source_count_against_the_quote() -> None:
    past = match_quote("logs are deleted automatically", "logs are deleted")
    assert (past.verified, past.reason) == (False, "closest source text scores 70 < 90")
    one_more = match_quote("The retention period for audit logs is 90 days", TEXT[4:46])
    assert (round(one_more.score, 2), one_more.start, one_more.end) == (95.45, 0, 42)
    assert (one_more.verified, one_more.reason) == (
        False,
        "the quote says 'The' where the source says 'nothing'",
    )


@pytest.mark.parametrize(
    ("quote", "score", "covers"),
    [
        (
            "The retention period for logs is 90 days",
            90.91,
            "The retention period for audit logs is 90 days",
        ),
        (
            "The API does not support uploads, and requests larger than 25 MB",
            90.0,
            "The API does not support streaming uploads, and requests larger than 25 MB",
        ),
    ],
)
def test_a_quote_that_leaves_out_a_word_is_scored_against_the_longer_source_span(
    quote: str, score: float, covers: str
) -> None:
    match = match_quote(quote, TEXT)
    assert (match.verified, round(match.score, 2)) == (True, score)
    assert match.start is not None and TEXT[match.start : match.end].startswith(covers)


_JA_SERVICE = (
    "このサービスは東京と大阪のデータセンターで運用されており、毎日自動でバックアップされます。"
    "料金は月額千円で、解約はいつでもできます。"
)


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        (
            "このサービスは東京と大阪のデータセンターで運用されており、毎日自動でバックアップされません",
            "the quote says 'せ ん' where the source says 'nothing'",
        ),
        (
            "このサービスは東京と大阪のデータセンターで運用されておらず、毎日自動でバックアップされます",
            "the quote says 'ら' where the source says 'り'",
        ),
        (
            "このサービスは東京と大阪のデータセンターで運用されていない",
            "the quote says 'い な い' where the source says 'nothing'",
        ),
        (
            "料金は月額千円で、解約はいつでもできません",
            "the quote says 'せ ん' where the source says 'す'",
        ),
        (
            "ないこのサービスは東京と大阪のデータセンターで運用されており",
            "the quote says 'な い' where the source says 'nothing'",
        ),
        (
            "このサービスは東京と大阪のデータセンターで運用されており、毎日自動でバックアップされないです",
            "the quote says 'な' where the source says 'ま'",
        ),
        (
            "このサービスは東京と大阪のデータセンターでは運用されておらず",
            "the quote says 'ら ず' where the source says 'nothing'",
        ),
        (
            "料金は月額二千円で、解約はいつでもできます",
            "the quote says '二' where the source says 'nothing'",
        ),
    ],
)
def test_a_japanese_negation_or_numeral_added_is_refused(quote: str, reason: str) -> None:
    match = match_quote(quote, _JA_SERVICE)
    assert (match.verified, match.reason) == (False, reason)
