"""Durable answers and 👍/👎 votes, shared by every platform.

Buttons carry only the answer id, so the answer itself (question, answer text,
route, references, place, timings) is recorded when it is sent, and a vote
joins it later — even after a restart or on another replica that shares the
data dir. A 👎 may carry a reason, asked in a small follow-up.

Older ``feedback.sqlite3`` files are migrated in place on open: new columns
are added with ``ALTER TABLE … ADD COLUMN`` and old rows read as empty.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from bots.ops import metrics
from bots.ops.insights_report import DAY_OF
from citations.model import CitedAnswer
from pipeline.events import Done

if TYPE_CHECKING:
    from bots.settings.sections import FeedbackSettings

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

#: Columns added after the first release; ``ALTER TABLE`` adds the missing ones.
_ADDED: dict[str, tuple[tuple[str, str], ...]] = {
    "answers": (
        ("answer", "TEXT NOT NULL DEFAULT ''"),
        ("outcome", "TEXT NOT NULL DEFAULT 'answered'"),
        ("asker", "TEXT NOT NULL DEFAULT ''"),
        ("workspace", "TEXT NOT NULL DEFAULT ''"),
        ("channel", "TEXT NOT NULL DEFAULT ''"),
        ("thread", "TEXT NOT NULL DEFAULT ''"),
        ("timings", "TEXT NOT NULL DEFAULT '{}'"),
        ("total_ms", "REAL NOT NULL DEFAULT 0"),
    ),
    "votes": (
        ("reason", "TEXT NOT NULL DEFAULT ''"),
        ("reason_text", "TEXT NOT NULL DEFAULT ''"),
    ),
}

_INDEXES = f"""
CREATE INDEX IF NOT EXISTS answers_created ON answers (created);
CREATE INDEX IF NOT EXISTS answers_day_route ON answers ({DAY_OF}, route);
CREATE INDEX IF NOT EXISTS answers_day_ms ON answers ({DAY_OF}, total_ms);
CREATE INDEX IF NOT EXISTS answers_gaps ON answers (outcome, {DAY_OF}, question);
CREATE INDEX IF NOT EXISTS votes_vote ON votes (vote, voted, answer_id);
CREATE INDEX IF NOT EXISTS votes_voted ON votes (voted);
"""

#: Citations per source per day, kept as answers are recorded: "most cited" reads
#: a few hundred rows instead of every answer's references.
_SOURCE_DAYS = f"""
CREATE TABLE source_days (
    day INTEGER NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (day, url, title)
);
INSERT INTO source_days
SELECT {DAY_OF}, COALESCE(json_extract(j.value, '$.url'), ''),
       COALESCE(json_extract(j.value, '$.title'), ''), COUNT(*)
FROM answers, json_each(answers.refs) j GROUP BY 1, 2, 3;
"""


class DownReason(StrEnum):
    """Why a 👎: the choices offered in the follow-up, plus free text."""

    WRONG = "wrong"
    OUTDATED = "outdated"
    NOT_ASKED = "not_what_i_asked"
    OTHER = "other"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    DownReason.WRONG: "Wrong",
    DownReason.OUTDATED: "Outdated",
    DownReason.NOT_ASKED: "Not what I asked",
    DownReason.OTHER: "Other",
}


def references_of(answer: CitedAnswer) -> list[dict[str, Any]]:
    """The references a vote is about: the one payload every platform records."""
    return [
        {"number": r.number, "url": r.url, "title": r.title, "origin": str(r.origin)}
        for r in answer.references
    ]


def timings_of(done: Done) -> dict[str, float]:
    """Milliseconds per pipeline stage, from the answer's trace."""
    timings: dict[str, float] = {}
    for decision in done.trace:
        timings[decision.stage] = timings.get(decision.stage, 0.0) + decision.ms
    return timings


@dataclass(frozen=True, slots=True)
class VoteRecord:
    answer_id: str
    user: str
    vote: Vote
    platform: str
    question: str
    route: str
    references: list[dict[str, Any]]
    reason: str = ""
    reason_text: str = ""


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """One stored answer with its vote tally and the reasons of its 👎s."""

    answer_id: str
    created: float
    platform: str
    workspace: str
    channel: str
    thread: str
    asker: str
    question: str
    answer: str
    route: str
    outcome: str
    references: list[dict[str, Any]]
    timings: dict[str, float]
    total_ms: float
    up: int
    down: int
    reasons: list[str]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class FeedbackStats:
    up: int
    down: int
    answers: int

    @property
    def total(self) -> int:
        return self.up + self.down


