"""``citebot eval``: measure answers against a labelled question file; ``--generate`` drafts one."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from bots.cli.ask import require_knowledge, runtime_of
from bots.cli.base import cli, fail, friendly, settings_from
from pipeline.question import Place, Question

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from pipeline.evaluation import Case, Report
    from pipeline.events import Done


@cli.command("eval")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the metrics and every miss as JSON.")
@click.option(
    "--generate",
    "generate_dir",
    type=click.Path(file_okay=False),
    help="Draft questions from the documents in this folder (needs an LLM); prints YAML.",
)
@click.option(
    "--per-passage",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Drafts per passage.",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False),
    help="An earlier report (--json) to compare with: each metric's move, and every question "
    "whose outcome changed.",
)
@click.option("-q", "--quiet", is_flag=True, help="No per-question progress lines.")
@click.pass_context
@friendly
def eval_command(
    ctx: click.Context,
    file: str | None,
    as_json: bool,
    generate_dir: str | None,
    per_passage: int,
    baseline_file: str | None,
    quiet: bool,
) -> None:
    """Score answers against a labelled question file.

    FILE is YAML, JSON Lines (.jsonl) or JSON (.json). Each question names the section(s) that answer it (urls) and phrases the answer
    must contain (contains), or says expect: no_answer. See tests/devset/ for an example.
    """
    if generate_dir is not None:
        _generate(ctx, Path(generate_dir), per_passage)
        return
    if file is None:
        fail("name an eval file (YAML or JSONL), or use --generate DIR to draft one", 2)
    cases = _load(Path(str(file)))
    # read first: a bad baseline should not cost a whole run
    baseline = None if baseline_file is None else _baseline(Path(baseline_file))
    # an empty store gets the line ask gives, not a score of every question as a miss
    require_knowledge(ctx)
    runtime = runtime_of(ctx)
    report = asyncio.run(_run(runtime, cases, progress=not quiet and not as_json))
    comparison = None
    if baseline is not None:
        from pipeline.eval_baseline import compare

        comparison = compare(baseline, report)
    if as_json:
        data = report.data()
        if comparison is not None:
            data["baseline"] = comparison.data()
        click.echo(json.dumps(data, ensure_ascii=False, default=str))
    else:
        click.echo(report.table())
        if comparison is not None:
            click.echo("\n" + comparison.table())


def _load(path: Path) -> list[Case]:
    from pipeline.evaluation import EvalFileError, Format, parse_cases

    text = _text(path, "eval file")
    suffix = path.suffix.lower()
    fmt: Format = (
        "json" if suffix == ".json" else "jsonl" if suffix in {".jsonl", ".ndjson"} else "yaml"
    )
    try:
        return parse_cases(text, fmt=fmt)
    except EvalFileError as exc:
        fail(f"{path}: {exc}", 2)
    raise AssertionError("unreachable")


def _baseline(path: Path) -> dict[str, Any]:
    from pipeline.eval_baseline import BaselineError, read_baseline

    text = _text(path, "baseline report")
    try:
        return read_baseline(text)
    except BaselineError as exc:
        fail(f"{path}: {exc}", 2)
    raise AssertionError("unreachable")


def _text(path: Path, what: str) -> str:
    """The file's text, or one line to the operator and exit 2."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"no such {what}: {path}", 2)
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}", 2)
    raise AssertionError("unreachable")


async def _run(runtime: Runtime, cases: list[Case], *, progress: bool) -> Report:
    from pipeline import Pipeline
    from pipeline.evaluation import CaseResult, RetrievalCheck, brief, run_eval

    answerer = runtime.answerer
    scope = runtime.scope_for(Place())

    async def answer(question: Question) -> Done:
        from pipeline.events import Done

        # the runtime's own limits (length, emptiness, plugins' rules): a question the bot
        # refuses is scored as the refusal a user would get
        checked = await runtime.screen(replace(question, scope=scope))
        if isinstance(checked, Done):
            return checked
        done: Done | None = None
        async for event in answerer.stream(checked):
            if isinstance(event, Done):
                done = event
        assert done is not None
        return done

    retrieval = None
    extra = None
    if isinstance(answerer, Pipeline):
        retrieval = RetrievalCheck(answerer.retriever, top_k=answerer.settings.top_k, scope=scope)
        llm = answerer.workflow.llm
        if llm is not None:
            extra = _llm_judges(llm)

    def show(result: CaseResult) -> None:
        mark = "ok " if result.miss is None else f"{result.miss}"
        click.echo(click.style(f"… {mark:<12} {brief(result.case.question)}", dim=True), err=True)

    return await run_eval(
        cases, answer, retrieval=retrieval, extra=extra, on_result=show if progress else None
    )


def _llm_judges(llm: Any) -> Any:
    """LlamaIndex's faithfulness and relevancy evaluators, when an LLM is configured."""
    from llama_index.core.evaluation import FaithfulnessEvaluator, RelevancyEvaluator

    faithful = FaithfulnessEvaluator(llm=llm)
    relevant = RelevancyEvaluator(llm=llm)

    async def judge(case: Case, done: Done) -> dict[str, bool]:
        contexts = [s.text for ref in done.answer.references for s in ref.sources]
        out: dict[str, bool] = {}
        for name, evaluator in (("faithful", faithful), ("relevant", relevant)):
            try:
                result = await evaluator.aevaluate(
                    query=case.question, response=done.answer.plain_text, contexts=contexts
                )
            except Exception:  # a judge that fails says nothing about the answer
                continue
            if result.passing is not None:
                out[name] = bool(result.passing)
        return out

    return judge


def _generate(ctx: click.Context, folder: Path, per_passage: int) -> None:
    import yaml

    from connectors.knowledge.chunking import chunk_document
    from connectors.knowledge.documents import Document
    from connectors.knowledge.sources.folder import read_folder
    from connectors.providers.llms import build_llm
    from pipeline.evaluation import Passage, draft_questions

    settings = settings_from(ctx)
    llm = build_llm(settings.llm)
    if llm is None:
        fail("--generate needs an LLM to draft questions; set CITEBOT_LLM__PROVIDER", 2)
    passages = [
        Passage(url=chunk.url, title=chunk.title, text=chunk.text)
        for doc in read_folder(folder)
        if isinstance(doc, Document)
        for chunk in chunk_document(doc)
    ]
    if not passages:
        fail(f"no readable documents under {folder}", 2)
    drafts = asyncio.run(draft_questions(passages, llm, per_passage=per_passage))
    click.echo("# drafted by citebot eval --generate: review each, fill in 'contains'")
    click.echo(yaml.safe_dump({"questions": drafts}, sort_keys=False, allow_unicode=True))
