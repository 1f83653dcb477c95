"""`check` shows a change's note in text and markdown as JSON carries it: why a breaking change
has no witness, that a rename hint is a hint, what a replayed call showed."""

from __future__ import annotations

import html
import json
from pathlib import Path

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.store.pinfile import load_pins, save_pins

OLD = {
    "name": "read",
    "description": "Read a file.",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    },
}
# `path` renamed to `file_path`: the rename hint carries a note (the changes it pairs carry
# the evidence).
NEW = {
    "name": "read",
    "description": "Read a file.",
    "inputSchema": {
        "type": "object",
        "properties": {"file_path": {"type": "string"}},
        "required": ["file_path"],
    },
}


def test_check_text_and_markdown_show_every_change_note(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pf = load_pins(str(tmp_path / "mcp-pins.toml"))
    pf.decide(make_pin("files", ToolDef.from_wire(OLD), Decision.APPROVED, by="test"))
    save_pins(pf, str(tmp_path / "mcp-pins.toml"))
    (tmp_path / "snap.json").write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-01-01T00:00:00Z",
                "servers": {"files": {"principal": "default", "tools": [NEW]}},
            }
        )
    )
    outs = {}
    for fmt in ("json", "text", "markdown"):
        assert main(["check", "--from-snapshot", "snap.json", "--format", fmt]) == 1
        outs[fmt] = capsys.readouterr().out
    changes = json.loads(outs["json"])["tools"][0]["comparison"]["changes"]
    notes = [c["note"] for c in changes if c.get("note")]
    assert notes, changes  # the independent truth: the JSON report has notes to show
    for note in notes:
        assert f"note: {note}" in outs["text"]
        assert f"note: {note}" in html.unescape(outs["markdown"])
