"""Packing sentences into runs within a budget: as many whole sentences as fit, the overlap
asked for, and a sentence over the budget cut where a reader can join it back (a line break,
else a space, else a hard cut)."""

from __future__ import annotations

from citations.sentences import Span, pack


def texts(runs: list[Span]) -> list[str]:
    return [run.text for run in runs]


def test_runs_take_every_sentence_that_fits_up_to_the_budget_exactly() -> None:
    text = " ".join(f"S{i}." for i in range(9))  # "S0. S1. …": each 3 characters, 1 between
    assert texts(pack(text, 11)) == ["S0. S1. S2.", "S3. S4. S5.", "S6. S7. S8."]
    assert texts(pack(text, 10)) == ["S0. S1.", "S2. S3.", "S4. S5.", "S6. S7.", "S8."]


def test_a_sentence_over_the_budget_is_its_own_run_unless_cut_is_asked() -> None:
    text = "A sentence that runs on well past the budget. Short."
    assert texts(pack(text, 20)) == ["A sentence that runs on well past the budget.", "Short."]
    assert all(len(run) <= 20 for run in texts(pack(text, 20, cut=True)))


def test_overlap_repeats_exactly_that_many_sentences_and_adds_no_final_run() -> None:
    text = " ".join(f"S{i}." for i in range(6))
    assert texts(pack(text, 11, overlap=1)) == ["S0. S1. S2.", "S2. S3. S4.", "S4. S5."]
    # an overlap as long as a run still moves on by a sentence each time
    assert texts(pack(text, 7, overlap=3)) == [f"S{i}. S{i + 1}." for i in range(5)]


def test_a_long_sentence_is_cut_at_spaces_and_a_word_longer_than_the_budget_hard() -> None:
    assert texts(pack("a " + "b" * 18, 10, cut=True)) == ["a", "b" * 9, "b" * 9]
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    runs = texts(pack(words, 16, cut=True))
    assert " ".join(runs) == words
    assert all(len(run) <= 16 for run in runs)
    assert runs[:2] == ["alpha beta", "gamma delta"]


def test_a_sentence_exactly_the_budget_long_is_not_cut() -> None:
    assert texts(pack("exactly sixteen.", 16, cut=True)) == ["exactly sixteen."]


def test_a_line_break_is_preferred_from_half_the_budget_on() -> None:
    code = "x = 1\n" + "y = 2 + 3 + 4 + 5 + 6\n" + "z = 7 + 8 + 9"
    # budget 30: the break after "6" (at 27) is in the second half, so the cut is there
    assert texts(pack(code, 30, cut=True))[0] == "x = 1\ny = 2 + 3 + 4 + 5 + 6"
    # a break before a third of the budget is passed over for the last space
    prose = "one\n" + "two three four five six seven eight nine ten"
    assert texts(pack(prose, 30, cut=True))[0] == "one\ntwo three four five six"
    # and one between a third and half of it too
    prose = "one two three\n" + "four five six seven eight nine ten"
    assert texts(pack(prose, 30, cut=True))[0] == "one two three\nfour five six"
