"""The same change on many tools, once (issue 14 item 3): text and Markdown group identical
changes across a server's tools; JSON and SARIF stay per tool."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import ready as _ready
from helpers import select as _select

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.shared import shared_changes, signature
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

NAMES = [f"tool_{i:02d}" for i in range(12)]


def _tool(name: str) -> dict:
    return {
        "name": name,
        "description": f"Does {name}.",
        "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}},
    }


def _upgraded(name: str) -> dict:
    t = copy.deepcopy(_tool(name))
    t["annotations"] = {"openWorldHint": False}  # the real 2025.11.25 -> 2026.8.31 edit
    if name == "tool_00":
        t["inputSchema"]["required"] = ["p"]  # and one tool changes on its own too
    return t


def _snap(make: object, path: Path) -> None:
    snap = Snapshot(taken_at="2026-11-30T00:00:00Z")
    snap.servers["fs"] = ServerSnapshot(
        name="fs", tools=[ToolDef.from_wire(make(n)) for n in NAMES]
    )
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
    snap.servers["fs"] = ServerSnapshot(
        name="fs", tools=[ToolDef.from_wire(_upgraded(n)) for n in NAMES]
    )
    snap.servers["other"] = ServerSnapshot(
        name="other", tools=[ToolDef.from_wire(_upgraded("solo"))]
    )
    report = compute_status(snap, _pins(), witnesses=False)
    groups = shared_changes(report.tools)
    # One group: the annotation on all twelve; the solo tool on another server is not in it,
    # and tool_00's own required-property change is not shared.
    assert [(g.server, g.change.pointer, g.tools) for g in groups] == [
        ("fs", "/annotations/openWorldHint", tuple(NAMES))
    ]
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
    assert len(rows) == 2 and any("| 12: tool_00" in r for r in rows), rows
    doc = json.loads(_check(capsys, "--format", "json"))
    per_tool = [
        t["tool"]
        for t in doc["tools"]
        if any(c["pointer"] == "/annotations/openWorldHint" for c in t["comparison"]["changes"])
    ]
    assert sorted(per_tool) == sorted([*NAMES, "solo"])
    sarif = json.loads(_check(capsys, "--format", "sarif"))
    assert len(sarif["runs"][0]["results"]) == 13


# --- the app: approve a group at once ----------------------------------------------------------


async def _app_with_group(tmp_path: Path) -> tuple[object, object, str]:
    from servers.toolserver import ToolServer

    from mcp_review.services.config import Config, ServerConfig
    from mcp_review.services.fetch import fetch_all
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.fetchers import LiveFetcher
    from mcp_review.tui.source import ReviewSource

    names = ["tool_00", "tool_01", "tool_02", "tool_03"]
    ts = ToolServer([_tool(n) for n in names])
    cfg = ServerConfig("fs", target=ts.server, timeout=30)
    pins = str(tmp_path / "mcp-pins.toml")
    first = await fetch_all([cfg])
    ReviewSource.baseline(LiveFetcher(Config([cfg])), first, pins_path=pins)
    ts.tools = [_upgraded(n) for n in names]  # tool_00 also changes on its own
    src = ReviewSource.open(LiveFetcher(Config([cfg])), pins)
    return ReviewApp(src), src, pins


async def test_app_approves_the_same_change_on_many_tools(tmp_path):
    """Over a real stdio server: `g` opens the group of the kind ("annotations claim less
    power", uncontradicted: review), one confirmation approves it and pins each member to what
    it serves now. tool_00, whose required property is a kind no other tool shares, stands
    alone: not in the group, its pin unchanged (issue 28 item 3, replacing the
    identical-change flow of issue 14)."""
    from mcp_review.engine.status import State
    from mcp_review.store import audit
    from mcp_review.tui.screens.groups import GroupScreen
    from mcp_review.tui.screens.modals import ConfirmScreen

    app, _src, pins = await _app_with_group(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "tool_02")
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GroupScreen)
        assert screen.group.label == "annotations claim less power"
        assert [m.tool for m in screen.group.members] == ["tool_01", "tool_02", "tool_03"]
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # cancel: nothing written
        await pilot.pause()
        assert isinstance(app.screen, GroupScreen)
        assert load_on_disk(pins)["tool_01"] == _tool("tool_01")
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        for _ in range(3000):  # Textual's wait-until-idle, until the recomputation is shown
            await pilot.pause()
            if not app.main.computing:
                break
        statuses = {t.name: t.status for s in app.main.servers for t in s.tools}
    assert statuses == {
        "tool_00": State.BROKEN,
        "tool_01": State.PINNED,
        "tool_02": State.PINNED,
        "tool_03": State.PINNED,
    }
    on_disk = load_on_disk(pins)
    assert {n: on_disk[n] for n in ("tool_01", "tool_02", "tool_03")} == {
        n: _upgraded(n) for n in ("tool_01", "tool_02", "tool_03")
    }
    assert on_disk["tool_00"] == _tool("tool_00")
    recs = audit.read(audit.audit_path_for(pins))[-3:]
    assert sorted(r["tool"] for r in recs) == ["tool_01", "tool_02", "tool_03"]
    assert {r["group"] for r in recs} == {screen.group.id}
    assert not any("[blocked" in r["why"] for r in recs), recs


async def test_app_g_on_a_tool_that_stands_alone_says_why(tmp_path):
    from mcp_review.tui.screens.main import MainScreen

    app, _src, pins = await _app_with_group(tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "tool_00")
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        said = [str(n.message) for n in app._notifications]
        assert any("tool_00 stands alone (" in m and "decide it on its own" in m for m in said)
    assert load_on_disk(pins)["tool_00"] == _tool("tool_00")


def load_on_disk(path: str) -> dict[str, dict]:
    from mcp_review.store.pinfile import load_pins

    return {n: p.tool_def().wire for n, p in load_pins(path).for_server("fs", "default").items()}


# --- status text, on a live server ------------------------------------------------------------


@pytest.fixture
def live_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A real Streamable HTTP server (tests/servers/toolserver.py, two tools per page) whose
    twelve tools the test upgrades between fetches."""
    from servers.toolserver import ToolServer, serve_http

    ts = ToolServer([_tool(n) for n in NAMES], version="1.0")
    with serve_http(ts.http_app()) as url:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "mcp-review.toml").write_text(f'timeout = 20\n\n[servers.fs]\nurl = "{url}"\n')
        assert main(["pin", "--yes", "-q"]) == 0
        yield ts, tmp_path


