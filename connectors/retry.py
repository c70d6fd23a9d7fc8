"""When to ask a busy service again: 429 and 5xx, after its ``Retry-After`` or a backoff.

One policy for every outgoing HTTP call of the connectors (the crawler, Tavily):
honour ``Retry-After`` (seconds or an HTTP date, RFC 9110 section 10.2.3), else
back off exponentially; never wait longer than the caller allows, because a
site that asks for an hour is better reported than waited for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Statuses that say "not now" rather than "no"."""


def retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks for, or ``None`` if it is absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


@dataclass(frozen=True, slots=True)
class Backoff:
    """``attempts`` tries in all; waits of ``base * 2**n`` seconds unless the service names one."""

    attempts: int = 3
    base: float = 0.5
    longest: float = 30.0

    def wait(self, attempt: int, asked: float | None) -> float | None:
        """How long to wait before try ``attempt + 1`` (counted from 0); ``None``: give up."""
        if attempt + 1 >= self.attempts:
            return None
        delay = self.base * 2**attempt if asked is None else asked
        return delay if delay <= self.longest else None
