"""One summary line per measured target, so a run of every benchmark can be read at a glance.

Each benchmark calls :func:`summary` before it asserts, so a missed target still reports its
line. Lines start with ``SUMMARY |`` on stdout and, when ``BENCH_SUMMARY`` names a file, are
appended to it too (``bench-all.sh`` collects them there, whatever pytest does with output).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence


def spread(values: Sequence[float], unit: str = "ms", digits: int = 1) -> str:
    """``min / median / max unit`` of a sample."""
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{low:.{digits}f} / {mid:.{digits}f} / {high:.{digits}f} {unit}"


def summary(
    name: str,
    figure: str,
    baseline: str,
    ratio: float | None,
    target: str,
    met: bool,
    *,
    faster: bool = False,
) -> None:
    """Report one target: what was measured, its same-run baseline, their ratio, the target.

    ``ratio`` is the baseline's time over ours when ``faster`` (how many times faster), else
    ours over the baseline's (what the work costs next to it).
    """
    shown = "-" if ratio is None else f"{ratio:.2f}x {'faster' if faster else 'of baseline'}"
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    line = (
        f"SUMMARY | {name} | {figure} | {baseline} | {shown} | {target} | "
        f"{'met' if met else 'NOT MET'} | load {load}"
    )
    print("\n" + line, flush=True)
    path = os.environ.get("BENCH_SUMMARY")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
