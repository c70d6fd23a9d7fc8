"""Incremental ingestion: documents in, chunks written, a manifest kept.

A document is unchanged when its fingerprint (content hash, URL, title, chunking
settings) matches the manifest; then nothing is embedded. Work goes one document
at a time and the manifest row is finalised only after that document's chunks are
written, so an interrupted run leaves every document either complete or marked
pending (redone next time), never half-present and forgotten.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from connectors.knowledge.chunking import chunk_document
from connectors.knowledge.documents import Document, Skipped
from connectors.knowledge.store import FORMAT_VERSION, DataDir, Entry, KnowledgeStore, Manifest

__all__ = ["IngestReport", "Ingestor"]

log = logging.getLogger("citebot.ingest")


@dataclass(slots=True)
class IngestReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    chunks: int = 0

    def merge(self, other: IngestReport) -> None:
        self.added += other.added
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.removed += other.removed
        self.skipped.extend(other.skipped)
        self.chunks += other.chunks

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    def summary(self) -> str:
        return (
            f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, "
            f"{self.removed} removed, {len(self.skipped)} skipped; {self.chunks} chunks written"
        )

    def __str__(self) -> str:
        return self.summary()


class Ingestor:
    """Writes documents into a ``KnowledgeStore``, incrementally, holding the data dir's lock.

    Use it as a context manager to hold the lock across several sources; a bare
    ``ingest()`` call takes and releases the lock itself.
    """

    def __init__(
        self,
        store: KnowledgeStore,
        data_dir: Path | str,
        *,
        chunk_chars: int = 1200,
        overlap_sentences: int = 0,
        progress: bool | None = None,
        on_skip: Callable[[Skipped], None] | None = None,
    ) -> None:
        self.store = store
        self.data_dir = DataDir(data_dir)
        self.chunk_chars = chunk_chars
        self.overlap_sentences = overlap_sentences
        self.progress = progress
        self.on_skip = on_skip
        self._stack: contextlib.ExitStack | None = None
        self._manifest: Manifest | None = None

    # -- the lock ------------------------------------------------------------

    def __enter__(self) -> Ingestor:
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(
                self.data_dir.writing(store=self.store.kind, embedding=self.store.embedding_id)
            )
            self._manifest = stack.enter_context(Manifest(self.data_dir.path, self.store.kind))
        except BaseException:
            stack.close()
            raise
        self._stack = stack
        return self

    def __exit__(self, *exc: object) -> None:
        stack, self._stack, self._manifest = self._stack, None, None
        if stack is not None:
            stack.close()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Manifest]:
        if self._manifest is not None:
            yield self._manifest
            return
        with self as ingestor:
            assert ingestor._manifest is not None
            yield ingestor._manifest

    # -- work ----------------------------------------------------------------

    def fingerprint(self, document: Document) -> str:
        parts = (
            str(FORMAT_VERSION),
            document.content_hash
            or Document.hash_of("\n\n".join(s.text for s in document.sections)),
            document.url,
            document.title,
            document.kind,
            str(self.chunk_chars),
            str(self.overlap_sentences),
        )
        return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()

    def ingest(
        self,
        documents: Iterable[Document | Skipped],
        *,
        source: str,
        collection: str = "default",
        total: int | None = None,
        prune: bool = True,
    ) -> IngestReport:
        """Ingest one source's documents into ``collection``.

        With ``prune``, documents this source gave earlier but not now are removed
        (only when the whole source was read: an interrupted run removes nothing).
        """
        report = IngestReport()
        with self._locked() as manifest:
            seen: set[str] = set()
            bar = self._bar(total, source)
            try:
                for item in documents:
                    if isinstance(item, Skipped):
                        report.skipped.append(item)
                        if self.on_skip is not None:
                            self.on_skip(item)
                        else:
                            log.warning("%s", item)
                    else:
                        if item.collection != collection:
                            item = dataclasses.replace(item, collection=collection)
                        seen.add(item.key)
                        self._one(manifest, item, source, report)
                    if bar is not None:
                        bar.update(1)
            finally:
                if bar is not None:
                    bar.close()
            if prune:
                gone = [e for e in manifest.under(source, collection) if e.key not in seen]
                for entry in gone:
                    self.store.delete([entry.key], collection)
                    manifest.remove(collection, entry.key)
                    report.removed += 1
            if report.changed:
                self.store.optimize()
        return report

    def _one(
        self, manifest: Manifest, document: Document, source: str, report: IngestReport
    ) -> None:
        fingerprint = self.fingerprint(document)
        entry = manifest.get(document.collection, document.key)
        if entry is not None and entry.fingerprint == fingerprint:
            report.unchanged += 1
            return
        chunks = chunk_document(
            document, max_chars=self.chunk_chars, overlap_sentences=self.overlap_sentences
        )
        final = Entry(
            collection=document.collection,
            key=document.key,
            source=source,
            fingerprint=fingerprint,
            chunks=len(chunks),
            url=document.url,
            title=document.title,
            kind=document.kind,
        )
        # Pending first: if we stop between the delete and the add, the next run redoes it.
        manifest.put(dataclasses.replace(final, fingerprint=""))
        if entry is not None:
            self.store.delete([document.key], document.collection)
        report.chunks += self.store.add(chunks)
        manifest.put(final)
        if entry is None:
            report.added += 1
        else:
            report.updated += 1

    def remove(self, keys: Iterable[str], collection: str) -> int:
        """Remove documents by key from the store and the manifest."""
        removed = 0
        with self._locked() as manifest:
            for key in keys:
                if manifest.get(collection, key) is None:
                    continue
                self.store.delete([key], collection)
                manifest.remove(collection, key)
                removed += 1
            if removed:
                self.store.optimize()
        return removed

    def _bar(self, total: int | None, source: str) -> _Bar | None:
        if self.progress is False:
            return None
        from tqdm import tqdm

        # ``delay`` keeps short ingests quiet; ``disable=None`` hides the bar off a terminal.
        bar: _Bar = tqdm(
            total=total,
            desc=_short(source),
            unit="doc",
            delay=1.0,
            disable=None if self.progress is None else not self.progress,
            leave=False,
        )
        return bar


class _Bar:  # the part of tqdm used here
    def update(self, n: int = 1) -> object: ...
    def close(self) -> None: ...


def _short(source: str) -> str:
    return source if len(source) <= 40 else "…" + source[-39:]
