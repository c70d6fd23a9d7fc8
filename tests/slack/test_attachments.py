"""Files shared with a Slack question: downloaded with the bot token from Slack only, read,
and cited as the file by the real offline pipeline."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web
from click.testing import CliRunner

from bots.app import build_answerer
from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from bots.platforms.slack.files import SIGN_IN, slack_hosted
from bots.settings import load_settings
from tests.slack.conftest import MakeHarness, mention
from tests.slack.test_real_pipeline import DOC

LOG = (
    "2026-11-21 02:00:11 INFO backup started\n"
    "2026-11-21 02:00:13 ERROR backup failed: the bucket acme-backups is not writable\n"
    "2026-11-21 02:00:14 INFO backup finished with 1 error\n"
)


def test_the_token_goes_only_to_slacks_own_hosts() -> None:
    api = "https://slack.com/api/"
    assert slack_hosted("https://files.slack.com/files-pri/T1-F1/download/a.log", api)
    assert not slack_hosted("https://files.slack.com.evil.example/a.log", api)
    assert not slack_hosted("https://evil.example/files.slack.com/a.log", api)
    assert not slack_hosted("http://127.0.0.1:9/a.log", "http://127.0.0.1:8/")
    assert not slack_hosted("not a url", api)


async def test_shared_files_become_the_questions_attachments(make_harness: MakeHarness) -> None:
    h = await make_harness()
    elsewhere: list[web.Request] = []

    async def record(request: web.Request) -> web.Response:
        elsewhere.append(request)
        return web.Response(text="secret")

    app = web.Application()
    app.router.add_get("/{tail:.*}", record)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        log = h.fake.share_file("backup.log", LOG.encode())
        shot = h.fake.share_file("screen.png", b"\x89PNG\r\n", "image/png")
        foreign = {**h.fake.share_file("notes.txt", b"hi"), "size": 2}
        foreign["url_private_download"] = f"http://127.0.0.1:{port}/notes.txt"
        await h.event(mention("why did the backup fail?", files=[log, shot, foreign]))
        await h.fake.wait_for("chat.stopStream")
    finally:
        await runner.cleanup()

    (question,) = h.answerer.questions
    read = {a.name: a for a in question.attachments}
    assert read["backup.log"].text == LOG and read["backup.log"].skipped is None
    assert read["backup.log"].url == log["permalink"], "footnotes point at the permalink"
    assert read["screen.png"].skipped == (
        "The attachment screen.png was not read: only text, Markdown, log, CSV, JSON, YAML "
        "and PDF files are read."
    )
    assert (
        read["notes.txt"].skipped
        == "The attachment notes.txt was not read: it is not hosted by Slack."
    )
    assert elsewhere == [], "the bot token never leaves Slack's hosts"
    assert [auth for _, auth in h.fake.downloads] == ["Bearer xoxb-test"]


async def test_without_files_read_slack_sends_a_sign_in_page_and_the_asker_is_told(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness()
    log = h.fake.share_file("backup.log", LOG.encode())
    log["url_private_download"] += "?x=1"
    h.fake.without_files_read.add("xoxb-test")
    await h.event(mention("why did the backup fail?", files=[log]))
    await h.fake.wait_for("chat.stopStream")
    (attachment,) = h.answerer.questions[0].attachments
    assert attachment.skipped == f"The attachment backup.log was not read: {SIGN_IN}."


async def test_an_attached_log_is_read_and_cited_by_the_real_pipeline(
    make_harness: MakeHarness, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "keys.md").write_text(DOC, encoding="utf-8")
    env = {"CITEBOT_DATA_DIR": str(tmp_path / "kb")}
    ingested = CliRunner().invoke(
        cli, ["ingest", str(docs), "--url-base", "https://docs.example.com/"], env=env
    )
    assert ingested.exit_code == 0, ingested.output
    answerer = build_answerer(load_settings(data_dir=str(tmp_path / "kb")))
    h = await make_harness(answerer=answerer)
    log = h.fake.share_file("backup.log", LOG.encode())

    await h.event(mention("why did the backup fail?", files=[log]))
    stop = await h.fake.wait_for("chat.stopStream", within=60)

    entries = [
        e["text"] for b in stop.params["blocks"] if b["type"] == "context" for e in b["elements"]
    ]
    assert any(e.startswith("[1] <" + log["permalink"]) for e in entries), entries
    shown = h.fake.messages[stop.params["ts"]].visible_text
    assert "not writable" in shown and "[1]" in shown
