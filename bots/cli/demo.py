"""``citebot demo``: ingest the bundled sample docs and answer sample questions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from bots.cli.ask import run_question, runtime_of
from bots.cli.base import cli, friendly

if TYPE_CHECKING:
    from bots.core.runtime import Runtime

DEMO_QUESTIONS = (
    "How do I rotate an API key?",
    "What is the capital of Australia?",
)
#: The samples get their own collection, so `sources remove --collection samples` takes them out.
DEMO_COLLECTION = "samples"


@cli.command("demo")
@click.option(
    "--question", "-q", "questions", multiple=True, help="Ask this instead of the samples."
)
@click.pass_context
@friendly
def demo_command(ctx: click.Context, questions: tuple[str, ...]) -> None:
    """Ingest the sample docs and answer sample questions.

    The samples stay (collection 'samples'), so `citebot ask` can answer from them afterwards.
    """
    import asyncio
    from importlib import resources

    from bots.cli.ingest import ingest_command
    from bots.settings import load_settings

    obj = ctx.ensure_object(dict)
    # the demo shows the bundled engine alone; installed plugins would change its answers
    settings = load_settings(**obj.get("overrides", {}), plugins={"entry_points": False})
    obj["settings"] = settings
    samples = resources.files("bots") / "samples"
    with resources.as_file(samples) as folder:
        click.echo(f"Ingesting the sample docs from {folder} …", err=True)
        ctx.invoke(
            ingest_command,
            sources=(str(folder),),
            url_base="https://docs.example.com/",
            collection=DEMO_COLLECTION,
        )
    asyncio.run(_answer_all(runtime_of(ctx), questions or DEMO_QUESTIONS))
    click.echo(
        f"\nThe samples stay in {settings.data_dir} (collection {DEMO_COLLECTION!r}): "
        "ask them more with `citebot ask QUESTION`; "
        f"`citebot sources remove --collection {DEMO_COLLECTION}` takes them out.",
        err=True,
    )


async def _answer_all(runtime: Runtime, questions: tuple[str, ...]) -> None:
    from citations.render import render_text
    from pipeline.question import Question

    for text in questions:
        click.echo(click.style(f"\n> {text}", bold=True))
        done = await run_question(runtime, Question(text=text), live=False)
        click.echo(render_text(done.answer))
        click.echo(click.style(f"(route: {done.route.value})", dim=True))
