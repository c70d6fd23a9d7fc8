"""Token usage and grader counts: from the fake OpenAI-compatible server, through the real
openai client and LlamaIndex, into the trace and the Prometheus counters."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bots.core.runtime import Runtime
from bots.ops import metrics
from bots.settings import load_settings
from connectors.knowledge.store import KnowledgeStore
from pipeline.events import Decision, Done, Outcome, Progress
from pipeline.ports import Embedder
from pipeline.question import Place, Question, Trigger
from pipeline.usage import TokenUsage, usage_of
from tests.fakes.openai_server import FakeOpenAI, Request
from tests.pipeline.test_end_to_end import GOOD, grades, pipeline, run

KEYS = "How do I rotate an API key?"
BACKUPS = "How do I take a backup of the database?"


def script(server: FakeOpenAI) -> None:
    server.when(
        "Task: grade relevance",
        grades({"click Rotate next to the key": 0.93, "acme backup create": 0.91}),
    )
    server.when("Task: answer with citations", lambda prompt: _answer_for(prompt))
    server.when("Task: check an answer", GOOD)


def _answer_for(prompt: str) -> str:
    if "backup" in prompt:
        return "Run acme backup create to take a snapshot of the database [1]."
    return "Open Settings › API keys and click Rotate next to the key [1]."


def decision(done: Done, stage: str) -> Decision:
    return [d for d in done.trace if d.stage == stage][-1]


def reported(requests: list[Request], kind: str) -> int:
    return sum(r.usage[kind] for r in requests if r.usage is not None)


def sample(name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def counters() -> dict[str, float]:
    return {
        "graded": sample("citebot_grader_calls_total"),
        "prompt": sample("citebot_llm_tokens_total", kind="prompt"),
        "completion": sample("citebot_llm_tokens_total", kind="completion"),
    }


async def ask(runtime: Runtime, text: str) -> Done:
    question = Question(
        text, asker="U1", place=Place("usage-test", "T1", "C1", None), trigger=Trigger.MENTION
    )
    events: list[Progress] = [e async for e in runtime.ask(runtime.prepare(question))]
    assert isinstance(events[-1], Done)
    return events[-1]


async def test_a_run_reports_the_tokens_the_server_counted_and_the_counters_move(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    script(fake_openai)
    runtime = Runtime(load_settings(), answerer=pipeline(store, embedder, fake_openai, None))
    before = counters()

    done = await ask(runtime, KEYS)

    assert done.outcome is Outcome.ANSWERED and done.answer.references
    requests = fake_openai.requests
    streamed = [r for r in requests if r.body.get("stream")]
    assert len(streamed) == 1
    # the stream asked for usage and got it in its last chunk; other calls never send the option
    assert streamed[0].body["stream_options"] == {"include_usage": True}
    assert streamed[0].usage is not None and streamed[0].usage["completion_tokens"] > 0
    assert all("stream_options" not in r.body for r in requests if not r.body.get("stream"))
    assert all(r.usage is not None for r in requests)

    final = decision(done, "finalize").data
    assert final["prompt_tokens"] == reported(requests, "prompt_tokens") > 0
    assert final["completion_tokens"] == reported(requests, "completion_tokens") > 0
    graded = decision(done, "grade").data["graded"]
    assert (
        graded
        == len(fake_openai.calls("Task: grade relevance"))
        == len(decision(done, "retrieve").data["scores"])
    )

    after = counters()
    assert after["graded"] - before["graded"] == graded
    assert after["prompt"] - before["prompt"] == final["prompt_tokens"]
    assert after["completion"] - before["completion"] == final["completion_tokens"]


async def test_concurrent_runs_each_count_their_own_calls(
    store: KnowledgeStore, embedder: Embedder, fake_openai: FakeOpenAI
) -> None:
    script(fake_openai)
    p = pipeline(store, embedder, fake_openai, None)

    keys, backups = await asyncio.gather(run(p, KEYS), run(p, BACKUPS))

    for (_, done), text in ((keys, KEYS), (backups, BACKUPS)):
        mine = fake_openai.calls(text)
        assert mine and all(r.usage is not None for r in mine)
        final = decision(done, "finalize").data
        assert final["prompt_tokens"] == reported(mine, "prompt_tokens")
        assert final["completion_tokens"] == reported(mine, "completion_tokens")


async def test_a_server_that_counts_nothing_reports_no_tokens(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    with FakeOpenAI(report_usage=False) as server:
        script(server)
        runtime = Runtime(load_settings(), answerer=pipeline(store, embedder, server, None))
        before = counters()
        done = await ask(runtime, KEYS)

    assert done.outcome is Outcome.ANSWERED and done.answer.references
    final = decision(done, "finalize").data
    assert "prompt_tokens" not in final and "completion_tokens" not in final
    after = counters()
    assert after["prompt"] == before["prompt"] and after["completion"] == before["completion"]
    assert after["graded"] - before["graded"] == decision(done, "grade").data["graded"] > 0


def test_usage_shapes_of_other_providers() -> None:
    # Anthropic-style: input/output tokens on an object under a dict's "usage"
    anthropic = {
        "type": "message_delta",
        "usage": SimpleNamespace(input_tokens=12, output_tokens=3),
    }
    assert usage_of(anthropic) == (12, 3)
    assert usage_of(SimpleNamespace(usage=None)) == (None, None)
    assert usage_of({"usage": {"completion_tokens": 4}}) == (None, 4)
    assert usage_of({"usage": {"prompt_tokens": True}}) == (None, None)
    assert usage_of("no usage here") == (None, None)

    usage = TokenUsage()
    assert usage.data() == {}
    usage.add(None, 4)
    usage.add(None, 5)
    assert usage.data() == {"completion_tokens": 9}
