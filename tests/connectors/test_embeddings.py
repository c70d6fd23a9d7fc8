from __future__ import annotations

import numpy as np
import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding

from connectors.errors import ConnectorError
from connectors.providers.embeddings import AsyncEmbedder, MiniLMEmbedding, build_embedding
from connectors.providers.settings import EmbeddingSettings
from pipeline.ports import Embedder


def test_vectors_are_unit_length_and_capture_meaning(minilm: MiniLMEmbedding) -> None:
    vectors = np.array(
        minilm.get_text_embedding_batch(
            ["The cat sits on the mat.", "A kitten rests on a rug.", "Quarterly revenue grew 5%."]
        )
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2] + 0.3


def test_batching_and_padding_do_not_change_vectors(minilm: MiniLMEmbedding) -> None:
    texts = ["short", "a much longer sentence " * 30, "medium length text about billing"]
    batched = np.array(minilm.get_text_embedding_batch(texts))
    alone = np.array([minilm.get_text_embedding(t) for t in texts])
    assert np.allclose(batched, alone, atol=1e-4)


def test_long_text_is_truncated_not_rejected(minilm: MiniLMEmbedding) -> None:
    vector = minilm.get_text_embedding("word " * 5000)
    assert len(vector) == 384


async def test_async_embedder_is_a_pipeline_embedder(minilm: MiniLMEmbedding) -> None:
    embedder = AsyncEmbedder(minilm)
    assert isinstance(embedder, Embedder)
    vectors = await embedder.embed(["refund policy", "refunds"])
    assert len(vectors) == 2 and len(vectors[0]) == 384
    assert await embedder.embed([]) == []


def test_build_embedding_minilm_uses_settings() -> None:
    embedding = build_embedding(EmbeddingSettings(threads=1, batch_size=7))
    assert isinstance(embedding, MiniLMEmbedding)
    assert embedding.threads == 1 and embedding.embed_batch_size == 7


def test_build_embedding_any_llamaindex_class_with_options() -> None:
    embedding = build_embedding(
        EmbeddingSettings(
            provider="llama_index.core.embeddings.mock_embed_model:MockEmbedding",
            options={"embed_dim": 8},
        )
    )
    assert isinstance(embedding, BaseEmbedding)
    assert len(embedding.get_text_embedding("x")) == 8


@pytest.mark.parametrize(
    ("provider", "needle"),
    [
        ("nonexistent.module:Thing", "cannot import"),
        ("connectors.providers.embeddings:NotThere", "is not a LlamaIndex embedding"),
        ("collections:OrderedDict", "is not a LlamaIndex embedding"),
        ("no-colon-here", "'openai_compatible' or 'module:Class'"),
    ],
)
def test_bad_provider_is_a_one_line_connector_error(provider: str, needle: str) -> None:
    with pytest.raises(ConnectorError) as info:
        build_embedding(EmbeddingSettings(provider=provider))
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_bad_options_are_a_one_line_connector_error() -> None:
    with pytest.raises(ConnectorError, match="bad options"):
        build_embedding(
            EmbeddingSettings(
                provider="llama_index.core.embeddings.mock_embed_model:MockEmbedding",
                options={"embed_dim": "not a number"},
            )
        )


def test_two_tier_store_vectors_come_from_the_static_model() -> None:
    from connectors.providers.embeddings import StaticMiniLMEmbedding

    settings = EmbeddingSettings(documents="minilm-static")
    store_side = build_embedding(settings, documents=True)
    assert isinstance(store_side, StaticMiniLMEmbedding)
    assert isinstance(build_embedding(settings), MiniLMEmbedding)  # grading keeps MiniLM
    vectors = np.array(
        store_side.get_text_embedding_batch(
            ["Refunds reach the original card.", "refund to the card", "Deploy with the CLI."]
        )
    )
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_the_bundled_models_say_which_words_they_read_whole() -> None:
    from connectors.providers.embeddings import AsyncEmbedder, MiniLMEncoder
    from pipeline.graders import CachedEmbedder

    vocabulary = CachedEmbedder(AsyncEmbedder(MiniLMEncoder())).vocabulary
    assert vocabulary is not None
    assert {"stop", "cookie", "destructive"} <= vocabulary
    assert not {"async", "yaml", "##ing", "[UNK]"} & vocabulary

    class Other:
        model_name = "text-embedding-3-small"

    assert AsyncEmbedder(Other()).vocabulary is None  # type: ignore[arg-type]
