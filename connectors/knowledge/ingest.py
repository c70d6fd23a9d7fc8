"""Incremental ingestion: documents in, chunks written, a manifest kept.

A document is unchanged when its fingerprint (content hash, URL, title, chunking
settings) matches the manifest; then nothing is embedded. A document's manifest
row is marked pending before its old chunks go and finalised only after its new
chunks are written, so an interrupted run leaves every document either complete
or pending (redone next time), never half-present and forgotten.

Three stages overlap, because embedding is most of the work and the other two
would otherwise leave the cores idle: a reader thread parses and chunks, an
embedding thread embeds groups of chunks across documents, and the calling
thread writes each group to the store and the manifest (SQLite stays on the
thread that opened it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from citations.spelling import SPELLING_RULES
from connectors.knowledge.chunking import RULES, Chunk, Fits, chunk_document
from connectors.knowledge.documents import Document, Skipped
from connectors.knowledge.progress import IngestProgress
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

    def _fits(self) -> Fits | None:
        """Chunks sized to the embedder's window, when it can tell (the bundled MiniLM can)."""
        fits = getattr(self.store.embedding, "fits", None)
        if not callable(fits):
            return None
        embed_text = self.store.embed_text
        return lambda title, text: bool(fits(embed_text(title, text)))

    def fingerprint(self, document: Document) -> str:
        parts = (
            str(FORMAT_VERSION),
            str(RULES),
            str(SPELLING_RULES),
            document.content_hash
            or Document.hash_of("\n\n".join(s.text for s in document.sections)),
            document.url,
            document.title,
            document.kind,
            str(self.chunk_chars),
            str(self.overlap_sentences),
            "fit" if self._fits() is not None else "",
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
            known = {e.key: e.fingerprint for e in manifest.entries(collection)}
            seen: set[str] = set()
            progress = IngestProgress(label=source, documents=total, enabled=self.progress)
            stages = _Stages(self, documents, collection, known, progress)
            try:
                for item in stages.results():
                    if isinstance(item, Skipped):
                        report.skipped.append(item)
                        if self.on_skip is not None:
                            self.on_skip(item)
                        else:
                            log.warning("%s", item)
                    elif isinstance(item, str):
                        seen.add(item)
                        report.unchanged += 1
                    else:
                        seen.update(p.document.key for p in item)
                        self._write(manifest, item, source, known, report)
                        progress.written(sum(len(p.chunks) for p in item))
            finally:
                stages.stop()
                progress.close()
            if prune:
                gone = [e.key for e in manifest.under(source, collection) if e.key not in seen]
                if gone:
                    self.store.delete(gone, collection)
                with manifest.batch():
                    for key in gone:
                        manifest.remove(collection, key)
                report.removed += len(gone)
            if report.changed:
                self.store.optimize()
        return report

    def _prepare(self, document: Document, fingerprint: str) -> _Prepared:
        chunks = chunk_document(
            document,
            max_chars=self.chunk_chars,
            overlap_sentences=self.overlap_sentences,
            fits=self._fits(),
        )
        return _Prepared(document, fingerprint, chunks, self.store.embed_texts(chunks))

    def _write(
        self,
        manifest: Manifest,
        group: list[_Prepared],
        source: str,
        known: dict[str, str],
        report: IngestReport,
    ) -> None:
        """One store write for a group of documents; the manifest brackets it."""
        finals = [
            Entry(
                collection=p.document.collection,
                key=p.document.key,
                source=source,
                fingerprint=p.fingerprint,
                chunks=len(p.chunks),
                url=p.document.url,
                title=p.document.title,
                kind=p.document.kind,
            )
            for p in group
        ]
        replaced: dict[str, list[str]] = {}
        # Pending first: if we stop between the delete and the add, the next run redoes it.
        with manifest.batch():
            for final in finals:
                manifest.put(dataclasses.replace(final, fingerprint=""))
                if final.key in known:
                    replaced.setdefault(final.collection, []).append(final.key)
        for collection, keys in replaced.items():
            self.store.delete(keys, collection)
        chunks = [c for p in group for c in p.chunks]
        vectors = [v for p in group for v in p.vectors]
        report.chunks += self.store.add(chunks, vectors=vectors) if chunks else 0
        with manifest.batch():
            for final in finals:
                manifest.put(final)
        for final in finals:
            if final.key in known:
                report.updated += 1
            else:
                report.added += 1
            known[final.key] = final.fingerprint

    def remove(self, keys: Iterable[str], collection: str) -> int:
        """Remove documents by key from the store and the manifest."""
        removed = 0
        with self._locked() as manifest:
            present = [k for k in dict.fromkeys(keys) if manifest.get(collection, k) is not None]
            if present:
                self.store.delete(present, collection)
            with manifest.batch():
                for key in present:
                    manifest.remove(collection, key)
            removed += len(present)
            if removed:
                self.store.optimize()
        return removed


@dataclass(slots=True)
class _Prepared:
    """A changed document, chunked, with what to embed and (later) its vectors."""

    document: Document
    fingerprint: str
    chunks: list[Chunk]
    texts: list[str]
    vectors: list[list[float]] = field(default_factory=list)


#: What the writer receives: a skipped file, an unchanged document's key, or a group.
_Result = Skipped | str | list[_Prepared]
_END = object()


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Stages:
    """The reader and embedding threads, with bounded queues between them and the writer."""

    #: Chunks embedded together: enough to keep every core busy, few enough that the
    #: writer starts early and progress moves.
    GROUP_CHUNKS = 64
    #: Documents read ahead of embedding.
    READ_AHEAD = 32

    def __init__(
        self,
        ingestor: Ingestor,
        documents: Iterable[Document | Skipped],
        collection: str,
        known: dict[str, str],
        progress: IngestProgress,
    ) -> None:
        self.ingestor = ingestor
        self.documents = documents
        self.collection = collection
        self.known = dict(known)
        self.progress = progress
        self.stopping = threading.Event()
        self.read: queue.Queue[object] = queue.Queue(self.READ_AHEAD)
        self.embedded: queue.Queue[object] = queue.Queue(2)
        self.threads = [
            threading.Thread(target=self._reader, name="ingest-read", daemon=True),
            threading.Thread(target=self._embedder, name="ingest-embed", daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def _put(self, target: queue.Queue[object], item: object) -> bool:
        while not self.stopping.is_set():
            try:
                target.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _reader(self) -> None:
        try:
            for item in self.documents:
                if self.stopping.is_set():
                    return
                if isinstance(item, Skipped):
                    self.progress.document_read(0)
                    out: object = item
                else:
                    if item.collection != self.collection:
                        item = dataclasses.replace(item, collection=self.collection)
                    fingerprint = self.ingestor.fingerprint(item)
                    if self.known.get(item.key) == fingerprint:
                        self.progress.document_read(0)
                        out = item.key
                    else:
                        prepared = self.ingestor._prepare(item, fingerprint)
                        self.progress.document_read(len(prepared.chunks))
                        out = prepared
                    self.known[item.key] = fingerprint
                if not self._put(self.read, out):
                    return
            self.progress.finished_reading()
            self._put(self.read, _END)
        except BaseException as exc:  # handed to the writer, who raises it
            self._put(self.read, _Failed(exc))

    def _embedder(self) -> None:
        embedding = self.ingestor.store.embedding
        # a remote server takes many texts at once (batches times requests in flight)
        group_chunks = max(self.GROUP_CHUNKS, int(getattr(embedding, "parallel_texts", 0)))
        group: list[_Prepared] = []
        try:
            while True:
                try:
                    item = self.read.get(timeout=0.2)
                except queue.Empty:
                    if self.stopping.is_set():
                        return
                    continue
                if isinstance(item, _Prepared):
                    group.append(item)
                    size = sum(len(p.chunks) for p in group)
                    if size < group_chunks and not self.read.empty():
                        continue
                    item = None
                if group:
                    texts = [t for p in group for t in p.texts]
                    vectors = embedding.get_text_embedding_batch(texts) if texts else []
                    at = 0
                    for prepared in group:
                        prepared.vectors = vectors[at : at + len(prepared.texts)]
                        at += len(prepared.texts)
                    if not self._put(self.embedded, group):
                        return
                    group = []
                if item is not None and not self._put(self.embedded, item):
                    return
                if item is _END or isinstance(item, _Failed):
                    return
        except BaseException as exc:
            self._put(self.embedded, _Failed(exc))

    def results(self) -> Iterator[_Result]:
        while True:
            item = self.embedded.get()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.error
            yield item  # type: ignore[misc]

    def stop(self) -> None:
        self.stopping.set()
        # Wakes a thread blocked on a full queue; one still parsing a big file ends after it.
        for target in (self.read, self.embedded):
            with contextlib.suppress(queue.Empty):
                while True:
                    target.get_nowait()
