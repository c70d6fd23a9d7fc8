from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from bots.cli.base import cli, fail, friendly, settings_from
from bots.cli.loading import LOADING, load_runtime, spinner
from bots.cli.previews import PREVIEW_STYLES, preview

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from citations.render import CitationStyle
    from pipeline.events import Done
    from pipeline.question import Question


def exit_code(done: Done) -> int:
    """2 for a question to fix (empty, too long), 1 when answering failed, else 0."""
    from pipeline.events import Outcome

    return {Outcome.EMPTY: 2, Outcome.TOO_LONG: 2, Outcome.FAILED: 1}.get(done.outcome, 0)


def answer_json(done: Done) -> dict[str, Any]:
    return {
        "question": done.question,
        "answer": done.answer.text,
        "route": done.route.value,
        "references": [
            {"number": ref.number, "url": ref.url, "title": ref.title}
            for ref in done.answer.references
        ],
        "outcome": done.outcome.value,
        **({"reason": str(done.reason)} if done.reason is not None else {}),
        **({"warnings": list(done.answer.warnings)} if done.answer.warnings else {}),
    }


def runtime_of(ctx: click.Context) -> Runtime:
    """The command's runtime, built once: plugins are discovered and the store opened once."""
    return load_runtime(ctx)


async def run_question(
    runtime: Runtime, question: Question, *, live: bool, stream: bool = False
) -> Done:
    """Ask through the full runtime (scopes, plugins, limits) and return the final event.

    ``live`` shows the pipeline's status lines on stderr; ``stream`` writes the
    answer to stdout as it is generated, then its sources (or the revised answer).
    """
    from bots.platforms.console import after_stream
    from pipeline.events import AnswerDelta, Done, Status

    done: Done | None = None
    streamed = ""
    async for event in runtime.ask(runtime.prepare(question)):
        if live and isinstance(event, Status) and not streamed:
            click.echo(click.style(f"… {event.text}", dim=True), err=True)
        elif stream and isinstance(event, AnswerDelta):
            streamed += event.text
            click.echo(event.text, nl=False)
        elif isinstance(event, Done):
            done = event
    assert done is not None, "Runtime.ask always ends with Done"
    if stream:
        click.echo(after_stream(streamed, done))
    return done


def citation_style(runtime: Runtime, name: str) -> CitationStyle:
    styles = runtime.plugins.citation_styles() if runtime.plugins is not None else {}
    if name not in styles:
        known = sorted({*styles, *PREVIEW_STYLES})
        fail(f"unknown citation style {name!r}; installed: {', '.join(known)}", 2)
    style: CitationStyle = styles[name]
    return style


def nothing_ingested(ctx: click.Context) -> str | None:
    """What to do about an empty knowledge base, or None when it holds something."""
    settings = settings_from(ctx)
    manifest_file = settings.data_dir / "manifest.sqlite"
    if manifest_file.exists():
        from connectors.knowledge.store import Manifest

        with Manifest(settings.data_dir, settings.store.kind) as manifest:
            if manifest.total_chunks():
                return None
    return (
        f"nothing ingested yet into {settings.data_dir}: run citebot ingest PATH_OR_URL "
        "(or citebot demo for the bundled samples)"
    )


def require_knowledge(ctx: click.Context) -> None:
    """Stop with one line when there is nothing to answer from, unless web search stands in."""
    with spinner(LOADING):
        empty = nothing_ingested(ctx)
    if empty is None:
        return
    settings = settings_from(ctx)
    if not (settings.web.enabled and settings.web.tavily_api_key is not None):
        fail(empty)
    click.echo(f"citebot: {empty}; answering from the web alone", err=True)


@cli.command("ask")
@click.argument("question", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--trace", is_flag=True, help="Show every pipeline decision with scores and timings.")
@click.option(
    "--style",
    default="text",
    show_default=True,
    help="text, markdown, html, a plugin's style, or slack/discord to preview the bot's message.",
)
@click.pass_context
@friendly
def ask_command(
    ctx: click.Context, question: tuple[str, ...], as_json: bool, trace: bool, style: str
) -> None:
    """Answer QUESTION with numbered, linked footnotes.

    From the knowledge base, and the web when configured. On a terminal the
    answer streams as it is written; piped or with --json it is printed whole.
    """
    text = " ".join(question).strip()
    if not text:
        fail("the question is empty; ask something, e.g. citebot ask 'How do I rotate a key?'", 2)
    require_knowledge(ctx)
    runtime = load_runtime(ctx)
    import asyncio

    from pipeline.question import Question

    previewing = style in PREVIEW_STYLES and not as_json
    renderer = None if as_json or previewing else citation_style(runtime, style)
    stream = renderer is not None and style == "text" and sys.stdout.isatty()
    done = asyncio.run(run_question(runtime, Question(text=text), live=not as_json, stream=stream))
    if as_json:
        payload = answer_json(done)
        if trace:
            payload["trace"] = [
                {"stage": d.stage, "detail": d.detail, "ms": round(d.ms, 2), "data": d.data}
                for d in done.trace
            ]
        click.echo(json.dumps(payload, ensure_ascii=False, default=str))
    elif previewing:
        for line in preview(style, done.answer):
            click.echo(line)
    elif not stream:
        assert renderer is not None
        rendered = renderer.render(done.answer)
        click.echo(
            rendered if isinstance(rendered, str) else json.dumps(rendered, ensure_ascii=False)
        )
    if trace and not as_json:
        from pipeline.trace import format_trace

        click.echo("\nTrace:")
        click.echo(format_trace(done.trace))
    code = exit_code(done)
    if code:
        raise SystemExit(code)
