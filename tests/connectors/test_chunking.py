from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from connectors.knowledge.chunking import chunk_document, split_spans
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.parsing import parse_markdown


def test_sentences_are_packed_within_budget_and_offsets_point_into_the_source() -> None:
    source = "# Title\n\n" + " ".join(f"Sentence number {i} is here." for i in range(40))
    section = Section(text=source, heading="Title", anchor="title", start=0, end=len(source))
    doc = Document(
        key="k", url="https://d/x.md", title="Doc", sections=(section,), content_hash="h"
    )
    chunks = chunk_document(doc, max_chars=200)
    assert len(chunks) > 3
    for chunk in chunks:
        assert len(chunk.text) <= 200
        assert source[chunk.start : chunk.end] == chunk.text
        assert chunk.text.endswith(".") or chunk.text == "# Title"
        assert chunk.url == "https://d/x.md#title"
        assert chunk.title == "Doc › Title"
    assert len({c.id for c in chunks}) == len(chunks)


def test_pdf_chunks_link_to_their_page() -> None:
    doc = Document(
        key="k",
        url="file:///a.pdf",
        title="Manual",
        sections=(Section(text="Text.", heading="Page 2", page=2, start=10, end=15),),
        kind="pdf",
    )
    (chunk,) = chunk_document(doc)
    assert chunk.url == "file:///a.pdf#page=2"
    assert chunk.title == "Manual › Page 2"
    assert (chunk.start, chunk.end, chunk.page) == (10, 15, 2)


def test_overlap_repeats_sentences_but_always_advances() -> None:
    text = " ".join(f"S{i} is a sentence." for i in range(20))
    spans = split_spans(text, 60, overlap_sentences=1)
    starts = [s for s, _ in spans]
    assert starts == sorted(set(starts))
    assert any(spans[i][1] > spans[i + 1][0] for i in range(len(spans) - 1))


@given(
    st.text(alphabet=st.sampled_from("ab .!?\n"), max_size=400),
    st.integers(min_value=5, max_value=120),
)
def test_spans_cover_all_words_in_order_within_budget(text: str, budget: int) -> None:
    spans = split_spans(text, budget)
    pieces = [text[s:e] for s, e in spans]
    assert all(0 < len(p) <= budget for p in pieces)
    assert all(spans[i][1] <= spans[i + 1][0] for i in range(len(spans) - 1))
    assert "".join(text.split()) == "".join("".join(p.split()) for p in pieces)


def titles(markdown: str) -> list[str]:
    """The titles of the chunks of a Markdown page."""
    title, sections = parse_markdown(markdown, "fallback")
    doc = Document(key="k", url="https://d/p.md", title=title, sections=sections)
    return [c.title for c in chunk_document(doc)]


def test_a_heading_the_page_repeats_is_titled_with_the_headings_it_sits_under() -> None:
    # two footnotes "Storage › Usage" would not say which place each one points at
    markdown = (
        "# Storage\n\nIntro.\n\n## Backfilling from OpenMetrics\n\n### Usage\n\nRun create-blocks.\n"
        "\n## Backfilling for rules\n\n### Usage\n\nRun create-blocks-from rules.\n\n"
        "## Limitations\n\nNone.\n"
    )
    assert titles(markdown) == [
        "Storage",
        "Storage › Backfilling from OpenMetrics › Usage",
        "Storage › Backfilling for rules › Usage",
        "Storage › Limitations",
    ]
    # the title reaches up past parents the two share, to the first they do not
    same = (
        Section(text="### Stop\n\nA.", heading="Stop", parents=("Config", "Start")),
        Section(text="### Stop\n\nB.", heading="Stop", parents=("Setup", "Start")),
    )
    doc = Document(key="k", url="https://d/c.md", title="Guide", sections=same)
    assert [c.title for c in chunk_document(doc)] == [
        "Guide › Config › Start › Stop",
        "Guide › Setup › Start › Stop",
    ]


def test_a_title_names_only_as_many_parents_as_tell_it_apart() -> None:
    markdown = (
        "# Page\n\nIntro.\n\n## Guide\n\n### A\n\n#### Stop\n\nStop A.\n\n### B\n\n#### Stop\n\n"
        "Stop B.\n\n#### Limits\n\nOne at a time.\n"
    )
    # the nearest parent tells the two "Stop" apart; a heading the page has once keeps its
    # short title, though it sits as deep
    assert titles(markdown) == [
        "Page",
        "Page › A › Stop",
        "Page › B › Stop",
        "Page › Limits",
    ]
    # sections nothing tells apart keep their nearest parent, never the page's own title,
    # and are counted, as their anchors are (#stop, #stop-1): two footnotes never read the same
    twice = "# Page\n\n## A\n\n### Stop\n\nOne.\n\n## A\n\n### Stop\n\nTwo.\n"
    assert titles(twice) == ["Page › A › Stop", "Page › A › Stop (2)"]
    assert titles("# Guide\n\n## Limits\n\nUp.\n\n## Limits\n\nDown.\n") == [
        "Guide › Limits",
        "Guide › Limits (2)",
    ]


def test_a_chunk_never_starts_inside_an_admonition_opener() -> None:
    # "!!!" and "???" end with what ends a sentence; cut there, the next chunk would begin
    # at the admonition's kind ("note …") and read the indented body under it as code
    text = "\n\n".join(
        f"Paragraph {i} explains one more part of the setup in a sentence or two.\n\n"
        f'{marker} note "Read this first"\n\n    The body {i} of the note is indented under it.'
        for i, marker in enumerate(["!!!", "???", "???+"] * 4)
    )
    for budget in range(60, 400, 7):
        for start, _ in split_spans(text, budget):
            assert not text[start:].startswith(("note", "+ note")), (budget, text[start:][:20])
            assert not text[:start].rstrip().endswith(("!!!", "???", "???+"))


def test_a_code_block_over_the_budget_is_cut_between_its_lines() -> None:
    # a line cut at a space is two lines once the chunks are read on and joined (borg's
    # "sudo -E borg create ..." was shown as "sudo" over "-E borg create ...")
    lines = [f"borg create --stats repo::archive-{i} /home/user{i} /etc" for i in range(40)]
    text = "Run these:\n\n```\n" + "\n".join(lines) + "\n```"
    for budget in range(120, 700, 37):
        spans = split_spans(text, budget)
        assert len(spans) > 1
        for start, end in spans:
            assert start == 0 or text[start - 1] == "\n", (budget, text[start - 10 : start + 10])
            assert end == len(text) or text[end] == "\n", (budget, text[end - 10 : end + 10])


def test_a_line_break_early_in_the_budget_does_not_cut_a_long_line_short() -> None:
    # the cut falls back to the last space when the only line break would leave the piece
    # under half the budget: a long paragraph after a short line is not cut into slivers
    text = "Short line\n" + " ".join(f"word{i}" for i in range(200))
    spans = split_spans(text, 300)
    assert all(end - start > 150 for start, end in spans[:-1])
    assert "".join(text.split()) == "".join("".join(text[s:e].split()) for s, e in spans)
