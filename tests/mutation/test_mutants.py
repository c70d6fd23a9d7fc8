"""The mutation tool's mutants are real, compilable, one-change variants of the module."""

from __future__ import annotations

import ast

import pytest

from tests.mutation.__main__ import Result, score
from tests.mutation.mutants import function_lines, mutants

SOURCE = '''
"""Docstring: never mutated."""
import logging

log = logging.getLogger(__name__)


def decide(best: float, web: bool) -> str:
    """Also not mutated."""
    if best > 0.7 and not web:
        return "kb"
    log.info("falling back: %s", best)
    total = best + 1
    notify(total)
    return "web"
'''


def test_each_mutant_changes_one_thing_and_compiles() -> None:
    found = list(mutants(SOURCE))
    descriptions = {m.description for m in found}
    assert {
        "> → >=",
        "and → or",
        "not x → x",
        "0.7 → 0.77",
        "+ → -",
        "call dropped",
    } <= descriptions
    assert "return x → return None" in descriptions
    original = ast.dump(ast.parse(SOURCE))
    for mutant in found:
        compile(mutant.source, "<mutant>", "exec")
        assert ast.dump(ast.parse(mutant.source)) != original, mutant.description


def test_docstrings_and_log_messages_are_left_alone() -> None:
    strings = [m for m in mutants(SOURCE) if "XX" in m.description or "→ 'XX" in m.description]
    mutated = {m.source_line for m in strings}
    assert 'return "kb"' in mutated
    assert not any("Docstring" in line or "log.info" in line for line in mutated)


def test_lines_narrow_the_sites() -> None:
    lines = {m.line for m in mutants(SOURCE, range(10, 11))}
    assert lines == {10}


def test_functions_narrow_the_sites_to_their_bodies() -> None:
    lines = function_lines(SOURCE, ["decide"])
    assert lines == set(range(8, 16))
    assert {m.line for m in mutants(SOURCE, lines)} <= lines
    with pytest.raises(ValueError, match="no function named nowhere"):
        function_lines(SOURCE, ["decide", "nowhere"])


def test_score_counts_timeouts_as_killed_and_skips_equivalents() -> None:
    results = [
        Result(1, "a", "x", "killed"),
        Result(2, "b", "y", "timeout"),
        Result(3, "c", "z", "survived"),
        Result(4, "d", "w", "equivalent", "no observable change"),
    ]
    assert score(results) == (2, 3, 200 / 3)
