"""Issue 39, must show: a real upgrade of a published server (notion-mcp-server 1.8.0 -> 1.9.1:
every one of its 19 tools reworded) with 5 poisoned texts of the frozen evaluation set planted,
the 5 chosen by a seeded random draw: each poisoned tool stands alone, no group holds one."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from mcp_review.engine.kinds import group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

ROOT = Path(__file__).resolve().parents[2]
import corpus_data as cd  # noqa: E402

SERVER, OLD, NEW = "notion-mcp-server", "1.8.0", "1.9.1"
SEED = 3905
"""The draw's seed: which 5 frozen texts, planted into which 5 tools."""


def _draw() -> tuple[dict[str, dict], dict[str, dict], dict[str, str]]:
    caps = {c.version: c for c in cd.servers()[SERVER]}
    old, new = caps[OLD].tools, caps[NEW].tools
    frozen = json.loads((ROOT / "benchmarks" / "eval" / "poisoned_frozen.json").read_text("utf-8"))
    rng = random.Random(SEED)
    texts = rng.sample(frozen, 5)
    tools = rng.sample(sorted(new), 5)
    return old, new, {tool: item["text"] for tool, item in zip(tools, texts, strict=True)}


def test_the_draw_is_a_real_upgrade_with_enough_honest_rewordings():
    old, new, planted = _draw()
    reworded = [
        n for n in new if n in old and old[n].get("description") != new[n].get("description")
    ]
    assert len(reworded) - len(set(reworded) & set(planted)) >= 14
    assert len(reworded) >= 15 and len(planted) == 5


def test_each_poisoned_text_stands_alone_and_no_group_holds_one():
    old, new, planted = _draw()
    pins = PinFile()
    for wire in old.values():
        pins.decide(make_pin(SERVER, ToolDef.from_wire(wire), Decision.APPROVED, by="t"))
    tools = []
    for name, wire in new.items():
        w = copy.deepcopy(wire)
        if name in planted:
            w["description"] = f"{w.get('description', '')} {planted[name]}"
        tools.append(ToolDef.from_wire(w))
    snap = Snapshot()
    snap.servers[SERVER] = ServerSnapshot(name=SERVER, tools=tools)
    g = group_report(compute_status(snap, pins))
    grouped = {m.tool for grp in g.groups for m in grp.members}
    alone = {a.tool: a for a in g.alone}
    for name in planted:
        assert name not in grouped, (name, planted[name][:80])
        assert name in alone, (name, planted[name][:80])
        assert alone[name].cues, name