def _status(capsys: pytest.CaptureFixture, *args: str) -> str:
    capsys.readouterr()
    main(["status", "-q", *args])
    return capsys.readouterr().out


def test_status_text_lists_the_shared_change_once_with_its_tools(live_project, capsys):
    ts, _root = live_project
    ts.tools = [_upgraded(n) for n in NAMES]
    out = _status(capsys, "--verbose")  # the listing per tool (default: per decision)
    ann = [ln for ln in out.splitlines() if "/annotations/openWorldHint" in ln]
    assert len(ann) == 1, out  # once, not twelve times
    assert "  same change on several tools:" in out
    assert out.count("on 12 tools: " + ", ".join(NAMES)) == 1
    assert out.count("1 change(s) shared with other tools") == 12
    # tool_00's own change stays under tool_00, and every tool is still listed by name.
    assert "/inputSchema/required" in out
    assert all(f": {n}\n" in out for n in NAMES), out
    # JSON stays per tool.
    doc = json.loads(_status(capsys, "--format", "json"))
    per_tool = [
        t["tool"]
        for t in doc["tools"]
        if any(
            c["pointer"] == "/annotations/openWorldHint"
            for c in (t.get("comparison") or {}).get("changes", [])
        )
    ]
    assert per_tool == NAMES


def test_status_groups_only_what_is_listed_and_never_a_waived_change(live_project, capsys):
    """Two tools sharing a change form a group; a third with a waiver for that change keeps
    it under its own name, marked waived (a waiver is per tool and per definition)."""
    ts, root = live_project
    narrowed = []
    for n in NAMES[:3]:
        t = copy.deepcopy(_tool(n))
        t["inputSchema"]["properties"]["limit"] = {"type": "integer"}  # no witness: groupable
        narrowed.append(t)
    ts.tools = narrowed + [_tool(n) for n in NAMES[3:]]
    waived = ToolDef.from_wire(narrowed[2]).digest
    with (root / "mcp-review.toml").open("a") as f:
        f.write(
            f'\n[[ignore]]\nserver = "fs"\ntool = "{NAMES[2]}"\nrule = "property-added-optional"\n'
            f'reason = "clients ignore limit"\nuntil = "2099-01-01"\ndigest = "{waived}"\n'
        )
    out = _status(capsys, "--verbose")  # the listing per tool (default: per decision)
    assert out.count("on 2 tools: tool_00, tool_01") == 1, out
    assert "tool_02" not in out.split("same change on several tools:")[1]
    own = out.split(": tool_02\n")[1].split("\n  [")[0]
    assert "property-added-optional /inputSchema/properties/limit" in own
    assert "[waived until 2099-01-01: clients ignore limit]" in own
    assert "9 tool(s) pinned and unchanged" in out  # pinned tools are in no group
    # check's text report draws the same line.
    capsys.readouterr()
    main(["check", "-q"])
    out = capsys.readouterr().out
    assert out.count("on 2 tools: tool_00, tool_01") == 1, out
    seg = out.split("fs/tool_02")[1].split("same change on several tools")[0]
    assert "property-added-optional" in seg, out
    assert "[waived until 2099-01-01: clients ignore limit]" in seg, out


def test_status_group_marks_a_look_alike_name(live_project, capsys):
    """Names in a group line are shown as the per-tool lines show them: a homoglyph carries
    its escaped form, never only the bare look-alike."""
    ts, _root = live_project
    twin = "t\u043eol_01"  # Cyrillic o
    ts.tools = [_tool(n) for n in NAMES] + [_tool(twin)]
    assert main(["pin", "--yes", "-q"]) == 0  # the twin pinned too (after review)
    ts.tools = [_upgraded(n) for n in NAMES] + [_upgraded(twin)]
    out = _status(capsys, "--verbose")  # the listing per tool (default: per decision)
    group = out.split("same change on several tools:")[1]
    assert "t\\u043eol_01" in group, group
