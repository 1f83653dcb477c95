"""Fetching live tool lists over real transports: in-process, stdio subprocess, Streamable HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import stdio_server_argv
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.engine.snapshot import parse_snapshot
from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import Progress, fetch_all, fetch_server, log_path

SERVERS = Path(__file__).parent.parent / "servers"
TOKEN = "tok-7f3a-very-secret"


def names(snap, server):
    return [t.name for t in snap.servers[server].tools]


# --- in-process ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_in_process_list_changes_between_fetches(mode: str):
    ts = ToolServer([tool("a"), tool("b"), tool("c"), tool("d"), tool("e")], version="1.2")
    cfg = ServerConfig("local", target=ts.server, mode=mode, timeout=60)
    first = await fetch_all([cfg])
    s = first.servers["local"]
    assert s.error is None
    assert names(first, "local") == ["a", "b", "c", "d", "e"]  # three pages of two
    assert s.server_info == {"name": "toolserver", "version": "1.2"}
    assert s.protocol_version == ("2026-07-28" if mode == "auto" else "2025-11-25")
    ts.tools = [tool("a", "now does something else"), tool("f", q={"type": "string"})]
    second = await fetch_all([cfg])
    assert names(second, "local") == ["a", "f"]
    assert second.servers["local"].tools[0].description == "now does something else"
    assert second.servers["local"].tools[1].input_schema["properties"] == {"q": {"type": "string"}}


async def test_cache_hints_recorded_and_bypassed():
    ts = ToolServer([tool("a")], ttl_ms=60_000)
    cfg = ServerConfig("local", target=ts.server, timeout=60)
    s = (await fetch_all([cfg])).servers["local"]
    assert s.ttl_ms == 60_000 and s.cache_scope == "private"
    ts.tools = [tool("b")]
    # A fresh fetch never serves a cached list, even within the server's ttl.
    assert names(await fetch_all([cfg]), "local") == ["b"]


async def test_legacy_connection_has_no_cache_hints():
    ts = ToolServer([tool("a")], ttl_ms=60_000)
    s = await fetch_server(ServerConfig("l", target=ts.server, mode="legacy", timeout=60))
    assert s.ttl_ms is None and s.cache_scope is None


async def test_tool_and_page_caps_report_flood():
    ts = ToolServer([tool(f"t{i}") for i in range(30)])
    s = await fetch_server(ServerConfig("f", target=ts.server, timeout=60), max_tools=9)
    assert (
        s.error is not None
        and s.error["kind"] == "flood"
        and "more than 9 tools" in s.error["message"]
    )
    assert s.tools == []
    s = await fetch_server(ServerConfig("f", target=ts.server, timeout=60), max_pages=3)
    assert (
        s.error is not None
        and s.error["kind"] == "flood"
        and "more than 3 pages" in s.error["message"]
    )


async def test_progress_events_per_server():
    ts = ToolServer([tool("a"), tool("b"), tool("c")])
    events: list[Progress] = []
    cfgs = [
        ServerConfig("one", target=ts.server),
        ServerConfig("two", target=ts.server, mode="legacy"),
    ]
    await fetch_all(cfgs, on_progress=events.append)
    for n in ("one", "two"):
        states = [e.state for e in events if e.server == n]
        assert states[0] == "queued" and states[1] == "connecting" and states[-1] == "done"
        assert "listing" in states
        done = next(e for e in events if e.server == n and e.state == "done")
        assert done.tools == 3 and done.snapshot is not None and done.snapshot.name == n


async def test_duplicate_names_are_an_input_error():
    from mcp_review.engine.errors import InputError

    ts = ToolServer([tool("a")])
    with pytest.raises(InputError, match="duplicate server names: x"):
        await fetch_all([ServerConfig("x", target=ts.server), ServerConfig("x", target=ts.server)])


async def test_snapshot_round_trips():
    ts = ToolServer([tool("a", q={"type": "string"})])
    snap = await fetch_all([ServerConfig("s", target=ts.server)])
    back = parse_snapshot(json.loads(snap.dumps()))
    assert back.servers["s"].tools[0].wire == snap.servers["s"].tools[0].wire


# --- stdio subprocess ------------------------------------------------------------------------


@pytest.mark.slow
async def test_stdio_list_changes_between_fetches(tmp_path: Path, capfd: pytest.CaptureFixture):
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps([tool("read"), tool("write")]))
    # The server forks from the warm zygote (tests/helpers.py): a separate process on the pipes
    # the fetch made, its stderr the fetch's to log; its interpreter's start-up is not the
    # subject (tests/services/test_real_server.py starts published servers cold).
    python, *args = stdio_server_argv(SERVERS / "toolserver.py")
    cfg = ServerConfig(
        "stdio-srv",
        command=python,
        args=tuple(args),
        env={"MCP_REVIEW_TOOLS_FILE": str(tools_file), "API_KEY": "k-123456"},
        timeout=30,
    )
    logs = tmp_path / "logs"
    first = await fetch_all([cfg], log_dir=logs)
    assert first.servers["stdio-srv"].error is None, first.servers["stdio-srv"].error
    assert names(first, "stdio-srv") == ["read", "write"]
    tools_file.write_text(json.dumps([tool("read", path={"type": "string"}), tool("delete")]))
    second = await fetch_all([cfg], log_dir=logs)
    assert names(second, "stdio-srv") == ["read", "delete"]
    # The server's stderr goes to its own log, never to the terminal.
    log = log_path(logs, "stdio-srv").read_text()
    assert log.count("toolserver: started") == 2 and log.count("mcp-review connect stdio-srv") == 2
    out, err = capfd.readouterr()
    assert "toolserver: started" not in out + err
    assert "k-123456" not in first.dumps() + second.dumps()


# --- Streamable HTTP -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_server():
    ts = ToolServer([tool("alpha"), tool("beta"), tool("gamma")], ttl_ms=30_000)
    with serve_http(ts.http_app()) as url:
        yield ts, url


@pytest.fixture(scope="module")
def bearer_server():
    ts = ToolServer([tool("secret_op")])
    with serve_http(ts.http_app(token=TOKEN)) as url:
        yield ts, url


async def test_http_list_changes_between_fetches(http_server):
    ts, url = http_server
    cfg = ServerConfig("web", transport="http", url=url, timeout=60)
    first = (await fetch_all([cfg])).servers["web"]
    assert first.error is None, first.error
    assert [t.name for t in first.tools] == ["alpha", "beta", "gamma"]
    assert first.protocol_version == "2026-07-28" and first.ttl_ms == 30_000
    ts.tools = [tool("alpha"), tool("delta", n={"type": "integer"})]
    second = (await fetch_all([cfg])).servers["web"]
    assert [t.name for t in second.tools] == ["alpha", "delta"]
    ts.tools = [tool("alpha"), tool("beta"), tool("gamma")]


async def test_http_legacy_mode(http_server):
    _, url = http_server
    s = await fetch_server(ServerConfig("web", transport="http", url=url, mode="legacy"))
    assert s.error is None and s.protocol_version == "2025-11-25" and len(s.tools) == 3


async def test_bearer_401_without_token_tools_with_it(bearer_server):
    _, url = bearer_server
    without = ServerConfig("nokey", transport="http", url=url, timeout=60)
    wrong = ServerConfig(
        "badkey",
        transport="http",
        url=url,
        timeout=60,
        headers={"Authorization": "Bearer wrong-token-value"},
    )
    with_ = ServerConfig(
        "key", transport="http", url=url, timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    snap = await fetch_all([without, wrong, with_])
    for n in ("nokey", "badkey"):
        err = snap.servers[n].error
        assert err is not None and err["kind"] == "unauthorized" and "401" in err["message"]
    assert snap.servers["key"].error is None
    assert names(snap, "key") == ["secret_op"]
    dumped = snap.dumps()
    assert TOKEN not in dumped and "wrong-token-value" not in dumped


async def test_http_404_is_not_an_mcp_server(http_server):
    _, url = http_server
    s = await fetch_server(ServerConfig("x", transport="http", url=url[:-4] + "/nope", timeout=60))
    assert s.error is not None and s.error["kind"] == "not-an-mcp-server"


async def test_sse_transport():
    from mcp.server import MCPServer

    srv = MCPServer("sse-srv")

    @srv.tool()
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    with serve_http(srv.sse_app()) as url:
        cfg = ServerConfig("s", transport="sse", url=url[: -len("/mcp")] + "/sse", timeout=60)
        s = await fetch_server(cfg)
    assert s.error is None, s.error
    assert [t.name for t in s.tools] == ["add"]
    assert set(s.tools[0].input_schema["properties"]) == {"a", "b"}
