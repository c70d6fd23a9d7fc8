"""Embeddings from an OpenAI-compatible server, through the real openai client, against a strict fake."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from connectors.errors import ConnectorError
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import build_embedding, embedding_id
from connectors.providers.embeddings.remote import RemoteEmbedding
from connectors.providers.settings import EmbeddingSettings
from tests.fakes.embeddings_server import FakeEmbeddingsServer, fake_vector


def _settings(server: FakeEmbeddingsServer, **overrides: object) -> EmbeddingSettings:
    values: dict[str, object] = {
        "provider": "openai_compatible",
        "base_url": server.base_url,
        "model": server.model,
        "batch_size": 32,
        "concurrency": 2,
    }
    values.update(overrides)
    return EmbeddingSettings.model_validate(values)


def _unit(text: str, dimensions: int = 8) -> list[float]:
    vector = fake_vector(text, dimensions)
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


def test_batches_stay_under_the_servers_cap_and_vectors_keep_their_order() -> None:
    texts = [f"text number {i}" for i in range(70)] + [""]
    with FakeEmbeddingsServer(max_batch=32) as server:
        embedding = build_embedding(_settings(server))
        vectors = embedding.get_text_embedding_batch(texts)
    # batches go out concurrently, so they may arrive in any order
    assert sorted(len(r["input"]) for r in server.requests) == [7, 32, 32]
    assert all(r["encoding_format"] == "float" for r in server.requests)
    assert np.allclose(vectors[:70], [_unit(t) for t in texts[:70]])
    assert np.allclose(vectors[70], _unit(" "))  # an empty text is never sent empty


def test_requests_in_flight_are_bounded_sync_and_async() -> None:
    texts = [f"t{i}" for i in range(8 * 4)]
    with FakeEmbeddingsServer(max_batch=4, delay=0.05) as server:
        embedding = build_embedding(_settings(server, batch_size=4, concurrency=3))
        embedding.get_text_embedding_batch(texts)
        assert server.max_in_flight == 3 and len(server.requests) == 8


async def test_async_path_is_bounded_too() -> None:
    texts = [f"t{i}" for i in range(8 * 4)]
    with FakeEmbeddingsServer(max_batch=4, delay=0.05) as server:
        embedding = build_embedding(_settings(server, batch_size=4, concurrency=2))
        vectors = await embedding.aget_text_embedding_batch(texts)
        assert server.max_in_flight == 2 and len(vectors) == 32
        assert np.allclose(await embedding.aget_query_embedding("t3"), vectors[3])


def test_an_over_limit_batch_is_a_one_line_error() -> None:
    with FakeEmbeddingsServer(max_batch=32) as server:
        embedding = build_embedding(_settings(server, batch_size=64))
        with pytest.raises(ConnectorError) as info:
            embedding.get_text_embedding_batch([f"x{i}" for i in range(64)])
    message = str(info.value)
    assert "413" in message and "maximum allowed batch size 32" in message
    assert "\n" not in message and server.base_url in message


def test_the_api_key_is_sent_and_never_shown() -> None:
    with FakeEmbeddingsServer(api_key="sk-right") as server:
        good = build_embedding(_settings(server, api_key="sk-right"))
        assert len(good.get_text_embedding("hello")) == 8
        bad = build_embedding(_settings(server, api_key="sk-wrong-secret"))
        with pytest.raises(ConnectorError, match="401") as info:
            bad.get_text_embedding("hello")
    assert "sk-wrong-secret" not in str(info.value)


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"base_url": None}, "CITEBOT_EMBEDDINGS__BASE_URL"),
        ({"model": ""}, "CITEBOT_EMBEDDINGS__MODEL"),
    ],
)
def test_missing_settings_are_named(overrides: dict[str, object], needle: str) -> None:
    settings = EmbeddingSettings.model_validate(
        {"provider": "openai_compatible", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
        | overrides
    )
    with pytest.raises(ConnectorError, match=needle):
        build_embedding(settings)


def test_ingest_and_retrieve_through_the_server(tmp_path: Path) -> None:
    documents = [
        Document(
            key=f"doc{d}.md",
            url=f"https://docs.example.com/doc{d}",
            title=f"Doc {d}",
            sections=(
                Section(text=f"Paragraph {d} about refunds. " * 20, heading="H", anchor="h"),
            ),
            kind="markdown",
        )
        for d in range(40)
    ]
    with FakeEmbeddingsServer(max_batch=16) as server:
        embedding = build_embedding(_settings(server, batch_size=16, concurrency=2))
        assert isinstance(embedding, RemoteEmbedding)
        store = open_lancedb(tmp_path / "data", StoreSettings(), embedding)
        report = Ingestor(store, tmp_path / "data", progress=False).ingest(
            documents, source="s", collection="default"
        )
        assert report.added == 40 and store.count() == report.chunks
        assert max(len(r["input"]) for r in server.requests) <= 16
        assert embedding_id(embedding) == f"RemoteEmbedding:{server.model}"
