"""Stored answers for the insights tests and benchmark, written straight into the schema."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path

from bots.core.feedback import FeedbackStore

DAY = 86400.0
TOPICS = (
    "how do I rotate the API key",
    "how to rotate api keys for the staging project",
    "what is the refund policy for annual plans",
    "does the SDK support python 3.13",
    "how do I configure SSO with okta",
    "why does the webhook retry three times",
)
SOURCES = (
    ("Install guide", "https://docs.example.com/install"),
    ("API keys", "https://docs.example.com/keys"),
    ("Billing FAQ", "https://docs.example.com/billing"),
    ("SSO", "https://docs.example.com/sso"),
)
ROUTES = ("knowledge_base", "knowledge_base", "web", "mixed", "no_answer")


def seed(path: Path, n: int, *, days: int = 30, rng_seed: int = 7) -> None:
    """``n`` answers over the last ``days`` days, a tenth voted, a third of those 👎 with reasons."""
    FeedbackStore(path).close()  # the schema, migrations and indexes
    rng = random.Random(rng_seed)
    now = time.time()
    answers, votes = [], []
    for i in range(n):
        created = now - rng.random() * days * DAY
        route = rng.choice(ROUTES)
        outcome = "no_answer" if route == "no_answer" else "answered"
        refs = (
            []
            if route == "no_answer"
            else [
                {"number": k + 1, "url": u, "title": t, "origin": "knowledge_base"}
                for k, (t, u) in enumerate(rng.sample(SOURCES, 2))
            ]
        )
        question = f"{rng.choice(TOPICS)} (case {i % 97})"
        timings = {"retrieve": rng.uniform(20, 80), "generate": rng.uniform(300, 4000)}
        answers.append(
            (
                f"a{i}",
                "slack",
                question,
                route,
                json.dumps(refs),
                created,
                f"answer {i}",
                outcome,
                f"U{i % 50}",
                "T1",
                "C1",
                "",
                json.dumps(timings),
                sum(timings.values()),
            )
        )
        if i % 10 == 0:
            down = i % 30 == 0
            reason = rng.choice(("wrong", "outdated", "not_what_i_asked")) if down else ""
            votes.append(
                (f"a{i}", f"V{i}", "down" if down else "up", "slack", created + 60, reason, "")
            )
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO answers (answer_id, platform, question, route, refs, created, answer, "
            "outcome, asker, workspace, channel, thread, timings, total_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            answers,
        )
        db.executemany(
            "INSERT INTO votes (answer_id, user, vote, platform, voted, reason, reason_text) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            votes,
        )
        # rebuilt from the answers on the next open, as a migrated file's is
        db.execute("DROP TABLE source_days")
    db.close()
    FeedbackStore(path).close()
