"""A model's raw "[n]" never shows as prose: the stream resolves it into a footnote unless the
renderers show it as code, or drop it as a link's destination.

The stream's code is render.safe's code (backtick spans on one line, backtick fences), and the
streamed output, split anywhere, is the text resolved whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations import CitationStream, CitedAnswer, Source, resolve
from citations.render import render_discord, render_slack
from citations.render.pieces import _MD_LINK
from citations.render.safe import code_regions
from tests.citations.profiles import PROPERTY

DOCS = [
    Source(1, "https://docs.example.com/a", "Doc A", "a"),
    Source(2, "https://docs.example.com/b", "Doc B", "b"),
    Source(3, "https://docs.example.com/c", "Doc C", "c"),
]
A, B, C = (f"https://docs.example.com/{x}" for x in "abc")

# a bracket of ids as a reader takes it for footnotes
_RAW = re.compile(r"\[\^? *\d{1,9}(?: *[-\u2013,;] *\d{1,9})* *\]")


def raw_ids_shown(answer: CitedAnswer) -> list[str]:
    """The raw id brackets the renderers show as prose: outside code, outside the stream's
    own footnotes and outside a link's destination; a definition line ("[3]: x") aside."""
    text = answer.text
    shown = list(text)
    at = 0
    for seg in answer.segments:
        end = at + len(seg.text)
        labels = sum(len(f"[{n}]") for n in seg.citations)
        shown[end : end + labels] = "\0" * labels
        at = end + labels
    for start, end in code_regions(text):
        shown[start:end] = "\0" * (end - start)
    # a link is read within a run of prose between footnotes and code
    for run in re.finditer(r"[^\0]+", "".join(shown)):
        for link in _MD_LINK.finditer(run.group()):
            start = run.start() + link.start()
            shown[start : start + len(link.group())] = "\0" * len(link.group())
    found = []
    prose = "".join(shown)
    for m in _RAW.finditer(prose):
        line = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        definition = (
            prose[m.end() : m.end() + 1] == ":" and line.strip(" ") == "" and len(line) <= 3
        )
        if not definition:
            found.append(m.group())
    return found


def streamed(parts: list[str]) -> tuple[str, CitationStream]:
    stream = CitationStream(DOCS)
    return "".join(stream.feed(p) for p in parts) + stream.close(), stream


def assert_every_split(text: str, shown: str) -> None:
    """Whole, char by char and cut in two anywhere, the stream shows ``shown``."""
    whole = resolve(text, DOCS)
    assert whole.text == shown
    for parts in [list(text)] + [[text[:cut], text[cut:]] for cut in range(len(text) + 1)]:
        out, stream = streamed(parts)
        assert out == shown, parts
        assert stream.answer == whole, parts


def test_a_tilde_fence_is_prose_so_its_markers_are_footnotes() -> None:
    # Slack and Discord show "~~~" as text: "[1]" in it read as footnote 1 (Doc C)
    text = "Borg [3].\n~~~\nSee also [1]\n~~~\nDone [2]."
    answer = resolve(text, DOCS)
    assert answer.text == "Borg [1].\n~~~\nSee also [2]\n~~~\nDone [3]."
    assert [(r.number, r.title) for r in answer.references] == [
        (1, "Doc C"),
        (2, "Doc A"),
        (3, "Doc B"),
    ]
    assert render_discord(answer)[0].content == (
        f"Borg [[1]](<{C}>).\n~~~\nSee also [[2]](<{A}>)\n~~~\nDone [[3]](<{B}>)."
    )
    assert_every_split(text, answer.text)


def test_an_escaped_backtick_opens_no_code() -> None:
    text = "Use \\`[1]` and prune [3]."
    answer = resolve(text, DOCS)
    assert answer.text == "Use \\`[1]` and prune [2]."
    assert [r.title for r in answer.references] == ["Doc A", "Doc C"]
    assert render_discord(answer)[0].content == f"Use \\`[[1]](<{A}>)` and prune [[2]](<{C}>)."
    assert_every_split(text, answer.text)
    # an escaped backslash escapes nothing after it: the backtick opens code
    assert_every_split("a \\\\`[1]` [3]", "a \\\\`[1]` [1]")


