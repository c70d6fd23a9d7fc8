"""Rate limits: a token bucket per user and per channel, and a daily cap per workspace.

:class:`MemoryLimiter` holds one process's counts. :class:`RedisLimiter` keeps
them in Redis, so the limits hold across replicas; one Lua script checks every
bucket and the cap and takes a token from each only when all of them allow it,
atomically. Both answer the same question, :meth:`Limiter.check`: ``None``
means go ahead, a :class:`Refusal` carries a polite message and the wait.

A broken Redis never stops answers: the check fails open and logs why, since a
missed limit costs a few tokens while a refusal for everyone costs the bot.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, Protocol

from bots.core.dedupe import REDIS_TIMEOUT
from bots.ops import metrics
from pipeline.question import Question, Trigger

if TYPE_CHECKING:
    from bots.settings import Settings
    from bots.settings.sections import LimitSettings

__all__ = [
    "Limit",
    "Limiter",
    "MemoryLimiter",
    "RedisLimiter",
    "Refusal",
    "build_limiter",
    "human_wait",
]

log = logging.getLogger("citebot.limits")

Limit = Literal["user", "channel", "auto_reply", "daily"]

#: Local questions (``citebot ask`` and ``citebot chat``, the console) are the operator's own.
UNLIMITED_PLATFORMS = frozenset({"cli", "console"})


@dataclass(frozen=True, slots=True)
class Refusal:
    limit: Limit
    retry_after: float
    message: str


class Limiter(Protocol):
    async def check(self, question: Question) -> Refusal | None: ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True, slots=True)
class _Bucket:
    limit: Limit
    key: str
    rate: float  # tokens per second
    burst: int


@dataclass(frozen=True, slots=True)
class _Rules:
    buckets: tuple[_Bucket, ...]
    daily_key: str | None
    daily_cap: int
    resets_in: float  # seconds to the next UTC midnight


def human_wait(seconds: float) -> str:
    seconds = max(1, math.ceil(seconds))
    if seconds <= 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 90:
        return f"{minutes} minutes"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _message(limit: Limit, wait: float, cap: int) -> str:
    when = human_wait(wait)
    if limit == "user":
        return f"You're asking faster than I can keep up. Please wait {when} and ask again."
    if limit == "channel":
        return f"This channel has asked a lot in a short time. Please try again in {when}."
    if limit == "auto_reply":  # auto-replies over the limit stay silent; this is for the log
        return f"Auto-replies in this channel paused for {when}."
    return (
        f"This workspace has reached its daily limit of {cap:,} questions. "
        f"It resets in {when} (midnight UTC)."
    )


def _rules(limits: LimitSettings, question: Question, now: datetime) -> _Rules | None:
    place = question.place
    if place.platform in UNLIMITED_PLATFORMS:
        return None
    workspace = place.workspace or "-"
    buckets = []
    if limits.user_per_minute > 0:
        buckets.append(
            _Bucket(
                "user",
                f"user:{place.platform}:{workspace}:{question.asker}",
                limits.user_per_minute / 60,
                limits.user_burst,
            )
        )
    if limits.channel_per_minute > 0 and place.channel:
        buckets.append(
            _Bucket(
                "channel",
                f"channel:{place.platform}:{workspace}:{place.channel}",
                limits.channel_per_minute / 60,
                limits.channel_burst,
            )
        )
    if (
        question.trigger is Trigger.AUTO_REPLY
        and limits.auto_reply_per_minute > 0
        and place.channel
    ):
        buckets.append(
            _Bucket(
                "auto_reply",
                f"auto:{place.platform}:{workspace}:{place.channel}",
                limits.auto_reply_per_minute / 60,
                limits.auto_reply_burst,
            )
        )
    midnight = datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
    daily_key = None
    if limits.daily_cap > 0:
        daily_key = f"daily:{place.platform}:{workspace}:{now:%Y%m%d}"
    if not buckets and daily_key is None:
        return None
    return _Rules(tuple(buckets), daily_key, limits.daily_cap, (midnight - now).total_seconds())


class MemoryLimiter:
    """Counts in this process only: right for one replica, or for Socket Mode and Discord."""

    #: Above this many buckets, full (idle) ones are forgotten.
    PRUNE_AT = 10_000

    def __init__(self, limits: LimitSettings, *, clock: Any = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._days: dict[str, int] = {}

    async def check(self, question: Question) -> Refusal | None:
        rules = _rules(self.limits, question, datetime.now(UTC))
        if rules is None:
            return None
        now = self._clock()
        if rules.daily_key is not None and self._days.get(rules.daily_key, 0) >= rules.daily_cap:
            return self._refuse(question, "daily", rules.resets_in, rules.daily_cap)
        levels: list[float] = []
        worst: tuple[float, Limit] | None = None
        for bucket in rules.buckets:
            tokens, updated = self._buckets.get(bucket.key, (float(bucket.burst), now))
            tokens = min(bucket.burst, tokens + (now - updated) * bucket.rate)
            levels.append(tokens)
            if tokens < 1:
                wait = (1 - tokens) / bucket.rate
                if worst is None or wait > worst[0]:
                    worst = (wait, bucket.limit)
        if worst is not None:
            return self._refuse(question, worst[1], worst[0], rules.daily_cap)
        for bucket, tokens in zip(rules.buckets, levels, strict=True):
            self._buckets[bucket.key] = (tokens - 1, now)
        if rules.daily_key is not None:
            if rules.daily_key not in self._days:
                self._days = {k: v for k, v in self._days.items() if k[-8:] == rules.daily_key[-8:]}
            self._days[rules.daily_key] = self._days.get(rules.daily_key, 0) + 1
        if len(self._buckets) > self.PRUNE_AT:
            self._prune(now)
        return None

    def _refuse(self, question: Question, limit: Limit, wait: float, cap: int) -> Refusal:
        metrics.rate_limited(question.place.platform, limit)
        return Refusal(limit, wait, _message(limit, wait, cap))

    def _prune(self, now: float) -> None:
        # A bucket that has refilled is indistinguishable from one never used.
        limits = self.limits
        refills = {
            kind: burst * 60 / per_minute if per_minute > 0 else 0.0
            for kind, per_minute, burst in (
                ("user", limits.user_per_minute, limits.user_burst),
                ("channel", limits.channel_per_minute, limits.channel_burst),
                ("auto", limits.auto_reply_per_minute, limits.auto_reply_burst),
            )
        }
        self._buckets = {
            k: v
            for k, v in self._buckets.items()
            if now - v[1] < refills.get(k.partition(":")[0], 0.0)
        }

    async def aclose(self) -> None:
        return None


# KEYS: bucket keys..., then the daily key when ARGV[1] == "1".
# ARGV: has_daily, daily_cap, daily_ttl_ms, then rate (tokens/ms) and burst per bucket.
# Returns {index of the refusing key or 0, wait in ms as a string}.
_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local has_daily = ARGV[1] == '1'
local nb = #KEYS
if has_daily then
  nb = nb - 1
  local used = tonumber(redis.call('GET', KEYS[#KEYS]) or '0')
  if used >= tonumber(ARGV[2]) then
    return {#KEYS, '0'}
  end
end
local levels = {}
local worst_i, worst_wait = 0, 0
for i = 1, nb do
  local rate = tonumber(ARGV[2 + 2 * i])
  local burst = tonumber(ARGV[3 + 2 * i])
  local state = redis.call('HMGET', KEYS[i], 'tokens', 'ts')
  local tokens = tonumber(state[1]) or burst
  local ts = tonumber(state[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
  levels[i] = tokens
  if tokens < 1 then
    local wait = (1 - tokens) / rate
    if wait > worst_wait then
      worst_i, worst_wait = i, wait
    end
  end
end
if worst_i > 0 then
  return {worst_i, tostring(worst_wait)}
end
for i = 1, nb do
  local rate = tonumber(ARGV[2 + 2 * i])
  local burst = tonumber(ARGV[3 + 2 * i])
  redis.call('HSET', KEYS[i], 'tokens', tostring(levels[i] - 1), 'ts', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst / rate) + 1000)
end
if has_daily then
  redis.call('INCR', KEYS[#KEYS])
  redis.call('PEXPIRE', KEYS[#KEYS], ARGV[3])
end
return {0, '0'}
"""


