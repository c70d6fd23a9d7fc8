"""Runtime.reason: the one place a 👎's reason is stored, and what each platform is told."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bots.core.feedback import DownReason, FeedbackStore
from bots.core.runtime import Runtime, VoteReceipt
from bots.settings import Settings, load_settings


class BrokenStore(FeedbackStore):
    def set_reason(self, *args: object, **kwargs: object) -> bool:
        raise OSError("disk full")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(data_dir=str(tmp_path))


async def test_each_receipt(
    settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = FeedbackStore(tmp_path / "feedback.sqlite3")
    store.record_answer(
        "a1", platform="slack", question="q?", route="knowledge_base", references=[]
    )
    runtime = Runtime(settings, feedback=store)

    async def why(runtime: Runtime, text: str = "") -> VoteReceipt:
        return await runtime.reason(
            "a1", user="U1", reason=DownReason.OUTDATED, text=text, platform="slack"
        )

    assert await why(runtime) is VoteReceipt.NO_VOTE  # no 👎 to explain
    store.vote("a1", user="U1", vote="down", platform="slack")
    assert await why(runtime, "v2 moved it") is VoteReceipt.RECORDED
    (vote,) = store.votes("a1")
    assert (vote.reason, vote.reason_text) == ("outdated", "v2 moved it")

    assert await why(Runtime(settings)) is VoteReceipt.OFF
    broken = BrokenStore(tmp_path / "broken.sqlite3")
    caplog.set_level(logging.ERROR)
    assert await why(Runtime(settings, feedback=broken)) is VoteReceipt.FAILED
    assert "could not store the reason" in caplog.text
    store.close()
    broken.close()
