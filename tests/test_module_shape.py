"""The package's shape (docs/architecture.md): no import circle between its modules, and no
hand-written module over 1,000 lines (the generated Unicode tables excepted), so each module
can be read at once and split by job."""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_review"
GENERATED = {"confusables_table.py", "unicode_tables.py"}
MAX_LINES = 1_000


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
