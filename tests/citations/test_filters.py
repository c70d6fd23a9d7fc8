from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from citations import Source, afilter_by_llm, filter_by_llm, filter_by_similarity
from citations.filters import parse_ids

SOURCES = [
    Source(1, "https://x.com/cats", "Cats", "cats purr and sleep"),
    Source(2, "https://x.com/dogs", "Dogs", "dogs bark and fetch"),
    Source(3, "https://x.com/cats#more", "Cats, more", "cats purr a lot"),
    Source(4, "https://x.com/cats", "Cats again", "cats sleep all day"),
]


def embed(texts: Sequence[str]) -> list[list[float]]:
    # a two-word bag: enough to make similarity meaningful and deterministic
    return [[t.count("cat") + t.count("purr"), t.count("dog") + t.count("bark")] for t in texts]


def test_similarity_filter_keeps_similar_sources() -> None:
    answer = filter_by_similarity("Cats purr.", SOURCES, embed=embed, threshold=0.9)
    assert [r.url for r in answer.references] == ["https://x.com/cats", "https://x.com/cats#more"]
    assert answer.text == "Cats purr.[1][2]"
    assert [s.id for s in answer.references[0].sources] == [1, 4]


def test_similarity_filter_same_shape_as_llm_filter() -> None:
    a = filter_by_similarity("Dogs bark.", SOURCES, embed=embed, threshold=0.9)
    b = filter_by_llm("Dogs bark.", SOURCES, llm=lambda prompt: '{"ids": [2]}')
    assert a == b


def test_similarity_filter_checks_vector_count() -> None:
    with pytest.raises(ValueError, match="vectors"):
        filter_by_similarity("x", SOURCES, embed=lambda texts: [[1.0]])


def test_llm_filter_batches_and_ignores_invented_ids() -> None:
    prompts: list[str] = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        ids = [s.id for s in SOURCES if f"[{s.id}] " in prompt and "cat" in s.text]
        return "Sure! ```json\n" + f'{{"ids": {[*ids, 99]}}}' + "\n```"

    answer = filter_by_llm("Cats sleep.", SOURCES, llm=llm, batch_size=2)
    assert len(prompts) == 2
    assert "[1] Cats" in prompts[0] and "[3] Cats, more" in prompts[1]
    assert [r.number for r in answer.references] == [1, 2]
    assert answer.warnings == ()


def test_async_llm_filter_accepts_structured_output() -> None:
    async def llm(prompt: str) -> dict[str, list[int]]:
        return {"ids": [4] if "[4]" in prompt else []}

    answer = asyncio.run(afilter_by_llm("Cats sleep.", SOURCES, llm=llm, batch_size=3))
    assert [r.url for r in answer.references] == ["https://x.com/cats"]


@pytest.mark.parametrize(
    ("reply", "ids"),
    [
        ('{"ids": [1, 3]}', [1, 3]),
        ("[2]", [2]),
        ('{"relevant_ids": ["4", "[5]"]}', [4, 5]),
        ("none of them", []),
        ({"ids": [True, 2]}, [2]),
        ([{"id": 7}], [7]),
        ('{"ids": [1, 2,]}', [1, 2]),
    ],
)
def test_parse_ids(reply: object, ids: list[int]) -> None:
    assert parse_ids(reply) == ids


def test_empty_inputs() -> None:
    assert filter_by_llm("", SOURCES, llm=lambda p: "[1]").references == ()
    assert filter_by_similarity("x", [], embed=embed).references == ()


def test_the_documented_example_runs() -> None:
    import doctest

    import citations.filters

    assert doctest.testmod(citations.filters).failed == 0
