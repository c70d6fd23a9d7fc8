from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, cast

import pytest
import redis

from bots.core.limits import MemoryLimiter, RedisLimiter, Refusal, build_limiter, human_wait
from bots.ops import metrics
from bots.platforms.console import Conversation
from bots.settings import load_settings
from bots.settings.sections import LimitSettings
from pipeline.question import Place, Question, Trigger
from tests.fakes.redis_server import free_port
from tests.fakes.redis_server import kind as redis_kind

if TYPE_CHECKING:
    from bots.core.runtime import Runtime


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def ask(
    user: str = "U1", channel: str = "C1", workspace: str = "T1", platform: str = "slack"
) -> Question:
    return Question(
        "why?",
        asker=user,
        place=Place(platform, workspace, channel, "1.0"),
        trigger=Trigger.MENTION,
    )


def limits(**values: Any) -> LimitSettings:
    base: dict[str, Any] = {
        "user_per_minute": 6,
        "user_burst": 2,
        "channel_per_minute": 600,
        "channel_burst": 100,
    }
    return LimitSettings(**(base | values))


LimiterFactory = Callable[[LimitSettings], Any]


@pytest.fixture(params=["memory", "redis"])
async def make(request: pytest.FixtureRequest) -> AsyncIterator[LimiterFactory]:
    made: list[Any] = []

    def factory(settings: LimitSettings) -> Any:
        if request.param == "memory":
            limiter: Any = MemoryLimiter(settings)
        else:
            limiter = RedisLimiter(settings, request.getfixturevalue("redis_url"))
        made.append(limiter)
        return limiter

    yield factory
    for limiter in made:
        await limiter.aclose()


async def test_user_bucket_allows_a_burst_then_refuses_politely_with_the_wait(
    make: LimiterFactory,
) -> None:
    limiter = make(limits())
    before = (
        metrics.registry.get_sample_value(
            "citebot_rate_limited_total", {"platform": "slack", "limit": "user"}
        )
        or 0
    )
    assert await limiter.check(ask()) is None
    assert await limiter.check(ask()) is None
    refused = await limiter.check(ask())
    assert isinstance(refused, Refusal)
    assert refused.limit == "user"
    assert 9.0 < refused.retry_after <= 10.0  # 6 per minute: one token every 10 s
    assert "Please wait 10 seconds" in refused.message
    # other users are not affected
    assert await limiter.check(ask(user="U2")) is None
    after = metrics.registry.get_sample_value(
        "citebot_rate_limited_total", {"platform": "slack", "limit": "user"}
    )
    assert after == before + 1


async def test_channel_bucket_and_no_token_taken_when_refused(make: LimiterFactory) -> None:
    limiter = make(limits(user_per_minute=60, user_burst=5, channel_per_minute=1, channel_burst=2))
    assert await limiter.check(ask(user="A")) is None
    assert await limiter.check(ask(user="B")) is None
    refused = await limiter.check(ask(user="A"))
    assert refused is not None and refused.limit == "channel"
    assert "This channel" in refused.message and refused.retry_after > 50
    # A was refused by the channel, so A's own bucket still holds 4 tokens: elsewhere they pass
    for i in range(4):
        assert await limiter.check(ask(user="A", channel=f"C{10 + i}")) is None
    refused = await limiter.check(ask(user="A", channel="C99"))
    assert refused is not None and refused.limit == "user"


async def test_daily_cap_per_workspace(make: LimiterFactory) -> None:
    limiter = make(limits(user_per_minute=0, channel_per_minute=0, daily_cap=3))
    for user in ("A", "B", "C"):
        assert await limiter.check(ask(user=user)) is None
    refused = await limiter.check(ask(user="D"))
    assert refused is not None and refused.limit == "daily"
    assert "daily limit of 3 questions" in refused.message and "midnight UTC" in refused.message
    assert 0 < refused.retry_after <= 86400
    assert await limiter.check(ask(user="D", workspace="T2")) is None


async def test_disabled_limits_and_local_questions_are_never_refused(make: LimiterFactory) -> None:
    limiter = make(limits(user_per_minute=0, channel_per_minute=0, daily_cap=0))
    for _ in range(20):
        assert await limiter.check(ask()) is None
    strict = make(limits(user_burst=1, user_per_minute=1))
    for _ in range(5):
        assert await strict.check(ask(platform="cli")) is None


async def test_memory_bucket_refills_with_time() -> None:
    clock = Clock()
    limiter = MemoryLimiter(limits(user_burst=1), clock=clock)
    assert await limiter.check(ask()) is None
    refused = await limiter.check(ask())
    assert refused is not None and refused.retry_after == pytest.approx(10)
    clock.now += 9.9
    assert await limiter.check(ask()) is not None
    clock.now += 0.2
    assert await limiter.check(ask()) is None


