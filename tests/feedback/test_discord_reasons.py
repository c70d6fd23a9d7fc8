"""End to end on Discord: a 👎, a reason picked in the follow-up, then the CLI and /insights."""

from __future__ import annotations

import json

from bots.testing.discord_api import FakeDiscord
from tests.discord.conftest import StartBot, fake, start_bot  # noqa: F401  (Discord's, not Slack's)
from tests.discord.test_down_reasons import answered, down_vote
from tests.feedback.test_feedback_loop import citebot, insights_page


async def test_a_discord_reason_reaches_the_cli_and_insights(
    start_bot: StartBot,  # noqa: F811
    fake: FakeDiscord,  # noqa: F811
    tmp_path,
) -> None:
    h = await start_bot()
    qid, followup = await down_vote(h, fake)
    await answered(fake, await fake.select(followup, f"citebot:why:{qid}", ["not_what_i_asked"]))

    code, out, err = citebot(tmp_path, "list", "--down", "--json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert (row["answer_id"], row["platform"], row["question"]) == (qid, "discord", "keys?")
    assert row["reasons"] == ["not_what_i_asked"]
    page = await insights_page(tmp_path)
    assert "keys?" in page and "not_what_i_asked" in page
