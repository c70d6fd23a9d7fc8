from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import click

from bots.cli import cli, fail, friendly, settings_from
from citations.render import CitationStyle
from pipeline.events import Done, Status
from pipeline.question import Question
from pipeline.trace import format_trace

if TYPE_CHECKING:
    from bots.core.runtime import Runtime


def answer_json(done: Done) -> dict[str, Any]:
    return {
        "question": done.question,
        "answer": done.answer.text,
        "route": done.route.value,
        "references": [
            {"number": ref.number, "url": ref.url, "title": ref.title}
            for ref in done.answer.references
        ],
        **({"error": done.error} if done.error else {}),
        **({"warnings": list(done.answer.warnings)} if done.answer.warnings else {}),
    }


def runtime_of(ctx: click.Context) -> Runtime:
    """The command's runtime, built once: plugins are discovered and the store opened once."""
    from bots.app import build_runtime

    obj = ctx.ensure_object(dict)
    if "runtime" not in obj:
        obj["runtime"] = build_runtime(settings_from(ctx))
    runtime: Runtime = obj["runtime"]
    return runtime


async def run_question(runtime: Runtime, question: Question, *, live: bool) -> Done:
    """Ask through the full runtime (scopes, plugins, limits) and return the final event.

    On a terminal the final render replaces the stream, so deltas are not shown.
    """
    done: Done | None = None
    async for event in runtime.ask(runtime.prepare(question)):
        if live and isinstance(event, Status):
            click.echo(click.style(f"… {event.text}", dim=True), err=True)
        elif isinstance(event, Done):
            done = event
    assert done is not None, "Runtime.ask always ends with Done"
    return done


def citation_style(runtime: Runtime, name: str) -> CitationStyle:
    styles = runtime.plugins.citation_styles() if runtime.plugins is not None else {}
    if name not in styles:
        fail(f"unknown citation style {name!r}; installed: {', '.join(sorted(styles))}", 2)
    style: CitationStyle = styles[name]
    return style


@cli.command("ask")
@click.argument("question", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--trace", is_flag=True, help="Show every pipeline decision with scores and timings.")
@click.option(
    "--style",
    default="text",
    show_default=True,
    help="Citation style (text, markdown, html, or a plugin's).",
)
@click.pass_context
@friendly
def ask_command(
    ctx: click.Context, question: tuple[str, ...], as_json: bool, trace: bool, style: str
) -> None:
    """Answer QUESTION from the knowledge base (and the web, when configured)."""
    text = " ".join(question).strip()
    if not text:
        fail("the question is empty; ask something, e.g. citebot ask 'How do I install it?'", 2)
    runtime = runtime_of(ctx)
    renderer = None if as_json else citation_style(runtime, style)
    done = asyncio.run(run_question(runtime, Question(text=text), live=not as_json))
    if as_json:
        payload = answer_json(done)
        if trace:
            payload["trace"] = [
                {"stage": d.stage, "detail": d.detail, "ms": round(d.ms, 2), "data": d.data}
                for d in done.trace
            ]
        click.echo(json.dumps(payload, ensure_ascii=False, default=str))
    else:
        assert renderer is not None
        rendered = renderer.render(done.answer)
        click.echo(
            rendered if isinstance(rendered, str) else json.dumps(rendered, ensure_ascii=False)
        )
        if trace:
            click.echo("\nTrace:")
            click.echo(format_trace(done.trace))
    if done.error and done.error in {"empty", "too_long"}:
        raise SystemExit(2)
