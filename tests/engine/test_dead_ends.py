"""Issue 41 item 9: a dead end names what works.

A hand-edited pin file's error told the user to review the tools in the app, which refuses the
file with that same error. It now names what works on a file in that state, and the command it
names does work: real CLI, real TOML pin file on disk."""

from __future__ import annotations

import re
from pathlib import Path

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot

TOOL = {
    "name": "search",
    "description": "Search the catalogue.",
    "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
}


def _run(capsys, *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out + err


def test_a_hand_edited_pin_file_names_what_works_and_it_works(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    snap = Snapshot({"srv": ServerSnapshot(name="srv", tools=[ToolDef.from_wire(TOOL)])})
    Path("snap.json").write_text(snap.dumps(), encoding="utf-8")
    pins = ("--pins", "mcp-pins.toml")
    rc, out = _run(capsys, "pin", "-q", "--yes", "--snapshot", "snap.json", *pins)
    assert rc == 0, out
    text = Path("mcp-pins.toml").read_text(encoding="utf-8")
    edited = re.sub(r"(digest = \"sha256:[0-9a-f])[0-9a-f]", r"\g<1>x", text, count=1)
    assert edited != text
    Path("mcp-pins.toml").write_text(edited, encoding="utf-8")  # a hand edit
    for argv in (("status", "--snapshot", "snap.json"), ("review", "--snapshot", "snap.json")):
        rc, out = _run(capsys, *argv, *pins)
        assert rc == 2, out
        assert "do not verify" in out and "in the app" not in out, out
        assert "mcp-review forget srv search" in out and "version control" in out, out
    # the command it names works on the file in that state
    rc, out = _run(capsys, "forget", "srv", "search", *pins)
    assert rc == 0, out
    rc, out = _run(capsys, "status", "--snapshot", "snap.json", *pins, "--format", "json")
    assert rc in (0, 1) and '"new"' in out, out


def test_a_first_pin_says_a_shared_protocol_note_once_with_the_count(
    tmp_path: Path, monkeypatch, capsys
):
    """Issue 41 item 10: the first `pin` of server-filesystem 2025.7.29 (real capture: input
    schemas with no type) repeated one protocol note per tool; it is said once, with the
    count and the tools. JSON keeps each approval's own findings."""
    import json

    import corpus_data as cd

    cap = next(c for c in cd.servers()["server-filesystem"] if c.version == "2025.7.29")
    tools = [ToolDef.from_wire(w) for w in cap.tools.values()]
    snap = Snapshot({"server-filesystem": ServerSnapshot(name="server-filesystem", tools=tools)})
    monkeypatch.chdir(tmp_path)
    Path("snap.json").write_text(snap.dumps(), encoding="utf-8")
    pins = ("--pins", "mcp-pins.toml")
    rc, out = _run(capsys, "pin", "--yes", "--snapshot", "snap.json", *pins)
    assert rc == 0, out
    notes = [line for line in out.splitlines() if "protocol:" in line]
    assert len(notes) == 1, notes
    m = re.search(r"\(on (\d+) tools: ", notes[0])
    assert m and int(m.group(1)) == 13, notes  # every tool but the one whose schema has a type
    # JSON: every approval still carries its own
    Path("mcp-pins.toml").unlink()
    rc, out = _run(capsys, "pin", "--yes", "--snapshot", "snap.json", *pins, "--format", "json")
    doc = json.loads(out[out.index("{") :])
    assert sum(1 for r in doc["decisions"] if r.get("protocol")) == 13
