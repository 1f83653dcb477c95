"""`rerun` and the server's clock, and server-minted handles (issue 26, item 3).

The answers are real: ``tests/fixtures/rerun/mcp-server-time.json`` holds `mcp-server-time`
2026.10.19's own tools/call results, each with the time its call was sent (as the proxy
records it). Offline here; the last tests run the real server through the proxy.

- A date, time or date-time lying within 48 hours of its own call's time, in the recorded and
  in the live answer, is volatile: the two live calls that find volatile values often land in
  the same second, so they alone call ``get_current_time`` changed on every run.
- A wrong answer for a fixed historic date still shows as changed.
- An argument string (8+ characters) that an earlier recorded result of the same server carried
  before any call sent it is a server-minted handle: the call is skipped, never changed.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli, stdio_server_argv

from mcp_review.engine import rerun as core
from mcp_review.engine.model import ToolDef
from mcp_review.engine.rerun import RecordedCall, RerunOutcome, compare, send_verdict
from mcp_review.services.rerun import load_recorded
from mcp_review.store.calllog import CallLog

ROOT = Path(__file__).resolve().parents[2]
CAPTURE = json.loads(
    (ROOT / "tests" / "fixtures" / "rerun" / "mcp-server-time.json").read_text(encoding="utf-8")
)
CALLS = CAPTURE["calls"]
TOOLS = {t["name"]: t for t in CAPTURE["tools"]}


def _recorded(i: int, **kw: Any) -> RecordedCall:
    c = CALLS[i]
    return RecordedCall(
        tool=c["tool"],
        arguments=c["arguments"],
        time=c["time"],
        result=copy.deepcopy(c["result"]),
        **kw,
    )


def _same_second(result: dict[str, Any]) -> dict[str, Any]:
    """The second live answer as it comes when both live calls land in the same second."""
    return copy.deepcopy(result)


def _shift(result: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return json.loads(json.dumps(result).replace(old, new))


def _cmp(rec: RecordedCall, live: dict[str, Any], live_time: str, **kw: Any) -> core.Comparison:
    kw.setdefault("output_schema", TOOLS[rec.tool].get("outputSchema"))
    return compare(rec, live, live2=_same_second(live), live_time=live_time, **kw)


# The clock ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rec", "live"), [(0, 1), (2, 3)])
def test_get_current_time_rerun_is_same_and_says_why(rec: int, live: int):
    """Recorded at one second, re-sent two seconds later (UTC and +01:00), the two live answers
    alike: before, `changed` at /structuredContent/datetime on every run."""
    c = _cmp(_recorded(rec), CALLS[live]["result"], CALLS[live]["time"])
    assert c.outcome is RerunOutcome.SAME, c
    assert c.volatile == ["/structuredContent/datetime"]
    assert c.volatile_reasons == {"/structuredContent/datetime": core.REASON_CLOCK}


def test_a_rerun_a_day_and_a_half_later_is_still_the_clock():
    rec = _recorded(0)
    t0 = CALLS[0]["result"]["structuredContent"]["datetime"]  # 2026-12-01T15:37:30+00:00
    later = _shift(CALLS[0]["result"], t0, t0.replace("T15:", "T03:").replace("-01T", "-03T"))
    live_time = CALLS[0]["time"].replace("T15:", "T03:").replace("-01T", "-03T")
    later = _shift(later, "Tuesday", "Thursday")
    c = _cmp(rec, later, live_time)
    # The day of the week is the server's answer, not a date: it shows (one difference).
    assert [d.pointer for d in c.differences] == ["/structuredContent/day_of_week"]
    assert c.volatile_reasons == {"/structuredContent/datetime": core.REASON_CLOCK}


def test_text_only_answers_set_the_clock_aside_word_by_word():
    """The same real answers without structuredContent: the text's date-time words are the
    clock; any other word that changed is still a difference."""
    rec = _recorded(0)
    assert rec.result is not None
    del rec.result["structuredContent"]
    live = copy.deepcopy(CALLS[1]["result"])
    del live["structuredContent"]
    c = _cmp(rec, live, CALLS[1]["time"], output_schema=None)  # a server without one
    assert c.outcome is RerunOutcome.SAME and c.volatile == ["/content/0/text"]
    assert c.volatile_reasons == {"/content/0/text": core.REASON_CLOCK}
    live["content"][0]["text"] = live["content"][0]["text"].replace('"UTC"', '"GMT"')
    c = _cmp(rec, live, CALLS[1]["time"], output_schema=None)
    assert c.outcome is RerunOutcome.CHANGED
    assert [(d.old, d.new) for d in c.differences] == [('"UTC",', '"GMT",')]


@pytest.mark.parametrize(
    "historic", ["2020-01-01T00:00:00+00:00", "2024-02-29T12:00:00Z", "2020-01-01"]
)
def test_a_wrong_answer_for_a_fixed_historic_date_still_shows(historic: str):
    rec = _recorded(0)
    t0 = CALLS[0]["result"]["structuredContent"]["datetime"]
    c = _cmp(
        rec,
        _shift(CALLS[1]["result"], CALLS[1]["result"]["structuredContent"]["datetime"], historic),
        CALLS[1]["time"],
    )
    assert c.outcome is RerunOutcome.CHANGED
    assert [(d.pointer, d.old, d.new) for d in c.differences] == [
        ("/structuredContent/datetime", t0, historic)
    ]
    # And a historic date recorded, another one live: both far from their calls.
    old = _recorded(0)
    assert old.result is not None
    old.result = _shift(old.result, t0, "2019-06-01T00:00:00+00:00")
    c = _cmp(
        old,
        _shift(CALLS[1]["result"], CALLS[1]["result"]["structuredContent"]["datetime"], historic),
        CALLS[1]["time"],
    )
    assert c.outcome is RerunOutcome.CHANGED and c.volatile == []


def test_a_historic_date_argument_answered_identically_is_same_and_not_volatile():
    """convert_time answers for a fixed time of today: identical answers are simply same."""
    c = _cmp(_recorded(4), CALLS[5]["result"], CALLS[5]["time"])
    assert c.outcome is RerunOutcome.SAME and c.volatile == []


def test_format_in_the_output_schema_marks_a_value_shaped_otherwise():
    """A basic-format date-time (no dashes) is not recognised by shape, only by its schema's
    ``format``."""
    schema = {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}
    rec = RecordedCall(
        "t",
        {},
        time="2026-12-01T15:37:30.226Z",
        result={"structuredContent": {"at": "20261201T153730Z"}},
    )
    live = {"structuredContent": {"at": "20261201T160000Z"}}
    got = compare(rec, live, live2=live, live_time="2026-12-01T16:00:00.000Z", output_schema=schema)
    assert got.outcome is RerunOutcome.SAME and got.volatile_reasons
    got = compare(rec, live, live2=live, live_time="2026-12-01T16:00:00.000Z")
    assert got.outcome is RerunOutcome.CHANGED  # no format: not a date by shape


def test_without_call_times_nothing_is_set_aside():
    rec = _recorded(0)
    rec.time = None
    c = _cmp(rec, CALLS[1]["result"], CALLS[1]["time"])
    assert c.outcome is RerunOutcome.CHANGED


# Server-minted handles -------------------------------------------------------------------------

RO = TOOLS["get_current_time"]
DIGEST = ToolDef.from_wire(RO).digest


def _log(tmp_path: Path, entries: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> str:
    path = str(tmp_path / "calls.jsonl")
    log = CallLog(path, server="time", record_results=True)
    for i, (tool, args, result) in enumerate(entries):
        t = log.record_call(tool, args, i + 1, digest=DIGEST)
        log.record_result(tool, i + 1, t, {"result": result})
        time.sleep(0.002)  # distinct call times (milliseconds)
    log.close()
    return path


def _verdicts(calls: list[RecordedCall]) -> list[core.SendVerdict]:
    return [
        send_verdict(
            c,
            pin_decision="approved",
            pin_digest=DIGEST,
            pin_wire=RO,
            live_wire=RO,
            live_digest=DIGEST,
        )
        for c in calls
    ]


def test_an_argument_the_server_minted_earlier_is_a_stale_handle(tmp_path: Path):
    page = {"structuredContent": {"id": "pg_3f2a9c01d"}, "content": []}
    said = {"content": [{"type": "text", "text": "Created cursor c-77aa01bb9 for you"}]}
    path = _log(
        tmp_path,
        [
            ("create_page", {}, page),
            ("open_cursor", {}, said),
            ("get_current_time", {"timezone": "pg_3f2a9c01d"}, CALLS[0]["result"]),
            ("get_current_time", {"timezone": "x", "after": ["c-77aa01bb9"]}, CALLS[0]["result"]),
            ("get_current_time", {"timezone": "short"}, CALLS[0]["result"]),
        ],
    )
    calls = {json.dumps(c.arguments): c for c in load_recorded(path, server="time")}
    minted = calls[json.dumps({"timezone": "pg_3f2a9c01d"})]
    assert minted.minted == ("/timezone", "pg_3f2a9c01d")
    assert calls[json.dumps({"timezone": "x", "after": ["c-77aa01bb9"]})].minted == (
        "/after/0",
        "c-77aa01bb9",
    )
    assert calls[json.dumps({"timezone": "short"})].minted is None
    (v,) = _verdicts([minted])
    assert not v.send and v.outcome is RerunOutcome.SKIPPED
    assert "server-minted handle" in v.reason and "/timezone" in v.reason


def test_a_value_the_client_sent_first_and_the_server_echoed_is_no_handle(tmp_path: Path):
    """The real answers echo the timezone the client sent ("Europe/Warsaw"): the client said
    it first, so a later call sending it again is re-sent."""
    path = _log(
        tmp_path,
        [
            (CALLS[2]["tool"], CALLS[2]["arguments"], CALLS[2]["result"]),
            (CALLS[3]["tool"], CALLS[3]["arguments"], CALLS[3]["result"]),
            (CALLS[4]["tool"], CALLS[4]["arguments"], CALLS[4]["result"]),
        ],
    )
    calls = load_recorded(path, server="time")
    assert [c.minted for c in calls] == [None, None, None]
    assert all(v.send for v in _verdicts(calls))


def test_another_servers_result_mints_nothing_here(tmp_path: Path):
    path = str(tmp_path / "calls.jsonl")
    other = CallLog(path, server="other", record_results=True)
    t = other.record_call("create_page", {}, 1)
    other.record_result(
        "create_page", 1, t, {"result": {"structuredContent": {"id": "pg_3f2a9c01d"}}}
    )
    other.close()
    time.sleep(0.002)
    log = CallLog(path, server="time", record_results=True)
    t = log.record_call("get_current_time", {"timezone": "pg_3f2a9c01d"}, 2, digest=DIGEST)
    log.record_result("get_current_time", 2, t, {"result": CALLS[0]["result"]})
    log.close()
    (c,) = load_recorded(path, server="time")
    assert c.minted is None


# The real server, through the proxy -------------------------------------------------------------

needs_time = pytest.mark.skipif(
    importlib.util.find_spec("mcp_server_time") is None,
    reason="mcp-server-time is not installed: pip install -e '.[test]' installs it",
)


def _cli(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (helpers.run_cli): the server and the proxy stay real."""
    return run_cli(
        args,
        cwd=tmp,
        env={**os.environ, "XDG_STATE_HOME": os.environ.get("XDG_STATE_HOME", str(tmp / "st"))},
    )


