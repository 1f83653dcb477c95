"""Issue 44 item 6: under --enforce, a change that is a host regression for the connected
client's profile (its clientInfo) is held when the approved definition is accepted there: a
real SDK client (clientInfo of Claude Code) through `mcp-review proxy --enforce` still lists v1."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from helpers import stdio_server_argv
from servers.proxy_harness import SERVERS, sdk_proxy_params
from test_hosts_loopback import OTHER, V1, V2

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.services.proxy.enforce import PinEnforcer
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.slow

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp_types import Implementation  # noqa: E402


def _pins(tmp: Path, *tools: dict) -> Path:
    pins = tmp / "mcp-pins.toml"
    pf = load_pins(str(pins))
    for t in tools:
        pf.decide(make_pin("notes", ToolDef.from_wire(t), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    return pins


def test_the_enforcer_holds_a_regression_of_the_connected_host(tmp_path: Path):
    pins = _pins(tmp_path, V1)
    shared = PinEnforcer(str(pins), "notes")
    before = shared.check([V2])["search"]
    assert not before.allowed  # no client profile: the digest moved, nothing named: withheld
    assert shared.for_client("some client") is shared  # no profile: the same gate
    gate = shared.for_client("claude-code")
    assert gate is not shared and not shared.check([V2])["search"].allowed  # others unchanged
    v = gate.check([V2])["search"]
    assert v.allowed and v.status == "held", v
    assert v.row == "host-regression" and v.enforcement == "held"  # its own precedence row
    assert "host-claude-code-root-combinator" in v.reason
    assert v.hold is not None and v.hold.pinned == V1
    # A client of another host (VS Code) is not served v1 for Claude's sake.
    assert not shared.for_client("Visual Studio Code").check([V2])["search"].allowed
    # The approved definition refused there too: nothing better to serve, withheld.
    bad_v1 = {**V1, "inputSchema": {**V1["inputSchema"], "oneOf": [{"required": ["query"]}]}}
    (tmp_path / "b").mkdir()
    gate2 = PinEnforcer(str(_pins(tmp_path / "b", bad_v1)), "notes").for_client("claude-code")
    assert not gate2.check([V2])["search"].allowed


async def test_a_real_claude_client_through_the_enforcing_proxy_still_lists_v1(tmp_path: Path):
    pins = _pins(tmp_path, V1, OTHER)
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps([V2, OTHER]))
    params = sdk_proxy_params(
        tmp_path,
        "--enforce",
        "--pins",
        str(pins),
        "--name",
        "notes",
        server=stdio_server_argv(SERVERS / "toolserver.py"),  # forked warm (tests/helpers.py)
        env={"MCP_REVIEW_TOOLS_FILE": str(tools_file)},
    )
    with anyio.fail_after(120), open(tmp_path / "proxy.log", "a") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog),
            mode="legacy",
            cache=None,
            read_timeout_seconds=60,
            client_info=Implementation(name="claude-code", version="2.1.0"),
        ) as c:
            listed = {
                t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json")
                for t in (await c.list_tools()).tools
            }
    assert set(listed) == {"search", "fetch"}
    assert listed["search"]["inputSchema"] == V1["inputSchema"]  # v1, no root anyOf
    # The session's client was recorded beside the call log; `status` infers the host from it.
    from mcp_review.cli import main
    from mcp_review.store.calllog import read_clients

    assert set(read_clients(str(tmp_path / "calls.jsonl"))) == {"claude-code"}

    (tmp_path / "mcp-review.toml").write_text(
        f'[servers.notes]\ncommand = "true"\ncalls = "{tmp_path / "calls.jsonl"}"\n'
    )
    (tmp_path / "snap.json").write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "servers": {"notes": {"principal": "default", "tools": [V2, OTHER]}},
            }
        )
    )
    rc = main(
        [
            "status", "--config", str(tmp_path / "mcp-review.toml"), "--pins", str(pins),
            "--snapshot", str(tmp_path / "snap.json"), "--format", "json", "-q",
        ]
    )  # fmt: skip
    assert rc == 1


def test_the_recorded_client_makes_its_host_a_target(tmp_path: Path, capsys: pytest.CaptureFixture):
    from mcp_review.cli import main
    from mcp_review.store.calllog import read_clients, record_client

    log = tmp_path / "calls.jsonl"
    record_client(str(log), "claude-code", "2.1.0")
    record_client(str(log), "some other client")
    assert set(read_clients(str(log))) == {"claude-code", "some other client"}
    pins = _pins(tmp_path, V1, OTHER)
    (tmp_path / "mcp-review.toml").write_text(
        f'[servers.notes]\ncommand = "true"\ncalls = "{log}"\n'
    )
    (tmp_path / "snap.json").write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "servers": {"notes": {"principal": "default", "tools": [V2, OTHER]}},
            }
        )
    )
    capsys.readouterr()
    argv = ["status", "--config", str(tmp_path / "mcp-review.toml"), "--pins", str(pins)]
    assert main([*argv, "--snapshot", str(tmp_path / "snap.json"), "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert "hosts judged: claude-code (inferred from clientInfo seen by the proxy" in captured.err
    doc = json.loads(captured.out)
    (t,) = [t for t in doc["tools"] if t["tool"] == "search"]
    assert [h["rule"] for h in t["hosts"]] == ["host-claude-code-root-combinator"]
    assert t["status"] == "broken"
