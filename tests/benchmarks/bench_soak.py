"""Soak: 1000 questions through Slack's HTTP path, with retries and duplicates.

Each citebot runs as its own process: the real Bolt app behind citebot's aiohttp
server, the real runtime (dedupe, limits, thread queue, metrics), and an
answerer that streams from a fake OpenAI-compatible server through the real
``openai`` client. The fake LLM takes 0.2–2 s per call and fails every call for
5 % of the questions. The fake Slack Web API records what users would see.

Deliveries are what Slack really sends: each mention once, plus for some a
retry (same ``event_id``, ``X-Slack-Retry-Num``), the ``message`` event of the
same post, or an exact duplicate racing the first. The second run starts two
citebot processes sharing one Redis and splits the deliveries between them, a
retry always going to the *other* process.

Reported: answered exactly once, visible errors for the failed 5 %, lost,
duplicated, ack p50/p99 (and the baseline: the same deliveries' acks while no
answer is in flight), and each process's RSS after warm-up and at the end.

    uv run pytest tests/benchmarks/bench_soak.py -m benchmark -s
    SOAK_QUESTIONS=200 uv run pytest tests/benchmarks/bench_soak.py -m benchmark -s   # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import pytest
from aiohttp import web

from bots.testing.slack_api import BOT_USER, TEAM, FakeSlack
from citations.model import CitedAnswer
from pipeline.events import AnswerDelta, Done, Progress, Route, Status
from pipeline.question import Question
from tests.benchmarks.summary import summary
from tests.fakes.openai_server import FakeOpenAI, _error, prompt_of
from tests.fakes.redis_server import free_port, redis_server

ROOT = Path(__file__).resolve().parents[2]
N = int(os.environ.get("SOAK_QUESTIONS", "1000"))
RATE = float(os.environ.get("SOAK_RATE", "40"))  # new questions per second
SECRET = "soak-signing-secret"
FAIL_SHARE = 0.05
RETRY_SHARE, PAIR_SHARE, DUPLICATE_SHARE = 0.15, 0.15, 0.05
CHANNELS = 25
OK_TEXT = "The answer is 42"
ERROR_TEXT = "something went wrong"
QID = re.compile(r"q\d{5}")


# -- the fake LLM: slow and sometimes down ------------------------------------


class SlowFlakyLLM(FakeOpenAI):
    def __init__(self, failing: set[str], seed: int) -> None:
        super().__init__(chunk_chars=6)
        self.failing = failing
        self.rng = random.Random(seed)
        self.default = f"{OK_TEXT}, as the guide says."

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        prompt = prompt_of(await request.json())
        await asyncio.sleep(self.rng.uniform(0.2, 2.0))
        found = QID.search(prompt)
        if found and found.group() in self.failing:
            return _error(500, "the fake LLM is down for this question", "server_error")
        return await super()._chat(request)


# -- one citebot process ------------------------------------------------------


class LLMAnswerer:
    """Streams one completion from an OpenAI-compatible server (the real ``openai`` client)."""

    def __init__(self, base_url: str) -> None:
        from openai import AsyncOpenAI

        self.client = AsyncOpenAI(base_url=base_url, api_key="soak", max_retries=1, timeout=30)

    async def stream(self, question: Question) -> AsyncIterator[Progress]:
        yield Status("Thinking…", "generate")
        parts: list[str] = []
        stream = await self.client.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": question.text}], stream=True
        )
        async for chunk in stream:
            piece = chunk.choices[0].delta.content if chunk.choices else None
            if piece:
                parts.append(piece)
                yield AnswerDelta(piece)
        yield Done(CitedAnswer.empty("".join(parts)), Route.KNOWLEDGE_BASE, question=question.text)


async def serve_bot(args: argparse.Namespace) -> None:
    from bots.core.dedupe import build_dedupe
    from bots.core.feedback import FeedbackStore
    from bots.core.limits import build_limiter
    from bots.core.runtime import Runtime
    from bots.ops.server import add_routes
    from bots.platforms.slack.bot import SlackBot
    from bots.platforms.slack.server import web_app
    from bots.settings import load_settings

    ops: dict[str, Any] = {"metrics_port": 0, "log_level": "WARNING"}
    if args.redis_url:
        ops["redis_url"] = args.redis_url
    if args.lease_ttl:
        ops["lease_ttl"] = args.lease_ttl
    settings = load_settings(
        data_dir=args.data_dir,
        slack={
            "bot_token": "xoxb-soak",
            "signing_secret": SECRET,
            "api_url": args.slack_url,
            "mode": "http",
        },
        ops=ops,
        # generous limits: the soak measures delivery, but the limiter still runs on every question
        limits={
            "user_per_minute": 600,
            "user_burst": 20,
            "channel_per_minute": 6000,
            "channel_burst": 500,
        },
    )
    runtime = Runtime(
        settings,
        answerer=LLMAnswerer(args.llm_url),
        feedback=FeedbackStore(Path(args.data_dir) / "feedback.sqlite3"),
        dedupe=build_dedupe(settings),
        limiter=build_limiter(settings),
    )
    app = add_routes(web_app(SlackBot(runtime)), settings, probes={})
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", args.port).start()
    print("READY", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await runner.cleanup()


# -- the load -----------------------------------------------------------------


@dataclass
class Delivery:
    at: float
    question: int
    kind: str  # mention | retry | pair | duplicate
    target: int  # which process
    event_id: str
    event: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


def ts_of(i: int) -> str:
    return f"{1_700_000_000 + i}.000100"


def channel_of(i: int) -> str:
    return f"C{i % CHANNELS:03d}"


def plan(n: int, processes: int, seed: int, rate: float = RATE) -> list[Delivery]:
    rng = random.Random(seed)
    out: list[Delivery] = []
    t = 0.0
    for i in range(n):
        t += rng.expovariate(rate)
        ts, channel = ts_of(i), channel_of(i)
        first = i % processes
        other = (first + 1) % processes
        base = {"user": f"U{i:05d}", "ts": ts, "channel": channel, "team": TEAM, "event_ts": ts}
        mention = {
            "type": "app_mention",
            "text": f"<@{BOT_USER}> q{i:05d}: where is the answer?",
            **base,
        }
        out.append(Delivery(t, i, "mention", first, f"Ev{i:05d}", mention))
        roll = rng.random()
        if roll < RETRY_SHARE:
            retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
            out.append(
                Delivery(
                    t + rng.uniform(0.05, 3.0), i, "retry", other, f"Ev{i:05d}", mention, retry
                )
            )
        elif roll < RETRY_SHARE + PAIR_SHARE:
            message = {
                "type": "message",
                "channel_type": "channel",
                **{k: v for k, v in mention.items() if k != "type"},
            }
            out.append(
                Delivery(
                    t + rng.uniform(0.0, 0.2),
                    i,
                    "pair",
                    rng.randrange(processes),
                    f"Ev{i:05d}m",
                    message,
                )
            )
        elif roll < RETRY_SHARE + PAIR_SHARE + DUPLICATE_SHARE:
            out.append(Delivery(t, i, "duplicate", other, f"Ev{i:05d}", mention))
    out.sort(key=lambda d: d.at)
    return out


def envelope(d: Delivery) -> str:
    return json.dumps(
        {
            "token": "legacy",
            "team_id": TEAM,
            "api_app_id": "A111",
            "type": "event_callback",
            "event_id": d.event_id,
            "event_time": 1_700_000_000,
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
            "event": d.event,
        }
    )


def signed(body: str) -> dict[str, str]:
    from slack_sdk.signature import SignatureVerifier

    ts = str(int(time.time()))
    return {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": SignatureVerifier(SECRET).generate_signature(timestamp=ts, body=body),
    }


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Report:
    processes: int
    questions: int
    deliveries: int
    answered_once: int = 0
    errors_visible: int = 0
    failed_expected: int = 0
    lost: int = 0
    duplicated: int = 0
    wrong_kind: int = 0
    ack_ms: list[float] = field(default_factory=list)
    non_200: int = 0
    rss_warm: list[float] = field(default_factory=list)
    rss_end: list[float] = field(default_factory=list)
    runtime_questions: float = 0.0
    dedupe_refusals: str = ""
    seconds: float = 0.0

    def lines(self) -> list[str]:
        p50, p99 = percentile(self.ack_ms, 50), percentile(self.ack_ms, 99)
        return [
            f"processes={self.processes} questions={self.questions} deliveries={self.deliveries} in {self.seconds:.0f}s",
            f"answered exactly once={self.answered_once} visible errors={self.errors_visible}/{self.failed_expected} expected "
            f"lost={self.lost} duplicated={self.duplicated} wrong outcome={self.wrong_kind}",
            f"ack p50={p50:.1f} ms p99={p99:.1f} ms max={max(self.ack_ms):.1f} ms non-200={self.non_200}",
            "RSS after warm-up="
            + ", ".join(f"{r:.0f}" for r in self.rss_warm)
            + " MiB; at end="
            + ", ".join(f"{r:.0f}" for r in self.rss_end)
            + " MiB; change="
            + ", ".join(
                f"{(e - w) / w:+.1%}" for w, e in zip(self.rss_warm, self.rss_end, strict=True)
            ),
            f"runtime saw {self.runtime_questions:.0f} questions (citebot_questions_total over all processes, "
            f"incl. {3 * self.processes} warm-up)",
        ]


async def start_bots(
    processes: int,
    fake: FakeSlack,
    llm: FakeOpenAI,
    tmp: Path,
    redis_url: str | None,
    lease_ttl: float | None = None,
) -> list[tuple[asyncio.subprocess.Process, str]]:
    bots: list[tuple[asyncio.subprocess.Process, str]] = []
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEBOT_", "SLACK_"))}
    tmp.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240  (set-up, before any load)
    for n in range(processes):
        port = free_port()
        args = [
            sys.executable, "-m", "tests.benchmarks.bench_soak", "serve",
            "--port", str(port), "--slack-url", fake.base_url, "--llm-url", llm.base_url,
            "--data-dir", str(tmp / f"data{n}" if redis_url is None else tmp / "data"),
        ]  # fmt: skip
        if redis_url:
            args += ["--redis-url", redis_url]
        if lease_ttl:
            args += ["--lease-ttl", str(lease_ttl)]
        proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            # SOAK_LOGS=1 keeps each process's log in its data dir's parent, for a post-mortem
            stderr=(tmp / f"bot{n}.log").open("wb")
            if os.environ.get("SOAK_LOGS")
            else asyncio.subprocess.DEVNULL,
        )
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 120)
        assert line.strip() == b"READY", line
        bots.append((proc, f"http://127.0.0.1:{port}"))
    return bots


async def warm_up(
    session: aiohttp.ClientSession, bots: list[tuple[Any, str]], fake: FakeSlack
) -> None:
    """First requests pay for imports, auth.test and connection pools; keep them out of the figures."""
    for n, (_, base) in enumerate(bots):
        for k in range(3):
            ts = f"{1_600_000_000 + 10 * n + k}.000100"
            event = {"type": "app_mention", "text": f"<@{BOT_USER}> warm-up", "user": "UWARM", "ts": ts,
                     "channel": "CWARM", "team": TEAM, "event_ts": ts}  # fmt: skip
            body = envelope(Delivery(0, -1, "mention", n, f"EvWarm{n}{k}", event))
            async with session.post(
                base + "/slack/events", data=body.encode(), headers=signed(body)
            ) as resp:
                assert resp.status == 200
            await fake.wait_for(
                lambda f, ts=ts: [m for m in f.in_thread("CWARM", ts) if not m.streaming], within=60
            )


async def soak(processes: int, tmp: Path, redis_url: str | None = None, seed: int = 7) -> Report:
    rng = random.Random(seed)
    failing = {f"q{i:05d}" for i in rng.sample(range(N), round(N * FAIL_SHARE))}
    deliveries = plan(N, processes, seed)
    report = Report(processes, N, len(deliveries), failed_expected=len(failing))
    fake = await FakeSlack().start()
    llm = SlowFlakyLLM(failing, seed).start()
    bots = await start_bots(processes, fake, llm, tmp, redis_url)
    connector = aiohttp.TCPConnector(limit=0)
    session = aiohttp.ClientSession(connector=connector)
    loop = asyncio.get_running_loop()
    warmed = asyncio.Event()
    warm_at = max(1, N // 10)

    def finished(f: FakeSlack) -> int:
        return sum(
            1
            for m in f.messages.values()
            if m.thread_ts and m.channel != "CWARM" and not m.streaming and (m.text or m.markdown)
        )

    async def send(d: Delivery) -> None:
        await asyncio.sleep(max(0.0, d.at - (loop.time() - t0)))
        body = envelope(d)
        started = loop.time()
        url = bots[d.target][1] + "/slack/events"
        async with session.post(
            url, data=body.encode(), headers={**signed(body), **d.headers}
        ) as resp:
            await resp.read()
            if resp.status != 200:
                report.non_200 += 1
        report.ack_ms.append((loop.time() - started) * 1000)

    async def watch_warmup() -> None:
        await fake.wait_for(lambda f: finished(f) >= warm_at, within=600)
        report.rss_warm = [rss_mib(p.pid) for p, _ in bots]
        warmed.set()

    try:
        await warm_up(session, bots, fake)
        t0 = loop.time()
        watcher = asyncio.create_task(watch_warmup())
        await asyncio.gather(*(send(d) for d in deliveries))
        await fake.wait_for(lambda f: finished(f) >= N, within=600)
        await watcher
        # Anything late would be a duplicate: wait until the fake has been quiet for 3 s.
        quiet_since, seen = loop.time(), len(fake.calls)
        while loop.time() - quiet_since < 3:
            await asyncio.sleep(0.25)  # a quiescence check, not waiting for work
            if len(fake.calls) != seen:
                quiet_since, seen = loop.time(), len(fake.calls)
        report.seconds = loop.time() - t0
        report.rss_end = [rss_mib(p.pid) for p, _ in bots]
        for _, base in bots:
            async with session.get(base + "/metrics") as resp:
                text = await resp.text()
            report.runtime_questions += sum(
                float(line.rsplit(" ", 1)[1])
                for line in text.splitlines()
                if line.startswith("citebot_questions_total{")
            )
        for i in range(N):
            replies = [m for m in fake.in_thread(channel_of(i), ts_of(i)) if m.text or m.markdown]
            if not replies:
                report.lost += 1
                continue
            if len(replies) > 1:
                report.duplicated += 1
                continue
            shown = replies[0].text + replies[0].markdown + json.dumps(replies[0].blocks)
            if f"q{i:05d}" in failing:
                report.errors_visible += ERROR_TEXT in shown
                report.wrong_kind += ERROR_TEXT not in shown
            else:
                report.answered_once += OK_TEXT in shown
                report.wrong_kind += OK_TEXT not in shown
    finally:
        await session.close()
        for proc, _ in bots:
            proc.terminate()
            await proc.wait()
        llm.stop()
        await fake.close()
    return report


async def baseline_acks(tmp: Path) -> list[float]:
    """Ack times for 200 mentions to an idle bot whose LLM answers at once: the floor."""
    fake = await FakeSlack().start()
    llm = FakeOpenAI()
    llm.default = OK_TEXT
    llm.start()
    bots = await start_bots(1, fake, llm, tmp / "baseline", None)
    acks: list[float] = []
    try:
        async with aiohttp.ClientSession() as session:
            for d in plan(200, 1, seed=1):
                if d.kind != "mention":
                    continue
                body = envelope(d)
                started = time.perf_counter()
                async with session.post(
                    bots[0][1] + "/slack/events", data=body.encode(), headers=signed(body)
                ) as resp:
                    await resp.read()
                acks.append((time.perf_counter() - started) * 1000)
                await fake.wait_for(
                    lambda f, d=d: f.in_thread(d.event["channel"], d.event["ts"]), within=30
                )
    finally:
        for proc, _ in bots:
            proc.terminate()
            await proc.wait()
        llm.stop()
        await fake.close()
    return acks


class Outcomes(Protocol):
    """What a soak run counted of its answers (``Report`` here, ``Run`` for the replicas)."""

    questions: int
    answered_once: int
    errors_visible: int
    failed_expected: int
    lost: int
    duplicated: int
    wrong_kind: int
    non_200: int


def delivery_problems(run: Outcomes) -> list[str]:
    """What a run missed of every question answered exactly once, errors visible."""
    found = [
        f"{name}={value}"
        for name, value in (
            ("lost", run.lost),
            ("duplicated", run.duplicated),
            ("wrong outcome", run.wrong_kind),
            ("non-200", run.non_200),
        )
        if value
    ]
    if run.answered_once != run.questions - run.failed_expected:
        found.append(f"answered once {run.answered_once}")
    if run.errors_visible != run.failed_expected:
        found.append(f"visible errors {run.errors_visible}/{run.failed_expected}")
    return found


def problems(report: Report) -> list[str]:
    """What the soak's exactly-once, visible-errors and steady-memory targets missed."""
    found = delivery_problems(report)
    if report.runtime_questions != report.questions + 3 * report.processes:  # + the warm-up
        found.append(f"runtime saw {report.runtime_questions:.0f} questions")
    for warm, end in zip(report.rss_warm, report.rss_end, strict=True):
        if abs(end - warm) / warm > 0.10:
            found.append(f"RSS moved from {warm:.0f} to {end:.0f} MiB")
    return found