def test_a_code_span_ends_at_its_line() -> None:
    text = "Set `retention\n[1] keep` and [3]."
    answer = resolve(text, DOCS)
    assert answer.text == "Set `retention\n[1] keep` and [2]."
    blocks = render_slack(answer)[0].blocks
    assert "<https://docs.example.com/a|[1]>" in blocks[0]["text"]["text"]
    assert_every_split(text, answer.text)


def test_after_an_unpaired_backtick_nothing_is_code() -> None:
    # the renderers pair the later backticks differently, so they show no code after it
    assert_every_split("a ` b\n\n`[1]` [3]", "a ` b\n\n`[1]` [2]")
    # and a fence of four backticks ends all code after it
    assert_every_split("````\n[1]\n````\n`[2]`", "````\n[1]\n````\n`[1]`")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # a fence opens on a line with no other backtick, and runs to the end if nothing closes it
        ("```py [1]\nx[2]\n```\n[3]", "```py [1]\nx[2]\n```\n[1]"),
        ("```py [3]", "```py [3]"),
        ("```x``` [1]", "```x``` [1]"),
        ("```x` [1]", "```x` [1]"),
        ("```x```` [1]", "```x```` [1]"),
        # it closes with a line of backticks and nothing else
        ("```\n[1]\n``` x\n[2]\n```\n[3]", "```\n[1]\n``` x\n[2]\n```\n[1]"),
        ("```\n[1]\n```  \n[2]", "```\n[1]\n```  \n[1]"),
        # a footnote before a fence keeps it from starting its line; a dropped one does not
        ("[3]```\n[1]\n```", "[1]```\n[2]\n```"),
        ("[9]```\n[3]\n```", "```\n[3]\n```"),
        ("【3†source】```\n[1]\n```", "[1]```\n[2]\n```"),
    ],
)
def test_fences_as_the_renderers_read_them(text: str, shown: str) -> None:
    assert_every_split(text, shown)
    assert raw_ids_shown(resolve(text, DOCS)) == []


