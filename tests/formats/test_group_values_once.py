"""A group member's new text is listed once (the operator's walk, benchmarks/README.md "The
operator's walk on two real upgrades").

server-memory 2026.8.31 adds an ``outputSchema`` whose properties have descriptions: in
``status --groups`` (and the app's group screen, which shares the wording) each such member
listed the texts twice, first as ``description: "…"; description: "…"`` (the output-schema
change's own values, which read as if the tool's description had changed) and then as
``adds at /outputSchema/…/description: "…"`` lines. The ``adds at`` lines, which say where, are
kept. On the real CLI over snapshot and pin files on disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot

OUT = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The name of the entity"},
        "entityType": {"type": "string", "description": "The type of the entity"},
    },
}


def _tool(name: str, new: bool) -> dict[str, Any]:
    t: dict[str, Any] = {
        "name": name,
        "description": f"{name} in the knowledge graph",
        "inputSchema": {"type": "object", "properties": {"names": {"type": "array"}}},
    }
    if new:
        t["title"] = name.replace("_", " ").title()
        t["outputSchema"] = OUT
    return t


def _write(path: Path, new: bool) -> str:
    tools = [ToolDef.from_wire(_tool(n, new), source="t") for n in ("open_nodes", "read_graph")]
    path.write_text(Snapshot({"memory": ServerSnapshot(name="memory", tools=tools)}).dumps())
    return str(path)


def test_each_added_text_is_listed_once_with_its_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    pins = str(tmp_path / "mcp-pins.toml")
    assert main(["pin", "--snapshot", _write(tmp_path / "v1.json", False), "--pins", pins]) == 0
    capsys.readouterr()
    v2 = _write(tmp_path / "v2.json", True)
    assert main(["status", "--snapshot", v2, "--pins", pins, "--groups"]) == 1
    out = capsys.readouterr().out
    assert (
        out.count('adds at /outputSchema/properties/name/description: "The name of the entity"')
        == 2
    )
    assert out.count("The name of the entity") == 2, out
    assert 'description: "The name of the entity"' not in out.replace("/description: ", ""), out
