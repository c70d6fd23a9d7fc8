"""The decision trace of one run, and its text form for ``citebot ask --trace``."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from pipeline.events import Decision


class Tracer:
    """Collects ``Decision``s in order; ``timed`` measures a stage."""

    def __init__(self) -> None:
        self.decisions: list[Decision] = []

    def add(self, stage: str, detail: str, *, ms: float = 0.0, **data: Any) -> Decision:
        decision = Decision(stage=stage, detail=detail, ms=round(ms, 3), data=data)
        self.decisions.append(decision)
        return decision

    @contextmanager
    def timed(self) -> Iterator[Clock]:
        clock = Clock()
        yield clock
        clock.stop()

    def freeze(self) -> tuple[Decision, ...]:
        return tuple(self.decisions)


class Clock:
    def __init__(self) -> None:
        self._start = time.perf_counter()
        self._end: float | None = None

    def stop(self) -> None:
        if self._end is None:
            self._end = time.perf_counter()

    @property
    def ms(self) -> float:
        end = self._end if self._end is not None else time.perf_counter()
        return (end - self._start) * 1000


def format_trace(trace: Iterable[Decision]) -> str:
    """One line per decision: time, stage, what was decided, then its data."""
    decisions = list(trace)
    if not decisions:
        return "(no trace)"
    width = max(len(d.stage) for d in decisions)
    total = sum(d.ms for d in decisions)
    lines = []
    for d in decisions:
        line = f"{d.ms:9.1f} ms  {d.stage:<{width}}  {d.detail}"
        if d.data:
            line += "  " + " ".join(f"{k}={_value(v)}" for k, v in d.data.items())
        lines.append(line)
    lines.append(f"{total:9.1f} ms  {'total':<{width}}")
    return "\n".join(lines)


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, (list, tuple)) and all(isinstance(v, float) for v in value):
        return "[" + ", ".join(f"{v:.2f}" for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if (" " in value or not value) else value
    return json.dumps(value, ensure_ascii=False, default=str)
