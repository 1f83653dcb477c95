"""Every potentially-breaking change says how to settle it (issue 26, item 7): the evidence
that would make it breaking, or compatible for this operator's clients, in every format
(text, JSON ``settle``, markdown, SARIF ``properties.settle``) and the app's change detail."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.engine.model import ChangeClass, Direction, ToolDef
from mcp_review.engine.rules import RULES, Effect, make
from mcp_review.engine.rules.settle import SETTLE, settle_text
from mcp_review.engine.schema_diff import diff_tools

ROOT = Path(__file__).resolve().parents[2]


_UNDECIDED = (Effect.UNKNOWN, Effect.MAYBE_NARROW, Effect.MAYBE_WIDEN)


def _can_be_potentially_breaking(rid: str) -> bool:
    r = RULES[rid]
    return r.cls is ChangeClass.POTENTIALLY_BREAKING or r.effect in _UNDECIDED


@pytest.mark.parametrize("rid", sorted(r for r in RULES if _can_be_potentially_breaking(r)))
@pytest.mark.parametrize("direction", [Direction.INPUT, Direction.OUTPUT])
def test_every_rule_that_can_be_undecided_says_how_to_settle_it(rid, direction):
    names = {f for _, f, _, _ in string.Formatter().parse(RULES[rid].message) if f}
    base = "/outputSchema" if direction is Direction.OUTPUT else "/inputSchema"
    ch = make(
        rid,
        base + "/properties/mode",
        cls=ChangeClass.POTENTIALLY_BREAKING,
        direction=direction if RULES[rid].direction is not Direction.TOOL else Direction.TOOL,
        **{n: "mode" for n in names},
    )
    text = settle_text(ch)
    assert text and "{" not in text and "breaking" in text and "compatible" in text, rid
    assert ch.to_json()["settle"] == text


def test_settle_templates_name_known_rules():
    assert set(SETTLE) <= set(RULES)


def test_no_settle_for_any_other_class():
    for cls in ChangeClass:
        if cls is ChangeClass.POTENTIALLY_BREAKING:
            continue
        ch = make("property-removed-open", "/inputSchema/properties/mode", cls=cls, name="mode")
        assert ch.settle is None and "settle" not in ch.to_json()


def _tool(schema: dict, **extra) -> ToolDef:
    return ToolDef.from_wire({"name": "run", "inputSchema": schema, **extra})


OPEN = {"type": "object", "properties": {"q": {"type": "string"}, "mode": {"type": "string"}}}
DROPPED = {"type": "object", "properties": {"q": {"type": "string"}}}


def test_a_property_dropped_from_an_open_object_names_the_call_that_would_break_it():
    (ch,) = diff_tools(_tool(OPEN), _tool(DROPPED))
    assert ch.rule == "property-removed-open" and ch.cls is ChangeClass.POTENTIALLY_BREAKING
    assert ch.settle is not None
    assert 'a recorded call that sends "mode" makes this breaking' in ch.settle
    assert "record calls through the proxy" in ch.settle


def test_every_potentially_breaking_change_on_the_corpus_says_how_to_settle_it(corpus_pairs):
    """Every change ``diff_tools`` classifies on the corpus (tests/engine/conftest.py)."""
    seen = 0
    for p in corpus_pairs:
        assert p.error is None, p.error
        for ch in p.changes:
            if ch.cls is ChangeClass.POTENTIALLY_BREAKING:
                assert ch.settle and "{" not in ch.settle, (p.old.server, p.name, ch.rule)
                seen += 1
            else:
                assert ch.settle is None
    assert seen > 0


def _snapshot(tools: list[dict]) -> dict:
    return {
        "format": "mcp-review-snapshot",
        "version": 1,
        "taken_at": "2026-11-01T00:00:00Z",
        "servers": {
            "srv": {
                "principal": "default",
                "server_info": {"name": "srv", "version": "1"},
                "protocol_version": "2025-11-25",
                "ttl_ms": None,
                "cache_scope": None,
                "tools": tools,
            }
        },
    }


def test_every_format_carries_settle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.json").write_text(
        json.dumps(_snapshot([{"name": "run", "inputSchema": OPEN}]))
    )
    (tmp_path / "new.json").write_text(
        json.dumps(_snapshot([{"name": "run", "inputSchema": DROPPED}]))
    )
    assert main(["pin", "--snapshot", "base.json", "--yes", "--pins", "p.toml", "-q"]) == 0
    out = {}
    for fmt in ("text", "json", "markdown", "sarif"):
        capsys.readouterr()
        main(["check", "--from-snapshot", "new.json", "--pins", "p.toml", "-q", "--format", fmt])
        out[fmt] = capsys.readouterr().out
    want = 'a recorded call that sends "mode" makes this breaking'
    assert "settle: record calls through the proxy" in out["text"] and want in out["text"]
    doc = json.loads(out["json"])
    (tool,) = doc["tools"]
    (ch,) = tool["comparison"]["changes"]
    assert want in ch["settle"]
    # Markdown escapes the minimum (engine.hidden.md_text): a quote reads as written
    assert "<br>settle: " in out["markdown"] and 'sends "mode" makes' in out["markdown"]
    sarif = json.loads(out["sarif"])
    props = [r.get("properties", {}) for r in sarif["runs"][0]["results"]]
    settles = [s for p in props for s in p.get("settle", [])]
    assert [s["rule"] for s in settles] == ["property-removed-open"]
    assert want in settles[0]["settle"]
    # classify (the seed's gate) says it too.
    (tmp_path / "old.json").write_text(json.dumps({"name": "run", "inputSchema": OPEN}))
    (tmp_path / "new1.json").write_text(json.dumps({"name": "run", "inputSchema": DROPPED}))
    capsys.readouterr()
    main(["classify", "old.json", "new1.json"])
    assert "settle: record calls through the proxy" in capsys.readouterr().out
