"""The import direction of DESIGN.md: bots → pipeline → citations, bots → connectors.

connectors may use pipeline's ports and settings (they implement them) and citations'
model; citations imports no other layer and no SDK.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("bots", "pipeline", "citations", "connectors")

ALLOWED: dict[str, set[str]] = {
    "citations": {"citations"},
    "pipeline": {"pipeline", "citations"},
    "connectors": {"connectors", "citations", "pipeline.ports", "pipeline.config"},
    "bots": {"bots", "pipeline", "citations", "connectors"},
}
CITATIONS_MAY_IMPORT = {"rapidfuzz"}


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _allowed(layer: str, name: str) -> bool:
    top = name.split(".")[0]
    if top not in LAYERS:
        return True
    return any(name == rule or name.startswith(rule + ".") for rule in ALLOWED[layer])


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_only_go_down(layer: str) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for name in _imports(path)
        if not _allowed(layer, name)
    ]
    assert wrong == []


def test_citations_is_pure() -> None:
    import sys

    stdlib = sys.stdlib_module_names
    impure = {"os", "io", "socket", "subprocess", "pathlib", "shutil", "tempfile", "urllib.request"}
    wrong = []
    for path in sorted((ROOT / "citations").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for name in _imports(path):
            top = name.split(".")[0]
            if name in impure or top in impure:
                wrong.append(f"{path.name}: I/O module {name}")
            elif top not in stdlib and top not in LAYERS and top not in CITATIONS_MAY_IMPORT:
                wrong.append(f"{path.name}: third-party {name}")
        if "open(" in source:
            wrong.append(f"{path.name}: open(")
    assert wrong == []
