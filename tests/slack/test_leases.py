"""Exactly once when Redis or the process fails: leases, the in-process fallback, 5xx retries."""

from __future__ import annotations

import pytest

from bots.core.dedupe import Dedupe, MemoryBackend, RedisBackend
from bots.ops import metrics
from tests.fakes.redis_server import free_port, redis_server
from tests.slack.conftest import mention

pytest.importorskip("redis")

RETRY = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def degraded_count() -> float:
    return metrics.ERRORS.labels("dedupe_degraded")._value.get()


async def test_a_lease_lapses_unless_renewed_and_done_lasts():
    clock = Clock()
    backend = MemoryBackend(clock=clock)
    # two holders on one store: the first stands for a process that dies holding its lease
    dead, dedupe = Dedupe(backend, ttl=600, lease_ttl=30), Dedupe(backend, ttl=600, lease_ttl=30)
    lease = await dead.lease("slack", "msg", "C1", "1.0")
    assert lease is not None
    assert await dedupe.lease("slack", "msg", "C1", "1.0") is None  # held
    clock.now = 29
    assert await lease.renew()
    clock.now = 58  # 29 s after the renewal: still held
    assert await dedupe.lease("slack", "msg", "C1", "1.0") is None
    clock.now = 59.5  # lapsed: the holder died, a retry may answer
    retry = await dedupe.lease("slack", "msg", "C1", "1.0")
    assert retry is not None
    assert not await lease.renew()  # the dead holder's token no longer counts
    await retry.done()
    clock.now = 59.5 + 599
    assert await dedupe.lease("slack", "msg", "C1", "1.0") is None  # done lasts the dedupe ttl
    clock.now = 59.5 + 601
    assert await dedupe.lease("slack", "msg", "C1", "1.0") is not None


async def test_a_stalled_holder_never_answers_its_own_retry_twice():
    """The keeper renews every ttl/3; a loop starved past the lease skips those renewals."""
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock), ttl=600, lease_ttl=2)
    lease = await dedupe.lease("slack", "msg", "C1", "2.0")
    assert lease is not None
    clock.now = 5  # no renewal for 5 s: the stored lease lapsed
    assert await dedupe.lease("slack", "msg", "C1", "2.0") is None, "still answering here"
    await lease.done()
    assert await dedupe.lease("slack", "msg", "C1", "2.0") is None
    clock.now = 5 + 601
    assert await dedupe.lease("slack", "msg", "C1", "2.0") is not None, "done lasts its ttl only"


async def test_held_marks_done_on_success_and_releases_on_failure():
    dedupe = Dedupe(lease_ttl=30)
    lease = await dedupe.lease("k", "ok")
    assert lease is not None
    async with lease.held():
        pass
    assert await dedupe.seen("k", "ok")
    assert await dedupe.lease("k", "ok") is None

    lease = await dedupe.lease("k", "boom")
    assert lease is not None
    with pytest.raises(RuntimeError):
        async with lease.held():
            raise RuntimeError("the answer never reached Slack")
    assert not await dedupe.seen("k", "boom")
    assert await dedupe.lease("k", "boom") is not None  # free for a retry


async def test_release_only_frees_ones_own_lease():
    clock = Clock()
    backend = MemoryBackend(clock=clock)
    assert await backend.claim("k", 10, "mine")
    await backend.release("k", "theirs")
    assert await backend.contains("k")
    await backend.release("k", "mine")
    assert not await backend.contains("k")
    assert backend.stored == 0


async def test_redis_leases_are_shared_and_renewed_by_token():
    with redis_server() as url:
        a, b = (Dedupe(RedisBackend.from_url(url), lease_ttl=30) for _ in range(2))
        try:
            lease = await a.lease("slack", "msg", "C1", "1.0")
            assert lease is not None
            assert await b.lease("slack", "msg", "C1", "1.0") is None
            assert await lease.renew()
            await lease.release()
            other = await b.lease("slack", "msg", "C1", "1.0")
            assert other is not None
            assert not await lease.renew()  # a's token is gone; b holds it now
            await other.done()
            assert await a.seen("slack", "msg", "C1", "1.0")
            assert not a.degraded and not b.degraded
        finally:
            await a.close()
            await b.close()


async def test_redis_down_at_start_one_mention_two_retries_one_answer(make_harness):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    dedupe = Dedupe(RedisBackend.from_url(dead, timeout=1.0))
    before = degraded_count()
    h = await make_harness(dedupe=dedupe)
    try:
        event = mention(ts="7.1")
        statuses = [(await h.event(event, event_id="EvDOWN"))[0]]
        await h.fake.wait_for("chat.stopStream")
        for n in ("1", "2"):
            headers = {**RETRY, "X-Slack-Retry-Num": n}
            statuses.append((await h.event(event, event_id="EvDOWN", headers=headers))[0])
        await h.bot.drain()
        assert statuses == [200, 200, 200]
        assert len(h.answerer.questions) == 1
        assert len(h.fake.called("chat.startStream")) == 1
        assert dedupe.degraded
        assert degraded_count() > before
    finally:
        await dedupe.close()


async def test_redis_dying_mid_run_keeps_answers_once_and_new_ones_coming(make_harness):
    with redis_server() as url:
        dedupe = Dedupe(RedisBackend.from_url(url, timeout=1.0))
        h = await make_harness(dedupe=dedupe)
        try:
            event = mention(ts="7.2")
            await h.event(event, event_id="EvMID")
            await h.fake.wait_for("chat.stopStream")
            await h.bot.drain()
            assert not dedupe.degraded
            url.stop()
            # Slack's retries arrive after the event's own short claim lapsed (new event ids
            # stand in for that): the question's mark in this process still holds
            for n in ("1", "2"):
                await h.event(event, event_id=f"EvMID-{n}", headers=RETRY)
            await h.event(mention("a new question", ts="7.3"))
            await h.fake.wait_for("chat.stopStream", count=2)
            await h.bot.drain()
            assert [q.text for q in h.answerer.questions] == [
                "what is the answer?",
                "a new question",
            ]
            assert dedupe.degraded
        finally:
            await dedupe.close()


async def test_slack_5xx_is_retried_before_the_answer_is_lost(make_harness):
    h = await make_harness()
    h.fake.server_error("chat.startStream", 500, times=2)
    h.fake.server_error("chat.stopStream", 503, times=1)
    await h.event(mention(ts="7.4"))
    await h.fake.wait_for("chat.stopStream", count=2)
    await h.bot.drain()
    assert len(h.fake.called("chat.startStream")) == 3
    streamed = [m for m in h.fake.messages.values() if m.markdown]
    assert len(streamed) == 1
    assert streamed[0].markdown.startswith("The answer is 42")
    assert not streamed[0].streaming


async def test_a_crashed_answer_is_answered_by_the_retry(make_harness):
    """The process died mid-answer: its lease lapses and Slack's retry is answered."""
    clock = Clock()
    dedupe = Dedupe(MemoryBackend(clock=clock), lease_ttl=30)
    h = await make_harness(dedupe=dedupe)
    # what the dead process (its own Dedupe, on the shared store) left behind: a lease
    # nobody renews
    dead = Dedupe(dedupe.backend, lease_ttl=30)
    assert await dead.lease("slack", "msg", "C111", "7.5") is not None
    await h.event(mention(ts="7.5"), event_id="EvCRASH")
    await h.bot.drain()
    assert h.answerer.questions == []  # still held: the first process might yet answer
    clock.now = 31
    await h.event(mention(ts="7.5"), event_id="EvCRASH", headers=RETRY)
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert len(h.answerer.questions) == 1
