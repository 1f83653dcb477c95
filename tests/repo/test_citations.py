"""The code cites documents the repository holds (docs/design.md and the docs beside it), never
an issue tracker's numbers or a design file outside the repository (CONTRIBUTING.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+")
BARE_DESIGN = re.compile(r"(?<![/\w])design\.md")


def _code() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in sorted((ROOT / "mcp_review").rglob("*.py"))
    }


def test_no_issue_numbers_in_the_code() -> None:
    found = [
        f"{path}:{n}"
        for path, text in _code().items()
        for n, line in enumerate(text.splitlines(), 1)
        if ISSUE.search(line)
    ]
    assert not found, found


def test_design_citations_point_at_the_repositorys_own_design() -> None:
    assert (ROOT / "docs" / "design.md").is_file()
    found = [
        f"{path}:{n}"
        for path, text in _code().items()
        for n, line in enumerate(text.splitlines(), 1)
        if BARE_DESIGN.search(line)
    ]
    assert not found, found
