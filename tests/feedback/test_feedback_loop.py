"""The feedback loop: answers stored whole, 👎 reasons, list/export/purge, old files migrated."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time
from pathlib import Path

import aiohttp
from click.testing import CliRunner
from pydantic import SecretStr

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from bots.core.feedback import DownReason, FeedbackStore
from bots.ops import server
from bots.settings import load_settings
from bots.settings.sections import FeedbackSettings
from bots.testing.slack_api import TEAM
from bots.testing.slack_views import view_submission
from tests.slack.test_down_reasons import down_vote, reason_click


def citebot(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), "feedback", *args])
    return result.exit_code, result.stdout, result.stderr


async def test_a_down_vote_with_a_reason_is_listed(make_harness, tmp_path):
    """End to end: 👎 in Slack, "Other…", the modal's text; then the CLI and /insights."""
    h = await make_harness()
    answer_id, ephemeral = await down_vote(h)
    await h.interact(reason_click(h, ephemeral, "citebot_why_other"))
    await h.fake.wait_for("views.open")
    (opened,) = h.fake.interactive.views
    (block,) = opened.view["blocks"]
    text = {block["block_id"]: {block["element"]["action_id"]: "v2 <b>changed</b> it"}}
    await h.interact(view_submission(h.fake.interactive, opened, team=TEAM, values=text))

    code, out, err = citebot(tmp_path / "data", "list", "--down", "--json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["answer_id"] == answer_id
    assert row["question"] == "what is the answer?"
    assert row["answer"] == "The answer is 42[1]. See the FAQ[2]."
    assert (row["platform"], row["route"], row["outcome"]) == (
        "slack",
        "knowledge_base",
        "answered",
    )
    assert row["channel"] and row["down"] == 1 and row["up"] == 0
    assert row["reasons"] == ["other: v2 <b>changed</b> it"]
    assert [r["url"] for r in row["references"]][1] == "https://docs.example.com/faq"

    code, out, _ = citebot(tmp_path / "data", "list", "--down")
    assert code == 0 and "what is the answer?" in out and "other: v2 <b>changed</b> it" in out

    page = await insights_page(tmp_path / "data")
    assert "what is the answer?" in page and "other: v2 &lt;b&gt;changed&lt;/b&gt; it" in page


async def insights_page(data: Path) -> str:
    settings = load_settings(data_dir=str(data), feedback={"insights_token": "t0ken"})
    runner = await server.start(settings, probes={}, host="127.0.0.1", port=0)
    assert runner is not None
    host, port = runner.addresses[0][:2]
    try:
        async with aiohttp.ClientSession() as s:
            headers = {"Authorization": "Bearer t0ken"}
            async with s.get(f"http://{host}:{port}/insights", headers=headers) as r:
                assert r.status == 200
                return await r.text()
    finally:
        await runner.cleanup()


def seeded(tmp_path: Path) -> FeedbackStore:
    store = FeedbackStore(tmp_path / "feedback.sqlite3")
    day = 86400.0
    now = time.time()
    store.record_answer(
        "old",
        platform="slack",
        question="ancient?",
        route="web",
        references=[],
        answer="long ago",
        created=now - 40 * day,
    )
    store.record_answer(
        "good",
        platform="discord",
        question="how to install?",
        route="knowledge_base",
        references=[{"number": 1, "url": "https://d/i", "title": "Install", "origin": "kb"}],
        answer="pip install[1]",
        timings={"retrieve": 12.5, "generate": 300.0},
    )
    store.record_answer(
        "none",
        platform="slack",
        question="what is the airspeed?",
        route="no_answer",
        references=[],
        outcome="no_answer",
    )
    store.vote("good", user="u1", vote="up", platform="discord")
    store.vote("good", user="u2", vote="down", platform="discord")
    store.set_reason("good", user="u2", reason=DownReason.WRONG)
    return store


def test_filters_formats_and_purge(tmp_path):
    store = seeded(tmp_path)
    (good,) = [r for r in store.answers() if r.answer_id == "good"]
    assert good.total_ms == 312.5 and good.timings["generate"] == 300.0
    assert (good.up, good.down, good.reasons) == (1, 1, ["wrong"])
    store.close()

    code, out, _ = citebot(tmp_path, "list", "--no-answer", "--json")
    assert [r["answer_id"] for r in json.loads(out)] == ["none"]
    code, out, _ = citebot(tmp_path, "list", "--since", time.strftime("%Y-%m-%d"), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["answer_id"] for r in rows] == ["good", "none"]
    assert rows[0]["reasons"] == "wrong" and rows[0]["sources"] == "https://d/i"
    code, out, _ = citebot(tmp_path, "export")
    assert [json.loads(line)["answer_id"] for line in out.splitlines()] == ["old", "good", "none"]

    code, _, err = citebot(tmp_path, "purge")
    assert code != 0 and "--days" in err and "Traceback" not in err
    code, out, _ = citebot(tmp_path, "purge", "--days", "30")
    assert code == 0 and "deleted 1 answer" in out
    code, out, _ = citebot(tmp_path, "export")
    assert [json.loads(line)["answer_id"] for line in out.splitlines()] == ["good", "none"]


def test_missing_store_is_one_line(tmp_path):
    code, _, err = citebot(tmp_path / "nothing", "list")
    assert code == 1 and err.strip().count("\n") == 0 and "no feedback stored yet" in err


def test_a_reason_needs_a_down_vote(tmp_path):
    store = seeded(tmp_path)
    assert not store.set_reason("good", user="u1", reason="wrong")  # u1 voted up
    # changing a 👎 to 👍 drops its reason
    store.vote("good", user="u2", vote="up", platform="discord")
    assert all(v.reason == "" for v in store.votes("good"))
    store.close()


def test_user_ids_can_be_stored_hashed(tmp_path):
    settings = FeedbackSettings(hash_users=True, user_salt=SecretStr("pepper"))
    store = FeedbackStore(tmp_path / "f.sqlite3", settings)
    store.record_answer("a", platform="slack", question="q", route="web", references=[], asker="U1")
    store.vote("a", user="U1", vote="down", platform="slack")
    assert store.set_reason("a", user="U1", reason="other", text="meh")
    (vote,) = store.votes("a")
    (answer,) = store.answers()
    assert vote.user == answer.asker != "U1" and vote.user.startswith("h:")
    store.close()
    raw = (tmp_path / "f.sqlite3").read_bytes()
    assert b"U1" not in raw  # the platform id is nowhere in the file


def test_an_old_database_is_migrated_in_place(tmp_path):
    path = tmp_path / "feedback.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE answers (answer_id TEXT PRIMARY KEY, platform TEXT NOT NULL,
            question TEXT NOT NULL, route TEXT NOT NULL, refs TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE votes (answer_id TEXT NOT NULL, user TEXT NOT NULL,
            vote TEXT NOT NULL CHECK (vote IN ('up', 'down')), platform TEXT NOT NULL,
            voted REAL NOT NULL, PRIMARY KEY (answer_id, user));
        """
    )
    db.execute(
        "INSERT INTO answers VALUES ('x', 'slack', 'old q?', 'web', '[]', ?)", (time.time(),)
    )
    db.execute("INSERT INTO votes VALUES ('x', 'U9', 'down', 'slack', ?)", (time.time(),))
    db.commit()
    db.close()

    store = FeedbackStore(path)
    (old,) = store.answers(down=True)
    assert (old.question, old.answer, old.outcome, old.down) == ("old q?", "", "answered", 1)
    assert store.set_reason("x", user="U9", reason="not_what_i_asked")
    store.close()
    FeedbackStore(path).close()  # a second open finds nothing to add


def test_a_running_store_drops_what_keep_days_no_longer_keeps(tmp_path):
    now = [0.0]
    store = FeedbackStore(
        tmp_path / "f.sqlite3", FeedbackSettings(keep_days=1), clock=lambda: now[0]
    )
    day = 86400.0
    store.record_answer(
        "old",
        platform="slack",
        question="q",
        route="web",
        references=[],
        created=time.time() - 3 * day,
    )
    assert [a.answer_id for a in store.answers()] == ["old"], "expired at most once an hour"
    now[0] += 3600.0  # the bot has run for an hour
    store.record_answer("new", platform="slack", question="q", route="web", references=[])
    assert [a.answer_id for a in store.answers()] == ["new"]
    store.close()


def test_purge_deletes_what_it_is_asked_to_and_says_so(tmp_path, monkeypatch):
    store = seeded(tmp_path)  # "old" was answered 40 days ago
    store.close()
    # keep_days is the running bot's rule: a command run beside it removes only what it says
    monkeypatch.setenv("CITEBOT_FEEDBACK__KEEP_DAYS", "7")
    code, out, _ = citebot(tmp_path, "export")
    assert [json.loads(line)["answer_id"] for line in out.splitlines()] == ["old", "good", "none"]
    code, out, _ = citebot(tmp_path, "purge", "--days", "365")
    assert code == 0 and "deleted 0 answer" in out
    code, out, _ = citebot(tmp_path, "purge", "--days", "30")
    assert code == 0 and "deleted 1 answer" in out


def test_purging_everything_asks_first_unless_told_yes(tmp_path):
    seeded(tmp_path).close()
    result = CliRunner().invoke(
        cli, ["--data-dir", str(tmp_path), "feedback", "purge", "--days", "0"], input="n\n"
    )
    assert result.exit_code == 1 and "deletes every stored answer" in result.output
    code, out, _ = citebot(tmp_path, "export")
    assert len(out.splitlines()) == 3  # nothing went
    code, out, _ = citebot(tmp_path, "purge", "--days", "0", "--yes")
    assert code == 0 and "deleted 3 answer" in out
