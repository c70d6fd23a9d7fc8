"""Durable 👍/👎 votes, shared by every platform.

Buttons carry only the answer id, so the answer itself (question, references,
route) is recorded when it is sent, and a vote joins it later — even after a
restart or on another replica that shares the data dir.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bots.ops import metrics
from citations.model import CitedAnswer

Vote = Literal["up", "down"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    answer_id TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    question TEXT NOT NULL,
    route TEXT NOT NULL,
    refs TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS votes (
    answer_id TEXT NOT NULL,
    user TEXT NOT NULL,
    vote TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    platform TEXT NOT NULL,
    voted REAL NOT NULL,
    PRIMARY KEY (answer_id, user)
);
"""


def references_of(answer: CitedAnswer) -> list[dict[str, Any]]:
    """The references a vote is about: the one payload every platform records."""
    return [
        {"number": r.number, "url": r.url, "title": r.title, "origin": str(r.origin)}
        for r in answer.references
    ]


@dataclass(frozen=True, slots=True)
class VoteRecord:
    answer_id: str
    user: str
    vote: Vote
    platform: str
    question: str
    route: str
    references: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class FeedbackStats:
    up: int
    down: int
    answers: int

    @property
    def total(self) -> int:
        return self.up + self.down


class FeedbackStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # one connection, serialised: votes are rare and SQLite writers serialise anyway
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def record_answer(
        self,
        answer_id: str,
        *,
        platform: str,
        question: str,
        route: str,
        references: list[dict[str, Any]],
    ) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                (answer_id, platform, question, route, json.dumps(references), time.time()),
            )

    def vote(self, answer_id: str, *, user: str, vote: Vote, platform: str) -> None:
        if vote not in ("up", "down"):
            raise ValueError(f"vote must be 'up' or 'down', not {vote!r}")
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO votes VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (answer_id, user) DO UPDATE SET vote = excluded.vote, "
                "voted = excluded.voted",
                (answer_id, user, vote, platform, time.time()),
            )
        metrics.feedback_vote(platform, vote)

    def votes(self, answer_id: str) -> list[VoteRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT v.answer_id, v.user, v.vote, v.platform, "
                "COALESCE(a.question, ''), COALESCE(a.route, ''), COALESCE(a.refs, '[]') "
                "FROM votes v LEFT JOIN answers a USING (answer_id) "
                "WHERE v.answer_id = ? ORDER BY v.voted",
                (answer_id,),
            ).fetchall()
        return [VoteRecord(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]

    def stats(self, *, platform: str | None = None) -> FeedbackStats:
        where, args = ("WHERE platform = ?", (platform,)) if platform else ("", ())
        with self._lock:
            up, down = self._db.execute(
                f"SELECT COALESCE(SUM(vote = 'up'), 0), COALESCE(SUM(vote = 'down'), 0) "
                f"FROM votes {where}",
                args,
            ).fetchone()
            (answers,) = self._db.execute(f"SELECT COUNT(*) FROM answers {where}", args).fetchone()
        return FeedbackStats(up=int(up), down=int(down), answers=int(answers))

    def close(self) -> None:
        with self._lock:
            self._db.close()
