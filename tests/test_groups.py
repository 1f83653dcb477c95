"""The same change on many tools, once (issue 14 item 3): text and Markdown group identical
changes across a server's tools; JSON and SARIF stay per tool."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.core.groups import shared_changes, signature
from mcp_review.core.model import ToolDef
from mcp_review.core.pins import Decision, PinFile, make_pin
from mcp_review.core.snapshot import ServerSnapshot, Snapshot
from mcp_review.core.status import compute_status

NAMES = [f"tool_{i:02d}" for i in range(12)]


def _tool(name: str) -> dict:
    return {"name": name, "description": f"Does {name}.",
            "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}}}


def _upgraded(name: str) -> dict:
    t = copy.deepcopy(_tool(name))
    t["annotations"] = {"openWorldHint": False}  # the real 2025.11.25 -> 2026.8.31 edit
    if name == "tool_00":
        t["inputSchema"]["required"] = ["p"]  # and one tool changes on its own too
    return t


def _snap(make: object, path: Path) -> None:
    snap = Snapshot(taken_at="2026-11-30T00:00:00Z")
    snap.servers["fs"] = ServerSnapshot(name="fs", tools=[ToolDef.from_wire(make(n))
                                                          for n in NAMES])
    snap.servers["other"] = ServerSnapshot(name="other", tools=[ToolDef.from_wire(make("solo"))])
    path.write_text(snap.dumps())


def _pins() -> PinFile:
    pins = PinFile()
    for n in NAMES:
        pins.decide(make_pin("fs", ToolDef.from_wire(_tool(n)), Decision.APPROVED, by="t"))
    pins.decide(make_pin("other", ToolDef.from_wire(_tool("solo")), Decision.APPROVED, by="t"))
    return pins


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    _snap(_tool, tmp_path / "old.json")
    assert main(["pin", "--snapshot", "old.json", "--yes", "-q"]) == 0
    _snap(_upgraded, tmp_path / "new.json")
    return tmp_path


def _check(capsys: pytest.CaptureFixture, *args: str) -> str:
    capsys.readouterr()
    main(["check", "-q", "--from-snapshot", "new.json", *args])
    return capsys.readouterr().out


def test_core_groups_identical_changes_within_a_server_only():
    snap = Snapshot()
    snap.servers["fs"] = ServerSnapshot(name="fs", tools=[ToolDef.from_wire(_upgraded(n))
                                                          for n in NAMES])
    snap.servers["other"] = ServerSnapshot(name="other",
                                           tools=[ToolDef.from_wire(_upgraded("solo"))])
    report = compute_status(snap, _pins(), witnesses=False)
    groups = shared_changes(report.tools)
    # One group: the annotation on all twelve; the solo tool on another server is not in it,
    # and tool_00's own required-property change is not shared.
    assert [(g.server, g.change.pointer, g.tools) for g in groups] == [
        ("fs", "/annotations/openWorldHint", tuple(NAMES))]
    sigs = {t.tool: signature(t.comparison.changes) for t in report.tools}
    assert len({sigs[n] for n in NAMES[1:]}) == 1 and sigs["tool_00"] != sigs["tool_01"]


def test_text_lists_the_shared_change_once_with_its_tools(project, capsys):
    out = _check(capsys)
    ann = [ln for ln in out.splitlines() if "/annotations/openWorldHint" in ln]
    # Once for the fs group, once for the solo tool on the other server: not 13 times.
    assert len(ann) == 2, out
    assert out.count("on 12 tools: " + ", ".join(NAMES)) == 1
    assert "same change on several tools:" in out
    assert out.count("1 change(s) shared with other tools") == 12
    # The change that is tool_00's alone is still under tool_00.
    assert "/inputSchema/required" in out


def test_markdown_groups_and_json_sarif_stay_per_tool(project, capsys):
    md = _check(capsys, "--format", "markdown")
    rows = [ln for ln in md.splitlines() if "/annotations/openWorldHint" in ln]
    assert len(rows) == 2 and any("| 12: tool&#95;00" in r for r in rows), rows
    doc = json.loads(_check(capsys, "--format", "json"))
    per_tool = [t["tool"] for t in doc["tools"]
                if any(c["pointer"] == "/annotations/openWorldHint"
                       for c in t["comparison"]["changes"])]
    assert sorted(per_tool) == sorted([*NAMES, "solo"])
    sarif = json.loads(_check(capsys, "--format", "sarif"))
    assert len(sarif["runs"][0]["results"]) == 13