@pytest.mark.slow
@needs_time
def test_rerun_and_check_rerun_on_mcp_server_time_pass_without_rerun_ignore(tmp_path: Path):
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    cfg = tmp_path / "mcp-review.toml"
    cfg.write_text(
        'pins = "mcp-pins.toml"\n\n[servers.time]\n'
        f"command = {json.dumps(sys.executable)}\n"
        f"args = {json.dumps(stdio_server_argv('-m', 'mcp_server_time', '--local-timezone', 'UTC')[1:])}\n"
        'calls = "calls.jsonl"\nrecord_results = true\ntimeout = 60\n'
    )
    r = _cli(tmp_path, "pin", "--config", str(cfg), "--yes", "-q")
    assert r.returncode == 0, r.stderr
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_review", "proxy", "time", "--config", str(cfg)],
        env={"XDG_STATE_HOME": os.environ.get("XDG_STATE_HOME", str(tmp_path / "st"))},
        cwd=str(tmp_path),
    )

    async def record() -> None:
        async with Client(stdio_client(params), mode="legacy", cache=None) as c:
            await c.list_tools()
            await c.call_tool("get_current_time", {"timezone": "UTC"})
            await c.call_tool("get_current_time", {"timezone": "Europe/Warsaw"})
            await c.call_tool(
                "convert_time",
                {"source_timezone": "UTC", "time": "14:00", "target_timezone": "Asia/Tokyo"},
            )

    anyio.run(record)
    time.sleep(1.2)  # the live answers are at least a second later than the recorded ones
    r = _cli(tmp_path, "rerun", "time", "--config", str(cfg), "--yes", "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    calls = json.loads(r.stdout)["calls"]
    assert sorted(c["outcome"] for c in calls) == ["same"] * 3, calls
    clock = [c for c in calls if c["tool"] == "get_current_time"]
    assert all(
        c["volatile_reasons"] == {"/structuredContent/datetime": core.REASON_CLOCK} for c in clock
    )
    r = _cli(tmp_path, "check", "--config", str(cfg), "--rerun", "--yes", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "gate with rerun: PASS (exit 0)" in r.stdout
    # a mistyped tool: the note names the pinned tools and the closest one
    r = _cli(tmp_path, "rerun", "time", "get_curent_time", "--config", str(cfg), "--yes")
    assert "no recorded call of tool 'get_curent_time'" in r.stderr, r.stderr
    assert "known tools: convert_time, get_current_time" in r.stderr, r.stderr
    assert "Did you mean 'get_current_time'?" in r.stderr, r.stderr
