"""Shared set-up of the repository checks: the package's modules parsed once a run."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest


class Trees:
    """Each module's syntax tree, parsed on first use and kept for the run (the checks walk
    the trees and change nothing in them)."""

    def __init__(self) -> None:
        self._trees: dict[Path, ast.Module] = {}

    def __call__(self, path: Path) -> ast.Module:
        tree = self._trees.get(path)
        if tree is None:
            tree = self._trees[path] = ast.parse(path.read_text(encoding="utf-8"))
        return tree


@pytest.fixture(scope="session")
def package_tree() -> Trees:
    """The package's modules parsed once for the checks that read them all (module shape,
    rule ids outside engine/rules/, the engine opening no file): about 1.9 s of CPU a parse
    of the whole package. Those checks share one xdist group (below), so one worker parses."""
    return Trees()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests reading :func:`package_tree` run on one xdist worker (``--dist loadgroup``:
    marked before xdist names the groups)."""
    for item in items:
        if "package_tree" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("package-trees"))
