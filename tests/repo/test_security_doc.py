"""docs/security.md names, for every promise, the test that holds it: each name must exist."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = ROOT / "docs" / "security.md"
REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


@functools.cache  # the doc names many tests of one file: each file is parsed once
def _defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        n.name
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test_")
    }


def test_every_test_named_in_the_security_doc_exists():
    text = DOC.read_text()
    refs = REF.findall(text)
    assert len(refs) > 80, "the promise tables were not found"
    missing = [
        f"{f}::{t}" for f, t in refs if not (ROOT / f).is_file() or t not in _defined(ROOT / f)
    ]
    assert not missing, missing


def test_no_section_is_left_to_do():
    assert "TODO" not in DOC.read_text()
