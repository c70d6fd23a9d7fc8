"""Soak across two replicas sharing one real ``redis-server``, one of them SIGKILLed mid-run.

Each replica is a citebot process as in :mod:`tests.benchmarks.bench_soak` (real Bolt
behind citebot's aiohttp server, the real runtime, an answerer streaming from a slow,
sometimes failing fake OpenAI server through the real ``openai`` client), with a
short lease. The deliveries are Slack's: each mention, plus for some a retry, the
``message`` event of the same post or an exact duplicate, spread over both replicas, at
10 new questions a second (``SOAK_RATE``).

When half the questions have been sent, replica 0 is SIGKILLed. From then on:

- a delivery meant for it, or cut off by the kill, gets no ack, so Slack retries it, and
  the load balancer in front of the replicas sends the retries to the survivor;
- a question it had acked but not answered is retried to the survivor the same way.

Slack's retries come at once, after 1 min and after 5 min; here at once, then 2 s after
the lease (5 s, ``SOAK_LEASE``) and after three leases, until the question is answered
(the default lease, 30 s, is shorter than Slack's 1 min too). The first retry usually
finds the dead replica's lease still held and is dropped; a later one answers. Slack
itself does not retry a delivery that was acked: the report counts those questions
apart ("acked then killed"), because outside this soak they depend on a retry that
Slack does not send.

Reported, for the run with the kill and for a baseline run of the same plan without
it (interleaved rounds, ``SOAK_ROUNDS``): answered exactly once, lost, duplicated
(more than one finished answer in a thread), partial messages left by the dead
replica, ack p50/p99, first-answer latency p50/p99 (first delivery → first message
in the thread), and each replica's RSS at start (after a warm-up), middle (just before
the kill) and end.

    uv run --frozen --all-extras pytest tests/benchmarks/bench_soak_replicas.py -m benchmark -s
    SOAK_QUESTIONS=1000 SOAK_ROUNDS=3 uv run … (longer)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from bots.testing.slack_api import FakeSlack
from tests.benchmarks.bench_soak import (
    ERROR_TEXT,
    FAIL_SHARE,
    OK_TEXT,
    Delivery,
    SlowFlakyLLM,
    channel_of,
    delivery_problems,
    envelope,
    percentile,
    plan,
    rss_mib,
    signed,
    start_bots,
    ts_of,
    warm_up,
)
from tests.benchmarks.summary import summary
from tests.fakes.redis_server import kind, redis_server

N = int(os.environ.get("SOAK_QUESTIONS", "200"))
ROUNDS = int(os.environ.get("SOAK_ROUNDS", "1"))
RATE = float(os.environ.get("SOAK_RATE", "10"))  # new questions per second
LEASE_TTL = float(os.environ.get("SOAK_LEASE", "5"))
#: Slack retries at once, after 1 min and after 5 min: compressed, the later two past the lease
SLACK_RETRIES = (0.2, LEASE_TTL + 2, 3 * LEASE_TTL + 2)
ANSWERS = ("chat.startStream", "chat.postMessage")
RETRY = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error"}


@dataclass
class Run:
    questions: int
    killed: bool
    deliveries: int = 0
    answered_once: int = 0
    errors_visible: int = 0
    failed_expected: int = 0
    lost: int = 0
    duplicated: int = 0
    wrong_kind: int = 0
    partial: int = 0  # streams the dead replica started and never finished
    rerouted: int = 0  # deliveries for the dead replica sent to the survivor
    acked_then_killed: int = 0  # questions the dead replica acked and never answered
    slack_retries: int = 0
    non_200: int = 0
    ack_ms: list[float] = field(default_factory=list)
    first_answer_ms: list[float] = field(default_factory=list)
    rss_start: list[float] = field(default_factory=list)
    rss_middle: list[float] = field(default_factory=list)
    rss_end: list[float] = field(default_factory=list)
    seconds: float = 0.0
    lost_ids: list[int] = field(default_factory=list)
    trail: dict[int, list[str]] = field(default_factory=dict)  # deliveries per question

    def lines(self) -> list[str]:
        def mib(values: list[float]) -> str:
            return "/".join(f"{v:.0f}" for v in values)

        return [
            f"{'kill' if self.killed else 'baseline'}: {self.questions} questions, "
            f"{self.deliveries} deliveries in {self.seconds:.1f} s",
            f"  answered exactly once={self.answered_once} visible errors={self.errors_visible}/"
            f"{self.failed_expected} lost={self.lost} duplicated={self.duplicated} "
            f"wrong outcome={self.wrong_kind} partial left by the dead replica={self.partial}"
            + "".join(f"\n  lost q{i}: {self.trail.get(i)}" for i in self.lost_ids),
            f"  rerouted to the survivor={self.rerouted} acked then killed={self.acked_then_killed}"
            f" Slack retries after the kill={self.slack_retries} non-200={self.non_200}",
            f"  ack p50={percentile(self.ack_ms, 50):.1f} ms p99={percentile(self.ack_ms, 99):.1f}"
            f" ms max={max(self.ack_ms):.1f} ms",
            f"  first answer p50={percentile(self.first_answer_ms, 50):.0f} ms "
            f"p99={percentile(self.first_answer_ms, 99):.0f} ms "
            f"max={max(self.first_answer_ms):.0f} ms",
            f"  RSS MiB (replica 0/1) start={mib(self.rss_start)} middle={mib(self.rss_middle)} "
            f"end={mib(self.rss_end)}",
        ]


def finished_in(fake: FakeSlack, i: int) -> list[str]:
    """The finished answers in question ``i``'s thread, as shown."""
    return [
        m.visible_text
        for m in fake.in_thread(channel_of(i), ts_of(i))
        if not m.streaming and (m.text or m.markdown)
    ]


