"""The sentence splitter: closing quotes stay with their sentence; abbreviations do not end one."""

from __future__ import annotations

import pytest

from citations.sentences import sentences


def texts(text: str) -> list[str]:
    return [s.text for s in sentences(text)]


def test_closing_quotes_stay_inside_the_sentence() -> None:
    assert texts('He said "stop." Then he left.') == ['He said "stop."', "Then he left."]
    assert texts("She wrote “done!” Next line.") == ["She wrote “done!”", "Next line."]
    assert texts("(See the guide.) It helps.") == ["(See the guide.)", "It helps."]
    assert texts("Il a dit « non. » Fin.") == ["Il a dit « non. »", "Fin."]


def test_offsets_cover_the_closing_quote() -> None:
    text = 'A "b." C.'
    first = sentences(text)[0]
    assert text[first.start : first.end] == 'A "b."'


@pytest.mark.parametrize(
    "text",
    [
        "The shop opens at 9 a.m. and closes at 5 p.m. on weekdays.",
        "Ask Prof. Smith about it.",
        "Use a tool, e.g. a hammer, for this.",
        "It weighs approx. two kilos.",
        "Talk to Dr. Jones and Mr. Brown today.",
        "See Fig. 3 for the layout.",
        "Smith et al. showed this in 2020.",
        "Version no. 5 fixed it.",
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str) -> None:
    assert texts(text) == [text]


def test_ordinary_sentences_still_split() -> None:
    assert texts("One. Two! Three? Four") == ["One.", "Two!", "Three?", "Four"]
    assert texts("日本語です。次の文。") == ["日本語です。", "次の文。"]
