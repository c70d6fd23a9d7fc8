from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations import CitationStream, Segment, Source, resolve
from citations.model import Origin
from tests.citations.profiles import PROPERTY

URLS = ["a.html#chap1", "a.html#chap2", "b.pdf", "b.pdf", "c.pdf", "d.csv"]
EXAMPLE = "Yes[1](id=3), certainly[2](id=2), no[3](id=4), yes[4](id=1), yes[5](id=5)"
EXPECTED = "Yes[1], certainly[2], no[1], yes[3], yes[4]"


def sources(urls: list[str] = URLS) -> list[Source]:
    return [Source(i + 1, url, f"Title {i + 1}", f"text {i + 1}") for i, url in enumerate(urls)]


def stream(
    text_parts: list[str], srcs: list[Source] | None = None, **opts: bool
) -> tuple[str, CitationStream]:
    s = CitationStream(srcs if srcs is not None else sources(), **opts)
    out = "".join(s.feed(p) for p in text_parts) + s.close()
    return out, s


def test_reference_example_whole() -> None:
    answer = resolve(EXAMPLE, sources())
    assert answer.text == EXPECTED
    assert [(r.number, r.url) for r in answer.references] == [
        (1, "b.pdf"),
        (2, "a.html#chap2"),
        (3, "a.html#chap1"),
        (4, "c.pdf"),
    ]
    assert [s.id for s in answer.references[0].sources] == [3, 4]
    assert all("d.csv" not in r.url for r in answer.references)
    assert answer.warnings == ()


def test_reference_example_split_at_every_character() -> None:
    whole = resolve(EXAMPLE, sources())
    out, s = stream(list(EXAMPLE))
    assert out == EXPECTED
    assert s.answer == whole
    for cut in range(len(EXAMPLE) + 1):
        out, s = stream([EXAMPLE[:cut], EXAMPLE[cut:]])
        assert out == EXPECTED, cut
        assert s.answer == whole, cut


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("A[1](id=3).", "A[1]."),
        ("A[3].", "A[1]."),
        ("A[3, 5].", "A[1][2]."),
        ("A[3;5].", "A[1][2]."),
        ("A[3][5].", "A[1][2]."),
        ("A【3†source】.", "A[1]."),
        ("A【3:0†source】.", "A[1]."),
        ("A[^3].", "A[1]."),
        ("A[3][4].", "A[1]."),  # same URL: one number, not repeated
        ("A[ 3 ].", "A[1]."),
        ("A [3] B [5] C [4]", "A [1] B [2] C [1]"),
    ],
)
def test_marker_forms(written: str, shown: str) -> None:
    assert resolve(written, sources()).text == shown
    out, _ = stream(list(written))
    assert out == shown


@pytest.mark.parametrize(
    "written", ["A【3†source】.【5:1†source】", "A[1](id=3)[5][^4]", "x [3, 5] `[3]` [3]"]
)
def test_every_three_way_split(written: str) -> None:
    expected = resolve(written, sources())
    for i in range(len(written) + 1):
        for j in range(i, len(written) + 1):
            out, s = stream([written[:i], written[i:j], written[j:]])
            assert out == expected.text and s.answer == expected, (i, j)


@pytest.mark.parametrize(
    "text",
    [
        "Use `x[3]` here",
        "Use ``a ` [3] b`` here",
        "```\nlist[3] = 1\n```",
        "See [the docs](https://x.com/a[3]) now",
        "[3]: https://example.com/ref",
        "[^3]: a footnote definition",
        "An array a[]; a bracket [ 3 b ]",
        "[12345678901] is not an id",
        "【3†",
    ],
)
def test_never_rewritten(text: str) -> None:
    answer = resolve(text, sources())
    assert answer.text == text
    out, _ = stream(list(text))
    assert out == text


def test_code_then_marker_resumes() -> None:
    text = "```\nx[3]\n```\nafter[3] and `y[3]` then[5]"
    assert resolve(text, sources()).text == "```\nx[3]\n```\nafter[1] and `y[3]` then[2]"


