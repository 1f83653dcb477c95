"""The proxy's HTTP front (issue 32 item 2): `mcp-review proxy --listen` serves Streamable HTTP
to a real SDK client (its `streamable_http_client`) in front of a real stdio server, with the
stdio front's judging per session, a bearer token, Origin checks and limits."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from helpers import int_tool as _tool
from servers.proxy_harness import ROOT, SDK, read_jsonl

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.slow

from mcp import Client, MCPError  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

SERVER = "demo"
SECRET_ARG = "s3cret-argument-value"


def _pin(pins: Path, tools: list[dict[str, Any]]) -> None:
    pf = load_pins(str(pins))
    for t in tools:
        pf.decide(make_pin(SERVER, ToolDef.from_wire(t), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))


class Front:
    """`mcp-review proxy --listen 127.0.0.1:0 … -- proxy_server.py` as a subprocess."""

    def __init__(self, tmp: Path, *extra: str, tools: list[dict[str, Any]] | None = None):
        self.tmp = tmp
        self.tools_file = tmp / "tools.json"
        self.tools_file.write_text(json.dumps(tools or []))
        self.token_file = tmp / "state" / "front.token"
        self.stderr_path = tmp / "proxy.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mcp_review",
                "proxy",
                "--listen",
                "127.0.0.1:0",
                "--token-file",
                str(self.token_file),
                "--log",
                str(tmp / "calls.jsonl"),
                "--server-log",
                str(tmp / "server.log"),
                "--name",
                SERVER,
                *extra,
                "--",
                *SDK,
            ],
            stdin=subprocess.DEVNULL,
            stdout=open(tmp / "proxy.stdout", "ab"),
            stderr=open(self.stderr_path, "ab"),
            env={**os.environ, "PROXY_TOOLS_FILE": str(self.tools_file)},
            cwd=ROOT,
        )
        deadline = time.monotonic() + 60
        while True:
            m = re.search(r"listening on (http://\S+/mcp)", self.stderr_path.read_text())
            if m:
                self.url = m.group(1)
                break
            assert self.proc.poll() is None, self.stderr_path.read_text()
            assert time.monotonic() < deadline, "the front did not start"
            time.sleep(0.05)
        self.token = self.token_file.read_text().strip()
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def headers(self, **more: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **more}

    def client(self, *, mode: str = "legacy", token: str | None = None) -> Client:
        http = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token or self.token}"}, timeout=30
        )
        return Client(
            streamable_http_client(self.url, http_client=http),
            mode=mode,
            cache=None,
            read_timeout_seconds=30,
        )

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)

    def log(self) -> str:
        return self.stderr_path.read_text()


@pytest.fixture
def front_factory(tmp_path: Path):
    made: list[Front] = []

    def make(*extra: str, tools: list[dict[str, Any]] | None = None) -> Front:
        f = Front(tmp_path, *extra, tools=tools)
        made.append(f)
        return f

    yield make
    for f in made:
        f.stop()


def _every_file(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_client_through_the_http_front(tmp_path: Path, front_factory, mode: str):
    """An approved call runs and is recorded, an unapproved tool is withheld and refused, and
    the bearer token reaches no file but its own (every file the run wrote is read)."""
    echo, add, wipe = _tool("echo", "echo a"), _tool("add", "add one to a"), _tool("wipe", "wipe")
    pins = tmp_path / "mcp-pins.toml"
    _pin(pins, [echo, add])
    front = front_factory("--enforce", "--pins", str(pins), tools=[echo, add, wipe])
    assert stat.S_IMODE(front.token_file.stat().st_mode) == 0o600
    with anyio.fail_after(120):
        async with front.client(mode=mode) as c:
            assert [t.name for t in (await c.list_tools()).tools] == ["echo", "add"]
            r = await c.call_tool("add", {"a": 1, "token": SECRET_ARG})
            assert json.loads(r.content[0].text)["arguments"] == {"a": 1, "token": SECRET_ARG}
            with pytest.raises(MCPError) as e:
                await c.call_tool("wipe", {"a": 2})
            assert "withheld tool 'wipe'" in str(e.value)
            await c.call_tool("echo", {"a": 3})
    recs = read_jsonl(tmp_path / "calls.jsonl")
    assert [(r["tool"], r["arguments"]) for r in recs] == [
        ("add", {"a": 1, "token": "[REDACTED]"}),
        ("echo", {"a": 3}),
    ]
    assert all(r["server"] == SERVER for r in recs)
    assert "refused tools/call 'wipe'" in front.log()
    token = front.token
    assert front.stop() == 128 + signal.SIGTERM
    assert not front.token_file.exists()  # the token dies with the run
    for p in _every_file(tmp_path):
        data = p.read_bytes()
        assert token.encode() not in data, p
        if p.name != "tools.json":
            assert SECRET_ARG.encode() not in data or p.name == "server.log", p


async def test_each_session_gets_its_own_server_and_delete_stops_it(
    tmp_path: Path, front_factory
):
    echo = _tool("echo", "echo a")
    front = front_factory(tools=[echo])
    with anyio.fail_after(120):
        async with front.client() as c1, front.client() as c2:
            await c1.call_tool("echo", {"a": 1})
            await c2.call_tool("echo", {"a": 2})
            pids = re.findall(r"started server pid (\d+)", front.log())
            assert len(set(pids)) == 2, front.log()
    # Both clients sent DELETE on the way out: their servers are gone.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(int(p)) for p in pids):
        await anyio.sleep(0.1)
    assert not any(_alive(int(p)) for p in pids)
    assert front.proc.poll() is None  # the front itself serves on


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie the proxy has not reaped yet counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


# HTTP-level refusals -------------------------------------------------------------------------

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _events(text: str) -> list[Any]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def _open_session(front: Front, http: httpx2.Client) -> str:
    r = http.post(front.url, json=INIT, headers=front.headers(**ACCEPT))
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    assert _events(r.text)[-1]["id"] == 1
    r = http.post(
        front.url,
        json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        headers=front.headers(**ACCEPT, **{"Mcp-Session-Id": sid}),
    )
    assert r.status_code == 202
    return sid


def test_token_origin_and_host_are_checked(tmp_path: Path, front_factory):
    front = front_factory(tools=[_tool("echo", "echo a")])
    with httpx2.Client(timeout=30) as http:
        # No token, a wrong one, a wrong scheme: 401, and no session was started.
        for h in ({}, {"Authorization": "Bearer nope"}, {"Authorization": f"Basic {front.token}"}):
            r = http.post(front.url, json=INIT, headers={**ACCEPT, **h})
            assert r.status_code == 401, h
        # A foreign Origin (DNS rebinding: a page on evil.example resolving to 127.0.0.1): 403
        # even with the token; the proxy's own origin and no Origin at all are accepted.
        for origin in ("http://evil.example", "null", f"http://evil.example:{front.port}"):
            r = http.post(front.url, json=INIT, headers=front.headers(**ACCEPT, Origin=origin))
            assert r.status_code == 403, origin
        r = http.post(
            front.url, json=INIT, headers=front.headers(**ACCEPT, Host=f"evil.example:{front.port}")
        )
        assert r.status_code == 403
        assert "started server pid" not in front.log()
        r = http.post(
            front.url,
            json=INIT,
            headers=front.headers(**ACCEPT, Origin=f"http://127.0.0.1:{front.port}"),
        )
        assert r.status_code == 200
        sid = r.headers["mcp-session-id"]
        # Other paths and methods.
        assert http.get(front.url.replace("/mcp", "/x"), headers=front.headers()).status_code == 404
        assert http.put(front.url, headers=front.headers()).status_code == 405
        # The session id is not a credential: without the token it is 401 too.
        r = http.delete(front.url, headers={"Mcp-Session-Id": sid})
        assert r.status_code == 401
    assert front.token not in front.log()
