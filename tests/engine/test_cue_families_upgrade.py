"""Issue 39, must show: a real upgrade of a published server with at least 15 honest rewordings
and 5 poisoned texts of the frozen evaluation set planted, the 5 chosen by a seeded random draw:
each poisoned tool stands alone, no group holds one.

The draw (``SEED``, fixed when the test was written) takes 5 texts of the frozen set's first
batch (``poisoned_frozen.json``, the frozen set as it was committed; batches 2 and 3 came later)
and, with the same generator, 5 of the upgrade's tools to plant them into. The first upgrade,
notion-mcp-server 1.8.0 -> 1.9.1, rewords all 19 of its tools, so 5 planted leave 14 honest
rewordings, one short of the issue's 15: the two upgrades after it (the corpus's upgrades
rewording the most tools, chosen before the draw was run on them) leave 20 and 73."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from mcp_review.engine.kinds import group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

ROOT = Path(__file__).resolve().parents[2]
import corpus_data as cd  # noqa: E402

UPGRADES = [
    ("notion-mcp-server", "1.8.0", "1.9.1", 14),
    ("git-mcp-server", "2.3.2", "2.6.5", 15),
    ("gitlab-mcp", "2.0.36", "2.1.49", 15),
]
"""(server, old version, new version, honest rewordings at least)."""
SEED = 3905
"""The draw's seed: which 5 frozen texts, planted into which 5 tools."""


def _draw(server: str, v_old: str, v_new: str) -> tuple[dict, dict, dict[str, str]]:
    caps = {c.version: c for c in cd.servers()[server]}
    old, new = caps[v_old].tools, caps[v_new].tools
    frozen = json.loads((ROOT / "benchmarks" / "eval" / "poisoned_frozen.json").read_text("utf-8"))
    rng = random.Random(SEED)
    texts = rng.sample(frozen, 5)
    tools = rng.sample(sorted(new), 5)
    return old, new, {tool: item["text"] for tool, item in zip(tools, texts, strict=True)}


@pytest.mark.parametrize(("server", "v_old", "v_new", "honest"), UPGRADES)
def test_the_draw_is_a_real_upgrade_with_enough_honest_rewordings(server, v_old, v_new, honest):
    old, new, planted = _draw(server, v_old, v_new)
    reworded = [
        n for n in new if n in old and old[n].get("description") != new[n].get("description")
    ]
    assert len(reworded) - len(set(reworded) & set(planted)) >= honest
    assert len(planted) == 5


@pytest.mark.parametrize(("server", "v_old", "v_new", "honest"), UPGRADES)
def test_each_poisoned_text_stands_alone_and_no_group_holds_one(server, v_old, v_new, honest):
    old, new, planted = _draw(server, v_old, v_new)
    pins = PinFile()
    for wire in old.values():
        pins.decide(make_pin(server, ToolDef.from_wire(wire), Decision.APPROVED, by="t"))
    tools = []
    for name, wire in new.items():
        w = copy.deepcopy(wire)
        if name in planted:
            w["description"] = f"{w.get('description', '')} {planted[name]}"
        tools.append(ToolDef.from_wire(w))
    snap = Snapshot()
    snap.servers[server] = ServerSnapshot(name=server, tools=tools)
    g = group_report(compute_status(snap, pins))
    grouped = {m.tool for grp in g.groups for m in grp.members}
    alone = {a.tool: a for a in g.alone}
    for name in planted:
        assert name not in grouped, (name, planted[name][:80])
        assert name in alone, (name, planted[name][:80])
        assert alone[name].cues, name
