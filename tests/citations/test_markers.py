"""A document's own brackets never become the answer's footnotes: ``without_markers`` takes
out exactly what the citation stream would read as one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citations.markers import without_markers
from citations.model import Source
from citations.stream import CitationStream

SOURCES = [
    Source(id=i, url=f"https://docs.example/{i}", title=f"T{i}", text="x") for i in (1, 2, 3)
]


def footnotes(text: str) -> list[str]:
    stream = CitationStream(SOURCES)
    stream.feed(text)
    stream.close()
    return [source.url for source in stream.answer.references]


@pytest.mark.parametrize(
    ("quoted", "left"),
    [
        ("Keys rotate daily, as studies show [2-3].", "Keys rotate daily, as studies show."),
        ("Keys rotate daily [1 – 2].", "Keys rotate daily."),
        ("Keys rotate daily [ 2 ].", "Keys rotate daily."),
        ("Keys rotate daily [2, 3 ].", "Keys rotate daily."),
        ("Keys rotate daily [2]( id: 3 ).", "Keys rotate daily."),
        ("Keys rotate daily [[1]2].", "Keys rotate daily."),
        ("Keys rotate daily [^1].", "Keys rotate daily."),
        # what the stream reads as text stays
        ("An array [1 2] or [x] or [1,,2].", "An array [1 2] or [x] or [1,,2]."),
    ],
)
def test_a_documents_own_markers_are_taken_out_and_nothing_else(quoted: str, left: str) -> None:
    assert footnotes(quoted) or quoted == left  # each taken-out case is a footnote as written
    assert without_markers(quoted) == left
    assert footnotes(without_markers(quoted) + " [1]") == ["https://docs.example/1"]


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="[]^12-\u2013,; ()id=:x\n", max_size=24))
def test_no_text_left_by_without_markers_reads_as_a_footnote(text: str) -> None:
    assert footnotes(without_markers(text)) == []
