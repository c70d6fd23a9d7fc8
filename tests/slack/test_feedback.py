"""👍/👎 clicks: routed by the ids in the blocks, stored durably, thanked ephemerally."""

from __future__ import annotations

from bots.core.feedback import FeedbackStore
from tests.slack.conftest import mention


async def test_feedback_click_is_stored_and_thanked(make_harness, tmp_path):
    h = await make_harness()
    await h.event(mention(ts="20.0"))
    stop = await h.fake.wait_for("chat.stopStream")
    (actions,) = [b for b in stop.params["blocks"] if b["type"] == "actions"]
    by_action = {e["action_id"]: e for e in actions["elements"]}
    assert set(by_action) == {"citebot_vote_up", "citebot_vote_down"}
    answer_id = h.answerer.questions[0].id

    status, _, _ = await h.click(actions["block_id"], "citebot_vote_up")
    assert status == 200
    thanks = await h.fake.wait_for("response_url:vote")
    assert (
        thanks.params["response_type"] == "ephemeral" and thanks.params["replace_original"] is False
    )
    assert "Thanks" in thanks.params["text"]

    (vote,) = h.store.votes(answer_id)
    assert (vote.user, vote.vote, vote.platform) == ("U333", "up", "slack")
    assert vote.question == "what is the answer?" and vote.route == "knowledge_base"
    assert [r["url"] for r in vote.references] == [
        "https://docs.example.com/guide?a=1&b=2",
        "https://docs.example.com/faq",
    ]

    # the same user changes their mind: the vote is replaced, not added
    await h.click(actions["block_id"], "citebot_vote_down")
    await h.fake.wait_for("chat.postEphemeral")  # a 👎 asks why (tests/slack/test_down_reasons.py)
    assert [(v.user, v.vote) for v in h.store.votes(answer_id)] == [("U333", "down")]

    # durable: a fresh store on the same file (a restart) sees it
    reopened = FeedbackStore(h.store.path)
    assert [(v.user, v.vote) for v in reopened.votes(answer_id)] == [("U333", "down")]
    reopened.close()


async def test_foreign_or_malformed_actions_are_acked_and_ignored(make_harness):
    h = await make_harness()
    status, _, _ = await h.click("someone_else:xyz", "citebot_vote_up")
    assert status == 200
    status, _, _ = await h.click("citebot_fb:", "citebot_vote_up")
    assert status == 200
    await h.bot.drain()
    assert h.store.stats().total == 0
    assert not h.fake.called("response_url:vote")
