"""Graders: the calibration of the embedding grader on the real model, and the LLM grader."""

from __future__ import annotations

import json

import pytest

from connectors.providers.llms import build_llm
from connectors.providers.settings import LLMSettings
from pipeline.graders import CachedEmbedder, EmbeddingGrader, LLMGrader, calibrate, default_graders
from pipeline.ports import Embedder, Grader
from tests.fakes.openai_server import Fail, FakeOpenAI
from tests.pipeline.calibration import PAIRS
from tests.pipeline.scripted import ScriptedLLM


async def test_calibration_separates_on_topic_from_unrelated(embedder: Embedder) -> None:
    grader = EmbeddingGrader(embedder)
    chunks = [text for _, _, text in PAIRS]
    on_topic: list[float] = []
    unrelated: list[float] = []
    for i, (subject, question, _) in enumerate(PAIRS):
        grades = await grader.grade(question, chunks)
        on_topic.append(grades[i])
        unrelated += [g for j, g in enumerate(grades) if PAIRS[j][0] != subject]
    above = sum(g > 0.7 for g in on_topic) / len(on_topic)
    below = sum(g < 0.3 for g in unrelated) / len(unrelated)
    print(f"on-topic above 0.7: {above:.1%}, unrelated below 0.3: {below:.1%}")
    assert above >= 0.9
    assert below >= 0.95
    assert min(on_topic) > 0.5  # the worst on-topic chunk is still never "incorrect"


def test_calibration_curve_hits_the_crag_thresholds() -> None:
    assert calibrate(0.415) == pytest.approx(0.7, abs=0.01)
    assert calibrate(0.245) == pytest.approx(0.3, abs=0.01)
    assert calibrate(-1.0) < 0.01 < 0.99 < calibrate(1.0)


async def test_embedding_grader_uses_the_best_sentence_of_a_long_chunk(embedder: Embedder) -> None:
    grader = EmbeddingGrader(embedder)
    filler = " ".join(
        f"Paragraph {i} talks about the history of the company and its office locations."
        for i in range(12)
    )
    chunk = f"{filler} To rotate a key, open Settings › API keys and click Rotate next to the key."
    (grade,) = await grader.grade("How do I rotate the API keys?", [chunk])
    assert grade > 0.7


async def test_cached_embedder_embeds_each_text_once(embedder: Embedder) -> None:
    class Counting:
        def __init__(self) -> None:
            self.seen: list[str] = []

        async def embed(self, texts: list[str]) -> list[list[float]]:
            self.seen += texts
            return await embedder.embed(texts)

    inner = Counting()
    cache = CachedEmbedder(inner, size=2)
    first = await cache.embed(["a", "b", "a"])
    assert inner.seen == ["a", "b"]
    assert first[0] == first[2]
    await cache.embed(["b", "c"])
    assert inner.seen == ["a", "b", "c"]
    await cache.embed(["a"])  # evicted: the cache holds two texts
    assert inner.seen == ["a", "b", "c", "a"]


async def test_llm_grader_grades_concurrently_and_clamps() -> None:
    llm = ScriptedLLM(
        {"grade relevance": lambda p: json.dumps({"score": 1.4 if "alpha" in p else 0.2})}
    )
    grader = LLMGrader(llm)
    assert await grader.grade("q", ["alpha text", "beta text", "gamma"]) == [1.0, 0.2, 0.2]
    assert len(llm.calls("grade relevance")) == 3


async def test_llm_grader_without_fallback_scores_malformed_replies_zero() -> None:
    llm = ScriptedLLM(
        {"grade relevance": lambda p: "very relevant!" if "alpha" in p else '{"score": 0.8}'}
    )
    grader = LLMGrader(llm)
    assert await grader.grade("q", ["alpha", "beta"]) == [0.0, 0.8]
    assert grader.malformed == 1


async def test_llm_grader_through_the_openai_compatible_server(
    embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    fake_openai.when("alpha", '{"score": 0.9, "reason": "answers it"}')
    fake_openai.when("beta", "I'd say this is relevant")  # not JSON
    llm = build_llm(
        LLMSettings(provider="openai_compatible", base_url=fake_openai.base_url, model="m")
    )
    assert llm is not None
    fallback = EmbeddingGrader(embedder)
    grader = LLMGrader(llm, fallback=fallback)
    grades = await grader.grade(
        "How do I rotate the API keys?", ["alpha passage", "beta: Rotate the API keys in Settings."]
    )
    assert grades[0] == 0.9
    assert grader.malformed == 1
    assert (
        grades[1]
        == (
            await fallback.grade(
                "How do I rotate the API keys?", ["beta: Rotate the API keys in Settings."]
            )
        )[0]
    )
    body = fake_openai.requests[0].body
    assert body["model"] == "m"
    assert "Task: grade relevance" in fake_openai.requests[0].prompt


async def test_llm_grader_lets_server_errors_through(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = Fail(500)
    llm = build_llm(
        LLMSettings(provider="openai_compatible", base_url=fake_openai.base_url, max_retries=0)
    )
    assert llm is not None
    with pytest.raises(Exception) as info:
        await LLMGrader(llm).grade("q", ["x"])
    assert "500" in str(info.value)


def test_registry_lets_a_plugin_add_or_replace_graders(embedder: Embedder) -> None:
    class Custom:
        name = "custom"

        async def grade(self, question: str, texts: list[str]) -> list[float]:
            return [0.5] * len(texts)

    custom = Custom()
    assert isinstance(custom, Grader)
    graders = default_graders(embedder, None, {"custom": custom})
    assert set(graders) == {"embedding", "custom"}
    llm = ScriptedLLM({})
    assert set(default_graders(embedder, llm)) == {"embedding", "llm"}
    assert default_graders(embedder, llm, {"llm": custom})["llm"] is custom
