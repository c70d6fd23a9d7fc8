"""What has been ingested, per document: the ledger behind incremental ingestion.

One SQLite file in the data dir serves every store kind (rows are keyed by
store kind too). A row's ``fingerprint`` is empty while its document is being
rewritten, so a run interrupted half-way redoes that document next time.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from connectors.errors import StoreError

__all__ = ["Entry", "Manifest"]

FILE = "manifest.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    store TEXT NOT NULL,
    collection TEXT NOT NULL,
    key TEXT NOT NULL,
    source TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    chunks INTEGER NOT NULL DEFAULT 0,
    url TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT '',
    updated REAL NOT NULL,
    PRIMARY KEY (store, collection, key)
)
"""


@dataclass(frozen=True, slots=True)
class Entry:
    collection: str
    key: str
    source: str
    fingerprint: str
    chunks: int = 0
    url: str = ""
    title: str = ""
    kind: str = ""
    updated: float = 0.0  # seconds since the epoch; set by the manifest on write

    @property
    def pending(self) -> bool:
        return not self.fingerprint


class Manifest:
    def __init__(self, data_dir: Path | str, store: str) -> None:
        self.path = Path(data_dir) / FILE
        self.store = store
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the ingest manifest {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Manifest:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """The writes inside as one transaction: one commit (and one sync to disk) for a
        group of documents instead of one per row; nothing of it lands if it fails."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _rows(self, where: str, *args: object) -> Iterator[Entry]:
        cursor = self._db.execute(
            "SELECT collection, key, source, fingerprint, chunks, url, title, kind, updated "
            f"FROM documents WHERE store = ? {where} ORDER BY collection, key",
            (self.store, *args),
        )
        for row in cursor:
            yield Entry(*row)

    def get(self, collection: str, key: str) -> Entry | None:
        return next(self._rows("AND collection = ? AND key = ?", collection, key), None)

    def entries(self, collection: str | None = None) -> list[Entry]:
        if collection is None:
            return list(self._rows(""))
        return list(self._rows("AND collection = ?", collection))

    def under(self, source: str, collection: str) -> list[Entry]:
        """Documents an earlier run of the same source put into ``collection``."""
        return list(self._rows("AND source = ? AND collection = ?", source, collection))

    def put(self, entry: Entry) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO documents "
            "(store, collection, key, source, fingerprint, chunks, url, title, kind, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.store,
                entry.collection,
                entry.key,
                entry.source,
                entry.fingerprint,
                entry.chunks,
                entry.url,
                entry.title,
                entry.kind,
                time.time(),
            ),
        )

    def remove(self, collection: str, key: str) -> None:
        self._db.execute(
            "DELETE FROM documents WHERE store = ? AND collection = ? AND key = ?",
            (self.store, collection, key),
        )

    def total_chunks(self) -> int:
        row = self._db.execute(
            "SELECT COALESCE(SUM(chunks), 0) FROM documents WHERE store = ?", (self.store,)
        ).fetchone()
        return int(row[0])
