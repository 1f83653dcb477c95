"""Issue 30 (operator polish, round 2): the CLI's wording and what each command says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_review.cli import COMMANDS, build_parser, main


def _snapshot(path: Path, tools: list[dict]) -> str:
    path.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "fs": {
                        "principal": "default",
                        "server_info": {"name": "fs", "version": "2025.7.29"},
                        "protocol_version": "2025-11-25",
                        "tools": tools,
                    }
                },
            }
        )
    )
    return str(path)


def test_pin_prints_each_tools_protocol_findings_beside_its_approval(tmp_path, monkeypatch, capsys):
    """Item 10: a schema-less tool (``{"$schema": …}`` only) is approved with its finding said."""
    monkeypatch.chdir(tmp_path)
    snap = _snapshot(
        tmp_path / "s.json",
        [
            {
                "name": "directory_tree",
                "description": "Tree.",
                "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"},
            },
            {"name": "ok", "description": "Fine.", "inputSchema": {"type": "object"}},
        ],
    )
    assert main(["pin", "--snapshot", snap]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = lines.index("approved (new): fs/default/directory_tree")
    assert lines[i + 1].startswith("    protocol: protocol-input-schema-type /inputSchema"), lines
    j = lines.index("approved (new): fs/default/ok")
    assert not lines[j + 1].startswith("    protocol"), lines
    (tmp_path / "mcp-pins.toml").unlink()
    assert main(["pin", "--snapshot", snap, "--format", "json"]) == 0
    recs = {r["tool"]: r for r in json.loads(capsys.readouterr().out)["decisions"]}
    assert [f["rule"] for f in recs["directory_tree"]["protocol"]] == ["protocol-input-schema-type"]
    assert "protocol" not in recs["ok"]


def test_pin_is_worded_as_a_baseline_everywhere(capsys):
    """Item 11: ``pin --help`` and docs/pins.md say the same thing."""
    with pytest.raises(SystemExit):
        main(["pin", "--help"])
    out = capsys.readouterr().out
    assert "approve everything" not in out
    assert "baseline, not a blanket approval" in " ".join(out.split())
    docs = (Path(__file__).parent.parent / "docs" / "pins.md").read_text()
    assert "`pin` is a baseline, not a blanket approval" in docs
    top = build_parser().format_help()
    assert "approve what your servers serve" not in top


@pytest.mark.parametrize("command", [c for c, _, _ in COMMANDS])
def test_every_command_help_ends_with_an_example(command, capsys):
    """Item 21: the top-level help promises an example for every command."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    example = out.split("\nexample:\n", 1)
    assert len(example) == 2 and example[1].strip().startswith("mcp-review"), out[-300:]


def test_diff_without_recorded_calls_points_to_the_proxy(tmp_path, monkeypatch, capsys):
    """Item 15: calls get recorded by the proxy, so that is what the hint names."""
    fix = Path(__file__).parent / "fixtures" / "pins"
    monkeypatch.chdir(tmp_path)
    assert main(["pin", "--snapshot", str(fix / "snapshot_v1.json"), "-q"]) == 0
    capsys.readouterr()
    assert main(["diff", "files", "delete_file", "--snapshot", str(fix / "snapshot_v2.json")]) == 0
    out = capsys.readouterr().out
    assert "breaking by schema" in out and "mcp-review proxy" in out, out
    assert "run `gate`" not in out