_LIST = """
SELECT a.answer_id, a.created, a.platform, a.workspace, a.channel, a.thread, a.asker,
       a.question, a.answer, a.route, a.outcome, a.refs, a.timings, a.total_ms,
       COALESCE(SUM(v.vote = 'up'), 0), COALESCE(SUM(v.vote = 'down'), 0),
       COALESCE(GROUP_CONCAT(CASE WHEN v.vote = 'down' AND (v.reason != '' OR v.reason_text != '')
                THEN TRIM(v.reason || ': ' || v.reason_text, ': ') END, char(10)), '')
FROM answers a LEFT JOIN votes v USING (answer_id)
WHERE a.created >= ? {extra}
GROUP BY a.answer_id
{having}
ORDER BY a.created
"""


#: seconds between two expiries of a running store's old answers
EXPIRY_INTERVAL = 3600.0


class FeedbackStore:
    def __init__(
        self,
        path: Path | str,
        settings: FeedbackSettings | None = None,
        *,
        expire: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``expire`` drops what ``feedback.keep_days`` keeps no longer, now and then once an
        hour while answers are recorded (a bot runs for months); the CLI reads without it."""
        self.path = Path(path)
        self.settings = settings
        self._keep_days = settings.keep_days if settings is not None and expire else 0
        self._clock = clock
        self._expired_at: float | None = None
        # FeedbackSettings refuses hash_users without a salt
        self._salt = settings.user_salt if settings is not None and settings.hash_users else None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # one connection, serialised: votes are rare and SQLite writers serialise anyway
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10)
        # the rollback journal, not WAL: WAL maps its shared-memory file, and a disk that
        # goes read-only under that mapping kills the whole bot with SIGBUS instead of
        # failing one write (a store opened by an older citebot in WAL is converted back)
        self._db.execute("PRAGMA journal_mode=DELETE")
        with self._db:
            self._db.executescript(_SCHEMA)
            self._migrate()
            self._db.executescript(_INDEXES)
            if not self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_days'"
            ).fetchone():
                self._db.executescript(_SOURCE_DAYS)
        self.expire()

    def expire(self) -> int:
        """Drop the answers ``feedback.keep_days`` keeps no longer, at most once an hour;
        how many went."""
        if not self._keep_days:
            return 0
        now = self._clock()
        if self._expired_at is not None and now - self._expired_at < EXPIRY_INTERVAL:
            return 0
        self._expired_at = now
        return self.purge(days=self._keep_days)

    def _migrate(self) -> None:
        for table, columns in _ADDED.items():
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns:
                if name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    def user_id(self, user: str) -> str:
        """The id as stored: the platform's own, or its salted hash when ``hash_users`` is on."""
        if self._salt is None or not user:
            return user
        digest = hashlib.sha256(self._salt.get_secret_value().encode() + b"\0" + user.encode())
        return "h:" + digest.hexdigest()[:24]

    def record_answer(
        self,
        answer_id: str,
        *,
        platform: str,
        question: str,
        route: str,
        references: list[dict[str, Any]],
        answer: str = "",
        outcome: str = "answered",
        asker: str = "",
        workspace: str = "",
        channel: str = "",
        thread: str = "",
        timings: dict[str, float] | None = None,
        created: float | None = None,
    ) -> None:
        timings = timings or {}
        created = time.time() if created is None else created
        with self._lock, self._db:
            again = self._db.execute(
                "SELECT 1 FROM answers WHERE answer_id = ?", (answer_id,)
            ).fetchone()
            if not again:
                self._db.executemany(
                    "INSERT INTO source_days VALUES (?, ?, ?, 1) "
                    "ON CONFLICT (day, url, title) DO UPDATE SET n = n + 1",
                    [
                        (int(created // 86400), r.get("url") or "", r.get("title") or "")
                        for r in references
                    ],
                )
            self._db.execute(
                "INSERT OR REPLACE INTO answers (answer_id, platform, question, route, refs, "
                "created, answer, outcome, asker, workspace, channel, thread, timings, total_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    answer_id,
                    platform,
                    question,
                    route,
                    json.dumps(references),
                    created,
                    answer,
                    outcome,
                    self.user_id(asker),
                    workspace,
                    channel,
                    thread,
                    json.dumps(timings),
                    sum(timings.values()),
                ),
            )
        self.expire()

    def vote(
        self,
        answer_id: str,
        *,
        user: str,
        vote: Vote,
        platform: str,
        when: float | None = None,
    ) -> None:
        if vote not in ("up", "down"):
            raise ValueError(f"vote must be 'up' or 'down', not {vote!r}")
        with self._lock, self._db:
            # a changed vote drops the reason given for the old one
            self._db.execute(
                "INSERT INTO votes (answer_id, user, vote, platform, voted) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (answer_id, user) DO UPDATE SET vote = excluded.vote, "
                "voted = excluded.voted, "
                "reason = CASE WHEN vote = excluded.vote THEN reason ELSE '' END, "
                "reason_text = CASE WHEN vote = excluded.vote THEN reason_text ELSE '' END",
                (
                    answer_id,
                    self.user_id(user),
                    vote,
                    platform,
                    time.time() if when is None else when,
                ),
            )
        metrics.feedback_vote(platform, vote)

    def set_reason(
        self, answer_id: str, *, user: str, reason: DownReason | str, text: str = ""
    ) -> bool:
        """Attach why to a user's 👎; ``False`` when that user has no 👎 on the answer."""
        reason = DownReason(reason)
        with self._lock, self._db:
            cur = self._db.execute(
                "UPDATE votes SET reason = ?, reason_text = ? "
                "WHERE answer_id = ? AND user = ? AND vote = 'down'",
                (str(reason), " ".join(text.split())[:1000], answer_id, self.user_id(user)),
            )
        return cur.rowcount > 0

    def votes(self, answer_id: str) -> list[VoteRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT v.answer_id, v.user, v.vote, v.platform, "
                "COALESCE(a.question, ''), COALESCE(a.route, ''), COALESCE(a.refs, '[]'), "
                "v.reason, v.reason_text "
                "FROM votes v LEFT JOIN answers a USING (answer_id) "
                "WHERE v.answer_id = ? ORDER BY v.voted",
                (answer_id,),
            ).fetchall()
        return [
            VoteRecord(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8])
            for r in rows
        ]

    def answers(
        self,
        *,
        down: bool = False,
        no_answer: bool = False,
        since: float | None = None,
    ) -> Iterator[AnswerRecord]:
        """Stored answers, oldest first; ``down`` keeps those with a 👎, ``no_answer`` those
        that found nothing (both: either)."""
        extra, having = "", ""
        if down and no_answer:
            having = "HAVING SUM(v.vote = 'down') > 0 OR a.outcome = 'no_answer'"
        elif down:
            having = "HAVING SUM(v.vote = 'down') > 0"
        elif no_answer:
            extra = "AND a.outcome = 'no_answer'"
        sql = _LIST.format(extra=extra, having=having)
        with self._lock:
            rows = self._db.execute(sql, (since or 0.0,)).fetchall()
        for r in rows:
            yield AnswerRecord(
                answer_id=r[0],
                created=r[1],
                platform=r[2],
                workspace=r[3],
                channel=r[4],
                thread=r[5],
                asker=r[6],
                question=r[7],
                answer=r[8],
                route=r[9],
                outcome=r[10],
                references=json.loads(r[11]),
                timings=json.loads(r[12]),
                total_ms=r[13],
                up=int(r[14]),
                down=int(r[15]),
                reasons=[x for x in r[16].split("\n") if x],
            )

    def purge(self, *, days: float) -> int:
        """Delete answers (and their votes) older than ``days``; how many answers went."""
        cutoff = time.time() - days * 86400
        with self._lock, self._db:
            self._db.execute(
                "DELETE FROM votes WHERE answer_id IN "
                "(SELECT answer_id FROM answers WHERE created < ?)",
                (cutoff,),
            )
            self._db.execute("DELETE FROM votes WHERE voted < ?", (cutoff,))
            cur = self._db.execute("DELETE FROM answers WHERE created < ?", (cutoff,))
            self._db.execute("DELETE FROM source_days WHERE day < ?", (int(cutoff // 86400),))
        return cur.rowcount

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Read-only SQL for reports (the insights page)."""
        with self._lock:
            return self._db.execute(sql, args).fetchall()

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