def test_a_stray_backtick_hides_no_marker() -> None:
    # a model's lone backtick opens no code span that nothing closes: every marker after
    # it is still a footnote, in the final answer and in what was streamed
    text = "Run `borg create [3]. Then prune it [5].\n\nnext paragraph[3]"
    shown = "Run `borg create [1]. Then prune it [2].\n\nnext paragraph[1]"
    answer = resolve(text, sources())
    assert answer.text == shown
    assert [r.url for r in answer.references] == ["b.pdf", "c.pdf"]
    out, s = stream(list(text))
    assert out == shown
    assert s.answer == answer


def test_a_code_span_is_held_until_it_closes() -> None:
    s = CitationStream(sources())
    assert s.feed("Use `x[3]") == "Use `"
    assert s.feed(" y") == ""
    assert s.feed("` now [3] ok") == "x[3] y` now [1] ok"
    assert s.close() == ""


def test_an_unclosed_code_span_is_read_again_at_the_end_of_the_text() -> None:
    s = CitationStream(sources())
    assert s.feed("see `foo [3]") == "see `"
    assert s.close() == "foo [1]"
    assert [r.number for r in s.answer.references] == [1]


def test_a_line_break_releases_an_unclosed_code_span_at_once() -> None:
    s = CitationStream(sources())
    assert s.feed("Use `x [3]\nthen [5]") == "Use `x [1]\nthen "
    assert s.close() == "[2]"


def test_a_closing_bracket_waits_only_for_the_character_after_it() -> None:
    # "](" after a link's label opens its destination; any other character shows it is text
    s = CitationStream(sources())
    assert s.feed("[a]b") == "[a]b"
    assert s.feed("[c]") == "[c"
    assert s.feed("(x[3]) [5]") == "](x[3]) "
    assert s.close() == "[1]"
    assert s.answer.text == "[a]b[c](x[3]) [1]"


def test_a_code_span_is_held_for_at_most_the_documented_bound() -> None:
    # 256 characters: longer than any span a model writes, so its backticks were text
    text = "`" + "x" * 300 + " [3]` [5]"
    s = CitationStream(sources())
    shown = 0
    for fed, char in enumerate(text, 1):
        shown += len(s.feed(char))
        assert fed - shown <= 256
    s.close()
    assert s.answer.text == "`" + "x" * 300 + " [1]` [2]"
    # a span of 256 characters with its closing backtick still closes as code
    held = "`" + "x" * 252 + "[3]`[5]"
    assert resolve(held, sources()).text == "`" + "x" * 252 + "[3]`[1]"
    over = "`" + "x" * 253 + "[3]`[5]"
    assert resolve(over, sources()).text == "`" + "x" * 253 + "[1]`[2]"


def test_invented_ids_dropped_with_warning() -> None:
    answer = resolve("A[9] B[3] C[9, 5] D[99](id=42)", sources())
    assert answer.text == "A B[1] C[2] D"
    # one warning per invented id, however often it is cited
    assert answer.warnings == (
        "citation of unknown source id 9 dropped (the model was given 6 sources)",
        "citation of unknown source id 42 dropped (the model was given 6 sources)",
    )
    assert [r.number for r in answer.references] == [1, 2]


def test_uncited_sources_not_listed() -> None:
    answer = resolve("Only[5].", sources())
    assert [r.url for r in answer.references] == ["c.pdf"]


def test_merge_fragments_option() -> None:
    answer = resolve("x[1] y[2]", sources(), merge_fragments=True)
    assert answer.text == "x[1] y[1]"
    assert [r.url for r in answer.references] == ["a.html"]
    assert [s.id for s in answer.references[0].sources] == [1, 2]


def test_a_web_page_under_two_fragments_is_one_footnote() -> None:
    page = "https://a.example.org/t"
    web = [
        Source(1, page, "T", "one", origin=Origin.WEB),
        Source(2, page + "#frag", "T", "two", origin=Origin.WEB),
        # knowledge-base sections of one page stay apart
        Source(3, "https://docs.example.com/p#a", "P", "a"),
        Source(4, "https://docs.example.com/p#b", "P", "b"),
    ]
    answer = resolve("x[1] y[2] z[3] w[4]", web)
    assert answer.text == "x[1] y[1] z[2] w[3]"


