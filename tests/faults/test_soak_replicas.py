"""The replica soak, bounded: 30 questions over two replicas and one Redis, one SIGKILLed.

The full run (200 questions, a baseline, figures) is
``tests/benchmarks/bench_soak_replicas.py``; this is the same driver, small enough
for every run of the suite.
"""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.bench_soak_replicas import check, soak
from tests.fakes.redis_server import redis_server


async def test_thirty_questions_two_replicas_one_sigkilled_each_answered_once(
    tmp_path: Path,
) -> None:
    with redis_server() as url:
        run = await soak(tmp_path, url, n=30, kill=True)
    print("\n".join(run.lines()))
    check(run)  # lost 0, duplicated 0, every failure visible, every ack 200
    assert run.rerouted > 0, "deliveries for the dead replica went to the survivor"
    assert run.rss_end[0] == 0.0 and run.rss_end[1] > 0, "replica 0 really died"
