"""A 👎 asks why: an ephemeral select, "Other…" answers with a modal, the core stores it."""

from __future__ import annotations

from typing import Any

from bots.testing import discord_rules
from bots.testing.discord_api import USER_ID, FakeDiscord, Interaction
from tests.discord.conftest import Harness, StartBot

EDIT = r"/channels/\d+/messages/\d+"
CALLBACK = r"/interactions/\d+/[^/]+/callback"
#: discord-api-docs interactions/receiving-and-responding.mdx: a modal title is at most 45
MODAL_TITLE = 45


async def down_vote(h: Harness, fake: FakeDiscord) -> tuple[str, dict[str, Any]]:
    """Ask, answer, click 👎; the answer id and the ephemeral follow-up message."""
    await fake.user_says("keys?", mention_bot=True)
    final = await fake.wait_call("PATCH", EDIT, lambda c: bool(c.json.get("components")))
    answer = fake.get_message(final.path.rsplit("/", 1)[1])
    qid = h.answerer.questions[-1].id
    await fake.click(answer, f"citebot:vote:down:{qid}")
    ack = await fake.wait_call("POST", CALLBACK)
    assert ack.json["type"] == 4 and ack.json["data"]["flags"] & 64, "only the voter sees it"
    followup = next(
        m
        for ms in fake.messages.values()
        for m in ms
        if m.get("flags", 0) & 64 and m.get("components")
    )
    return qid, followup


async def answered(fake: FakeDiscord, interaction: Interaction) -> dict[str, Any]:
    def callback() -> Any:
        found = [c for c in fake.find("POST", CALLBACK) if interaction.token in c.path]
        return found[0] if found else None

    call = await fake.wait_for(callback)
    return call.json


async def test_a_down_vote_offers_reasons_and_a_choice_is_stored(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    qid, followup = await down_vote(h, fake)
    ((select,),) = [row["components"] for row in followup["components"]]
    assert select["type"] == 3 and select["custom_id"] == f"citebot:why:{qid}"
    assert [o["label"] for o in select["options"]] == [
        "Wrong",
        "Outdated",
        "Not what I asked",
        "Other…",
    ]

    picked = await fake.select(followup, select["custom_id"], ["wrong"])
    update = await answered(fake, picked)
    assert update["type"] == 7 and update["data"]["components"] == []
    assert "wrong" in fake.get_message(followup["id"])["content"]
    (vote,) = h.store.votes(qid)
    assert (vote.user, vote.vote, vote.reason) == (str(USER_ID), "down", "wrong")
    assert fake.rejected == []


async def test_other_answers_with_a_modal_whose_text_is_stored(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    qid, followup = await down_vote(h, fake)
    picked = await fake.select(followup, f"citebot:why:{qid}", ["other"])
    shown = await answered(fake, picked)
    assert shown["type"] == 9 and len(shown["data"]["title"]) <= MODAL_TITLE
    assert h.store.votes(qid)[0].reason == ""

    # a restart between showing the form and its submit: the custom_id is enough
    await h.stop()
    h2 = await start_bot()
    submitted = await fake.submit_modal(picked, {"text": "It says v1; we run v2"})
    done = await answered(fake, submitted)
    assert done["type"] == 7 and "other" in done["data"]["content"]
    (vote,) = h2.store.votes(qid)
    assert (vote.reason, vote.reason_text) == ("other", "It says v1; we run v2")
    assert fake.rejected == []


def test_the_fake_refuses_what_discord_refuses_in_interaction_callbacks() -> None:
    modal = {"custom_id": "m", "title": "x" * 46, "components": [{"type": 18, "label": "L"}]}
    assert discord_rules.callback_rejected(
        {"type": 9, "data": modal}, interaction={"type": 3, "message": {}}, answered=False
    ) == (
        400,
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {
                "data": {
                    "title": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 45 or fewer in length.",
                            }
                        ]
                    }
                }
            },
        },
    )
    ok_modal = {
        **modal,
        "title": "ok",
        "components": [
            {"type": 18, "label": "L", "component": {"type": 4, "custom_id": "t", "style": 2}}
        ],
    }
    assert (
        discord_rules.callback_rejected(
            {"type": 9, "data": ok_modal}, interaction={"type": 3, "message": {}}, answered=False
        )
        is None
    )
    # a modal cannot answer a modal submit; a message update needs a message
    assert (
        discord_rules.callback_rejected(
            {"type": 9, "data": ok_modal}, interaction={"type": 5}, answered=False
        )
        is not None
    )
    assert (
        discord_rules.callback_rejected(
            {"type": 7, "data": {}}, interaction={"type": 2}, answered=False
        )
        is not None
    )
    # answered once; a select offers at most 25 options
    status, body = discord_rules.callback_rejected(
        {"type": 4, "data": {"content": "x"}}, interaction={"type": 3}, answered=True
    ) or (0, {})
    assert (status, body["code"]) == (400, 40060)
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
    }
    assert (
        discord_rules.rejected(
            {"content": "x", "components": [{"type": 1, "components": [select]}]}, creating=True
        )
        is not None
    )
