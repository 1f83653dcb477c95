"""Security, round 4 (issue 40): the attacker's tests.

- item 4: a planted call log with a lone surrogate is read, never a traceback;
- item 2: every call the proxy forwards is in the call log (surrogates kept as escapes), the
  record written before the call is forwarded, and a log that cannot be written refuses the
  call under ``--enforce`` and is counted (and said) in record-only mode;
- item 3: no byte crashes the proxy (a held tool's argument key, a result's key);
- item 1: one precedence list (withheld / held / served), the refusal names no command;
- item 5: a printed decide command names exactly one tool.
Real stdio servers (tests/servers/proxy_hostile.py records every byte it receives) and the
HTTP front (tests/test_proxy_http.py's harness)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.store.pinfile import load_pins, save_pins

SUR, LOW = "\ud800", "\udfff"


def _pin(pins: Path, server: str, tools: list[dict[str, Any]], decision: Any = None) -> None:
    pf = load_pins(str(pins))
    for t in tools:
        pf.decide(make_pin(server, ToolDef.from_wire(t), decision or Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))


# --- item 4: a planted call log ------------------------------------------------------------

OLD = {
    "name": "read",
    "description": "read a file",
    "inputSchema": {
        "type": "object",
        "properties": {"p": {"type": "string"}, "q": {"type": "integer"}},
    },
}


def _planted(tmp: Path) -> None:
    """A pinned ``read`` whose new definition requires ``p``; a call log whose line 2 holds a
    lone surrogate (key and value) and whose lines 1 and 3 are ordinary: line 3 breaks."""
    new = json.loads(json.dumps(OLD))
    new["inputSchema"]["required"] = ["p"]
    (tmp / "old.json").write_text(json.dumps(OLD))
    (tmp / "new.json").write_text(json.dumps(new))
    snap = {
        "format": "mcp-review-snapshot",
        "version": 1,
        "taken_at": "2026-01-01T00:00:00Z",
        "servers": {"s": {"principal": "default", "tools": [new]}},
    }
    (tmp / "snap.json").write_text(json.dumps(snap))
    _pin(tmp / "mcp-pins.toml", "s", [OLD])
    rec = {"time": "2026-01-01T00:00:00Z", "server": "s", "principal": "default", "tool": "read"}
    lines = [
        {**rec, "arguments": {"p": "a"}},
        {**rec, "arguments": {f"k{SUR}": LOW, "p": f"v{SUR}"}},
        {**rec, "arguments": {"q": 1}},
    ]
    (tmp / "calls.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


@pytest.mark.parametrize("seed", range(3))
def test_a_planted_call_log_line_with_a_lone_surrogate_is_read_and_named(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONHASHSEED", str(seed))
    _planted(tmp_path)
    calls = ["--calls", "s=calls.jsonl"]
    runs = [
        ["gate", "old.json", "new.json", "calls.jsonl"],
        ["gate", "old.json", "new.json", "calls.jsonl", "--format", "json"],
        ["status", "--snapshot", "snap.json", *calls],
        ["check", "--from-snapshot", "snap.json", *calls],
        ["diff", "s", "read", "--snapshot", "snap.json", *calls],
    ]
    for argv in runs:
        rc = main(argv)
        out, err = capfd.readouterr()
        assert "Traceback" not in err, (argv, err[-2000:])
        # Line 3 still breaks (the rest of the log was read): a failing verdict, not an input
        # error (diff shows, exit 0), and the planted line is named with its file and line.
        assert rc == (0 if argv[0] == "diff" else 1), (argv, rc, err[-800:])
        assert "line 2" in out + err, (argv, out[-800:], err[-800:])
        assert "lone surrogate" in out + err, argv
        (out + err).encode("utf-8")
        if argv[-1] == "json":  # the rest was read: line 3 is the broken call
            doc = json.loads(out)
            calls = doc["replay"]["calls"] if "replay" in doc else doc["calls"]
            assert [(c["line"], c["outcome"]) for c in calls] == [(3, "broken")], calls
    # Nothing but planted lines: an input error, named.
    rec = {"time": "2026-01-01T00:00:00Z", "server": "s", "tool": "read"}
    (tmp_path / "calls.jsonl").write_text(json.dumps({**rec, "arguments": {SUR: 1}}) + "\n")
    assert main(["gate", "old.json", "new.json", "calls.jsonl"]) == 2
    _, err = capfd.readouterr()
    assert "no record could be read" in err and "Traceback" not in err
