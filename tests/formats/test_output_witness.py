"""An output-side witness is a result the server may now return that the old schema rejects:
said so in every format and in the app; choosing an output change shows the output schema diff
(issue 12 #7)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.store.pinfile import save_pins


def _obj(props, required=None):
    return {"type": "object", "properties": props, "required": required or list(props)}


OLD = {
    "name": "table_stats",
    "description": "Row count of a table.",
    "inputSchema": _obj({"table": {"type": "string"}}),
    "outputSchema": _obj({"row_count": {"type": "integer"}}),
}
NEW = {
    **OLD,
    # input: a new required argument (a call witness); output: integer -> number (a result)
    "inputSchema": _obj({"table": {"type": "string"}, "schema": {"type": "string"}}),
    "outputSchema": _obj({"row_count": {"type": "number"}}),
}


def _write(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    (tmp_path / "new.json").write_text(json.dumps(NEW))
    return str(tmp_path / "old.json"), str(tmp_path / "new.json")


def _output_change(doc: dict) -> dict:
    return next(
        c for c in doc["changes"] if c["pointer"].startswith("/outputSchema") and "witness" in c
    )


def test_classify_says_result_and_old_schema(tmp_path, capsys):
    old, new = _write(tmp_path)
    main(["classify", old, new, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    ch = _output_change(doc)
    assert ch["witness_kind"] == "result" and ch["witness_rejected_by"] == "old"
    # Independent truth: the witness is valid under the new output schema, invalid under old.
    jsonschema.validate(ch["witness"], NEW["outputSchema"])
    assert not jsonschema.Draft202012Validator(OLD["outputSchema"]).is_valid(ch["witness"])
    inp = next(
        c for c in doc["changes"] if c["pointer"].startswith("/inputSchema") and "witness" in c
    )
    assert inp["witness_kind"] == "call" and inp["witness_rejected_by"] == "new"

    main(["classify", old, new])
    text = capsys.readouterr().out
    out_block = text[text.index("/outputSchema") :]
    assert "witness (result the server may now return)" in out_block
    assert "the old schema rejects it" in out_block
    assert "rejected under new" not in out_block.split("\n  [")[0]


def test_check_formats_say_result_and_old_schema(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pf = PinFile(path="mcp-pins.toml")
    pf.decide(
        make_pin(
            "w",
            ToolDef.from_wire({**OLD, "inputSchema": NEW["inputSchema"]}),
            Decision.APPROVED,
            by="x",
        )
    )
    save_pins(pf)
    snap = Snapshot(servers={"w": ServerSnapshot("w", tools=[ToolDef.from_wire(NEW)])})
    (tmp_path / "s.json").write_text(snap.dumps())
    for fmt in ("text", "markdown", "sarif"):
        rc = main(["check", "--from-snapshot", "s.json", "--format", fmt])
        out = capsys.readouterr().out
        assert rc == 1, fmt
        assert "result the server may now return" in out and "the old schema rejects it" in out
        assert "rejected under new" not in out, fmt
    main(["check", "--from-snapshot", "s.json", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    ch = _output_change(doc["tools"][0]["comparison"])
    assert ch["witness_kind"] == "result" and ch["witness_rejected_by"] == "old"


async def test_app_shows_result_wording_and_output_diff_on_enter(tmp_path):
    from textual.widgets import Static

    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.fetchers import SnapshotFetcher
    from mcp_review.tui.screens.main import ToolTable
    from mcp_review.tui.screens.review import ReviewScreen
    from mcp_review.tui.source import ReviewSource
    from mcp_review.tui.widgets.change_list import ChangeList

    pins = str(tmp_path / "mcp-pins.toml")
    pf = PinFile(path=pins)
    pf.decide(make_pin("w", ToolDef.from_wire(OLD), Decision.APPROVED, by="x"))
    save_pins(pf)
    snap = Snapshot(servers={"w": ServerSnapshot("w", tools=[ToolDef.from_wire(NEW)])})
    from mcp_review.store.pinfile import load_pins

    app = ReviewApp(ReviewSource(SnapshotFetcher(snap), load_pins(pins), pins_path=pins))
    async with app.run_test(size=(140, 44)) as pilot:
        for _ in range(1200):
            await pilot.pause(0.05)
            if app.main is not None and app.main.loaded:
                break
        table = app.screen.query_one("#tools", ToolTable)
        for row in range(table.row_count):
            table.move_cursor(row=row)
            e = app.main.current_entry()
            if e is not None and e.name == "table_stats":
                break
        await pilot.press("enter")
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        witnesses = str(screen.query_one("#witnesses", Static).render())
        assert "result the server may now return" in witnesses
        assert "the old schema rejects it" in witnesses
        screen.action_tab("tab-schema")
        await pilot.pause(0.05)
        changes = screen.query_one("#changes", ChangeList)
        changes.focus()
        i = next(i for i, c in enumerate(changes.changes) if c.pointer.startswith("/outputSchema"))
        changes.move_cursor(row=i)
        await pilot.pause(0.05)
        assert screen.query_one("#tabs").active == "tab-schema"  # moving does not jump tabs
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert screen.query_one("#tabs").active == "tab-output"
