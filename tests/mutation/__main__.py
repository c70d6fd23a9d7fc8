"""Mutation testing: ``uv run python -m tests.mutation citations/quotes.py [--tests …]``.

Each mutant is a copy of the module with one small bug (see ``mutants.py``). The
module's tests run against it in a scratch copy of the project; a mutant the tests
do not fail is a *survivor*: a behaviour no test states. Equivalent mutants (that
change nothing observable) are listed with a reason in ``equivalent.toml`` and left
out of the score. The score is killed / (mutants - equivalent).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Container, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from tests.mutation.mutants import Mutant, function_lines, mutants

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
COPIED = ("bots", "pipeline", "citations", "connectors", "tests", "examples", "pyproject.toml")


@dataclass(frozen=True, slots=True)
class Result:
    line: int
    description: str
    source_line: str
    status: str  # killed | survived | timeout | equivalent
    reason: str = ""


def targets() -> dict[str, list[str]]:
    """The default tests for each module (``targets.toml``)."""
    data = tomllib.loads((HERE / "targets.toml").read_text(encoding="utf-8"))
    return {module: list(entry["tests"]) for module, entry in data["module"].items()}


def equivalents(module: str) -> dict[tuple[str, str], str]:
    """Known equivalent mutants of ``module``: (source line, description) → reason."""
    data = tomllib.loads((HERE / "equivalent.toml").read_text(encoding="utf-8"))
    return {
        (entry["source_line"], entry["mutation"]): entry["reason"]
        for entry in data.get("equivalent", [])
        if entry["module"] == module
    }


def _scratch() -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="citebot-mutation-"))
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(
                src, scratch / name, ignore=shutil.ignore_patterns("__pycache__", ".cache")
            )
        elif src.exists():
            shutil.copy2(src, scratch / name)
    return scratch


def _env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    # the scratch copy comes before the editable install on sys.path; no stale bytecode
    env["PYTHONPATH"] = str(scratch)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTEST_ADDOPTS", None)
    return env


def _pytest(scratch: Path, tests: Sequence[str], timeout: float) -> str:
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-p", "no:randomly", "--no-header", *tests]  # fmt: skip
    try:
        result = subprocess.run(command, cwd=scratch, env=_env(scratch), capture_output=True,
                                timeout=timeout, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if result.returncode == 0 else "killed"


_PROJECT = ("bots", "pipeline", "citations", "connectors", "tests", "examples")


def _forked_pytest(scratch: Path, tests: Sequence[str], timeout: float) -> str:
    """``_pytest`` in a fork of this process, which has the libraries imported already.

    Only the project's own modules are imported again (from ``scratch``), so a
    mutant costs its tests' run time instead of a fresh interpreter's start-up.
    """
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            _forget_project()
            os.chdir(scratch)
            sys.path.insert(0, str(scratch))
            import pytest

            code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                                    "--no-header", *tests]))  # fmt: skip
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)  # polling a child process, not waiting for work in a test


def _forget_project() -> None:
    for name in [n for n in sys.modules if n.split(".")[0] in _PROJECT]:
        del sys.modules[name]
    importlib.invalidate_caches()


def _preload(scratch: Path, tests: Sequence[str]) -> None:
    """Import what the tests import (third-party libraries stay; the project is re-imported)."""
    os.environ.update({"PYTHONDONTWRITEBYTECODE": "1"})
    sys.dont_write_bytecode = True
    pid = os.getpid()
    import pytest

    cwd = Path.cwd()
    _forget_project()
    sys.path.insert(0, str(scratch))
    os.chdir(scratch)
    try:
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *tests])
    finally:
        os.chdir(cwd)
        sys.path.remove(str(scratch))
    assert os.getpid() == pid


def _check_isolated(scratch: Path, module: str) -> None:
    dotted = module.removesuffix(".py").replace("/", ".")
    probe = f"import {dotted} as m; print(m.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=scratch, env=_env(scratch),
                         capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    if not out.startswith(str(scratch)):
        raise SystemExit(
            f"the scratch copy is not what gets imported ({out}); cannot mutate safely"
        )


def run(
    module: str, tests: Sequence[str], lines: Container[int] | None, jobs: int, fork: bool = False
) -> list[Result]:
    source = (ROOT / module).read_text(encoding="utf-8")
    todo = list(mutants(source, lines))
    known = equivalents(module)
    if fork:
        jobs = 1
    scratches = [_scratch() for _ in range(jobs)]
    pytest_run = _pytest
    try:
        for scratch in scratches:
            _check_isolated(scratch, module)
        if fork:
            _preload(scratches[0], tests)
            pytest_run = _forked_pytest
        baseline = time.monotonic()
        if pytest_run(scratches[0], tests, timeout=900) != "survived":
            raise SystemExit(f"the tests fail without any mutant: {' '.join(tests)}")
        timeout = max(10.0, 3 * (time.monotonic() - baseline))
        print(f"{module}: {len(todo)} mutants, tests {' '.join(tests)}, timeout {timeout:.0f} s",
              file=sys.stderr)  # fmt: skip

        def one(index: int, mutant: Mutant) -> Result:
            reason = known.get((mutant.source_line, mutant.description))
            if reason is not None:
                return Result(
                    mutant.line, mutant.description, mutant.source_line, "equivalent", reason
                )
            scratch = scratches[index % jobs]
            target = scratch / module
            target.write_text(mutant.source, encoding="utf-8")
            try:
                status = pytest_run(scratch, tests, timeout)
            finally:
                target.write_text(source, encoding="utf-8")
            mark = {"killed": ".", "timeout": "T", "survived": "S"}[status]
            print(mark, end="", file=sys.stderr, flush=True)
            return Result(mutant.line, mutant.description, mutant.source_line, status)

        # each worker owns one scratch copy, so mutants of the same copy never overlap
        buckets: list[list[tuple[int, Mutant]]] = [[] for _ in range(jobs)]
        for index, mutant in enumerate(todo):
            buckets[index % jobs].append((index, mutant))
        with ThreadPoolExecutor(jobs) as pool:
            done = pool.map(lambda bucket: [one(i, m) for i, m in bucket], buckets)
            results = sorted((r for part in done for r in part), key=lambda r: r.line)
        print(file=sys.stderr)
        return results
    finally:
        for scratch in scratches:
            shutil.rmtree(scratch, ignore_errors=True)


def score(results: Sequence[Result]) -> tuple[int, int, float]:
    counted = [r for r in results if r.status != "equivalent"]
    killed = sum(r.status in ("killed", "timeout") for r in counted)
    return killed, len(counted), (100.0 * killed / len(counted) if counted else 100.0)


def _lines(text: str | None) -> set[int] | None:
    """``120-260`` or a list of lines and ranges, ``88-89,95,120-130``."""
    if not text:
        return None
    lines: set[int] = set()
    for part in text.split(","):
        start, _, end = part.strip().partition("-")
        lines.update(range(int(start), int(end or start) + 1))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("module", help="a module path, e.g. citations/quotes.py")
    parser.add_argument("--tests", nargs="+", help="test paths (default: targets.toml)")
    parser.add_argument("--lines", help="only mutate these lines, e.g. 120-260 or 88-89,95")
    parser.add_argument("--functions", nargs="+",
                        help="only mutate these functions or methods, e.g. decide check")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--fork", action="store_true",
                        help="import the libraries once and fork per mutant (much faster; --jobs 1)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--fail-under", type=float, default=0.0, help="exit 1 below this score")
    args = parser.parse_args(argv)
    module = args.module.removeprefix("./")
    tests = args.tests or targets().get(module)
    if not tests:
        parser.error(
            f"no tests for {module}: pass --tests or add it to tests/mutation/targets.toml"
        )
    functions = args.functions or targets_functions().get(module)
    lines: Container[int] | None = _lines(args.lines)
    if lines is None and functions:
        source = (ROOT / module).read_text(encoding="utf-8")
        try:
            lines = function_lines(source, functions)
        except ValueError as exc:
            parser.error(f"{module}: {exc}")
    if lines is None:
        lines = _lines(targets_lines().get(module))
    # property tests draw the same few examples for every mutant (tests/citations/profiles.py)
    os.environ.setdefault("CITEBOT_HYPOTHESIS", "mutation")
    results = run(module, tests, lines, max(1, args.jobs), fork=args.fork)
    killed, counted, percent = score(results)
    if args.json:
        print(json.dumps({"module": module, "killed": killed, "counted": counted,
                          "score": round(percent, 1), "results": [asdict(r) for r in results]},
                         indent=2))  # fmt: skip
    else:
        equivalent = sum(r.status == "equivalent" for r in results)
        print(f"{module}: {percent:.1f}% ({killed} killed of {counted}; {equivalent} equivalent)")
        for r in results:
            if r.status == "survived":
                print(f"  survived  line {r.line}: {r.description}    {r.source_line}")
    return 1 if percent < args.fail_under else 0


def targets_lines() -> dict[str, str]:
    """Line ranges that ``targets.toml`` narrows a module to (a workflow's steps, say)."""
    data = tomllib.loads((HERE / "targets.toml").read_text(encoding="utf-8"))
    return {module: entry["lines"] for module, entry in data["module"].items() if "lines" in entry}


def targets_functions() -> dict[str, list[str]]:
    """Functions that ``targets.toml`` narrows a module to (robust to edits elsewhere)."""
    data = tomllib.loads((HERE / "targets.toml").read_text(encoding="utf-8"))
    return {
        module: list(entry["functions"])
        for module, entry in data["module"].items()
        if "functions" in entry
    }


if __name__ == "__main__":
    raise SystemExit(main())
