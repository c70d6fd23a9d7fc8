from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.fakes.redis_server import redis_server


@pytest.fixture(scope="session")
def _redis_session() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture
def redis_url(_redis_session: str) -> str:
    """An empty Redis (real redis-server when installed, else fakeredis over TCP)."""
    client = redis.Redis.from_url(_redis_session)
    client.flushall()
    client.close()
    return _redis_session
