"""Servers in the wild (issue 14 item 1): a tool list the SDK's models reject is read as sent.

The servers here speak raw JSON-RPC (tests/servers/hostile.py, no SDK) over stdio and over
Streamable HTTP: the two fetch paths send the raw ``tools/list`` through different transports.
The published release at the end is a real one that sends an untyped ``inputSchema``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import stdio_server_argv
from servers.hostile import DEVIANT_TOOLS, WILD_TOOLS, hostile_http_app
from servers.proxy_harness import SERVERS, RawClient
from servers.toolserver import serve_http

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.engine.protocol import RULES, tool_findings
from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import fetch_all
from mcp_review.store.pinfile import load_pins, save_pins

HOSTILE_PY = Path(__file__).parent.parent / "servers" / "hostile.py"


def stdio(name: str, mode: str) -> ServerConfig:
    argv = stdio_server_argv(HOSTILE_PY, mode)
    return ServerConfig(name, command=argv[0], args=tuple(argv[1:]), timeout=60)


def _by_name(snap: Any, server: str) -> dict[str, ToolDef]:
    s = snap.servers[server]
    assert s.error is None, s.error
    return {t.name: t for t in s.tools}


# --- reading -----------------------------------------------------------------------------------


async def test_untyped_input_schema_beside_a_valid_tool_is_read_as_sent_stdio(tmp_path):
    snap = await fetch_all([stdio("fs", "wild")], log_dir=tmp_path / "logs")
    assert set(_by_name(snap, "fs")) == {"search", "read_file"}
    # Both read, each exactly as sent (the independent truth: the server's own dicts).
    assert [t.wire for t in snap.servers["fs"].tools] == WILD_TOOLS


@pytest.mark.slow
async def test_untyped_input_schema_is_read_as_sent_over_http():
    with serve_http(hostile_http_app("wild")) as url:
        snap = await fetch_all([ServerConfig("fs", transport="http", url=url, timeout=60)])
    assert [t.wire for t in snap.servers["fs"].tools] == WILD_TOOLS


async def test_each_deviation_is_a_finding_on_its_tool_never_a_server_error(tmp_path):
    snap = await fetch_all([stdio("d", "deviant")], log_dir=tmp_path / "logs")
    s = snap.servers["d"]
    assert s.error is None, s.error
    named = [t for t in DEVIANT_TOOLS if isinstance(t.get("name"), str)]
    assert [t.wire for t in s.tools] == named  # paged raw, every named object, in order
    assert s.notes == [
        "entry #6 of the tool list has no string 'name': not a tool, not read "
        "(MCP schema: Tool requires a name)"
    ]
    from mcp_review.engine.pins import PinFile
    from mcp_review.engine.status import compute_status

    report = compute_status(snap, PinFile(), witnesses=False)
    found = {t.tool: [(f.rule, f.pointer) for f in t.protocol] for t in report.tools}
    assert found == {
        "good": [],
        "has space": [("protocol-name-pattern", "/name")],
        "numbered": [("protocol-field-type", "/description")],
        "annotated": [("protocol-field-type", "/annotations")],
        "twice": [("protocol-duplicate-name", "/name")],
    }
    assert report.servers[0].notes == s.notes
    msg = {t.tool: t.protocol[0].message for t in report.tools if t.protocol}
    assert "MCP 2025-11-25 schema" in msg["numbered"] and "Tool.description" in msg["numbered"]


@pytest.mark.parametrize("transport", ["stdio", pytest.param("http", marks=pytest.mark.slow)])
async def test_a_result_that_is_not_a_list_of_objects_is_a_server_error(tmp_path, transport):
    if transport == "stdio":
        snap = await fetch_all([stdio("x", "notalist")], log_dir=tmp_path / "logs")
    else:
        with serve_http(hostile_http_app("notalist")) as url:
            snap = await fetch_all([ServerConfig("x", transport="http", url=url, timeout=60)])
    err = snap.servers["x"].error
    assert err is not None and err["kind"] == "malformed-tool-list", err
    assert "no 'tools' array" in err["message"] and snap.servers["x"].tools == []


def test_findings_follow_the_protocol_version():
    bad_name = {"name": "a b", "inputSchema": {"type": "object"}, "outputSchema": {}}
    assert [f.rule for f in tool_findings(bad_name, "2025-11-25")] == [
        "protocol-name-pattern",
        "protocol-output-schema-type",
    ]
    # Before 2025-11-25 no name pattern; before 2025-06-18 no outputSchema at all.
    assert [f.rule for f in tool_findings(bad_name, "2025-06-18")] == [
        "protocol-output-schema-type"
    ]
    assert tool_findings(bad_name, "2025-03-26") == []
    assert {f.rule for f in tool_findings({"name": "t"}, None)} <= set(RULES)
    assert [f.rule for f in tool_findings({"name": "t"}, None)] == ["protocol-input-schema-missing"]
    assert [
        f.pointer
        for f in tool_findings(
            {
                "name": "t",
                "inputSchema": {"type": "object", "required": "q"},
                "annotations": {"readOnlyHint": "yes"},
            },
            None,
        )
    ] == ["/inputSchema/required", "/annotations/readOnlyHint"]


# --- pinned and reviewed end to end -----------------------------------------------------------


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mcp-review.toml").write_text(
        f"[servers.fs]\ncommand = {json.dumps(sys.executable)}\n"
        f"args = {json.dumps(stdio_server_argv(HOSTILE_PY, 'wild')[1:])}\ntimeout = 60\n"
    )


def _run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(list(args))
    return rc, capsys.readouterr().out


@pytest.mark.slow
def test_untyped_tool_is_reviewed_pinned_and_reported(tmp_path, monkeypatch, capsys):
    _project(tmp_path, monkeypatch)
    rc, out = _run(capsys, "check", "-q")
    assert rc == 1, out
    assert "NEW      fs/search" in out and "NEW      fs/read_file" in out
    assert (
        "protocol: protocol-input-schema-type /inputSchema/type: Tool.inputSchema has no "
        'type (MCP 2025-11-25 schema: Tool.inputSchema.type must be "object")'
    ) in out
    rc, out = _run(capsys, "check", "-q", "--format", "json")
    doc = json.loads(out)
    assert doc["servers"][0]["error"] is None and doc["servers"][0]["tools"] == 2
    prot = {t["tool"]: [f["rule"] for f in t["protocol"]] for t in doc["tools"]}
    assert prot == {"read_file": ["protocol-input-schema-type"], "search": []}
    rc, out = _run(capsys, "check", "-q", "--format", "sarif")
    rules = [r["ruleId"] for r in json.loads(out)["runs"][0]["results"]]
    assert rules.count("protocol-input-schema-type") == 1
    rc, out = _run(capsys, "check", "-q", "--format", "markdown")
    assert "| protocol | protocol-input-schema-type | /inputSchema/type |" in out
    assert "fs/read_file: 1 protocol finding(s)</summary>" in out

    for name in ("read_file", "search"):
        assert main(["approve", "fs", name, "--yes", "-q"]) == 0
    pins = load_pins("mcp-pins.toml")
    pinned = pins.for_server("fs", "default")
    # Pinned exactly as sent: the untyped schema is the approved definition.
    assert pinned["read_file"].tool_def().wire == WILD_TOOLS[1]
    assert pinned["search"].tool_def().wire == WILD_TOOLS[0]
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 2 pinned" in out, out


# --- the proxy --------------------------------------------------------------------------------


@pytest.mark.slow
def test_proxy_relays_a_pinned_untyped_tool_and_withholds_duplicate_names(tmp_path: Path):
    untyped = WILD_TOOLS[1]
    echo = {"name": "echo", "inputSchema": {"type": "object"}}
    pins = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(pins))
    for t in (untyped, echo):
        pf.decide(make_pin("srv", ToolDef.from_wire(t), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    # echo is pinned, but listed twice (identical copies): which one runs is still a guess.
    (tmp_path / "tools.json").write_text(json.dumps([untyped, echo, echo]))
    env = {
        "HOSTILE_RECORD": str(tmp_path / "received.jsonl"),
        "HOSTILE_TOOLS": str(tmp_path / "tools.json"),
        "HOSTILE_FLAGS": "",
    }
    with RawClient(
        tmp_path,
        "--enforce",
        "--pins",
        str(pins),
        "--name",
        "srv",
        env=env,
        server=[sys.executable, str(SERVERS / "proxy_hostile.py")],
    ) as c:
        c.initialize()
        listed = c.request("tools/list")["result"]["tools"]
        assert listed == [untyped]  # relayed byte for byte as the pin allows
        ok = c.request("tools/call", {"name": "read_file", "arguments": {"path": "/a"}})
        assert "error" not in ok, ok
        err = c.request("tools/call", {"name": "echo", "arguments": {}})["error"]
        assert err["data"]["status"] == "ambiguous"
        assert c.close() == 0


# --- the real published release ---------------------------------------------------------------

FS_RELEASE = "@modelcontextprotocol/server-filesystem@2025.8.21"
"""A release that, installed today (its zod-to-json-schema meets a newer hoisted zod), sends
``inputSchema: {"$schema": "http://json-schema.org/draft-07/schema#"}`` for every tool."""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
async def test_published_filesystem_release_with_untyped_schemas(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    cfg = ServerConfig("fs", command="npx", args=("-y", FS_RELEASE, str(root)), timeout=180)
    snap = await fetch_all([cfg], log_dir=tmp_path / "logs")
    s = snap.servers["fs"]
    assert s.error is None, s.error
    names = {t.name for t in s.tools}
    assert {"read_file", "write_file", "list_directory"} <= names and len(names) >= 10
    from mcp_review.engine.pins import PinFile
    from mcp_review.engine.status import State, compute_status

    untyped = [t for t in s.tools if "type" not in t.input_schema]
    assert untyped, "the release sent typed schemas: pick an older one"
    report = compute_status(snap, PinFile(), witnesses=False)
    by_tool = {t.tool: t for t in report.tools}
    for t in untyped:
        assert [f.rule for f in by_tool[t.name].protocol] == ["protocol-input-schema-type"]
    # Pinned as sent, the same list is pinned on the next look.
    pins = PinFile()
    for t in s.tools:
        pins.decide(make_pin("fs", t, Decision.APPROVED, by="test"))
    again = compute_status(snap, pins, witnesses=False)
    assert {t.state for t in again.tools} == {State.PINNED}
