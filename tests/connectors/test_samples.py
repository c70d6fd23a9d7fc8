from __future__ import annotations

from importlib import resources
from pathlib import Path

from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.sources.folder import folder_source_id, read_folder
from connectors.knowledge.store.lancedb import LanceKnowledgeStore


async def test_bundled_samples_ingest_cleanly_and_answer_the_demo_question(
    lance_store: LanceKnowledgeStore, data_dir: Path
) -> None:
    with resources.as_file(resources.files("bots") / "samples") as folder:
        docs = [p for p in folder.iterdir() if p.suffix in {".md", ".html", ".pdf"}]
        assert {p.suffix for p in docs} == {".md", ".html", ".pdf"}
        report = Ingestor(lance_store, data_dir, progress=False).ingest(
            read_folder(folder, url_base="https://docs.example.com/"),
            source=folder_source_id(folder),
        )
    assert report.skipped == [] and report.added == len(docs)
    hits = await lance_store.retrieve("How do I rotate an API key?", top_k=3, scope=None)
    assert hits[0].source.url == "https://docs.example.com/authentication.md#rotating-an-api-key"
    hits = await lance_store.retrieve(
        "When will the v1 events API be removed?", top_k=3, scope=None
    )
    assert "https://docs.example.com/release-notes-3.2.pdf#page=2" in [h.source.url for h in hits]
    hits = await lance_store.retrieve(
        "Which environment variable holds the SDK key?", top_k=3, scope=None
    )
    assert "https://docs.example.com/python-sdk.html#client" in [h.source.url for h in hits]
