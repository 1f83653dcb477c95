"""Every kind of broken server in one run beside two healthy ones: each its own row, none delays the rest."""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path

import pytest
from helpers import stdio_server
from servers.rawserver import tools_for
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import Progress, fetch_all

SERVERS = Path(__file__).parent / "servers"
TIMEOUT = 3.0
"""Each broken server's timeout: three of them spend it all, so the run shows whether they ran
side by side (about one TIMEOUT) or one after another (three)."""


def raw(name: str, *mode: str) -> ServerConfig:
    return ServerConfig(
        name, command=sys.executable, args=(str(SERVERS / "rawserver.py"), *mode), timeout=TIMEOUT
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
            timeout=60,
        ),
        ServerConfig("healthy-http", transport="http", url=ok_url, timeout=TIMEOUT),
        ServerConfig("no-such-command", command="mcp-review-no-such-command-xyz", timeout=TIMEOUT),
        raw("exits-at-once", "exit"),
        raw("hangs", "hang"),
        raw("prints-garbage", "garbage"),
        raw("malformed-tool", "malformed"),
        raw("ten-thousand-tools", "flood", "10000"),
        ServerConfig(
            "refused-port",
            transport="http",
            url=f"http://127.0.0.1:{refused_port}/mcp",
            timeout=TIMEOUT,
        ),
        ServerConfig(
            "http-401",
            transport="http",
            url=auth_url,
            timeout=TIMEOUT,
            headers={"Authorization": "Bearer not-the-token"},
        ),
        ServerConfig("http-silent", transport="http", url=silent_http, timeout=TIMEOUT),
    ]
    elapsed: dict[str, float] = {}

    def on_progress(p: Progress) -> None:
        if p.state in ("done", "failed"):
            elapsed[p.server] = p.elapsed

    t0 = time.monotonic()
    snap = await fetch_all(configs, log_dir=tmp_path / "logs", on_progress=on_progress)
    total = time.monotonic() - t0

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

    # Three servers each spent their whole timeout (3 s); run one after another they would take
    # 9 s. Together the run ends near one timeout (plus the SDK's up-to-4 s stdio teardown).
    slow = [elapsed[n] for n in ("hangs", "prints-garbage", "http-silent")]
    assert all(x >= TIMEOUT - 0.1 for x in slow)
    assert total < 3 * TIMEOUT, f"took {total:.1f} s: the faults ran one after another?"
    # The quick failures were quick: nothing waited on the hanging ones.
    for n in ("no-such-command", "exits-at-once", "malformed-tool", "refused-port", "http-401"):
        assert elapsed[n] < TIMEOUT, (n, elapsed[n])
