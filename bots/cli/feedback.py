"""``citebot feedback``: list, export and purge the stored answers and votes."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import click

from bots.cli.base import cli, friendly, settings_from

if TYPE_CHECKING:
    from bots.core.feedback import AnswerRecord, FeedbackStore

_COLUMNS = ("answer_id", "when", "platform", "channel", "route", "outcome", "up", "down")


def _open(ctx: click.Context) -> FeedbackStore:
    from bots.core.feedback import FeedbackStore

    settings = settings_from(ctx)
    path = settings.data_dir / "feedback.sqlite3"
    if not path.exists():
        raise click.ClickException(f"no feedback stored yet ({path} does not exist)")
    # what the command asks for, and nothing more: ``purge --days 365`` keeps 365 days
    return FeedbackStore(path, settings.feedback, expire=False)


def _since(value: dt.datetime | None) -> float | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.timestamp()


def _when(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M")


def _row(record: AnswerRecord) -> dict[str, Any]:
    row = record.as_dict()
    row["when"] = _when(record.created)
    return row


@cli.group("feedback")
def feedback_group() -> None:
    """Stored answers and 👍/👎 votes (data_dir/feedback.sqlite3)."""


@feedback_group.command("list")
@click.option("--down", is_flag=True, help="only answers that drew a 👎")
@click.option("--no-answer", "no_answer", is_flag=True, help="only questions with no answer")
@click.option(
    "--since", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M"]), help="from this date (UTC)"
)
@click.option("--json", "as_json", is_flag=True, help="one JSON array")
@click.option("--csv", "as_csv", is_flag=True, help="CSV with a header row")
@click.pass_context
@friendly
def list_command(
    ctx: click.Context,
    down: bool,
    no_answer: bool,
    since: dt.datetime | None,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Stored answers, oldest first, with their votes and 👎 reasons."""
    import csv
    import json
    import sys

    if as_json and as_csv:
        raise click.BadParameter("choose one of --json and --csv", param_hint="--csv")
    store = _open(ctx)
    try:
        records = list(store.answers(down=down, no_answer=no_answer, since=_since(since)))
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps([_row(r) for r in records], ensure_ascii=False, indent=1))
        return
    if as_csv:
        fields = [*_COLUMNS, "question", "answer", "reasons", "sources"]
        writer = csv.DictWriter(sys.stdout, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for r in records:
            row = _row(r)
            row["reasons"] = " | ".join(r.reasons)
            row["sources"] = " ".join(
                ref.get("url") or ref.get("title", "") for ref in r.references
            )
            writer.writerow(row)
        return
    if not records:
        click.echo("no stored answers match", err=True)
        return
    for r in records:
        votes = f"👍{r.up} 👎{r.down}"
        click.echo(
            f"{_when(r.created)}  {r.platform:<7} {r.outcome:<9} {r.route:<10} {votes}  {r.answer_id}"
        )
        click.echo(f"    Q: {_clip(r.question)}")
        if r.answer:
            click.echo(f"    A: {_clip(r.answer)}")
        for reason in r.reasons:
            click.echo(f"    👎 {_clip(reason)}")


def _clip(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


@feedback_group.command("export")
@click.option(
    "--since", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M"]), help="from this date (UTC)"
)
@click.pass_context
@friendly
def export_command(ctx: click.Context, since: dt.datetime | None) -> None:
    """Every stored answer as JSON Lines on stdout, one object per answer."""
    import json

    store = _open(ctx)
    try:
        for record in store.answers(since=_since(since)):
            click.echo(json.dumps(_row(record), ensure_ascii=False))
    finally:
        store.close()


@feedback_group.command("purge")
@click.option(
    "--days",
    type=click.IntRange(0),
    help="keep this many days (default: the feedback.keep_days setting); 0 deletes everything",
)
@click.option("--yes", is_flag=True, help="do not ask before --days 0 deletes everything")
@click.pass_context
@friendly
def purge_command(ctx: click.Context, days: int | None, yes: bool) -> None:
    """Delete answers and votes older than the retention period."""
    keep = days if days is not None else settings_from(ctx).feedback.keep_days
    if not keep and days is None:
        raise click.UsageError("no retention set: pass --days N or set CITEBOT_FEEDBACK__KEEP_DAYS")
    # keep_days = 0 means "keep forever", so a 0 here is more likely a slip than a wish
    if keep == 0 and not yes:
        click.confirm("--days 0 deletes every stored answer and vote. Go on?", abort=True)
    store = _open(ctx)
    try:
        gone = store.purge(days=keep)
    finally:
        store.close()
    click.echo(f"deleted {gone} answer(s) older than {keep} day(s)")
