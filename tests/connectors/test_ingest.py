from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from connectors.errors import StoreError
from connectors.knowledge.documents import Document, Skipped
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.sources.folder import folder_source_id, read_folder
from connectors.knowledge.store import DataDir, Manifest
from connectors.knowledge.store.lancedb import LanceKnowledgeStore
from tests.connectors.pdfs import make_pdf

BASE = "https://docs.example.com/"

INSTALL = """# Installing Acme

Acme runs on Linux and macOS.

## System requirements

Acme needs 4 GB of memory and 2 CPU cores.

## Upgrading

Stop the service, replace the binary, then start it again.
"""

BILLING = """# Billing

## Refunds

Refunds are issued to the original card within 14 days of a return.

## Invoices

Invoices are emailed on the first day of every month.
"""


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "guide").mkdir(parents=True)
    (root / "guide" / "install.md").write_text(INSTALL)
    (root / "billing.md").write_text(BILLING)
    (root / "manual.pdf").write_bytes(
        make_pdf([["Welcome to the manual."], ["The warranty lasts two years from purchase."]])
    )
    (root / "logo.png").write_bytes(b"\x89PNG\r\n")
    (root / ".hidden.md").write_text("# Secret\n\nnot ingested")
    return root


def _ingest(store: LanceKnowledgeStore, data_dir: Path, root: Path, collection: str = "default"):
    return Ingestor(store, data_dir, progress=False).ingest(
        read_folder(root, url_base=BASE, collection=collection),
        source=folder_source_id(root),
        collection=collection,
    )