async def test_memory_forgets_idle_buckets() -> None:
    clock = Clock()
    limiter = MemoryLimiter(
        limits(user_per_minute=60, user_burst=1, channel_per_minute=0), clock=clock
    )
    limiter.PRUNE_AT = 10
    for i in range(11):
        await limiter.check(ask(user=f"U{i}"))
    clock.now += 5
    await limiter.check(ask(user="late"))
    assert len(limiter._buckets) == 1


async def test_redis_limits_hold_across_replicas(redis_url: str) -> None:
    one = RedisLimiter(limits(user_burst=3), redis_url)
    two = RedisLimiter(limits(user_burst=3), redis_url)
    try:
        results = await asyncio.gather(*(lim.check(ask()) for lim in (one, two) * 4))
        assert sum(r is None for r in results) == 3
        assert all(r.limit == "user" for r in results if r is not None)
    finally:
        await one.aclose()
        await two.aclose()


async def test_redis_bucket_refills(redis_url: str) -> None:
    limiter = RedisLimiter(limits(user_per_minute=600, user_burst=1), redis_url)  # 10 per second
    try:
        assert await limiter.check(ask()) is None
        refused = await limiter.check(ask())
        assert refused is not None and refused.retry_after <= 0.1
        deadline = time.monotonic() + 2
        while await limiter.check(ask()) is not None:
            assert time.monotonic() < deadline, "the bucket never refilled"
            await asyncio.sleep(0.01)
    finally:
        await limiter.aclose()


@pytest.mark.skipif(
    redis_kind() == "fakeredis", reason="fakeredis's TCP server drops the connection on NOSCRIPT"
)
async def test_redis_limiter_reloads_its_script_after_a_restart(redis_url: str) -> None:
    limiter = RedisLimiter(limits(user_burst=2), redis_url)
    admin = redis.Redis.from_url(redis_url)
    try:
        assert await limiter.check(ask()) is None
        admin.script_flush()
        assert await limiter.check(ask()) is None
        refused = await limiter.check(ask())
        assert refused is not None and refused.limit == "user"
    finally:
        admin.close()
        await limiter.aclose()


async def test_redis_down_fails_open(caplog: pytest.LogCaptureFixture) -> None:
    limiter = RedisLimiter(limits(user_burst=1), f"redis://127.0.0.1:{free_port()}/0")
    before = metrics.registry.get_sample_value("citebot_errors_total", {"kind": "redis"}) or 0
    try:
        assert await limiter.check(ask()) is None
        assert await limiter.check(ask()) is None
    finally:
        await limiter.aclose()
    # the second question did not wait on Redis again: it failed a moment ago
    assert (
        metrics.registry.get_sample_value("citebot_errors_total", {"kind": "redis"}) == before + 1
    )
    assert sum("rate limits not applied" in r.message for r in caplog.records) == 1


async def test_a_hung_redis_delays_one_question_not_every_one() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # accepts the connection, never answers

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    limiter = RedisLimiter(limits(user_burst=1), f"redis://127.0.0.1:{port}/0")
    try:
        started = time.monotonic()
        assert await limiter.check(ask()) is None  # fails open once its call times out
        first = time.monotonic() - started
        started = time.monotonic()
        assert await limiter.check(ask()) is None
        second = time.monotonic() - started
    finally:
        await limiter.aclose()
        server.close()
    assert first < 4.0, f"{first:.1f} s: redis-py's own default would wait longer"
    assert second < 0.5, f"{second:.1f} s: every question waited on the hung Redis"


def test_build_limiter_picks_the_backend(redis_url: str) -> None:
    assert isinstance(build_limiter(load_settings()), MemoryLimiter)
    assert isinstance(build_limiter(load_settings(ops={"redis_url": redis_url})), RedisLimiter)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.2, "1 second"),
        (10, "10 seconds"),
        (89.5, "90 seconds"),
        (600, "10 minutes"),
        (3 * 3600 + 120, "3 h 02 min"),
    ],
)
def test_human_wait(seconds: float, text: str) -> None:
    assert human_wait(seconds) == text


async def test_citebot_chat_is_never_limited(make: LimiterFactory) -> None:
    strict = make(limits(user_burst=1, user_per_minute=1))
    # the place every question typed at ``citebot chat`` comes from
    place = Conversation(cast("Runtime", None)).place
    for _ in range(5):
        question = Question("why?", asker="console", place=place, trigger=Trigger.MENTION)
        assert await strict.check(question) is None
