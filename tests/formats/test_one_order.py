"""Issue 41 item 6: one visiting order, given by the engine, read everywhere.

Blocked first (by most severe cue), then the tools alone that need attention, then the groups
by size, then the rest; ``check`` (JSON, text, Markdown, SARIF) and ``status --groups`` list the
same decisions in the same order. Over the corpus of real upgrades (tests/corpus, offline) and
through the real CLI on the three reference servers with a rug pull."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_review.engine.cues import severity
from mcp_review.engine.kinds import Alone, Group, group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import Outcome
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status
from mcp_review.formats import check as check_fmt
from mcp_review.formats import status as status_fmt

ROOT = Path(__file__).resolve().parents[2]
import corpus_data as cd  # noqa: E402

CAPS = cd.servers()


def _report(old: cd.Capture, new: cd.Capture):
    pins = PinFile()
    for w in old.tools.values():
        pins.decide(make_pin(old.server, ToolDef.from_wire(w), Decision.APPROVED, by="t"))
    snap = Snapshot()
    snap.servers[new.server] = ServerSnapshot(
        name=new.server, tools=[ToolDef.from_wire(w) for w in new.tools.values()]
    )
    return compute_status(snap, pins)


def _band(item: Alone | Group) -> int:
    """The order's bands, worked out here from the item's own fields (not visit_rank)."""
    if item.outcome is Outcome.BLOCK:
        return 0
    if isinstance(item, Alone) and (item.cues or "new tool's claim" in str(item.reasons)):
        return 1
    return 2 if isinstance(item, Group) else 3


def _assert_in_order(items: list[Alone | Group]) -> None:
    bands = [_band(i) for i in items]
    assert bands == sorted(bands), bands
    blocked = [i for i in items if _band(i) == 0 and isinstance(i, Alone)]
    worst = [min((severity(c) for c in a.cues), default=99) for a in blocked]
    assert worst == sorted(worst), worst
    sizes = [i.size for i in items if isinstance(i, Group) and _band(i) == 2]
    assert sizes == sorted(sizes, reverse=True), sizes


@pytest.mark.parametrize("server", sorted(s for s, caps in CAPS.items() if len(caps) > 1), ids=str)
def test_check_json_and_status_groups_json_give_one_order(server):
    """Each corpus server's oldest → newest upgrade: check's JSON and status --groups' JSON
    carry the same ``decisions`` (and ``groups``, ``alone``) in the same order, and that order
    is the issue's (blocked by most severe cue, then attention, then the groups by size, then
    the rest, worked out here from each item's own fields)."""
    caps = CAPS[server]
    report = _report(caps[0], caps[-1])
    grouping = group_report(report)
    got = check_fmt.report_json(report, "review")
    want = status_fmt.report_json(report, grouping=grouping)
    assert got["decisions"] == want["decisions"]
    assert got["groups"] == want["groups"] and got["alone"] == want["alone"]
    assert len(got["decisions"]) == grouping.decisions
    blocked = [d for d in got["decisions"] if d["outcome"] == "block"]
    assert got["decisions"][: len(blocked)] == blocked
    _assert_in_order(grouping.ordered())


@pytest.fixture(scope="module")
def rug_pull_folder(tmp_path_factory):
    """The three reference servers' old versions pinned by `mcp-review pin`, the new ones with
    a rug pull planted in mcp-server-time's get_current_time, as snapshot files."""
    from tui_sample import REFERENCE_UPGRADES as UPGRADES
    from tui_sample import RUG_PULL

    d = tmp_path_factory.mktemp("order")
    old, new = Snapshot(), Snapshot()
    for server, o, nv in UPGRADES:
        by = {c.version: c for c in CAPS[server]}
        old.servers[server] = ServerSnapshot(
            name=server, tools=[ToolDef.from_wire(w) for w in by[o].tools.values()]
        )
        tools = []
        for name, w in by[nv].tools.items():
            w = json.loads(json.dumps(w))
            if (server, name) == ("mcp-server-time", "get_current_time"):
                w["description"] += RUG_PULL
            tools.append(ToolDef.from_wire(w))
        new.servers[server] = ServerSnapshot(name=server, tools=tools)
    (d / "old.json").write_text(old.dumps(), encoding="utf-8")
    (d / "new.json").write_text(new.dumps(), encoding="utf-8")
    return d


def _cli(capsys, *argv: str) -> tuple[int, str]:
    from mcp_review.cli import main

    capsys.readouterr()
    rc = main(list(argv))
    return rc, capsys.readouterr().out


def test_every_command_lists_the_rug_pull_first(rug_pull_folder, monkeypatch, capsys):
    monkeypatch.chdir(rug_pull_folder)
    pins = ("--pins", "mcp-pins.toml")
    rc, out = _cli(capsys, "pin", "-q", "--yes", "--snapshot", "old.json", *pins)
    assert rc == 0, out
    rc, out = _cli(capsys, "check", "-q", "--from-snapshot", "new.json", *pins, "--format", "json")
    assert rc == 1
    doc = json.loads(out)
    rc2, out2 = _cli(
        capsys, "status", "-q", "--snapshot", "new.json", *pins, "--groups", "--format", "json"
    )
    groups = json.loads(out2)
    assert rc2 == rc
    assert doc["decisions"] == groups["decisions"]
    assert doc["decisions"][0]["alone"] == "mcp-server-time/get_current_time"
    assert doc["decisions"][0]["outcome"] == "block"
    assert [d["outcome"] for d in doc["decisions"]].count("block") == 1
    assert len(doc["decisions"]) <= 4
    # text, Markdown and SARIF name it first among the tools too
    _, text = _cli(capsys, "check", "-q", "--from-snapshot", "new.json", *pins)
    _, md = _cli(
        capsys, "check", "-q", "--from-snapshot", "new.json", *pins, "--format", "markdown"
    )
    _, sarif = _cli(
        capsys, "check", "-q", "--from-snapshot", "new.json", *pins, "--format", "sarif"
    )
    first = json.loads(sarif)["runs"][0]["results"][0]
    assert "get_current_time" in first["locations"][0]["logicalLocations"][0]["name"]
    for out in (text, md):
        names = [n for n in ("get_current_time", "write_file", "read_graph") if n in out]
        assert names and names[0] == "get_current_time", out[:2000]
        assert out.index("get_current_time") < out.index("write_file")
