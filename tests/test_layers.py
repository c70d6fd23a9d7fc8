"""The import rules of DESIGN.md, stated as import-linter contracts in pyproject.toml.

Layers (bots → connectors → pipeline → citations), connectors importing only
pipeline's ports, config and errors, no SDK or I/O module in citations, and no
import cycle inside any package. What import-linter cannot say (an allow-list of
third-party packages, ``urllib.request`` beside ``urllib.parse``, calls to
``open``) is checked here by hand.
"""

from __future__ import annotations

import ast
import logging
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
CITATIONS_MAY_IMPORT = {"rapidfuzz"}
IO_MODULES = {"urllib.request", "urllib.response", "http.client", "ftplib", "smtplib"}


def test_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    # lint_imports configures logging with disable_existing_loggers, which would silence
    # the citebot loggers for every later test in this process that checks a log line
    loggers = [logging.getLogger(name) for name in logging.root.manager.loggerDict]
    disabled = {logger.name: logger.disabled for logger in loggers}
    try:
        status = lint_imports(str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    finally:
        for logger in loggers:
            logger.disabled = disabled[logger.name]
    report = capsys.readouterr().out
    assert "Contracts: 4 kept, 0 broken." in report, report
    assert status == 0


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_citations_imports_only_the_standard_library_and_rapidfuzz() -> None:
    wrong = []
    for path in sorted((ROOT / "citations").rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if name in IO_MODULES:
                wrong.append(f"{path.name}: I/O module {name}")
            elif top not in sys.stdlib_module_names and top not in {
                "citations",
                *CITATIONS_MAY_IMPORT,
            }:
                wrong.append(f"{path.name}: third-party {name}")
        if "open(" in path.read_text(encoding="utf-8"):
            wrong.append(f"{path.name}: open(")
    assert wrong == []


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every set of modules that import one another in a ring (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in graph.modules:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            ring = [stack.pop()]
            while ring[-1] != module:
                ring.append(stack.pop())
            if len(ring) > 1:
                found.append(sorted(ring))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_between_any_two_modules() -> None:
    # import-linter's acyclic contract compares siblings; a command module importing the
    # package that imports every command is a ring it does not see, so look at every module
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    graph = grimp.build_graph("bots", "pipeline", "citations", "connectors")
    assert _cycles(graph) == []