def test_dedupe_uses_canonical_url() -> None:
    srcs = sources(
        [
            "https://Example.com/a/?utm_source=x&b=1",
            "https://example.com:443/a?b=1",
            "https://example.com/a?b=2",
        ]
    )
    answer = resolve("x[1] y[2] z[3]", srcs)
    assert answer.text == "x[1] y[1] z[2]"


def test_refusal_lists_nothing() -> None:
    answer = resolve("I couldn't find this in the knowledge base[3].", sources())
    assert answer.references == ()
    assert answer.text == "I couldn't find this in the knowledge base."
    assert answer.warnings == ("the answer declines to answer; no sources listed",)


def test_a_cited_answer_that_could_not_find_more_keeps_its_sources() -> None:
    answer = resolve("Yes[3]. I couldn't find more.", sources())
    assert answer.text == "Yes[1]. I couldn't find more."
    assert [r.url for r in answer.references] == ["b.pdf"]
    assert answer.warnings == ()


def test_segments_and_text_agree_with_display() -> None:
    out, s = stream(["Alpha [3", "] beta[5][4", "]. Gamma"])
    assert out == s.answer.text == "Alpha [1] beta[2][1]. Gamma"
    assert [(seg.text, seg.citations) for seg in s.answer.segments] == [
        ("Alpha ", (1,)),
        (" beta", (2, 1)),
        (". Gamma", ()),
    ]


def test_an_answer_that_ends_with_a_marker_ends_with_its_cited_segment() -> None:
    for answer in (resolve("Alpha [3]", sources()), stream(["Alpha [3", "]"])[1].answer):
        assert answer.segments == (Segment("Alpha ", (1,)),)


def test_feed_after_close_raises() -> None:
    s = CitationStream(sources())
    s.close()
    with pytest.raises(RuntimeError, match=r"^CitationStream is closed$"):
        s.feed("x")


def test_holdback_is_bounded_on_adversarial_input() -> None:
    s = CitationStream(sources())
    shown = 0
    text = "[" + "1, " * 200 + "]" + "【1†" + "x" * 200 + "[^" + "9" * 50 + "[a](x" + "[1" * 40
    for fed, char in enumerate(text, 1):
        shown += len(s.feed(char))
        # what the stream would show if the text ended here: a marker shows shorter than
        # written, so fed - shown counts more than is held
        assert len(stream([text[:fed]])[0]) - shown <= 64  # the bound the module documents
    s.close()


# -- hypothesis: split invariance ------------------------------------------------

_pieces = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.sampled_from(
        [
            "[1]",
            "[3]",
            "[42]",
            "[1, 5]",
            "[2;6]",
            "[^4]",
            "[1](id=3)",
            "[7](id=99)",
            "【2†source】",
            "【5:1†source】",
            "【x†",
            "`",
            "``",
            "```\n",
            "~~~\n",
            "\\`",
            "[1-3]",
            "[2](see above)",
            "[a](",
            "\n",
            "\n\n",
            "[docs](https://x.com/p[1])",
            "[3](http://u.rl)",
            "](",
            "[",
            "]",
            "(",
            ")",
            "[1]: ",
            " ",
            "(id=",
            "[1](id",
            "I couldn't find it. ",
            # three make an inline code span too long to be held (256 characters)
            "x" * 100,
        ]
    ),
)
_text = st.lists(_pieces, max_size=30).map("".join)


@st.composite
def _splits(draw: st.DrawFn) -> tuple[str, list[str]]:
    text = draw(_text)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12)))
    parts, prev = [], 0
    for cut in cuts:
        parts.append(text[prev:cut])
        prev = cut
    parts.append(text[prev:])
    return text, parts


@PROPERTY
@given(_splits())
def test_split_invariance(case: tuple[str, list[str]]) -> None:
    text, parts = case
    whole_out, whole = stream([text])
    split_out, split = stream(parts)
    assert split_out == whole_out
    assert split.answer == whole.answer
    assert whole.answer.text == whole_out or whole.answer.references == ()