async def soak(tmp: Path, redis_url: str, *, n: int = N, kill: bool = True, seed: int = 7) -> Run:
    rng = random.Random(seed)
    failing = {f"q{i:05d}" for i in rng.sample(range(n), round(n * FAIL_SHARE))}
    deliveries = plan(n, 2, seed, RATE)
    run = Run(n, kill, len(deliveries), failed_expected=len(failing))
    fake = await FakeSlack().start()
    llm = SlowFlakyLLM(failing, seed).start()
    bots = await start_bots(2, fake, llm, tmp, redis_url, lease_ttl=LEASE_TTL)
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    loop = asyncio.get_running_loop()
    dead = asyncio.Event()
    first_sent: dict[int, float] = {}
    acked_by_dead: set[int] = set()
    retries: list[asyncio.Task[None]] = []
    acked_late: set[int] = set()  # acked by replica 0, unanswered when it died
    killed = asyncio.Event()
    mentions = {d.question: d for d in deliveries if d.kind == "mention"}

    def done(f: FakeSlack) -> int:
        return sum(1 for i in range(n) if finished_in(f, i))

    async def post(target: int, d: Delivery, headers: dict[str, str]) -> int:
        body = envelope(d)
        started = loop.time()
        run.trail.setdefault(d.question, []).append(
            f"{started - t0:.2f}s {d.kind} {d.event_id} -> {target} {headers.get('X-Slack-Retry-Num', '')}"
        )
        url = bots[target][1] + "/slack/events"
        async with session.post(url, data=body.encode(), headers={**signed(body), **headers}) as r:
            await r.read()
        run.ack_ms.append((loop.time() - started) * 1000)
        if r.status != 200:
            run.non_200 += 1
        return r.status

    def reroute(d: Delivery) -> None:
        """Slack saw no ack from the dead replica: its retries go to the survivor."""
        run.rerouted += 1
        retries.append(asyncio.create_task(slack_retries(d)))

    async def send(d: Delivery) -> None:
        await asyncio.sleep(max(0.0, d.at - (loop.time() - t0)))
        if d.kind == "mention":
            first_sent[d.question] = loop.time()
        if d.target == 0 and dead.is_set():
            reroute(d)
            return
        try:
            await post(d.target, d, d.headers)
        except aiohttp.ClientError:
            if not (d.target == 0 and dead.is_set()):
                raise
            reroute(d)  # cut off by the kill
            return
        if d.target == 0:
            acked_by_dead.add(d.question)
            if dead.is_set():  # acked in the moment before the kill: retried as below
                acked_late.add(d.question)
                retries.append(asyncio.create_task(slack_retries(mentions[d.question])))

    async def slack_retries(d: Delivery) -> None:
        """Slack's retries of ``d`` to the survivor (at once, then later), until answered."""
        await killed.wait()
        since = loop.time()
        for at in SLACK_RETRIES:
            with contextlib.suppress(TimeoutError):
                await fake.wait_for(
                    lambda f: finished_in(f, d.question),
                    within=max(0.001, since + at - loop.time()),
                )
                return
            run.slack_retries += 1
            await post(1, d, {**d.headers, **RETRY})

    async def sigkill_in_the_middle() -> None:
        nonlocal killed_at
        middle = next(d.at for d in deliveries if d.question == n // 2)
        await asyncio.sleep(max(0.0, middle - (loop.time() - t0)))
        run.rss_middle = [rss_mib(p.pid) for p, _ in bots]
        dead.set()  # before the signal: a delivery it cuts off must find the replica dead
        bots[0][0].send_signal(signal.SIGKILL)
        await bots[0][0].wait()
        killed_at = loop.time()
        killed.set()
        # what replica 0 acked but had not answered: Slack's retries go to the survivor
        unanswered = {i for i in acked_by_dead if not finished_in(fake, i)} - acked_late
        acked_late.update(unanswered)
        retries.extend(asyncio.create_task(slack_retries(mentions[i])) for i in unanswered)

    killed_at = 0.0
    try:
        await warm_up(session, bots, fake)
        run.rss_start = [rss_mib(p.pid) for p, _ in bots]
        t0 = loop.time()
        killer = asyncio.create_task(sigkill_in_the_middle()) if kill else None
        await asyncio.gather(*(send(d) for d in deliveries))
        if killer is not None:
            await killer
        if not kill:
            run.rss_middle = list(run.rss_start)
        with contextlib.suppress(TimeoutError):  # what is still missing then counts as lost
            await fake.wait_for(lambda f: done(f) >= n, within=60 + n)
        await asyncio.gather(*retries)
        run.acked_then_killed = len(acked_late)
        await quiet(fake, loop.time)
        run.seconds = loop.time() - t0
        run.rss_end = [rss_mib(p.pid) if p.returncode is None else 0.0 for p, _ in bots]
        score(run, fake, failing, first_sent)
    finally:
        await session.close()
        for proc, _ in bots:
            if proc.returncode is None:
                proc.terminate()
            await proc.wait()
        llm.stop()
        await fake.close()
    return run


async def quiet(fake: FakeSlack, clock: Callable[[], float], seconds: float = 3.0) -> None:
    """Anything late would be a duplicate: wait until the fake has had no call for ``seconds``."""
    since, seen = clock(), len(fake.calls)
    while clock() - since < seconds:
        await asyncio.sleep(0.25)  # a quiescence check, not a wait for work
        if len(fake.calls) != seen:
            since, seen = clock(), len(fake.calls)


def score(run: Run, fake: FakeSlack, failing: set[str], first_sent: dict[int, float]) -> None:
    for i in range(run.questions):
        thread = fake.in_thread(channel_of(i), ts_of(i))
        run.partial += sum(1 for m in thread if m.streaming)
        answers = finished_in(fake, i)
        if not answers:
            run.lost += 1
            run.lost_ids.append(i)
            continue
        first = min(
            c.at
            for c in fake.calls
            if c.method in ANSWERS and c.params.get("thread_ts") == ts_of(i)
        )
        run.first_answer_ms.append((first - first_sent[i]) * 1000)
        if len(answers) > 1:
            run.duplicated += 1
            continue
        if f"q{i:05d}" in failing:
            run.errors_visible += ERROR_TEXT in answers[0]
            run.wrong_kind += ERROR_TEXT not in answers[0]
        else:
            run.answered_once += OK_TEXT in answers[0]
            run.wrong_kind += OK_TEXT not in answers[0]


def problems(run: Run) -> list[str]:
    """What a run missed of exactly-once with visible errors (and, killed, a fault tried)."""
    found = delivery_problems(run)
    if run.killed and run.rerouted + run.acked_then_killed == 0:
        found.append("the kill hit nothing: no fault tried")
    return found


def check(run: Run) -> None:
    assert not problems(run), run.lines()


def spread(values: list[float]) -> str:
    return f"min={min(values):.1f} median={statistics.median(values):.1f} max={max(values):.1f}"


async def rounds(
    tmp: Path, go: Callable[[Path, str, bool], Awaitable[Run]], count: int
) -> tuple[list[Run], list[Run]]:
    """Interleaved rounds, baseline first in each: (baselines, killed)."""
    baselines: list[Run] = []
    killed: list[Run] = []
    for r in range(count):
        with redis_server() as url:
            baselines.append(await go(tmp / f"base{r}", url, False))
        with redis_server() as url:
            killed.append(await go(tmp / f"kill{r}", url, True))
    return baselines, killed


@pytest.mark.benchmark
@pytest.mark.timeout(3600)
async def test_two_replicas_one_killed_mid_run(tmp_path: Path) -> None:
    async def go(tmp: Path, url: str, kill: bool) -> Run:
        return await soak(tmp, url, kill=kill)

    baselines, killed = await rounds(tmp_path, go, ROUNDS)
    print(f"\n[two replicas, one {kind()}, lease {LEASE_TTL:g} s, {ROUNDS} round(s)]")
    for base, kill in zip(baselines, killed, strict=True):
        print("\n".join(base.lines() + kill.lines()))
    for name, of in (
        ("ack p99 ms", lambda r: percentile(r.ack_ms, 99)),
        ("first answer p50 ms", lambda r: percentile(r.first_answer_ms, 50)),
        ("first answer p99 ms", lambda r: percentile(r.first_answer_ms, 99)),
    ):
        base, kill = [of(r) for r in baselines], [of(r) for r in killed]
        ratio = statistics.median(kill) / statistics.median(base)
        print(f"{name}: baseline {spread(base)}; kill {spread(kill)}; kill/baseline={ratio:.2f}x")
    missed = [p for run in baselines + killed for p in problems(run)]
    base_p99 = statistics.median(percentile(r.ack_ms, 99) for r in baselines)
    kill_p99 = statistics.median(percentile(r.ack_ms, 99) for r in killed)
    summary(
        f"soak, two replicas, one killed, {N} questions x {ROUNDS}",
        f"{sum(r.answered_once for r in killed)}+{sum(r.errors_visible for r in killed)} errors"
        f"/{sum(r.questions for r in killed)} once, lost {sum(r.lost for r in killed)}, "
        f"dup {sum(r.duplicated for r in killed)}, ack p99 {kill_p99:.1f} ms"
        + (f" ({'; '.join(missed)})" if missed else ""),
        f"same plan without the kill: ack p99 {base_p99:.1f} ms",
        kill_p99 / base_p99,
        "exactly once, errors visible",
        not missed,
    )
    for run in baselines + killed:
        check(run)
        survivor = run.rss_end[1]
        assert abs(survivor - run.rss_start[1]) / run.rss_start[1] <= 0.15, run.lines()
    print(json.dumps({"questions": N, "rounds": ROUNDS}))
