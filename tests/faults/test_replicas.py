"""Two bot processes, one fake Slack, one real Redis: behaving as one bot.

Each question is answered exactly once whichever replica (or both) Slack
delivers it to, a follow-up is recognised by the replica that did not answer
the thread, and a replica SIGKILLed mid-answer leaves the question to Slack's
retry, which the other answers once its lease lapses.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bots.testing.slack_api import FakeSlack
from tests.fakes.redis_server import free_port, redis_server
from tests.slack.conftest import SECRET, envelope, mention, message, sign

redis = pytest.importorskip("redis.asyncio")

ROOT = Path(__file__).resolve().parents[2]
RETRY = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}


@dataclass
class Replica:
    proc: asyncio.subprocess.Process
    url: str

    async def deliver(
        self, session: aiohttp.ClientSession, event: dict, event_id: str, retry: bool = False
    ) -> int:
        body = json.dumps(envelope(event, event_id))
        headers = {"Content-Type": "application/json", **sign(body), **(RETRY if retry else {})}
        async with session.post(self.url, data=body, headers=headers) as response:
            return response.status


async def start_replica(env: dict[str, str], tmp: Path, name: str) -> Replica:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.faults.replica", str(port),
        env=env | {"CITEBOT_DATA_DIR": str(tmp / name)},
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    async with asyncio.timeout(60):
        line = await proc.stdout.readline()
    if line.strip() != b"ready":
        raise AssertionError((await proc.stderr.read()).decode()[-3000:])
    return Replica(proc, f"http://127.0.0.1:{port}/slack/events")


@dataclass
class Pair:
    fake: FakeSlack
    a: Replica
    b: Replica
    redis: object
    session: aiohttp.ClientSession


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[Pair]:
    fake = await FakeSlack().start()
    with redis_server() as url:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEBOT_", "SLACK_"))}
        env |= {
            "CITEBOT_SLACK__BOT_TOKEN": "xoxb-test",
            "CITEBOT_SLACK__SIGNING_SECRET": SECRET,
            "CITEBOT_SLACK__API_URL": fake.base_url,
            "CITEBOT_SLACK__UPDATE_INTERVAL": "0.2",
            "CITEBOT_SLACK__MODE": "http",
            "CITEBOT_OPS__REDIS_URL": url,
            "CITEBOT_OPS__LEASE_TTL": "1",
            "CITEBOT_OPS__METRICS_PORT": "0",
        }
        a, b = await asyncio.gather(
            start_replica(env | {"REPLICA_HANGS": "1"}, tmp_path, "a"),
            start_replica(env, tmp_path, "b"),
        )
        client = redis.Redis.from_url(url)
        session = aiohttp.ClientSession()
        try:
            yield Pair(fake, a, b, client, session)
        finally:
            await session.close()
            await client.aclose()
            for replica in (a, b):
                if replica.proc.returncode is None:
                    replica.proc.terminate()
                await replica.proc.wait()
            await fake.close()


def finished(fake: FakeSlack, thread_ts: str) -> int:
    return sum(
        1
        for c in fake.called("chat.stopStream")
        if fake.messages[c.params["ts"]].thread_ts == thread_ts
    )


async def test_each_question_once_across_two_replicas(pair: Pair):
    questions = [f"20.{i:03d}" for i in range(20)]
    deliveries = []
    for n, ts in enumerate(questions):
        event = mention(f"question {n}", ts=ts)
        first, second = (pair.a, pair.b) if n % 2 else (pair.b, pair.a)
        # the same delivery to both, and a retry with the same event id to the other
        deliveries += [
            first.deliver(pair.session, event, f"Ev{ts}"),
            second.deliver(pair.session, event, f"Ev{ts}"),
            second.deliver(pair.session, event, f"Ev{ts}", retry=True),
        ]
    assert set(await asyncio.gather(*deliveries)) == {200}
    await pair.fake.wait_for(lambda f: all(finished(f, ts) for ts in questions), within=60)
    # every claim is marked done in Redis (just after its reply): no second answer can start
    keys = [f"citebot:slack:msg:C111:{ts}" for ts in questions]
    async with asyncio.timeout(10):
        while set(await pair.redis.mget(keys)) != {b"done"}:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    assert [finished(pair.fake, ts) for ts in questions] == [1] * len(questions)
    assert len(pair.fake.called("chat.startStream")) == len(questions)


async def test_a_follow_up_is_recognised_by_the_other_replica(pair: Pair):
    await pair.a.deliver(pair.session, mention("first", ts="30.0"), "EvF1")
    await pair.fake.wait_for(lambda f: finished(f, "30.0") == 1)
    follow_up = message("and then?", ts="30.5", thread_ts="30.0", parent_user_id="U222")
    assert await pair.b.deliver(pair.session, follow_up, "EvF2") == 200
    await pair.fake.wait_for(lambda f: finished(f, "30.0") == 2)


async def test_killed_mid_answer_then_slack_retry_answered_once(pair: Pair):
    event = mention("hang on a moment", ts="40.0")
    assert await pair.a.deliver(pair.session, event, "EvKILL") == 200
    key = "citebot:slack:msg:C111:40.0"
    async with asyncio.timeout(30):
        while await pair.redis.get(key) is None:  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # replica a has not claimed it yet
    assert await pair.redis.get(key) != b"done"  # a live lease, not an answer
    pair.a.proc.send_signal(signal.SIGKILL)
    await pair.a.proc.wait()
    # the dead replica's lease lapses (1 s); waiting on Redis, bounded
    async with asyncio.timeout(10):
        while await pair.redis.exists(key, "citebot:slack:event:EvKILL"):  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # polling Redis for the expiry, not a sleep for work
    assert await pair.b.deliver(pair.session, event, "EvKILL", retry=True) == 200
    await pair.fake.wait_for(lambda f: finished(f, "40.0") == 1, within=30)
    async with asyncio.timeout(10):
        while await pair.redis.get(key) != b"done":  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # marked done just after the reply is posted
    assert finished(pair.fake, "40.0") == 1
