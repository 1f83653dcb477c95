"""The package's shape (docs/architecture.md): no import circle between its modules, no
hand-written module over 1,000 lines and no hand-written function over 100 (the generated
Unicode tables excepted), so each module and each function can be read at once and split by
job."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import pytest

PACKAGE = Path(__file__).resolve().parent.parent.parent / "mcp_review"
GENERATED = {"confusables_table.py", "unicode_tables.py"}
MAX_LINES = 1_000
MAX_FUNCTION_LINES = 100

LONG_FUNCTIONS: frozenset[str] = frozenset()
"""The functions still over :data:`MAX_FUNCTION_LINES`, each waiting to be split by job. The
list only shrinks: an entry whose function is split (or gone) fails
:func:`test_long_function_list_only_shrinks` until it is removed here."""


def _circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative over the
    import graph grimp builds, imports inside functions and under TYPE_CHECKING included)."""
    graph = grimp.build_graph("mcp_review")
    adj = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in adj[v]:
            if w not in adj:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in adj:
        if m not in index:
            visit(m)
    return out


def test_no_import_circles() -> None:
    assert _circles() == []


def test_no_hand_written_module_over_a_thousand_lines() -> None:
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if p.name not in GENERATED
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, long


def _trees(package_tree) -> tuple[tuple[str, ast.Module], ...]:
    """Every hand-written module of the package as ``(path, its syntax tree)``, parsed once a
    run (tests/repo/conftest.py) for the tests below (each walks the same trees its own way)."""
    return tuple(
        (p.relative_to(PACKAGE.parent).as_posix(), package_tree(p))
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name not in GENERATED
    )


def _functions(package_tree) -> list[tuple[str, int]]:
    """Every hand-written function and method of the package as ``(path:Qualified.name, its
    length in lines)`` (``def`` line through its last line, decorators not counted). A name
    defined twice in one scope (a property's setter, an overload) is listed twice."""
    out: list[tuple[str, int]] = []
    for rel, tree in _trees(package_tree):
        todo: list[tuple[ast.AST, str]] = [(tree, "")]
        while todo:
            node, prefix = todo.pop()
            for child in ast.iter_child_nodes(node):
                name = prefix
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}.{child.name}" if prefix else child.name
                    if not isinstance(child, ast.ClassDef):
                        assert child.end_lineno is not None
                        out.append((f"{rel}:{name}", child.end_lineno - child.lineno + 1))
                todo.append((child, name))
    return out


@pytest.fixture(scope="session")
def longest(package_tree) -> dict[str, int]:
    """Each qualified name's longest definition, measured once for the three tests that read
    it (on one xdist worker with the other readers of the parsed package, tests/repo/conftest.py)."""
    out: dict[str, int] = {}
    for k, n in _functions(package_tree):
        out[k] = max(n, out.get(k, 0))
    return out


def test_no_hand_written_function_over_a_hundred_lines(longest: dict[str, int]) -> None:
    """A new function over the limit fails here: split it by job (each helper named for what
    it decides, with a docstring saying why), do not add it to LONG_FUNCTIONS."""
    new = {k: n for k, n in longest.items() if n > MAX_FUNCTION_LINES and k not in LONG_FUNCTIONS}
    assert new == {}, new


def test_long_function_list_only_shrinks(longest: dict[str, int]) -> None:
    """An entry of LONG_FUNCTIONS whose function is now within the limit (or no longer
    exists) fails here, so the allow-list is trimmed as the functions are split."""
    stale = {k: longest.get(k) for k in LONG_FUNCTIONS if longest.get(k, 0) <= MAX_FUNCTION_LINES}
    assert stale == {}, f"split or gone, remove from LONG_FUNCTIONS: {stale}"


def test_function_lengths_are_measured(longest: dict[str, int], package_tree) -> None:
    """The walk names methods by their class and finds every function a plain ``ast.walk``
    finds, with the same lengths, so the two tests above cannot pass by measuring nothing.
    The plain walk reads the same parsed trees (parsing is not what is checked: ``ast.parse``
    of each file, listed anew here, is the same either way)."""
    assert "mcp_review/services/proxy/relay.py:Proxy._judge_client_msg" in longest
    assert 1 < longest["mcp_review/engine/status.py:server_status"] <= MAX_FUNCTION_LINES
    trees = dict(_trees(package_tree))
    assert set(trees) == {
        p.relative_to(PACKAGE.parent).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name not in GENERATED
    }
    plain = sorted(
        (rel, f.name, f.end_lineno - f.lineno + 1)
        for rel, tree in trees.items()
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.end_lineno is not None
    )
    walked = sorted(
        (k.split(":")[0], k.split(":")[1].rsplit(".", 1)[-1], n)
        for k, n in _functions(package_tree)
    )
    assert len(plain) > 1_000
    assert walked == plain
