"""A full ``citebot ingest`` of real Markdown docs: today's path against this one, same run.

The corpus is the development set's documentation (``tests/devset/docs``, Starlette's
docs under BSD-3), copied ``BENCH_COPIES`` times (default 3) under different folder
names so that the model, not start-up, dominates. Each round runs, in turn, in a fresh
data dir, as a child process:

- ``today``: ``citebot ingest`` as it was before this work (main at ``BASELINE``,
  extracted with ``git archive`` and put first on ``PYTHONPATH``, same virtualenv);
- ``lossless``: this tree with ``embeddings.quantized=false`` (the bundled model as
  shipped; no padding, cores used one call each, stages overlapped);
- ``int8``: this tree's defaults (the int8 model built from the bundled weights);
- ``two-tier``: ``embeddings.documents=minilm-static`` (store vectors from the static
  model distilled from MiniLM).

Wall and CPU seconds (the child's own, from ``wait4``) are reported min/median/max,
with chunks/s, CPU s/chunk, and the ratio of medians to ``today``. The machine is
shared, so the ratio is the figure. Caches (int8 model, static table) are built once
before the rounds, and their one-off cost is printed. Run with::

    uv run --frozen --all-extras pytest tests/benchmarks/bench_ingest_cli.py -m benchmark -s -p no:cacheprovider
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.benchmark, pytest.mark.timeout(3600)]

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "73a836e"  # main just before the int8 model and the overlapped ingest
CORPUS = Path(os.environ.get("BENCH_DOCS", ROOT / "tests" / "devset" / "docs"))
COPIES = int(os.environ.get("BENCH_COPIES", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CASES: dict[str, dict[str, str]] = {
    "today": {},
    "lossless": {"CITEBOT_EMBEDDINGS__QUANTIZED": "false"},
    "int8": {},
    "two-tier": {"CITEBOT_EMBEDDINGS__DOCUMENTS": "minilm-static"},
}
CLI = "from bots.cli import main; main()"


def _run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CLI, *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    assert child.returncode == 0, output[-2000:]
    return wall, usage.ru_utime + usage.ru_stime, output


def _stats(values: list[float]) -> str:
    return f"{min(values):7.2f} {statistics.median(values):7.2f} {max(values):7.2f}"


def test_full_ingest_against_todays_path(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS} (set BENCH_DOCS)")
    corpus = tmp_path / "corpus"
    for copy in range(COPIES):
        shutil.copytree(CORPUS, corpus / f"copy{copy}")
    baseline = tmp_path / "baseline"
    baseline.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASELINE], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive.stdout, check=True)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEBOT_", "PYTHONPATH"))}

    def env(case: str, data: Path) -> dict[str, str]:
        values = {**base_env, **CASES[case], "CITEBOT_DATA_DIR": str(data)}
        values["PYTHONPATH"] = str(baseline if case == "today" else ROOT)
        return values

    # One-off costs: the int8 model and the static table are built at first use.
    for case in ("int8", "two-tier"):
        wall, cpu, _ = _run(["ingest", str(CORPUS)], env(case, tmp_path / f"warm-{case}"), tmp_path)
        print(f"\nfirst use ({case}, caches built if missing): {wall:.1f} s wall, {cpu:.1f} s CPU")

    walls: dict[str, list[float]] = {c: [] for c in CASES}
    cpus: dict[str, list[float]] = {c: [] for c in CASES}
    chunks: dict[str, int] = {}
    for round_ in range(ROUNDS):
        for case in CASES:
            data = tmp_path / f"data-{case}-{round_}"
            wall, cpu, output = _run(["ingest", str(corpus)], env(case, data), tmp_path)
            found = re.search(r"(\d+) chunks written", output)
            assert found, output[-500:]
            chunks[case] = int(found.group(1))
            walls[case].append(wall)
            cpus[case].append(cpu)
            shutil.rmtree(data, ignore_errors=True)

    files = sum(1 for _ in corpus.rglob("*.md"))
    print(f"\n{files} Markdown files, {ROUNDS} interleaved rounds, {os.cpu_count()} cores (shared)")
    print(
        f"{'case':10s} {'chunks':>6s}  wall min/med/max        CPU min/med/max         chunks/s  CPU s/chunk  x wall  x CPU"
    )
    today_wall = statistics.median(walls["today"])
    today_cpu = statistics.median(cpus["today"])
    for case in CASES:
        wall, cpu = statistics.median(walls[case]), statistics.median(cpus[case])
        print(
            f"{case:10s} {chunks[case]:6d}  {_stats(walls[case])}  {_stats(cpus[case])}  "
            f"{chunks[case] / wall:8.1f}  {cpu / chunks[case]:11.4f}  "
            f"{today_wall / wall:6.2f} {today_cpu / cpu:6.2f}"
        )
    print("targets: int8 >= 2.0x wall and CPU; two-tier >= 10x")
