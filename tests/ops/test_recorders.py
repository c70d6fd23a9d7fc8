"""Dedupe hits and feedback votes reach /metrics from where they happen."""

from __future__ import annotations

from pathlib import Path

from bots.core.dedupe import Dedupe
from bots.core.feedback import FeedbackStore
from bots.ops import metrics


def value(name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


async def test_a_second_claim_counts_as_a_dedupe_hit() -> None:
    dedupe = Dedupe()
    before = value("citebot_dedupe_hits_total", platform="recorders")
    assert await dedupe.first("recorders", "event", "Ev1")
    assert not await dedupe.first("recorders", "event", "Ev1")
    assert not await dedupe.first("recorders", "event", "Ev1")
    assert await dedupe.first("recorders", "event", "Ev2")
    assert value("citebot_dedupe_hits_total", platform="recorders") == before + 2


def test_votes_are_counted_by_platform_and_vote(tmp_path: Path) -> None:
    store = FeedbackStore(tmp_path / "votes.sqlite3")
    before = value("citebot_feedback_votes_total", platform="recorders", vote="down")
    try:
        store.vote("a1", user="U1", vote="down", platform="recorders")
        store.vote("a1", user="U2", vote="down", platform="recorders")
    finally:
        store.close()
    assert value("citebot_feedback_votes_total", platform="recorders", vote="down") == before + 2