def summarise(name: str, report: Report, floor: list[float]) -> None:
    missed = problems(report)
    p99 = percentile(report.ack_ms, 99)
    summary(
        name,
        f"{report.answered_once}+{report.errors_visible} errors/{report.questions} once, "
        f"lost {report.lost}, dup {report.duplicated}, ack p99 {p99:.1f} ms"
        + (f" ({'; '.join(missed)})" if missed else ""),
        f"idle bot ack p99 {percentile(floor, 99):.1f} ms",
        p99 / percentile(floor, 99),
        "exactly once, errors visible, RSS within 10%",
        not missed,
    )


def check(report: Report) -> None:
    assert not problems(report), report.lines()


@pytest.mark.benchmark
@pytest.mark.timeout(1800)
async def test_soak_one_process_then_two_sharing_redis(tmp_path: Path) -> None:
    floor = await baseline_acks(tmp_path)
    print(
        f"\nbaseline (idle bot, sequential): ack p50={percentile(floor, 50):.1f} ms p99={percentile(floor, 99):.1f} ms"
    )

    one = await soak(1, tmp_path / "one")
    print("\n[one process]\n  " + "\n  ".join(one.lines()))
    print(f"  ack p99 / baseline p99 = {percentile(one.ack_ms, 99) / percentile(floor, 99):.1f}x")
    with redis_server() as url:
        two = await soak(2, tmp_path / "two", redis_url=url)
    print("\n[two processes, one Redis]\n  " + "\n  ".join(two.lines()))
    print(f"  ack p99 / baseline p99 = {percentile(two.ack_ms, 99) / percentile(floor, 99):.1f}x")
    summarise(f"soak, {N} questions, one process", one, floor)
    summarise(f"soak, {N} questions, two processes + Redis", two, floor)
    check(one)
    check(two)


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench_soak")
    sub = parser.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="run one citebot process for the soak")
    serve.add_argument("--port", type=int, required=True)
    serve.add_argument("--slack-url", required=True)
    serve.add_argument("--llm-url", required=True)
    serve.add_argument("--data-dir", required=True)
    serve.add_argument("--redis-url")
    serve.add_argument("--lease-ttl", type=float)
    args = parser.parse_args()
    profile_to = os.environ.get(
        "SOAK_PROFILE"
    )  # a path: where each bot process dumps cProfile stats
    if not profile_to:
        asyncio.run(serve_bot(args))
        return
    import cProfile

    with cProfile.Profile() as profiler:
        asyncio.run(serve_bot(args))
    profiler.dump_stats(f"{profile_to}.{os.getpid()}")


if __name__ == "__main__":
    main()
