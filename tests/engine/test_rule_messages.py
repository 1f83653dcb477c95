"""Every rule's words pinned: the exact changes (id, class, pointer, message, new text, witness)
each rule fixture yields, on the input side and mirrored into ``outputSchema``, and the
messages over every version pair of the real-server corpus.

Written before the rules moved into one module per family (issue 16 item 2), so the move is
held to "no change of behaviour" message by message, not only id by id. Regenerate only for an
intended change of wording:

    MCP_REVIEW_UPDATE_GOLDEN=1 python -m pytest -q -p no:cacheprovider tests/engine/test_rule_messages.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers import with_fixture_ui

from mcp_review.engine.compare import compare
from mcp_review.engine.model import ToolDef
from mcp_review.engine.schema_diff import scan_hidden

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "rules"
GOLDEN = ROOT / "tests" / "fixtures" / "rule-messages"
UPDATE = os.environ.get("MCP_REVIEW_UPDATE_GOLDEN") == "1"


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _plant_bug(mp: pytest.MonkeyPatch) -> None:
    """No schema makes a correct engine fail: the engine-error fixture plants a bug in one
    rule (multipleOf), as tests/engine/test_rules.py does."""
    from mcp_review.engine import schema_diff

    def broken(*_args: Any) -> None:
        raise ZeroDivisionError("a bug in one rule")

    mp.setitem(schema_diff._HANDLERS, "multipleOf", broken)


def _fixture_changes(rid: str, wrap_output: bool) -> list[dict[str, Any]]:
    old, new = _load(FIXTURES / rid / "old.json"), _load(FIXTURES / rid / "new.json")
    if wrap_output:
        if "inputSchema" not in old or "inputSchema" not in new:
            return []
        old = {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": old["inputSchema"]}
        new = {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": new["inputSchema"]}
    o, n = ToolDef.from_wire(old), ToolDef.from_wire(new)
    if not wrap_output:
        o = with_fixture_ui(o, FIXTURES / rid / "old.json")
        n = with_fixture_ui(n, FIXTURES / rid / "new.json")
    with pytest.MonkeyPatch.context() as mp:
        if rid == "engine-error":
            _plant_bug(mp)
        changes = compare(o, n).changes
        if rid == "hidden-characters-present":
            changes = changes + scan_hidden(n)
    return [c.to_json() for c in changes]


def _all_fixtures() -> dict[str, Any]:
    rids = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
    return {
        "input": {rid: _fixture_changes(rid, False) for rid in rids},
        "output": {rid: _fixture_changes(rid, True) for rid in rids},
    }


def _corpus_messages(corpus_pairs) -> dict[str, list[list[str]]]:
    """Every change ``diff_tools`` gives on the corpus (tests/engine/conftest.py), worded."""
    out: dict[str, list[list[str]]] = {}
    for p in corpus_pairs:
        assert p.error is None, p.error
        if p.changes:
            key = f"{p.old.server} {p.old.version} -> {p.new.version} {p.name}"
            out[key] = [[c.rule, str(c.cls), c.pointer, c.message] for c in p.changes]
    return out


def _check(name: str, got: Any) -> None:
    path = GOLDEN / name
    text = json.dumps(got, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden {name}: regenerate with MCP_REVIEW_UPDATE_GOLDEN=1"
    want = json.loads(path.read_text(encoding="utf-8"))
    if got != want:
        for side in ("input", "output") if isinstance(want, dict) and "input" in want else ():
            for rid in sorted(set(want[side]) | set(got[side])):
                assert got[side].get(rid) == want[side].get(rid), (side, rid)
        for key in sorted(set(want) | set(got)):
            assert got.get(key) == want.get(key), key
    assert got == want


def test_every_rule_fixture_yields_the_same_changes_and_words():
    _check("fixtures.json", _all_fixtures())


def test_every_corpus_change_keeps_its_words(corpus_pairs):
    _check("corpus.json", _corpus_messages(corpus_pairs))
