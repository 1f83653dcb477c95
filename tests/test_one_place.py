"""One place per decision: what the code decides once must not be written again elsewhere
(docs/architecture.md). Each check reads the package's source, so a second copy fails here."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_review"


def _sources() -> dict[str, str]:
    return {
        str(p.relative_to(PACKAGE.parent)): p.read_text(encoding="utf-8")
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def test_json_pointer_tokens_are_escaped_in_one_place() -> None:
    escape = re.compile(r"""\.replace\(\s*["']~["']\s*,\s*["']~0["']\s*\)""")
    where = [path for path, text in _sources().items() if escape.search(text)]
    assert where == ["mcp_review/engine/model.py"], where
