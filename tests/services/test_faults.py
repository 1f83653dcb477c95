"""Every kind of broken server in one run beside two healthy ones: each its own row, none delays the rest."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from helpers import stdio_server
from servers.rawserver import tools_for
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import Progress, fetch_all

SERVERS = Path(__file__).parent.parent / "servers"
TIMEOUT = 3.0
"""The timeout of the servers that must spend it (they hang): short, since the test waits it
out."""
GENEROUS = 120.0
"""The timeout of every server that answers or fails by itself: the test never waits it out, so
it is long enough for a machine at load 18 (issue 46: bounds in counted units, not seconds)."""


def raw(name: str, *mode: str, timeout: float = GENEROUS) -> ServerConfig:
    return ServerConfig(
        name, command=sys.executable, args=(str(SERVERS / "rawserver.py"), *mode), timeout=timeout
    )


@pytest.fixture(scope="module")
def http_servers():
    healthy = ToolServer([tool("search"), tool("fetch"), tool("summarize")])
    guarded = ToolServer([tool("admin")])
    with (
        serve_http(healthy.http_app()) as ok_url,
        serve_http(guarded.http_app(token="t0ken-xyz")) as auth_url,
    ):
        yield ok_url, auth_url


@pytest.fixture
def refused_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return port


@pytest.fixture
def silent_http():
    """Accepts TCP connections (the kernel backlog) and never answers a byte."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    yield f"http://127.0.0.1:{s.getsockname()[1]}/mcp"
    s.close()


@pytest.mark.slow
async def test_all_faults_in_one_run(tmp_path: Path, http_servers, refused_port, silent_http):
    ok_url, auth_url = http_servers
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps([tool("read"), tool("write"), tool("list")]))
    configs = [
        # Healthy: a real SDK stdio server, forked warm from the zygote (tests/helpers.py);
        # still a longer timeout: the point is that the broken ones finish by theirs.
        ServerConfig(
            "healthy-stdio",
            **stdio_server(SERVERS / "toolserver.py"),
            env={"MCP_REVIEW_TOOLS_FILE": str(tools_file)},
            timeout=GENEROUS,
        ),
        ServerConfig("healthy-http", transport="http", url=ok_url, timeout=GENEROUS),
        ServerConfig("no-such-command", command="mcp-review-no-such-command-xyz", timeout=GENEROUS),
        raw("exits-at-once", "exit"),
        raw("hangs", "hang", timeout=TIMEOUT),
        raw("prints-garbage", "garbage", timeout=TIMEOUT),
        raw("malformed-tool", "malformed"),
        raw("ten-thousand-tools", "flood", "10000"),
        ServerConfig(
            "refused-port",
            transport="http",
            url=f"http://127.0.0.1:{refused_port}/mcp",
            timeout=GENEROUS,
        ),
        ServerConfig(
            "http-401",
            transport="http",
            url=auth_url,
            timeout=GENEROUS,
            headers={"Authorization": "Bearer not-the-token"},
        ),
        ServerConfig("http-silent", transport="http", url=silent_http, timeout=TIMEOUT),
    ]
    elapsed: dict[str, float] = {}
    events: list[tuple[str, str]] = []  # (server, state), in the order they happened

    def on_progress(p: Progress) -> None:
        events.append((p.server, p.state))
        if p.state in ("done", "failed"):
            elapsed[p.server] = p.elapsed

    snap = await fetch_all(configs, log_dir=tmp_path / "logs", on_progress=on_progress)

    assert list(snap.servers) == [c.name for c in configs]  # one row each, in config order
    assert [t.name for t in snap.servers["healthy-stdio"].tools] == ["read", "write", "list"]
    assert [t.name for t in snap.servers["healthy-http"].tools] == ["search", "fetch", "summarize"]
    assert (
        snap.servers["healthy-stdio"].error is None and snap.servers["healthy-http"].error is None
    )

    def err(name: str) -> tuple[str, str]:
        e = snap.servers[name].error
        assert e is not None, f"{name} should have failed"
        assert snap.servers[name].tools == []
        return e["kind"], e["message"]

    kind, msg = err("no-such-command")
    assert kind == "spawn-failed" and "mcp-review-no-such-command-xyz" in msg
    kind, msg = err("exits-at-once")
    assert kind == "exited" and "missing API key" in msg  # the server's stderr, from its log
    assert err("hangs")[0] == "timed-out"
    kind, msg = err("prints-garbage")
    assert kind == "not-an-mcp-server" and "Welcome to my server" in msg
    # Issue 14: a tool without inputSchema is read as sent (a protocol finding on that tool,
    # engine/protocol.py), never an error that hides the good tools beside it.
    assert snap.servers["malformed-tool"].error is None
    assert [t.wire for t in snap.servers["malformed-tool"].tools] == tools_for("malformed", 3)
    kind, msg = err("ten-thousand-tools")
    assert kind == "flood" and "more than 2000 tools" in msg
    assert err("refused-port")[0] == "refused"
    kind, msg = err("http-401")
    assert kind == "unauthorized" and "401" in msg and "not-the-token" not in msg
    assert err("http-silent")[0] == "timed-out"

    # Three servers each spent their whole timeout (a timeout never fires early, however busy
    # the machine). They ran side by side: all three were in flight at once (counted from the
    # order of the progress events, not from a clock, so load cannot fail it).
    slow = ("hangs", "prints-garbage", "http-silent")
    assert all(elapsed[n] >= TIMEOUT - 0.1 for n in slow)
    first_end = min(events.index((n, "failed")) for n in slow)
    started = {s for s, state in events[:first_end] if state == "connecting"}
    assert set(slow) <= started, "the hanging servers ran one after another"
    # Nothing waited on the hanging ones: every other server had started before the first of
    # them gave up (none was queued behind them).
    others = [c.name for c in configs if c.name not in slow]
    assert set(others) <= started, sorted(set(others) - started)
