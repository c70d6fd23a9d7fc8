"""The mutations: small, plausible bugs made by rewriting one node of a module's syntax tree."""

from __future__ import annotations

import ast
import copy
from collections.abc import Collection, Container, Iterator
from dataclasses import dataclass

_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
_SYMBOLS = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.And: "and", ast.Or: "or",
}  # fmt: skip
#: calls whose string arguments are messages for people, not behaviour worth a mutant
_QUIET_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutation of one module: where it is, what it does, and the mutated source."""

    line: int
    description: str
    source_line: str
    source: str


class _Sites(ast.NodeVisitor):
    """Collects (node, field path) pairs where a mutation applies, in source order."""

    def __init__(self) -> None:
        self.nodes: list[tuple[ast.AST, str]] = []
        self._quiet: set[int] = set()
        self._docstrings: set[int] = set()

    def visit_Module(self, node: ast.Module) -> None:
        self._mark_docstring(node)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._mark_docstring(node)
        # decorators and bases are wiring, not behaviour a test can state
        for stmt in node.body:
            self.visit(stmt)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._mark_docstring(node)
        # annotations and default values of type-only forms are not run as logic
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
            self.visit(default)
        for stmt in node.body:
            self.visit(stmt)

    def _mark_docstring(
        self, node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    ) -> None:
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self._docstrings.add(id(body[0].value))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _QUIET_CALLS:
            for arg in ast.walk(node):
                self._quiet.add(id(arg))
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Compare(self, node: ast.Compare) -> None:
        self.nodes.append((node, "compare"))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self.nodes.append((node, "boolop"))
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) in _BINOP_SWAPS:
            self.nodes.append((node, "binop"))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self.nodes.append((node, "not"))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self._docstrings or id(node) in self._quiet:
            return
        if isinstance(node.value, int | float):  # bool is an int
            self.nodes.append((node, "number"))
        elif isinstance(node.value, str) and node.value:
            self.nodes.append((node, "string"))

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None
        ):
            self.nodes.append((node, "return"))
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call | ast.Await) and id(node.value) not in self._quiet:
            self.nodes.append((node, "drop-call"))
        self.generic_visit(node)

    def visit_Break(self, node: ast.Break) -> None:
        self.nodes.append((node, "break"))

    def visit_Continue(self, node: ast.Continue) -> None:
        self.nodes.append((node, "continue"))


def _variants(node: ast.AST, kind: str) -> Iterator[tuple[str, ast.AST]]:
    """Each mutated copy of ``node`` with its description."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = _COMPARE_SWAPS.get(type(op))
            if swap is not None:
                new = copy.deepcopy(node)
                new.ops[i] = swap()
                yield f"{_SYMBOLS[type(op)]} → {_SYMBOLS[swap]}", new
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield f"{_SYMBOLS[type(node.op)]} → {_SYMBOLS[type(new.op)]}", new
    elif isinstance(node, ast.BinOp):
        new = copy.deepcopy(node)
        new.op = _BINOP_SWAPS[type(node.op)]()
        yield f"{_SYMBOLS[type(node.op)]} → {_SYMBOLS[type(new.op)]}", new
    elif isinstance(node, ast.UnaryOp):
        yield "not x → x", copy.deepcopy(node.operand)
    elif isinstance(node, ast.Constant) and kind == "number":
        value = node.value
        if isinstance(value, bool):
            yield f"{value} → {not value}", ast.Constant(not value)
        elif isinstance(value, int):
            yield f"{value} → {value + 1}", ast.Constant(value + 1)
        elif isinstance(value, float):
            moved = round(value * 1.1, 6) if value else 0.1
            yield f"{value} → {moved}", ast.Constant(moved)
    elif isinstance(node, ast.Constant) and kind == "string":
        yield f"{node.value[:20]!r} → 'XX…XX'", ast.Constant(f"XX{node.value}XX")
    elif isinstance(node, ast.Return):
        yield "return x → return None", ast.Return(ast.Constant(None))
    elif isinstance(node, ast.Expr):
        yield "call dropped", ast.Pass()
    elif isinstance(node, ast.Break):
        yield "break → continue", ast.Continue()
    elif isinstance(node, ast.Continue):
        yield "continue → break", ast.Break()


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target = target
        self.replacement = replacement

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return ast.copy_location(self.replacement, node)
        return super().visit(node)


def function_lines(source: str, names: Collection[str]) -> set[int]:
    """The lines of the functions or methods called ``names`` (any class), decorators included."""
    found: set[int] = set()
    seen: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            found.update(range(first, (node.end_lineno or node.lineno) + 1))
            seen.add(node.name)
    missing = sorted(set(names) - seen)
    if missing:
        raise ValueError(f"no function named {', '.join(missing)}")
    return found


def mutants(source: str, lines: Container[int] | None = None) -> Iterator[Mutant]:
    """Every mutant of ``source`` whose site starts on one of ``lines`` (all when ``None``)."""
    text_lines = source.splitlines()
    sites = _Sites()
    sites.visit(ast.parse(source))
    for node, kind in sites.nodes:
        line = getattr(node, "lineno", 0)
        if lines is not None and line not in lines:
            continue
        for description, replacement in _variants(node, kind):
            tree = ast.parse(source)
            target = _find(tree, node)
            mutated = _Replace(target, replacement).visit(tree)
            ast.fix_missing_locations(mutated)
            yield Mutant(line, description, text_lines[line - 1].strip(), ast.unparse(mutated))


def _find(tree: ast.AST, like: ast.AST) -> ast.AST:
    """The node of a fresh parse at the same place as ``like`` (parses are deterministic)."""
    key = (type(like), getattr(like, "lineno", None), getattr(like, "col_offset", None),
           getattr(like, "end_lineno", None), getattr(like, "end_col_offset", None))  # fmt: skip
    for node in ast.walk(tree):
        if (type(node), getattr(node, "lineno", None), getattr(node, "col_offset", None),
                getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)) == key:  # fmt: skip
            return node
    raise LookupError(f"no node at {key}")
