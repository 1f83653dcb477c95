"""Cue levels (issue 38 item 3): ``block`` as before; ``attention``: the tool stands alone, is
never auto-approved in any tier and never grouped, and needs no typed reason (it does not
block); ``info`` cues may be grouped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mcp_review.engine.cues import text_cues
from mcp_review.engine.kinds import AloneReason, group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import TIERS, Outcome
from mcp_review.engine.rules.cues import CUE_RULES, Level
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

ROOT = Path(__file__).resolve().parents[2]

BLOB = "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQgaGVsbG8gd29ybGQgaGVsbG8K"


def _tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    }


def _status(old: list[dict[str, Any]], new: list[dict[str, Any]], tier: str):
    pins = PinFile()
    for w in old:
        pins.decide(make_pin("s", ToolDef.from_wire(w), Decision.APPROVED, by="t"))
    snap = Snapshot()
    snap.servers["s"] = ServerSnapshot(name="s", tools=[ToolDef.from_wire(w) for w in new])
    return compute_status(snap, pins, tiers={"s": tier})


def test_every_rule_has_one_level_and_the_blocking_ones_are_block():
    for r in CUE_RULES.values():
        assert r.level in Level
        assert r.blocking is (r.level is Level.BLOCK)
    attention = {r.id for r in CUE_RULES.values() if r.level is Level.ATTENTION}
    assert {"cue.script-mix.mixed-word", "cue.encoded.base64", "cue.script-mix.unreadable"} <= (
        attention
    )


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize(
    "added",
    [
        f"Config blob: {BLOB}",  # an encoded blob
        "Lists the r\u0435cent files.",  # a word mixing scripts
        "Lists files \ue000 in the workspace.",  # a character no reader can normalise
    ],
)
def test_an_attention_cue_stands_alone_and_is_never_auto_approved(tier, added):
    """Three tools reword their description the same way; one of them adds a cue needing
    attention. Under every tier that one waits for review (never auto-approved, ``compatible``
    included), is not blocked (no typed reason), and stands alone; the two honest ones are
    grouped (under ``tiered``/``strict``) or re-pinned (``compatible``) as before."""
    old = [_tool(n, "Lists files.") for n in ("a", "b", "c")]
    new = [
        _tool("a", "Lists files. " + added),
        _tool("b", "Lists files in the workspace."),
        _tool("c", "Lists files in the workspace."),
    ]
    report = _status(old, new, tier)
    t = {x.tool: x for x in report.tools}
    assert t["a"].policy.outcome is Outcome.REVIEW, t["a"].policy.reasons
    assert any(r.startswith("cue needs attention: ") for r in t["a"].policy.reasons)
    assert not t["a"].policy.concerns  # not a block: approving it asks no typed reason
    assert [c.to_json()["level"] for c in t["a"].cues if c.level is Level.ATTENTION]
    g = group_report(report)
    assert all(m.tool != "a" for grp in g.groups for m in grp.members)
    alone = g.alone_of(("s", t["a"].principal, "a"))
    assert alone is not None and AloneReason.ATTENTION in alone.reasons
    honest = t["b"].policy.outcome
    assert honest is (Outcome.AUTO_APPROVE if tier == "compatible" else Outcome.REVIEW)


def test_info_cues_may_be_grouped():
    old = [_tool(n, "Lists files.") for n in ("a", "b")]
    new = [_tool(n, "Lists files. See https://example.com/docs.") for n in ("a", "b")]
    g = group_report(_status(old, new, "tiered"))
    assert [sorted(m.tool for m in grp.members) for grp in g.groups] == [["a", "b"]]
    assert "url" in g.groups[0].kind.cues


def test_the_docs_say_each_level_and_why():
    doc = (ROOT / "docs" / "cues.md").read_text(encoding="utf-8")
    section = doc.split("## Levels", 1)[1].split("\n## ", 1)[0]
    for level in Level:
        assert re.search(rf"\*\*{level.value}\*\*", section), level
    for rid, r in CUE_RULES.items():
        if r.level is Level.ATTENTION:
            assert f"`{rid}`" in section, rid


def test_an_attention_cue_in_a_text_is_one_of_its_json_levels():
    (c,) = [c for c in text_cues(f"Blob {BLOB}", "/description") if c.rule.startswith("cue.enc")]
    assert c.to_json()["level"] == "attention"