async def test_a_question_retrieves_its_sections_url_with_anchor(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    report = _ingest(lance_store, data_dir, docs)
    assert (report.added, report.updated, report.unchanged, report.removed) == (3, 0, 0, 0)
    assert report.chunks == lance_store.count() > 0
    hits = await lance_store.retrieve("how much memory does Acme need?", top_k=3, scope=None)
    top = hits[0].source
    assert top.url == "https://docs.example.com/guide/install.md#system-requirements"
    assert top.title == "Installing Acme › System requirements"
    assert INSTALL[top.locator.start : top.locator.end] == top.text

    hits = await lance_store.retrieve("how long is the warranty", top_k=3, scope=None)
    assert hits[0].source.url == "https://docs.example.com/manual.pdf#page=2"
    assert hits[0].source.locator.page == 2


async def test_reingest_is_incremental(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    first = _ingest(lance_store, data_dir, docs)
    again = _ingest(lance_store, data_dir, docs)
    assert (again.added, again.updated, again.unchanged, again.removed, again.chunks) == (
        0,
        0,
        3,
        0,
        0,
    )
    assert lance_store.count() == first.chunks

    (docs / "billing.md").write_text(BILLING.replace("14 days", "30 days"))
    (docs / "guide" / "install.md").unlink()
    (docs / "faq.md").write_text("# FAQ\n\n## Support hours\n\nSupport answers on weekdays.\n")
    third = _ingest(lance_store, data_dir, docs)
    assert (third.added, third.updated, third.unchanged, third.removed) == (1, 1, 1, 1)

    hits = await lance_store.retrieve("how long do refunds take", top_k=10, scope=None)
    texts = " ".join(h.source.text for h in hits)
    assert "30 days" in texts and "14 days" not in texts
    assert not any("install.md" in h.source.url for h in hits)
    with Manifest(data_dir, "lancedb") as manifest:
        assert manifest.total_chunks() == lance_store.count()
        assert {e.url.rsplit("/", 1)[-1] for e in manifest.entries()} == {
            "billing.md",
            "faq.md",
            "manual.pdf",
        }


async def test_pruning_only_touches_the_same_source_and_collection(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "billing.md").write_text(BILLING)
    _ingest(lance_store, data_dir, docs)
    _ingest(lance_store, data_dir, other)
    _ingest(lance_store, data_dir, docs, collection="team")
    before = lance_store.count()
    shutil.rmtree(other)
    other.mkdir()
    report = _ingest(lance_store, data_dir, other)
    assert report.removed == 1
    hits = await lance_store.retrieve("refunds", top_k=20, scope=None)
    assert {h.collection for h in hits} == {"default", "team"}
    assert lance_store.count() < before


def test_corrupt_files_are_skipped_and_the_rest_ingested(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\ngarbage that is not a pdf")
    (docs / "binary.md").write_bytes(b"\x00\x01\x02")
    report = _ingest(lance_store, data_dir, docs)
    assert sorted(s.key for s in report.skipped) == ["binary.md", "broken.pdf"]
    assert report.added == 3


def test_links_that_lead_nowhere_are_skipped_and_the_rest_ingested(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    (docs / "loop.md").symlink_to("loop.md")
    (docs / "gone.md").symlink_to("nowhere.md")
    report = _ingest(lance_store, data_dir, docs)
    assert {s.key: s.reason.split(":")[0] for s in report.skipped} == {
        "gone.md": "cannot read",
        "loop.md": "cannot read",
    }
    assert report.added == 3


async def test_interrupted_ingest_leaves_a_consistent_store(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    def interrupted() -> Iterator[Document | Skipped]:
        for n, item in enumerate(read_folder(docs, url_base=BASE)):
            if n == 1:
                raise KeyboardInterrupt
            yield item

    ingestor = Ingestor(lance_store, data_dir, progress=False)
    with pytest.raises(KeyboardInterrupt):
        ingestor.ingest(interrupted(), source=folder_source_id(docs), collection="default")
    with Manifest(data_dir, "lancedb") as manifest:
        assert manifest.total_chunks() == lance_store.count() > 0
        assert all(not e.pending for e in manifest.entries())
    # The lock was released and nothing half-written is trusted on the next run.
    report = _ingest(lance_store, data_dir, docs)
    assert (report.added, report.unchanged) == (2, 1)
    with Manifest(data_dir, "lancedb") as manifest:
        assert manifest.total_chunks() == lance_store.count()


def test_a_document_interrupted_mid_write_is_redone(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    class Flaky(LanceKnowledgeStore):
        def add(self, chunks, **kwargs):  # type: ignore[no-untyped-def]
            raise KeyboardInterrupt

    _ingest(lance_store, data_dir, docs)
    count = lance_store.count()
    (docs / "billing.md").write_text(BILLING + "\n## Taxes\n\nPrices include VAT.\n")
    flaky = Flaky(lance_store.path, StoreSettings(), lance_store.embedding)
    with pytest.raises(KeyboardInterrupt):
        _ingest(flaky, data_dir, docs)
    with Manifest(data_dir, "lancedb") as manifest:
        assert [e.url.rsplit("/", 1)[-1] for e in manifest.entries() if e.pending] == ["billing.md"]
    report = _ingest(lance_store, data_dir, docs)
    assert (report.updated, report.unchanged) == (1, 2)
    assert lance_store.count() > count - 3


def test_a_locked_data_dir_is_refused_and_untouched(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    with DataDir(data_dir).writing(store="lancedb", embedding=lance_store.embedding_id):
        with pytest.raises(StoreError, match="is locked by citebot ingest"):
            _ingest(lance_store, data_dir, docs)
        assert lance_store.count() == 0
        assert not (data_dir / "lancedb").exists()


def test_an_unwritable_data_dir_is_a_store_error(
    lance_store: LanceKnowledgeStore, tmp_path: Path, docs: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match="not writable"):
        _ingest(lance_store, blocker / "data", docs)


def test_an_incompatible_store_format_is_refused(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    data_dir.mkdir()
    (data_dir / "store-format.json").write_text('{"format": 99}')
    with pytest.raises(StoreError, match="format 99") as info:
        _ingest(lance_store, data_dir, docs)
    assert "\n" not in str(info.value)
    assert lance_store.count() == 0


def test_vectors_from_another_embedding_are_refused(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path
) -> None:
    data_dir.mkdir()
    (data_dir / "store-format.json").write_text(
        '{"format": 1, "stores": {"lancedb": {"embedding": "OpenAIEmbedding:text-embedding-3-small"}}}'
    )
    with pytest.raises(StoreError, match="built with embedding OpenAIEmbedding"):
        _ingest(lance_store, data_dir, docs)


def test_progress_estimates_the_chunks_to_come_then_knows_them() -> None:
    from connectors.knowledge.progress import IngestProgress

    progress = IngestProgress(label="docs", documents=10, enabled=False)
    assert progress.estimated_total() is None  # nothing read yet: no guess
    progress.document_read(4)
    progress.document_read(6)
    assert progress.estimated_total() == 50  # 5 per document so far, 10 documents
    progress.document_read(2)
    progress.finished_reading()
    assert progress.estimated_total() == 12  # reading done: the count, not a guess


def test_new_full_text_spelling_rules_re_ingest_every_document_once(
    lance_store: LanceKnowledgeStore, data_dir: Path, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the full-text index reads depends on the spelling rules (citations/spelling.py):
    a store indexed under other rules is re-indexed, once."""
    import connectors.knowledge.ingest as ingest

    first = _ingest(lance_store, data_dir, docs)
    monkeypatch.setattr(ingest, "SPELLING_RULES", ingest.SPELLING_RULES + 1)
    again = _ingest(lance_store, data_dir, docs)
    assert (again.added + again.updated, again.unchanged) == (first.added, 0)
    assert _ingest(lance_store, data_dir, docs).unchanged == first.added