#: seconds questions go unlimited after Redis failed, before it is asked again
REDIS_RETRY_AFTER = 5.0


class RedisLimiter:
    """Counts in Redis, shared by every replica that uses the same ``redis_url``."""

    PREFIX = "citebot:limit:"

    def __init__(self, limits: LimitSettings, redis_url: str, *, client: Any = None) -> None:
        import redis.asyncio as aioredis

        self.limits = limits
        self._redis = (
            client
            if client is not None
            else aioredis.Redis.from_url(
                redis_url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
            )
        )
        self._sha: str | None = None
        self._warned_at = 0.0
        #: after a failure, questions go unlimited for a while rather than each wait on Redis
        self._down_until = 0.0

    async def check(self, question: Question) -> Refusal | None:
        rules = _rules(self.limits, question, datetime.now(UTC))
        if rules is None:
            return None
        keys = [self.PREFIX + b.key for b in rules.buckets]
        args: list[Any] = ["1" if rules.daily_key else "0", rules.daily_cap, 0]
        if rules.daily_key is not None:
            keys.append(self.PREFIX + rules.daily_key)
            args[2] = (
                math.ceil(rules.resets_in * 1000) + 3_600_000
            )  # an hour's grace for clock skew
        for bucket in rules.buckets:
            args += [repr(bucket.rate / 1000), bucket.burst]
        if time.monotonic() < self._down_until:
            return None
        try:
            index, wait_ms = await self._run(keys, args)
        except Exception as exc:  # Redis down or misconfigured: answer rather than refuse all
            self._down_until = time.monotonic() + REDIS_RETRY_AFTER
            metrics.error("redis")
            if time.monotonic() - self._warned_at > 60:
                self._warned_at = time.monotonic()
                log.warning("rate limits not applied: Redis failed: %s", exc)
            return None
        index = int(index)
        if index == 0:
            return None
        if rules.daily_key is not None and index == len(keys):
            limit: Limit = "daily"
            wait = rules.resets_in
        else:
            limit = rules.buckets[index - 1].limit
            wait = float(wait_ms) / 1000
        metrics.rate_limited(question.place.platform, limit)
        return Refusal(limit, wait, _message(limit, wait, rules.daily_cap))

    async def _run(self, keys: list[str], args: list[Any]) -> Any:
        from redis.exceptions import NoScriptError

        # Load first rather than try EVALSHA blind: a failed EVALSHA costs a round trip
        # on every fresh server, and some RESP servers drop the connection on it.
        if self._sha is None:
            self._sha = await self._redis.script_load(_LUA)
        try:
            return await self._redis.evalsha(self._sha, len(keys), *keys, *args)
        except NoScriptError:  # the server restarted and forgot its scripts
            self._sha = await self._redis.script_load(_LUA)
            return await self._redis.evalsha(self._sha, len(keys), *keys, *args)

    async def aclose(self) -> None:
        await self._redis.aclose()


def build_limiter(settings: Settings) -> MemoryLimiter | RedisLimiter:
    """The limiter for these settings: Redis-backed when ``ops.redis_url`` is set."""
    url = settings.ops.redis_url
    if url is not None:
        return RedisLimiter(settings.limits, url.get_secret_value())
    return MemoryLimiter(settings.limits)
