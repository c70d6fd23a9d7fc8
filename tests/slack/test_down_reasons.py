"""A 👎 asks why: ephemeral buttons in the thread, "Other…" opens a modal, the core stores it."""

from __future__ import annotations

import json
from typing import Any

from bots.testing.slack_api import TEAM
from bots.testing.slack_views import block_actions, view_submission
from tests.slack.conftest import Harness, mention

#: docs.slack.dev/reference/views/modal-views: title, submit and close at most 24 characters
MODAL_TITLE = 24


async def down_vote(h: Harness, user: str = "U333") -> tuple[str, Any]:
    """Ask, answer, click 👎; the answer id and the ephemeral follow-up."""
    await click_down(h, user)
    posted = await h.fake.wait_for("chat.postEphemeral")
    (ephemeral,) = h.fake.interactive.ephemerals
    assert posted.params["user"] == user and ephemeral.thread_ts == "20.0"
    return h.answerer.questions[0].id, ephemeral


async def click_down(h: Harness, user: str) -> None:
    """Ask, answer, and ``user`` clicks 👎 under the answer in C111."""
    await h.event(mention(ts="20.0"))
    stop = await h.fake.wait_for("chat.stopStream")
    (actions,) = [b for b in stop.params["blocks"] if b["type"] == "actions"]
    await h.interact(
        block_actions(
            h.fake.interactive,
            team=TEAM,
            user=user,
            channel="C111",
            block_id=actions["block_id"],
            action_id="citebot_vote_down",
            value="x",
            response_url=h.fake.response_url("vote"),
            message_ts=stop.params["ts"],
            thread_ts="20.0",
        )
    )


def reason_click(h: Harness, ephemeral: Any, action_id: str) -> dict[str, Any]:
    (why,) = [b for b in ephemeral.blocks if b["type"] == "actions"]
    return block_actions(
        h.fake.interactive,
        team=TEAM,
        user=ephemeral.user,
        channel=ephemeral.channel,
        block_id=why["block_id"],
        action_id=action_id,
        value="x",
        response_url=h.fake.response_url("why"),
        message_ts=ephemeral.ts,
        thread_ts=ephemeral.thread_ts,
        ephemeral=True,
    )


async def test_a_down_vote_asks_why_and_a_button_stores_the_reason(make_harness):
    h = await make_harness()
    answer_id, ephemeral = await down_vote(h)
    (why,) = [b for b in ephemeral.blocks if b["type"] == "actions"]
    labels = [e["text"]["text"] for e in why["elements"]]
    assert labels == ["Wrong", "Outdated", "Not what I asked", "Other…"]
    assert not h.fake.called("response_url:vote"), "one follow-up, not thanks and a question"

    await h.interact(reason_click(h, ephemeral, "citebot_why_outdated"))
    done = await h.fake.wait_for("response_url:why")
    assert done.params["replace_original"] is True and "outdated" in done.params["text"]
    (vote,) = h.store.votes(answer_id)
    assert (vote.vote, vote.reason, vote.reason_text) == ("down", "outdated", "")
    assert h.fake.rejected == []


async def test_a_down_vote_by_someone_outside_the_channel_is_kept_and_thanked(make_harness):
    h = await make_harness()
    h.fake.members["C111"] = {"U222"}  # U333 clicks from a channel they have left
    await click_down(h, "U333")
    thanks = await h.fake.wait_for("response_url:vote")
    assert h.fake.rejected == [("chat.postEphemeral", "user_not_in_channel")]
    assert thanks.params["response_type"] == "ephemeral" and thanks.params["text"]
    assert h.fake.interactive.ephemerals == []
    (vote,) = h.store.votes(h.answerer.questions[0].id)
    assert (vote.vote, vote.user) == ("down", "U333")


async def test_other_opens_a_modal_whose_text_is_stored(make_harness):
    h = await make_harness()
    answer_id, ephemeral = await down_vote(h)
    await h.interact(reason_click(h, ephemeral, "citebot_why_other"))
    await h.fake.wait_for("views.open")
    (opened,) = h.fake.interactive.views
    assert len(opened.view["title"]["text"]) <= MODAL_TITLE
    assert h.store.votes(answer_id)[0].reason == "", "nothing is stored before the form is sent"

    (block,) = opened.view["blocks"]
    payload = view_submission(
        h.fake.interactive,
        opened,
        team=TEAM,
        values={block["block_id"]: {block["element"]["action_id"]: "It says v1; we run v2"}},
    )
    status, body, _ = await h.interact(payload)
    assert status == 200 and body == "", "an empty 200 closes the modal"
    (vote,) = h.store.votes(answer_id)
    assert (vote.reason, vote.reason_text) == ("other", "It says v1; we run v2")


async def test_a_reason_after_changing_to_up_keeps_the_modal_open(make_harness):
    h = await make_harness()
    answer_id, ephemeral = await down_vote(h)
    await h.interact(reason_click(h, ephemeral, "citebot_why_other"))
    await h.fake.wait_for("views.open")
    (opened,) = h.fake.interactive.views
    h.store.vote(answer_id, user="U333", vote="up", platform="slack")  # changed their mind
    (block,) = opened.view["blocks"]
    payload = view_submission(
        h.fake.interactive,
        opened,
        team=TEAM,
        values={block["block_id"]: {block["element"]["action_id"]: "never mind"}},
    )
    status, body, _ = await h.interact(payload)
    answer = json.loads(body)
    assert status == 200 and answer["response_action"] == "errors"
    assert "no 👎" in answer["errors"][block["block_id"]]
    assert h.store.votes(answer_id)[0].reason == ""


async def test_the_fake_refuses_stale_or_reused_triggers_and_oversized_modals(make_harness):
    h = await make_harness()
    client = h.bot.client
    view = {
        "type": "modal",
        "title": {"type": "plain_text", "text": "ok"},
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}],
    }
    fresh = h.fake.interactive.trigger_id("U1")
    assert (await client.views_open(trigger_id=fresh, view=view))["ok"]
    answers = []
    for trigger, bad in (
        (fresh, view),  # a trigger is exchanged once
        ("1.2.3", view),  # never issued
        (
            h.fake.interactive.trigger_id("U1"),
            {**view, "title": {"type": "plain_text", "text": "x" * 25}},
        ),
    ):
        try:
            await client.views_open(trigger_id=trigger, view=bad)
        except Exception as exc:  # slack_sdk raises SlackApiError on ok=false
            answers.append(exc.response["error"])  # type: ignore[attr-defined]
    stale = h.fake.interactive.trigger_id("U1")
    h.fake.interactive.expire(stale)
    try:
        await client.views_open(trigger_id=stale, view=view)
    except Exception as exc:
        answers.append(exc.response["error"])  # type: ignore[attr-defined]
    assert answers == [
        "exchanged_trigger_id",
        "invalid_trigger_id",
        "invalid_arguments",
        "expired_trigger_id",
    ]
