"""A new tool whose blocking cue rests on one reading alone, through the real CLI on a snapshot
file and a pin file on disk (issue 39, corroboration at first sight; engine/cue_corroborate.py):
`status` and `check` show the cue's rule id and its level (attention), the tool waits for
review instead of being blocked, and `pin` does not hold it back as blocked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import published_tool

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot

# benchmarks/eval/honest_dev7/npm_digitalocean_mcp.json (npm @digitalocean/mcp@1.0.70)
CREDENTIALS = published_tool("honest_dev7/npm_digitalocean_mcp.json", "vector-db-get-credentials")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, _ = capsys.readouterr()
    return rc, out


def test_cli_shows_an_uncorroborated_cue_at_attention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    srv = ServerSnapshot(name="digitalocean", tools=[ToolDef.from_wire(CREDENTIALS, source="test")])
    snap = tmp_path / "snap.json"
    snap.write_text(Snapshot({"digitalocean": srv}).dumps(), encoding="utf-8")
    pins = str(tmp_path / "mcp-pins.toml")
    for argv in (
        ("status", "--snapshot", str(snap), "--pins", pins, "--format", "json"),
        ("check", "--from-snapshot", str(snap), "--pins", pins, "--format", "json"),
    ):
        _, out = _run(capsys, *argv)
        (tool,) = json.loads(out)["tools"]
        got = {c["rule"]: c for c in tool["cues"]}
        assert "cue.secret.uncorroborated" in got, (argv, tool["cues"])
        cue = got["cue.secret.uncorroborated"]
        assert cue["level"] == "attention" and cue["kind"] == "secret"
        assert "one reading only: cue.secret.ask" in cue["text"]
        assert all(c["level"] != "block" for c in tool["cues"]), tool["cues"]
        assert tool["policy"]["outcome"] == "review", tool["policy"]
        assert any(
            r.startswith("cue needs attention: secret (cue.secret.uncorroborated)")
            for r in tool["policy"]["reasons"]
        ), tool["policy"]["reasons"]
    _, text = _run(capsys, "status", "--snapshot", str(snap), "--pins", pins, "--verbose")
    assert "cue secret (cue.secret.uncorroborated)" in text, text
    assert "[BLOCK]" not in text, text
    # `pin` of the snapshot: the tool waits for a human (attention), it is not held as blocked
    _, out = _run(capsys, "pin", "--snapshot", str(snap), "--pins", pins, "--format", "json")
    doc = json.loads(out)
    assert not any("blocked" in h.get("why", "") for h in doc["skipped"]), doc
