from __future__ import annotations

import asyncio
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bots.cli import cli, friendly
from bots.cli.ask import run_question, runtime_of
from citations.render import render_text
from pipeline.question import Question

if TYPE_CHECKING:
    from bots.core.runtime import Runtime

DEMO_QUESTIONS = (
    "How do I rotate an API key?",
    "What is the capital of Australia?",
)


@cli.command("demo")
@click.option(
    "--question", "-q", "questions", multiple=True, help="Ask this instead of the samples."
)
@click.option("--keep", type=click.Path(file_okay=False), help="Keep the demo data dir here.")
@click.pass_context
@friendly
def demo_command(ctx: click.Context, questions: tuple[str, ...], keep: str | None) -> None:
    """Ingest the bundled sample docs into a temporary data dir and answer sample questions."""
    from bots.cli.ingest import ingest_command
    from bots.settings import load_settings

    with tempfile.TemporaryDirectory(prefix="citebot-demo-") as tmp:
        data_dir = Path(keep) if keep else Path(tmp)
        # the demo shows the bundled engine alone; installed plugins would change its answers
        settings = load_settings(data_dir=data_dir, plugins={"entry_points": False})
        ctx.ensure_object(dict)["settings"] = settings
        samples = resources.files("bots") / "samples"
        with resources.as_file(samples) as folder:
            click.echo(f"Ingesting the sample docs from {folder} …", err=True)
            ctx.invoke(
                ingest_command,
                sources=(str(folder),),
                url_base="https://docs.example.com/",
                collection=None,
            )
        asyncio.run(_answer_all(runtime_of(ctx), questions or DEMO_QUESTIONS))


async def _answer_all(runtime: Runtime, questions: tuple[str, ...]) -> None:
    for text in questions:
        click.echo(click.style(f"\n> {text}", bold=True))
        done = await run_question(runtime, Question(text=text), live=False)
        click.echo(render_text(done.answer))
        click.echo(click.style(f"(route: {done.route.value})", dim=True))
