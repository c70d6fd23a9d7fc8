from pathlib import Path

import pytest

from bots.core.feedback import FeedbackStore


def test_second_vote_replaces_first_and_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "feedback.sqlite3"
    store = FeedbackStore(path)
    store.record_answer(
        "a1",
        platform="slack",
        question="How?",
        route="knowledge_base",
        references=[{"number": 1, "url": "https://x/#a", "title": "X"}],
    )
    store.vote("a1", user="U1", vote="up", platform="slack")
    store.vote("a1", user="U1", vote="down", platform="slack")
    store.vote("a1", user="U2", vote="up", platform="slack")
    store.close()

    reopened = FeedbackStore(path)
    votes = reopened.votes("a1")
    assert [(v.user, v.vote) for v in votes] == [("U1", "down"), ("U2", "up")]
    assert votes[0].question == "How?" and votes[0].references[0]["url"] == "https://x/#a"
    stats = reopened.stats()
    assert (stats.up, stats.down, stats.answers) == (1, 1, 1)


def test_bad_vote_is_refused(tmp_path: Path) -> None:
    store = FeedbackStore(tmp_path / "f.sqlite3")
    with pytest.raises(ValueError, match="'up' or 'down'"):
        store.vote("a1", user="U1", vote="meh", platform="discord")  # type: ignore[arg-type]
