from collections import Counter
from operator import itemgetter

from hypothesis import given
from hypothesis import strategies as st

from connectors.knowledge.store.ranking import sections_first


def test_a_sections_second_chunk_waits_for_every_sections_first() -> None:
    ranked = ["a1", "a2", "b1", "a3", "c1", "b2"]
    first = itemgetter(0)
    assert sections_first(ranked, first, 6, slots=1) == ["a1", "b1", "c1", "a2", "b2", "a3"]
    assert sections_first(ranked, first, 2, slots=1) == ["a1", "b1"]
    assert sections_first(ranked, first, 6, slots=2) == ["a1", "a2", "b1", "c1", "b2", "a3"]
    assert sections_first(ranked, first, 4, slots=0) == ranked[:4]
    assert sections_first(ranked, first, 0, slots=1) == []
    assert sections_first([], first, 3, slots=1) == []


@given(
    st.lists(st.tuples(st.sampled_from("abcd"), st.integers(0, 50)), unique=True),
    st.integers(0, 12),
)
def test_it_keeps_items_and_their_order_within_a_section(
    ranked: list[tuple[str, int]], keep: int
) -> None:
    kept = sections_first(ranked, lambda item: item[0], keep, slots=1)
    assert len(kept) == min(keep, len(ranked))
    assert len(set(kept)) == len(kept) and set(kept) <= set(ranked)
    for section in "abcd":
        mine = [item for item in kept if item[0] == section]
        assert mine == [item for item in ranked if item[0] == section][: len(mine)]
    firsts = list(dict.fromkeys(item[0] for item in ranked))
    assert [item[0] for item in kept[: len(firsts)]] == firsts[: min(keep, len(firsts))]


@given(
    st.lists(st.tuples(st.sampled_from("abcdefgh"), st.integers(0, 50)), unique=True),
    st.integers(1, 8),
    st.integers(1, 3),
)
def test_a_section_takes_at_most_its_slots_while_other_sections_wait(
    ranked: list[tuple[str, int]], keep: int, slots: int
) -> None:
    kept = sections_first(ranked, lambda item: item[0], keep, slots=slots)
    counts = Counter(item[0] for item in ranked)
    taken = Counter(item[0] for item in kept)
    if sum(min(n, slots) for n in counts.values()) >= keep:
        # the other sections can fill top_k: no section takes more than its slots
        assert max(taken.values(), default=0) <= slots
    else:
        # they cannot: a section's further chunks fill the rest rather than leave it empty
        assert len(kept) == min(keep, len(ranked))
