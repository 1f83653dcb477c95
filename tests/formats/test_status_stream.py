"""`status` and `check` stream a server's call log (issue 15 item 1): one pass over the file,
replaying every changed tool at once and keeping only the calls the report lists. The
independent truth is the loaded path (``load_call_log``: every call held, grouped per tool),
which the app and ``watch`` still use: both must give the same report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.engine.errors import InputError
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status
from mcp_review.formats import status as fmt
from mcp_review.store.readers import load_call_log, stream_call_log

OLD = {
    "type": "object",
    "properties": {
        "sql": {"type": "string"},
        "limit": {"type": "integer", "maximum": 100},
        "verbose": {},
    },
    "required": ["sql"],
}
NEW = {
    "type": "object",
    "properties": {"sql": {"type": "string"}, "limit": {"type": "integer", "maximum": 10}},
    "required": ["sql"],
}


def _tool(name: str, schema: dict) -> ToolDef:
    return ToolDef.from_wire({"name": name, "description": f"{name} tool", "inputSchema": schema})


def _fixture(tmp_path: Path) -> tuple[Snapshot, PinFile, str]:
    """Three changed tools (q, r, s), one pinned unchanged (p), one removed (gone), one new
    (n); a log mixing them with bare argument objects, a JSON-RPC call and a bad line."""
    snap = Snapshot(
        servers={
            "db": ServerSnapshot(
                name="db",
                tools=[
                    _tool("q", NEW),
                    _tool("r", NEW),
                    _tool("s", NEW),
                    _tool("p", OLD),
                    _tool("n", OLD),
                ],
            )
        }
    )
    pins = PinFile()
    for t in (
        _tool("q", OLD),
        _tool("r", OLD),
        _tool("s", OLD),
        _tool("p", OLD),
        _tool("gone", OLD),
    ):
        pins.decide(make_pin("db", t, Decision.APPROVED, by="t"))
    lines = []
    for i in range(300):
        tool = ("q", "r", "s", "p", "gone", "n")[i % 6]
        if i % 11 == 0:
            args = {"limit": 1}  # a bad recording (no sql)
        elif i % 7 == 0:
            args = {"sql": "x", "verbose": True}  # sends the removed, now ignored, argument
        else:
            args = {"sql": f"select {i}", "limit": i % 40}  # limit > 10 breaks
        lines.append(json.dumps({"tool": tool, "arguments": args}))
        if i % 50 == 0:
            lines.append(json.dumps({"sql": "bare"}))  # names no tool: unattributed
            lines.append("{not json")
            lines.append(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": i,
                        "method": "tools/call",
                        "params": {"name": "q", "arguments": {"sql": "rpc"}},
                    }
                )
            )
    log = tmp_path / "db.jsonl"
    log.write_text("\n".join(lines) + "\n")
    return snap, pins, str(log)


@pytest.mark.parametrize("all_calls", [False, True])
def test_streamed_log_gives_the_report_of_the_loaded_log(tmp_path, all_calls):
    snap, pins, log = _fixture(tmp_path)
    loaded = compute_status(
        snap, pins, calls={"db": load_call_log(log)}, keep_valid_calls=all_calls
    )
    streamed = compute_status(
        snap, pins, calls={"db": stream_call_log(log)}, keep_valid_calls=all_calls
    )
    a = fmt.report_json(loaded, all_calls=all_calls)
    b = fmt.report_json(streamed, all_calls=all_calls)
    assert a == b
    # and the report says something: every kind of call is present, per-tool numbering
    q = next(t for t in a["tools"] if t["tool"] == "q")["comparison"]["replay"]
    assert q["broken"] and q["bad_recordings"] and q["ignored"] and q["valid"]
    assert q["total"] == 50 + 6  # 50 server-log records + 6 JSON-RPC calls
    assert {c["outcome"] for c in q["calls"]} >= {"broken", "bad-recording", "ignored"}
    counts = {t["tool"]: t["calls_recorded"] for t in a["tools"]}
    assert counts == {"q": 56, "r": 50, "s": 50, "p": 50, "gone": 50, "n": 50}
    assert a["servers"][0]["calls"]["unattributed"] == 6
    assert a["servers"][0]["calls"]["skipped"] == 6
    assert fmt.to_text(loaded, all_calls=all_calls) == fmt.to_text(streamed, all_calls=all_calls)


def test_streamed_replay_keeps_only_the_calls_the_report_lists(tmp_path):
    snap, pins, log = _fixture(tmp_path)
    report = compute_status(snap, pins, calls={"db": stream_call_log(log)}, keep_valid_calls=False)
    for t in report.tools:
        if t.comparison is None:
            continue
        r = t.comparison.replay
        kept = len(r.positions("any"))
        assert kept == r.broken + r.bad_recordings + r.ignored
        assert len(r._calls) == kept < r.total  # the valid calls were counted, not held


def test_a_streamed_log_is_opened_when_named_and_holds_no_calls(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        stream_call_log(str(tmp_path / "missing.jsonl"))
    with pytest.raises(InputError, match="directory"):
        stream_call_log(str(tmp_path))
    (tmp_path / "l.jsonl").write_text("")
    log = stream_call_log(str(tmp_path / "l.jsonl"))
    with pytest.raises(ValueError):
        log.for_tool("q")


def test_unreachable_server_still_counts_its_streamed_log(tmp_path):
    _, pins, log = _fixture(tmp_path)
    snap = Snapshot(
        servers={"db": ServerSnapshot(name="db", error={"kind": "timeout", "message": "slow"})}
    )
    a = fmt.report_json(compute_status(snap, pins, calls={"db": load_call_log(log)}))
    b = fmt.report_json(compute_status(snap, pins, calls={"db": stream_call_log(log)}))
    assert a == b and a["servers"][0]["calls"]["unattributed"] == 6


@pytest.mark.parametrize("command", ["status", "check"])
def test_commands_stream_and_match_the_loaded_report(command, tmp_path, capsys):
    snap, pins, log = _fixture(tmp_path)
    (tmp_path / "snap.json").write_text(snap.dumps())
    from mcp_review.store.pinfile import save_pins

    save_pins(pins, str(tmp_path / "pins.toml"))
    opt = "--snapshot" if command == "status" else "--from-snapshot"
    main(
        [
            command,
            opt,
            str(tmp_path / "snap.json"),
            "--pins",
            str(tmp_path / "pins.toml"),
            "--calls",
            f"db={log}",
            "--format",
            "json",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    truth = fmt.report_json(
        compute_status(snap, pins, calls={"db": load_call_log(log)}, keep_valid_calls=False)
    )

    def replays(tools: list[dict]) -> dict[str, object]:
        return {
            t["tool"]: (t["calls_recorded"], (t["comparison"] or {}).get("replay")) for t in tools
        }

    got, want = replays(doc["tools"]), replays(truth["tools"])
    assert got == {k: want[k] for k in got}  # `check` lists only the tools not simply pinned
    assert got["q"][1]["broken"] > 0
    assert (
        main(
            [
                command,
                opt,
                str(tmp_path / "snap.json"),
                "--pins",
                str(tmp_path / "pins.toml"),
                "--calls",
                f"db={tmp_path / 'nope.jsonl'}",
            ]
        )
        == 2
    )
