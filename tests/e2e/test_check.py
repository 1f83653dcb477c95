"""`check` and `snapshot` end to end through the CLI against a live Streamable HTTP server."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from helpers import stdio_server
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.cli import main

TOKEN = "ci-token-5a9f0c2e"
SERVERS = Path(__file__).parent.parent / "servers"


def base_tools() -> list[dict]:
    return [
        tool("search", "Search the web.", q={"type": "string"}),
        tool("fetch", "Fetch a URL.", url={"type": "string"}),
    ]


@pytest.fixture(scope="module")
def live():
    ts = ToolServer(base_tools(), version="1.0")
    with serve_http(ts.http_app(token=TOKEN)) as url:
        yield ts, url


@pytest.fixture
def project(live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ts, url = live
    ts.tools = base_tools()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WEB_TOKEN", TOKEN)
    (tmp_path / "mcp-review.toml").write_text(
        f'timeout = 10\n\n[servers.web]\nurl = "{url}"\n'
        'headers = { Authorization = "Bearer ${WEB_TOKEN}" }\n'
    )
    assert main(["snapshot", "--out", "base.json", "-q"]) == 0
    assert main(["pin", "--snapshot", "base.json", "--yes"]) == 0
    return ts, tmp_path


def check(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(["check", "-q", *args])
    out = capsys.readouterr().out
    assert TOKEN not in out
    return rc, out


def test_unchanged_passes(project, capsys):
    rc, out = check(capsys)
    assert rc == 0 and "PASS" in out and "web" in out and "2 tools" in out


def test_breaking_change_fails_in_every_format(project, capsys):
    ts, _ = project
    ts.tools = [
        tool("search", "Search the web.", q={"type": "string"}),
        {
            **tool("fetch", "Fetch a URL.", url={"type": "string"}, depth={"type": "integer"}),
            "inputSchema": {
                "type": "object",
                "required": ["url", "depth"],
                "properties": {"url": {"type": "string"}, "depth": {"type": "integer"}},
            },
        },
    ]
    rc, out = check(capsys)
    assert rc == 1 and "BROKEN" in out and "web/fetch" in out and "breaking" in out
    rc, out = check(capsys, "--format", "json")
    doc = json.loads(out)
    assert rc == 1 and doc["verdict"] == "FAIL" and doc["exit_code"] == 1
    (t,) = doc["tools"]
    assert (t["tool"], t["status"], t["fails_gate"]) == ("fetch", "broken", True)
    assert any(c["class"] == "breaking" for c in t["comparison"]["changes"])
    assert doc["servers"][0]["tools"] == 2 and doc["servers"][0]["error"] is None
    rc, out = check(capsys, "--format", "markdown")
    assert rc == 1 and out.startswith("## ❌ mcp-review check: FAIL")
    assert "| ❌ | web/fetch | broken |" in out and "<details>" in out
    rc, out = check(capsys, "--format", "sarif")
    sarif = json.loads(out)
    assert rc == 1 and sarif["version"] == "2.1.0"
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["error"]
    # --fail-on breaking still fails on this one.
    assert check(capsys, "--fail-on", "breaking")[0] == 1


def test_fail_on_levels(project, capsys):
    ts, _ = project
    # A description rewrite is a trust change: it waits for review but breaks nothing.
    ts.tools = [
        # (An honest rewrite: "send results to evil.example" would now block, issue 27.)
        tool("search", "Search the web, newest results first.", q={"type": "string"}),
        tool("fetch", "Fetch a URL.", url={"type": "string"}),
    ]
    assert check(capsys)[0] == 1
    assert check(capsys, "--fail-on", "review")[0] == 1
    assert check(capsys, "--fail-on", "breaking")[0] == 0
    # A new optional property is compatible: auto-approved under "tiered", drift under "any".
    ts.tools = [
        tool("search", "Search the web.", q={"type": "string"}, n={"type": "integer"}),
        tool("fetch", "Fetch a URL.", url={"type": "string"}),
    ]
    rc, out = check(capsys)
    assert rc == 0 and "auto-approve" in out
    assert check(capsys, "--fail-on", "any")[0] == 1


def test_unreachable_server_exits_3(project, capsys):
    _, root = project
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    cfg = root / "mcp-review.toml"
    cfg.write_text(cfg.read_text() + f'\n[servers.gone]\nurl = "http://127.0.0.1:{port}/mcp"\n')
    rc, out = check(capsys)
    assert rc == 3 and "UNREACHABLE" in out and "refused" in out
    rc, out = check(capsys, "--format", "json")
    doc = json.loads(out)
    assert doc["verdict"] == "UNREACHABLE"
    assert {s["server"]: (s["error"] or {}).get("kind") for s in doc["servers"]} == {
        "gone": "refused",
        "web": None,
    }


def test_snapshot_then_offline_check(project, capsys):
    ts, root = project
    ts.tools = base_tools()[:1]  # "fetch" disappears
    assert main(["snapshot", "--out", "now.json", "-q"]) == 0
    snap = json.loads((root / "now.json").read_text())
    assert [t["name"] for t in snap["servers"]["web"]["tools"]] == ["search"]
    assert TOKEN not in (root / "now.json").read_text()
    ts.tools = base_tools()  # the live server is back to normal: the offline check must not care
    rc, out = check(capsys, "--from-snapshot", "now.json")
    assert rc == 1 and "REMOVED" in out and "web/fetch" in out


def test_config_and_usage_errors_exit_2(project, capsys):
    _, root = project
    assert main(["check", "--config", str(root / "missing.toml")]) == 2
    assert "config file not found" in capsys.readouterr().err
    (root / "bad.toml").write_text('[servers.x]\nurl = "https://h/${NOT_SET_ANYWHERE}"\n')
    assert main(["check", "--config", "bad.toml"]) == 2
    assert (
        "bad.toml:2: server 'x': url: environment variable NOT_SET_ANYWHERE"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as ei:
        main(["check", "--fail-on", "sometimes"])
    assert ei.value.code == 2


@pytest.mark.slow
def test_stdio_server_from_mcp_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    """Claude Code's .mcp.json as it is, a stdio server, pinned then changed."""
    monkeypatch.chdir(tmp_path)
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps(base_tools()))
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "local": {
                        **stdio_server(SERVERS / "toolserver.py"),
                        "env": {"MCP_REVIEW_TOOLS_FILE": str(tools_file)},
                    }
                }
            }
        )
    )
    assert main(["trust"]) == 0  # a discovered client config runs only once trusted
    assert main(["snapshot", "--out", "s.json", "-q"]) == 0
    assert main(["pin", "--snapshot", "s.json", "--yes"]) == 0
    assert (tmp_path / ".mcp-review" / "logs" / "local.stderr.log").exists()
    tools_file.write_text(json.dumps([*base_tools(), tool("delete_all", "Deletes everything.")]))
    rc, out = check(capsys)
    assert rc == 1 and "NEW" in out and "local/delete_all" in out
