"""Issue 41 item 2: an explicit claim reversed is one decision per kind.

Fourteen tools of one server moving ``destructiveHint`` from an explicit ``true`` to ``false``
cost fourteen typed reasons: each stood alone, blocked. Reversals of an explicit pinned claim,
with nothing else against the member (no word of its own, no blocking cue, hidden character
or look-alike), form one blocked group: one confirmation and one typed reason, each member with
its own values. Real TOML pin file on disk, written and read back by the store."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.kinds import AloneReason, group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import Concern, Outcome
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

NAMES = [f"tidy_{c}" for c in "abcdefghijklmn"]  # fourteen


def _tool(name: str, ann: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "description": description or f"Tidies {name}.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        "annotations": ann,
    }


def _report(extra_old=(), extra_new=()):
    old = [_tool(n, {"destructiveHint": True}) for n in NAMES] + list(extra_old)
    new = [_tool(n, {"destructiveHint": False}) for n in NAMES] + list(extra_new)
    pins = PinFile()
    for w in old:
        pins.decide(make_pin("s", ToolDef.from_wire(w), Decision.APPROVED, by="t"))
    snap = Snapshot()
    snap.servers["s"] = ServerSnapshot(name="s", tools=[ToolDef.from_wire(w) for w in new])
    return compute_status(snap, pins), pins


def test_fourteen_reversals_are_one_blocked_group():
    report, _ = _report()
    assert all(t.policy.outcome is Outcome.BLOCK for t in report.tools)
    assert all(Concern.CLAIM_REVERSED in t.policy.concerns for t in report.tools)
    g = group_report(report)
    assert g.decisions == 1 and g.alone == ()
    (grp,) = g.groups
    assert grp.outcome is Outcome.BLOCK and grp.size == 14
    assert "reversed" in grp.label
    # each member with its own values
    for m in grp.members:
        (c,) = m.changes
        assert c.pointer == "/annotations/destructiveHint"
        assert m.outcome is Outcome.BLOCK


def test_a_reversal_contradicted_by_its_own_words_stays_alone():
    report, _ = _report(
        [_tool("purge_all", {"destructiveHint": True})],
        [_tool("purge_all", {"destructiveHint": False})],
    )
    g = group_report(report)
    alone = {a.tool: a.reasons for a in g.alone}
    assert alone == {"purge_all": (AloneReason.CONTRADICTION,)}
    (grp,) = g.groups
    assert grp.size == 14


def test_a_reversal_with_a_hidden_character_stays_alone():
    report, _ = _report(
        [_tool("tidy_z", {"destructiveHint": True})],
        [_tool("tidy_z", {"destructiveHint": False}, "Tidies\u200b tidy_z.")],
    )
    g = group_report(report)
    assert [a.tool for a in g.alone] == ["tidy_z"]
    assert AloneReason.HIDDEN in g.alone[0].reasons


def test_one_confirmation_and_one_reason_approve_the_group(tmp_path):
    from mcp_review.services import decisions
    from mcp_review.store.pinfile import load_pins

    report, pins = _report()
    (grp,) = group_report(report).groups
    refused = decisions.decide_group(pins, grp, Decision.APPROVED, source="test")
    assert refused.blocked  # no confirmation: nothing recorded, the reasons said
    assert refused.whole == [] and refused.partial == []
    done = decisions.decide_group(
        pins,
        grp,
        Decision.APPROVED,
        source="test",
        note="the vendor fixed its hints in 2.0",
        confirmed="with --yes",
    )
    assert len(done.whole) == 14
    path = str(tmp_path / "mcp-pins.toml")
    decisions.save(pins, path)
    again = compute_status(
        Snapshot(
            servers={
                "s": ServerSnapshot(
                    name="s",
                    tools=[ToolDef.from_wire(_tool(n, {"destructiveHint": False})) for n in NAMES],
                )
            }
        ),
        load_pins(path),
    )
    assert all(t.policy.outcome is Outcome.NONE for t in again.tools)
