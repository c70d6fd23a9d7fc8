"""Threads the bot answered in, so a plain follow-up there is a question.

Alone (no Redis), the ids are kept in the data dir's SQLite as well as in
memory, so a restarted bot still answers follow-ups in threads it answered
before. With Redis, the dedupe backend shares them between replicas
(``QuestionListener._remember``) and this stays in memory only.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from bots.core.dedupe import THREAD_TTL
from pipeline.errors import one_line

__all__ = ["RecentIds", "StoredThreads"]

log = logging.getLogger("citebot.discord")

#: the file in the data dir
FILE = "discord-threads.sqlite3"

_SCHEMA = "CREATE TABLE IF NOT EXISTS answered_threads (id INTEGER PRIMARY KEY, at REAL NOT NULL)"


class RecentIds:
    """The ids of threads the bot answered in, bounded so a long-lived bot stays small."""

    def __init__(self, size: int = 50_000) -> None:
        self._ids: OrderedDict[int, None] = OrderedDict()
        self._size = size

    def add(self, item: int) -> None:
        self._ids[item] = None
        self._ids.move_to_end(item)
        while len(self._ids) > self._size:
            self._ids.popitem(last=False)

    def __contains__(self, item: object) -> bool:
        return item in self._ids

    def close(self) -> None:
        self._ids.clear()


class StoredThreads(RecentIds):
    """:class:`RecentIds` backed by SQLite, each id kept for ``ttl`` seconds.

    Opened on first use, so a bot that never answers in a thread writes nothing.
    A store that fails (deleted, read-only, full disk) is said once in the log and
    the bot carries on with what it remembers in memory.
    """

    def __init__(
        self, path: Path, *, ttl: float = THREAD_TTL, clock: Callable[[], float] = time.time
    ) -> None:
        super().__init__()
        self.path = path
        self._ttl = ttl
        self._clock = clock
        self._db: sqlite3.Connection | None = None
        self._failed = False
        self._lock = threading.Lock()

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            # the default rollback journal: WAL's shared-memory file is mapped, and a disk
            # gone read-only under a mapping kills the process (SIGBUS) instead of raising
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=5)
            with db:
                db.execute(_SCHEMA)
                db.execute(
                    "DELETE FROM answered_threads WHERE at < ?", (self._clock() - self._ttl,)
                )
            self._db = db
        return self._db

    def _failing(self, what: str, exc: sqlite3.Error | OSError) -> None:
        if not self._failed:
            log.warning(
                "cannot %s the answered threads in %s (%s); keeping them in memory",
                what,
                FILE,
                one_line(exc),
            )
        self._failed = True

    def add(self, item: int) -> None:
        super().add(item)
        try:
            with self._lock, self._open() as db:
                db.execute(
                    "INSERT OR REPLACE INTO answered_threads (id, at) VALUES (?, ?)",
                    (item, self._clock()),
                )
        except (sqlite3.Error, OSError) as exc:
            self._failing("save", exc)

    def __contains__(self, item: object) -> bool:
        if super().__contains__(item):
            return True
        if not isinstance(item, int) or not (self._db is not None or self.path.exists()):
            return False
        try:
            with self._lock:
                row = (
                    self._open()
                    .execute(
                        "SELECT 1 FROM answered_threads WHERE id = ? AND at >= ?",
                        (item, self._clock() - self._ttl),
                    )
                    .fetchone()
                )
        except (sqlite3.Error, OSError) as exc:
            self._failing("read", exc)
            return False
        if row is not None:
            super().add(item)
        return row is not None

    def close(self) -> None:
        super().close()
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
