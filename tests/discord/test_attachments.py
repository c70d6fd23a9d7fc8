"""Files attached to a Discord question, through the real discord.py client and the fake CDN."""

from __future__ import annotations

from bots.testing.discord_api import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.discord.conftest import StartBot

LOG = b"02:00:13 ERROR backup failed: the bucket acme-backups is not writable\n"


async def test_attachments_are_read_and_refusals_named(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    log = fake.attachment("backup.log", LOG)
    big = {**fake.attachment("dump.log", b"x"), "size": 50_000_000}
    shot = fake.attachment("screen.png", b"\x89PNG", "image/png")
    message = await fake.user_says(
        "why did the backup fail?", mention_bot=True, attachments=[log, big, shot]
    )

    await h.answerer.asked.wait()

    (question,) = h.answerer.questions
    read = {a.name: a for a in question.attachments}
    jump = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{message['id']}"
    assert read["backup.log"].text == LOG.decode() and read["backup.log"].url == jump
    assert read["dump.log"].skipped == (
        "The attachment dump.log was not read: it is 50.0 MB, over the 2.0 MB limit."
    )
    assert read["screen.png"].skipped is not None
    assert "only text, Markdown, log, CSV, JSON, YAML and PDF files" in read["screen.png"].skipped


async def test_a_vanished_attachment_is_a_note_not_a_crash(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot()
    gone = fake.attachment("old.log", LOG)
    fake.attachments.clear()
    await fake.user_says("what does this log say?", mention_bot=True, attachments=[gone])
    await h.answerer.asked.wait()
    (attachment,) = h.answerer.questions[0].attachments
    assert attachment.skipped == "The attachment old.log was not read: it could not be downloaded."
