"""Migration plumbing without a Weaviate server: LanceDB into another LanceDB, vectors reused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.embeddings import MockEmbedding

from bots.cli import (
    cli,
    commands,  # noqa: F401  (registers every command)
)
from connectors.errors import StoreError
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.migrate import export_nodes, migrate
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store import Manifest
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import build_embedding
from connectors.providers.settings import EmbeddingSettings


@pytest.fixture(scope="module")
def embedding() -> Iterator[BaseEmbedding]:
    yield build_embedding(EmbeddingSettings())


def docs(collection: str, n: int) -> list[Document]:
    return [
        Document(
            key=f"doc{i}",
            url=f"https://{collection}.example.com/doc{i}",
            title=f"Doc {i}",
            sections=(
                Section(
                    f"Document {i} of {collection} explains topic number {i}.",
                    heading="Topic",
                    anchor="topic",
                ),
            ),
            collection=collection,
            content_hash=Document.hash_of(f"{collection}{i}"),
        )
        for i in range(n)
    ]


async def test_lancedb_to_lancedb_keeps_vectors_scopes_and_the_manifest(
    tmp_path: Path, embedding: BaseEmbedding
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    source = open_lancedb(a, StoreSettings(), embedding)
    ingestor = Ingestor(source, a, progress=False)
    ingestor.ingest(docs("eng", 5), source="s1", collection="eng")
    ingestor.ingest(docs("ops", 3), source="s2", collection="ops")

    target = open_lancedb(b, StoreSettings(), embedding)
    report = migrate(source, target, source_dir=a, target_dir=b, batch_size=3)
    assert (report.chunks, report.documents) == (8, 8)
    assert target.count() == source.count() == 8

    exported = {n.node_id: n.embedding for batch in export_nodes(source) for n in batch}
    copied = {n.node_id: n.embedding for batch in export_nodes(target) for n in batch}
    assert copied == exported  # same ids, same stored vectors

    hits = await target.retrieve("topic number 2", top_k=3, scope=["ops"])
    assert {h.collection for h in hits} == {"ops"}
    assert hits[0].source.url == "https://ops.example.com/doc2#topic"

    again = Ingestor(target, b, progress=False).ingest(
        docs("eng", 5), source="s1", collection="eng"
    )
    assert (again.unchanged, again.chunks) == (5, 0)  # the manifest came along
    with Manifest(b, "lancedb") as manifest:
        assert len(manifest.entries()) == 8


def test_refuses_the_same_store_and_different_embeddings(
    tmp_path: Path, embedding: BaseEmbedding
) -> None:
    store = open_lancedb(tmp_path, StoreSettings(), embedding)
    Ingestor(store, tmp_path, progress=False).ingest(docs("eng", 1), source="s", collection="eng")
    with pytest.raises(StoreError, match="same store"):
        migrate(store, open_lancedb(tmp_path, StoreSettings(), embedding), source_dir=tmp_path)
    with pytest.raises(StoreError, match="different embeddings"):
        migrate(
            store,
            open_lancedb(tmp_path / "x", StoreSettings(), MockEmbedding(embed_dim=384)),
            source_dir=tmp_path,
        )


def test_cli_migrate_to_weaviate_without_a_server_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["--data-dir", str(tmp_path), "store", "migrate", "--from", "lancedb", "--to", "weaviate"],
    )
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "citebot: store.kind is 'weaviate' but store.weaviate_url is not set [env CITEBOT_STORE__WEAVIATE_URL]"
    ]
    same = CliRunner().invoke(cli, ["store", "migrate", "--from", "lancedb", "--to", "lancedb"])
    assert same.exit_code == 2 and "same store kind" in same.output