@PROPERTY
@given(_text)
def test_char_by_char_equals_whole_and_holdback_bound(text: str) -> None:
    whole_out, whole = stream([text])
    s = CitationStream(sources())
    shown = 0
    out = []
    for fed, char in enumerate(text, 1):
        piece = s.feed(char)
        out.append(piece)
        shown += len(piece)
        # held back = what the stream would still show if the input ended here; counting
        # fed - shown would also count what a rewritten marker ([0](id=00) → [1]) saved
        would_show = len(stream([text[:fed]])[0])
        # the bounds the module documents: an inline code span's text waits for its
        # closing backticks (256), a marker that may still be forming for the rest (64)
        assert would_show - shown <= (256 if "`" in text[:fed] else 64)
    out.append(s.close())
    assert "".join(out) == whole_out
    assert s.answer == whole.answer


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        # a fence closes only with its own character, at least as long, at a line start
        # only backticks make a fence: Slack and Discord show a tilde "fence" as text
        ("~~~\n[3]\n```\n[3]\n~~~\n[3]", "~~~\n[1]\n```\n[3]\n~~~\n[3]"),
        ("```\n[3]\n~~~\n[3]\n```\n[3]", "```\n[3]\n~~~\n[3]\n```\n[1]"),
        ("````\n[3]\n```\n[3]\n````\n[3]", "````\n[3]\n```\n[3]\n````\n[1]"),
        ("```\nx ```[3]\n```\n[3]", "```\nx ```[3]\n```\n[1]"),
        ("   ```\n[3]\n```\n[3]", "   ```\n[3]\n```\n[1]"),
        ("text\n```\n[3]\n```\n[3]", "text\n```\n[3]\n```\n[1]"),
        ("``` [3]", "``` [3]"),
        # inline code closes with as many backticks as opened it; tildes are text
        ("``a`[3]``[3]", "``a`[3]``[1]"),
        ("`a``[3]`[3]", "`a``[3]`[1]"),
        ("x ``[3]`` [3]", "x ``[3]`` [1]"),
        ("a ```b``` [3]", "a ```b``` [1]"),
        ("~~x~~ [3]", "~~x~~ [1]"),
        ("~[3]~", "~[1]~"),
        # backticks that nothing closes in their paragraph are text (CommonMark)
        ("a ` b\n\n[3]", "a ` b\n\n[1]"),
        ("` b\n\n[3]", "` b\n\n[1]"),
        ("a ` b\n[3]\n\n[3]", "a ` b\n[1]\n\n[1]"),
        # after backticks that pair with nothing, the renderers show no code: nor does the stream
        ("a ` b\n`[3]` [5]", "a ` b\n`[1]` [2]"),
        ("a ` b [3]", "a ` b [1]"),
        ("a `` b ` [3]", "a `` b ` [1]"),
        ("a `b` c `d [3] `e` [5]", "a `b` c `d [3] `e` [1]"),
        # a span closes on its own line (Slack shows no code across one), or as the text ends
        ("a `b\n[3]` [3]", "a `b\n[1]` [1]"),
        ("x `[3]`", "x `[3]`"),
        ("`` x `[3]`", "`` x `[1]`"),
        ("a ` b\n\nc `[3]` d", "a ` b\n\nc `[1]` d"),
        # a run is one character repeated: a tilde ends a run of backticks
        ("`~ [3]` [5]", "`~ [3]` [1]"),
        # a fence is one at a line's start, indented three spaces at most; else a span
        ("```\n[3]\n\n[3]", "```\n[3]\n\n[3]"),
        ("   ```\n[3]\n\n[3]", "   ```\n[3]\n\n[3]"),
        ("    ```\n[3]\n\n[3]", "    ```\n[1]\n\n[1]"),
        # a link's destination ends at its ")"; with a parenthesis, space or line break in
        # it, it is no link to the renderers, and its markers are footnotes
        ("[a](http://x.com/b[3]) [3]", "[a](http://x.com/b[3]) [1]"),
        ("[a](http://x.com/(b)[3]) [3]", "[a](http://x.com/(b)[1]) [1]"),
        ("[a](http://x.com/b\n[3]", "[a](http://x.com/b\n[1]"),
        ("[a](x `[3]` y)[3]", "[a](x `[3]` y)[1]"),
        # backticks open code inside a destination too (where a ")" does not close it);
        # tildes do not
        ("[a](x `)[3]` [5]", "[a](x `)[3]` [1]"),
        ("[a](x ~y~)[3]", "[a](x ~y~)[1]"),
        ("a](x) [3]", "a](x) [1]"),
        # a bracket of ids with a URL after it is a citation that links its source
        ("x [3](https://e.com) y [5]", "x [1] y [2]"),
        ("a]\nb", "a]\nb"),
        # a definition line starts with at most three spaces
        ("x [3]: y", "x [1]: y"),
        ("   [3]: y", "   [3]: y"),
        ("x\n   [3]: y", "x\n   [3]: y"),
        ("x\n    [3]: y", "x\n    [1]: y"),
        ("    [3]: y", "    [1]: y"),
        ("[^3]: note\n[^3]", "[^3]: note\n[1]"),
        ("[3]\n[5]: x", "[1]\n[5]: x"),
        # ids: nine digits at most, separated by , or ; as many as come
        ("[123456789]", ""),
        ("[1234567890]", "[1234567890]"),
        ("[ 1 , 3 ]", "[1][2]"),
        ("[1,2,3,4,5,6,1,2,3,4,5,6,1,2,3,4]", "[1][2][3][4][5]"),
        ("[1,2,3,4,5,6,1,2,3,4,5,6,1,2,3,4,5]", "[1][2][3][4][5]"),
        ("[1 3]", "[1 3]"),
        ("[1,]", "[1,]"),
        ("[^1,3]", "[1][2]"),
        # the (id=K) suffix, spaced or with a colon; unfinished, it stays text
        ("[1](id=3)(x)", "[1](x)"),
        ("[1]( id = 3 )", "[1]"),
        ("[1](id:3)", "[1]"),
        ("[1](id=3", "[1](id=3"),
        ("[1](i", "[1](i"),
        ("【3†source】【3†source】", "[1]"),
        ("【3†source", "【3†source"),
        ("【3:†source】", "【3:†source】"),
        ("【3:1†source】", "[1]"),
        ("A[3][3][4]", "A[1]"),
        ("A[3] B[3]", "A[1] B[1]"),
    ],
)
def test_what_is_rewritten_and_what_is_left_alone(written: str, shown: str) -> None:
    assert resolve(written, sources()).text == shown
    out, _ = stream(list(written))
    assert out == shown


