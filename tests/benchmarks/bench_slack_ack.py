"""200 concurrent mentions (plus a redelivery of each) against an answerer that takes 2 s.

Measures how fast the real Bolt app acks over HTTP while answers are in flight, and
checks every question is answered exactly once. The baseline is a bare Bolt
``AsyncApp`` with an empty listener behind the same aiohttp adapter, in the same run.

    uv run pytest tests/benchmarks/bench_slack_ack.py -m benchmark -s
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bots.core.dedupe import Dedupe
from bots.core.runtime import Runtime
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import web_app
from bots.settings import load_settings
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question
from tests.benchmarks.summary import summary
from tests.slack.conftest import ANSWER, SECRET, ScriptedAnswerer, envelope, mention, sign

N = 200
ANSWER_SECONDS = 2.0


IN_FLIGHT = {"now": 0, "peak": 0}


async def slow_answer(question: Question) -> AsyncIterator[Progress]:
    yield Status("Searching the knowledge base…")
    IN_FLIGHT["now"] += 1
    IN_FLIGHT["peak"] = max(IN_FLIGHT["peak"], IN_FLIGHT["now"])
    await asyncio.sleep(ANSWER_SECONDS)  # the fake LLM's latency
    IN_FLIGHT["now"] -= 1
    for piece in ("The answer is 42", "[1]", ". See the FAQ", "[2]", "."):
        yield AnswerDelta(piece)
    yield Done(ANSWER, Route.KNOWLEDGE_BASE)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


RATE = 200.0  # requests per second: all 200 answers are in flight together


def fire(url: str, bodies: list[tuple[str, dict[str, str]]], *, rate: float | None) -> list[float]:
    """Send from a separate thread and loop, so the client does not queue behind the server.

    ``rate`` paces arrivals (open loop); ``None`` sends everything at once.
    """

    async def run() -> list[float]:
        loop = asyncio.get_running_loop()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

            async def one(i: int, body: str, extra: dict[str, str]) -> float:
                if rate:
                    await asyncio.sleep(i / rate)  # the arrival schedule, not a wait for work
                headers = {"Content-Type": "application/json", **sign(body), **extra}
                started = loop.time()
                async with session.post(url, data=body.encode(), headers=headers) as response:
                    await response.read()
                    assert response.status == 200
                return (loop.time() - started) * 1000

            return list(await asyncio.gather(*(one(i, b, h) for i, (b, h) in enumerate(bodies))))

    return asyncio.run(run())


def requests() -> list[tuple[str, dict[str, str]]]:
    bodies = []
    for i in range(N):
        body = json.dumps(envelope(mention(ts=f"{1_800_000_000 + i}.000100"), f"EvB{i:04d}"))
        bodies.append((body, {}))
        bodies.append((body, {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}))
    return bodies


async def serve(app_handler: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app_handler, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"


async def baseline(api_url: str) -> list[float]:
    app = AsyncApp(
        client=AsyncWebClient(token="xoxb-test", base_url=api_url), signing_secret=SECRET
    )

    @app.event("app_mention")
    async def nothing() -> None:
        return None

    async def events(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))

    server = web.Application()
    server.router.add_post("/slack/events", events)
    runner, url = await serve(server)
    try:
        return await asyncio.to_thread(fire, url, requests(), rate=RATE)
    finally:
        await runner.cleanup()


@pytest.fixture
async def remote_slack() -> AsyncIterator[str]:
    """The fake Web API in its own process, as the real one is: its work is not billed to the bot."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bots.testing.slack_api", stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    url = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip()
    yield url
    proc.terminate()
    await proc.wait()


@pytest.mark.benchmark
async def test_ack_latency_and_exactly_once_under_load(remote_slack, tmp_path):
    base = await baseline(remote_slack)

    settings = load_settings(
        data_dir=str(tmp_path),
        slack={
            "bot_token": "xoxb-test",
            "signing_secret": SECRET,
            "api_url": remote_slack,
            "mode": "http",
        },
    )
    answerer = ScriptedAnswerer(slow_answer)
    bot = SlackBot(Runtime(settings, answerer=answerer, dedupe=Dedupe()))
    runner, url = await serve(web_app(bot))
    loop = asyncio.get_running_loop()
    started = loop.time()
    acks = await asyncio.to_thread(fire, url, requests(), rate=RATE)
    await bot.drain()
    total = loop.time() - started
    await runner.cleanup()
    await bot.close()
    async with aiohttp.ClientSession() as session, session.get(remote_slack + "_calls") as r:
        calls = await r.json()

    threads = [c["params"]["thread_ts"] for c in calls if c["method"] == "chat.startStream"]
    stops = [c for c in calls if c["method"] == "chat.stopStream"]
    asked = [q.place.thread for q in answerer.questions]
    duplicates = len(threads) - len(set(threads))
    lost = N - len(set(threads))
    rows = [("baseline (bare Bolt)", base), ("citebot Slack", acks)]
    print(
        f"\n{N} mentions + {N} redeliveries at {RATE:.0f}/s, answers take {ANSWER_SECONDS:.0f} s each"
    )
    print(f"{'':22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, values in rows:
        print(
            f"{name:22} {statistics.median(values):8.1f} {percentile(values, 99):8.1f} {max(values):8.1f}"
        )
    ratio = percentile(acks, 99) / max(percentile(base, 99), 0.001)
    print(f"p99 ratio citebot/baseline: {ratio:.2f}x")
    print(
        f"answered: {len(set(threads))}/{N}, duplicates: {duplicates}, lost: {lost}, "
        f"pipeline runs: {len(asked)}, peak answers in flight: {IN_FLIGHT['peak']}, "
        f"all done in {total:.1f} s"
    )

    p99 = percentile(acks, 99)
    once = len(stops) == N and duplicates == 0 and lost == 0 and len(asked) == N
    summary(
        f"Slack ack, {N} concurrent mentions + redeliveries",
        f"p50 {statistics.median(acks):.1f} / p99 {p99:.1f} ms; answered once "
        f"{len(set(threads)) - duplicates}/{N}",
        f"bare Bolt p99 {percentile(base, 99):.1f} ms",
        ratio,
        "p99 <= 100 ms, each answered exactly once",
        p99 <= 100 and once,
    )
    assert len(stops) == N
    assert duplicates == 0 and lost == 0 and len(asked) == N
    print(
        f"target p99 <= 100 ms: {'met' if p99 <= 100 else 'NOT met'} ({p99:.0f} ms; load avg {os.getloadavg()[0]:.1f})"
    )
    # the hard limit is Slack's: an ack after 3 s is a retry; the 100 ms target depends on the machine
    assert p99 < 3000