def test_a_citation_before_words_in_parentheses_is_a_citation() -> None:
    text = "Dedupes [1]. Prune often [2](see above)."
    answer = resolve(text, DOCS)
    assert answer.text == "Dedupes [1]. Prune often [2](see above)."
    assert [r.title for r in answer.references] == ["Doc A", "Doc B"]
    assert render_discord(answer)[0].content == (
        f"Dedupes [[1]](<{A}>). Prune often [[2]](<{B}>)(see above)."
    )
    assert_every_split(text, answer.text)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # a URL after a bracket of ids is the citation's link: it goes with it
        ("x [2](#) y", "x [1] y"),
        ("x [3](https://docs.example.com/c) y", "x [1] y"),
        ("x [1, 2](<https://e.com>) y", "x [1][2] y"),
        # one too long to wait for stays as text after the citation
        ("x [2](https://e.com/" + "p" * 60 + ")", "x [1](https://e.com/" + "p" * 60 + ")"),
        ("x [2](", "x [1]("),
    ],
)
def test_a_bracket_of_ids_before_a_parenthesis_is_a_citation(text: str, shown: str) -> None:
    assert_every_split(text, shown)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # "](" opens a link's destination only after a label the renderers read as one
        ("a](x[3]) [1]", "a](x[1]) [2]"),
        ("[a\n](x[3])", "[a\n](x[1])"),
        ("[a `b`](x[3])", "[a `b`](x[1])"),
        ("![a](x[3])", "![a](x[1])"),
        ("\\[a](x[3])", "\\[a](x[1])"),
        ("[a [1]](x[3])", "[a [1]](x[2])"),
        ("[" + "a" * 301 + "](x[3])", "[" + "a" * 301 + "](x[1])"),
        # and holds its markers only if it closes before a space, parenthesis or line break
        ("[a](x[3])", "[a](x[3])"),
        ("[" + "a" * 300 + "](x[3])", "[" + "a" * 300 + "](x[3])"),
        ("[a](x [3])", "[a](x [1])"),
        ("[a](x[3] y)", "[a](x[1] y)"),
        ("[a](x[3]\n)", "[a](x[1]\n)"),
        ("[a](x[3](y))", "[a](x[1])"),  # "[3](y)": a citation and its link
        ("[a](x[3]", "[a](x[1]"),
        ("[a](x[3]" + "y" * 70 + ")", "[a](x[1]" + "y" * 70 + ")"),
        ("[a](x[3]" + "y" * 58 + ")", "[a](x[3]" + "y" * 58 + ")"),
    ],
)
def test_a_link_destination_keeps_markers_only_where_the_renderers_drop_them(
    text: str, shown: str
) -> None:
    assert_every_split(text, shown)
    assert raw_ids_shown(resolve(text, DOCS)) == []


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("A [2] B [1-3].", "A [1] B [2][1][3]."),
        ("A [3\u20131] B", "A [1][2][3] B"),
        ("A [1 - 2, 3]", "A [1][2][3]"),
        ("A [^1-2]", "A [1][2]"),
        # the ends of a range may be ids the model was not given; what lies between is not
        # listed one by one
        ("A [2-999999999]", "A [1][2]"),
        # a bracket longer than a marker is held is read as it comes, its ids all cited
        ("[" + ", ".join(["1", "2", "3"] * 10) + "] x", "[1][2][3] x"),
        ("[" + ", ".join(["3"] * 30) + ", 1", "[1][2]"),
        ("[" + ", ".join(["3"] * 30) + ", 1 x]", "[1][2]x]"),
        ("[" + ", ".join(["3"] * 30) + ", x]", "[1], x]"),
    ],
)
def test_ranges_and_long_brackets_cite_every_id(text: str, shown: str) -> None:
    assert_every_split(text, shown)
    assert raw_ids_shown(resolve(text, DOCS)) == []


def test_a_range_warns_only_for_its_ends() -> None:
    answer = resolve("A [2-999999999]", DOCS)
    assert answer.warnings == (
        "citation of unknown source id 999999999 dropped (the model was given 3 sources)",
    )


# -- hypothesis: no raw id in prose, split invariance ------------------------------

_pieces = st.one_of(
    st.text(alphabet=" ab\n`~\\[]()!:,-", max_size=6),
    st.sampled_from(
        [
            "[1]",
            "[3]",
            "[7]",
            "[1, 2]",
            "[1-3]",
            "[^2]",
            "[2](id=3)",
            "[2](see above)",
            "[2](#)",
            "【2†source】",
            "`",
            "``",
            "```",
            "```\n",
            "~~~\n",
            "\\`",
            "\\",
            "\n",
            "\n\n",
            "   ",
            "[a](",
            "[docs](https://x.com/p[1])",
            "](",
            "x[3])",
            ") ",
            "[1]: ",
            "x" * 70,
        ]
    ),
)
_text = st.lists(_pieces, max_size=25).map("".join)


@PROPERTY
@given(_text, st.lists(st.integers(0, 400), max_size=8))
def test_no_raw_id_shows_and_any_split_agrees(text: str, cuts: list[int]) -> None:
    whole = resolve(text, DOCS)
    assert raw_ids_shown(whole) == []
    parts, prev = [], 0
    for cut in sorted(c for c in cuts if c <= len(text)):
        parts.append(text[prev:cut])
        prev = cut
    parts.append(text[prev:])
    out, stream = streamed(parts)
    assert stream.answer == whole
    assert out == whole.text or whole.references == ()