def test_a_marker_is_released_when_the_next_character_shows_it_is_complete() -> None:
    s = CitationStream(sources())
    assert s.feed("") == ""
    assert s.feed("A[3]") == "A"  # an (id=K) suffix may follow
    assert s.feed(" B[^5]") == "[1] B[2]"  # a footnote takes no suffix
    assert s.feed("【4†") == ""
    assert s.feed("source】 C[5]") == "[1] C"
    assert s.answer.text == "A[1] B[2][1] C"  # the answer so far
    assert s.close() == "[2]"
    assert s.close() == ""
    assert s.answer.text == "A[1] B[2][1] C[2]"


def test_sources_past_ninety_nine_are_numbered_too() -> None:
    many = [Source(i, f"https://x.com/{i}", f"T{i}", "t") for i in range(1, 121)]
    text = " ".join(f"w[{i}]" for i in range(120, 0, -1))
    answer = resolve(text, many)
    assert answer.text == " ".join(f"w[{n}]" for n in range(1, 121))
    assert [r.url for r in answer.references][99:101] == ["https://x.com/21", "https://x.com/20"]


def test_a_marker_split_across_tokens_is_held_until_it_closes() -> None:
    s = CitationStream(sources())
    assert [s.feed(t) for t in ["x 【3", "†sou", "rce】 y 【4:", "†s】 z"]] == [
        "x ",
        "",
        "[1] y ",
        "【4:†s】 z",
    ]


@pytest.mark.parametrize(
    ("tokens", "shown"),
    [
        # indentation counts across tokens: four spaces make no definition line
        (["a\n", "    ", "[3]: y"], "a\n    [1]: y"),
        (["a\n", "XX[3]: y"], "a\nXX[1]: y"),
        (["a\n", "  ", "[3]: y"], "a\n  [3]: y"),
    ],
)
def test_a_definition_line_is_known_across_tokens(tokens: list[str], shown: str) -> None:
    out, _ = stream(tokens)
    assert out == shown == resolve("".join(tokens), sources()).text
