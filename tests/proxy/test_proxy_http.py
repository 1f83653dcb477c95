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
from servers.proxy_harness import PATIENCE, ROOT, SDK, mcp_review_argv, read_jsonl, sdk_warm

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
    """`mcp-review proxy --listen 127.0.0.1:0 … -- proxy_server.py` as a subprocess
    (``server=[]``: no `-- CMD`, the server is named in ``extra``). The proxy and, by default
    (``server=None``), its SDK server are forked warm from the zygote (proxy_harness): real
    processes on real pipes and sockets; a test about the servers' own processes (their pids,
    their end) passes ``server=SDK``, a fresh interpreter each."""

    def __init__(
        self,
        tmp: Path,
        *extra: str,
        tools: list[dict[str, Any]] | None = None,
        server: list[str] | None = None,
        env: dict[str, str] | None = None,
    ):
        if server is None:
            server = sdk_warm()
        self.tmp = tmp
        self.tools_file = tmp / "tools.json"
        if tools is not None or not self.tools_file.exists():
            self.tools_file.write_text(json.dumps(tools or []))
        self.token_file = tmp / "state" / "front.token"
        self.stderr_path = tmp / "proxy.log"
        self.proc = subprocess.Popen(
            [
                *mcp_review_argv("proxy"),
                "--listen",
                "127.0.0.1:0",
                "--token-file",
                str(self.token_file),
                "--log",
                str(tmp / "calls.jsonl"),
                "--server-log",
                str(tmp / "server.log"),
                *(("--name", SERVER) if server else ()),
                *extra,
                *(("--", *server) if server else ()),
            ],
            stdin=subprocess.DEVNULL,
            stdout=open(tmp / "proxy.stdout", "ab"),
            stderr=open(self.stderr_path, "ab"),
            env={**os.environ, "PROXY_TOOLS_FILE": str(self.tools_file), **(env or {})},
            cwd=ROOT,
        )
        deadline = time.monotonic() + PATIENCE
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

    def client(self, *, mode: str = "legacy", headers: dict[str, str] | None = None) -> Client:
        http = httpx2.AsyncClient(
            headers=headers or {"Authorization": f"Bearer {self.token}"}, timeout=30
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
        return self.proc.wait(PATIENCE)

    def log(self) -> str:
        return self.stderr_path.read_text()


@pytest.fixture
def front_factory(tmp_path: Path):
    made: list[Front] = []

    def make(
        *extra: str,
        tools: list[dict[str, Any]] | None = None,
        server: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> Front:
        f = Front(tmp_path, *extra, tools=tools, server=server, env=env)
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


async def test_each_session_gets_its_own_server_and_delete_stops_it(tmp_path: Path, front_factory):
    echo = _tool("echo", "echo a")
    front = front_factory(tools=[echo], server=SDK)  # the servers' own pids are checked
    with anyio.fail_after(120):
        async with front.client() as c1, front.client() as c2:
            await c1.call_tool("echo", {"a": 1})
            await c2.call_tool("echo", {"a": 2})
            pids = re.findall(r"started server pid (\d+)", front.log())
            assert len(set(pids)) == 2, front.log()
    # Both clients sent DELETE on the way out: their servers are gone.
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline and any(_alive(int(p)) for p in pids):
        await anyio.sleep(0.1)
    assert not any(_alive(int(p)) for p in pids)
    assert front.proc.poll() is None  # the front itself serves on


def test_an_idle_session_ends_and_stopping_the_front_stops_every_server(
    tmp_path: Path, front_factory
):
    # A short idle timeout (the sweep runs every quarter of it): the test waits for it twice.
    # The servers' own pids are watched: they start directly (server=SDK).
    front = front_factory("--idle-timeout", "0.5", tools=[_tool("echo", "echo a")], server=SDK)
    with httpx2.Client(timeout=30) as http:
        idle = _open_session(front, http)
        pid = int(re.findall(r"started server pid (\d+)", front.log())[-1])
        deadline = time.monotonic() + PATIENCE
        while _alive(pid):
            assert time.monotonic() < deadline, front.log()
            time.sleep(0.1)
        assert front.log().count("idle for 0.5 s: ended") == 1  # said once, not per sweep
        r = http.post(
            front.url, json=_call(2), headers=front.headers(**ACCEPT, **{"Mcp-Session-Id": idle})
        )
        assert r.status_code == 404
        # A session with its GET stream open is not idle; SIGTERM to the front ends it and
        # its server, and the front exits 128+15.
        live = _open_session(front, http)
        pid2 = int(re.findall(r"started server pid (\d+)", front.log())[-1])
        with http.stream(
            "GET", front.url, headers=front.headers(**ACCEPT, **{"Mcp-Session-Id": live})
        ) as get:
            assert get.status_code == 200
            time.sleep(1.2)  # past the timeout plus a sweep, twice over: idle would have ended
            assert _alive(pid2)
            assert front.stop() == 128 + signal.SIGTERM
    assert not _alive(pid2)


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
    """The messages of an answer: an SSE stream's events, or the one JSON body (the front
    answers JSON when the reply comes before any server message, issue 46 item 6)."""
    if text.lstrip().startswith("{"):
        return [json.loads(text)]
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


# The attacker's tests -------------------------------------------------------------------------

HOSTILE = [sys.executable, str(Path(__file__).parent.parent / "servers" / "proxy_hostile.py")]
ECHO, HANG, WIPE = _tool("echo", "echo a"), _tool("hang", "never answers"), _tool("wipe", "rm")


def _hostile(front_factory, tmp: Path, *flags: str, extra: tuple[str, ...] = ()) -> Front:
    """The front in front of tests/servers/proxy_hostile.py, which records every line it
    receives (so a test proves what never reached it); echo and hang approved, wipe new."""
    pins = tmp / "mcp-pins.toml"
    _pin(pins, [ECHO, HANG])
    (tmp / "hostile-tools.json").write_text(json.dumps([ECHO, HANG, WIPE]))
    env = {
        "HOSTILE_RECORD": str(tmp / "received.jsonl"),
        "HOSTILE_TOOLS": str(tmp / "hostile-tools.json"),
        "HOSTILE_FLAGS": ",".join(flags),
    }
    return front_factory("--pins", str(pins), *extra, server=HOSTILE, env=env)


def _received(tmp: Path) -> list[Any]:
    p = tmp / "received.jsonl"
    return [json.loads(x) for x in p.read_bytes().splitlines()] if p.exists() else []


def _after_init(tmp: Path) -> int:
    """How many lines the server has received once it has the initialized notification."""
    deadline = time.monotonic() + PATIENCE
    while True:
        got = _received(tmp)
        if any(m.get("method") == "notifications/initialized" for m in got):
            return len(got)
        assert time.monotonic() < deadline, got
        time.sleep(0.02)


def _call(rid: Any, tool: str = "echo", a: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": tool, "arguments": {"a": a}},
    }


def test_huge_bodies_and_heads_never_reach_the_server(tmp_path: Path, front_factory):
    front = _hostile(front_factory, tmp_path, extra=("--enforce", "--max-body", "100000"))
    with httpx2.Client(timeout=30) as http:
        sid = _open_session(front, http)
        h = front.headers(**ACCEPT, **{"Mcp-Session-Id": sid})
        before = _after_init(tmp_path)
        big = _call(2)
        big["params"]["arguments"]["pad"] = "x" * 200_000
        # Announced by Content-Length, and streamed chunked without one: 413 either way.
        assert http.post(front.url, json=big, headers=h).status_code == 413
        body = json.dumps(big).encode()

        def chunks():
            for i in range(0, len(body), 8192):
                yield body[i : i + 8192]

        r = http.post(front.url, content=chunks(), headers=h)
        assert r.status_code == 413
        # A head beyond 16 KiB, in one piece or many headers: 431.
        r = http.post(front.url, json=_call(3), headers={**h, "X-Pad": "y" * 40_000})
        assert r.status_code == 431
        many = {f"X-{i}": "z" * 100 for i in range(200)}
        assert http.post(front.url, json=_call(3), headers={**h, **many}).status_code == 431
        # Not JSON, a duplicate key, a lone surrogate's invalid UTF-8: 400, nothing forwarded.
        for raw in (b"{", b'{"jsonrpc":"2.0","id":4,"id":5,"method":"ping"}', b'{"a":"\xff"}'):
            r = http.post(front.url, content=raw, headers=h)
            assert r.status_code == 400 and r.json()["error"]["code"] == -32700, raw
        assert len(_received(tmp_path)) == before
        # The session still works.
        r = http.post(front.url, json=_call(6), headers=h)
        assert _events(r.text)[-1]["result"]["structuredContent"]["arguments"] == {"a": 1}


def test_sessions_are_capped_and_each_has_its_own_server(tmp_path: Path, front_factory):
    front = _hostile(front_factory, tmp_path, extra=("--max-sessions", "2"))
    with httpx2.Client(timeout=30) as http:
        a, b = _open_session(front, http), _open_session(front, http)
        r = http.post(front.url, json=INIT, headers=front.headers(**ACCEPT))
        assert r.status_code == 503 and "sessions are open" in r.json()["error"]["message"]
        assert len(set(re.findall(r"started server pid (\d+)", front.log()))) == 2
        # A DELETE frees a place; the ended session's id is unknown from then on.
        assert (
            http.delete(front.url, headers=front.headers(**{"Mcp-Session-Id": a})).status_code
            == 200
        )
        c = _open_session(front, http)
        for sid in (a, "made-up", b + "x"):
            r = http.post(
                front.url, json=_call(9), headers=front.headers(**ACCEPT, **{"Mcp-Session-Id": sid})
            )
            assert r.status_code == 404, sid
        # No session id at all: 400 (initialize first).
        r = http.post(front.url, json=_call(9), headers=front.headers(**ACCEPT))
        assert r.status_code == 400
        # One client's id is not another's: b's call 5 hangs, c's call 5 is answered to c.
        hb = front.headers(**ACCEPT, **{"Mcp-Session-Id": b})
        hc = front.headers(**ACCEPT, **{"Mcp-Session-Id": c})
        with http.stream("POST", front.url, json=_call(5, "hang"), headers=hb) as hung:
            assert hung.status_code == 200
            r = http.post(front.url, json=_call(5, "echo", 7), headers=hc)
            assert _events(r.text)[-1]["result"]["structuredContent"]["arguments"] == {"a": 7}
    assert front.proc.poll() is None


def test_batches_and_id_games_over_http(tmp_path: Path, front_factory):
    front = _hostile(front_factory, tmp_path, extra=("--enforce",))
    with httpx2.Client(timeout=30) as http:
        sid = _open_session(front, http)
        h = front.headers(**ACCEPT, **{"Mcp-Session-Id": sid})
        before = _after_init(tmp_path)
        # A batch: refused whole (Streamable HTTP has none since 2025-06-18).
        r = http.post(front.url, json=[_call(2), _call(3, "wipe")], headers=h)
        assert r.status_code == 400 and r.json()["error"]["code"] == -32600
        # Ids no client reads exactly: null, a float, a boolean, beyond 2**53, an object.
        for rid in (None, 7.0, True, 2**53 + 1, {"a": 1}):
            r = http.post(front.url, json=_call(rid), headers=h)
            assert r.status_code == 400, rid
        assert len(_received(tmp_path)) == before
        # An id pending in this session, however spelled ("8", 8, " 8", "0x8"), is refused
        # while the first request waits; the first still gets its own answer.
        with http.stream("POST", front.url, json=_call(8, "hang"), headers=h) as hung:
            assert hung.status_code == 200
            for rid in ("8", 8, " 8", "0x8"):
                r = http.post(front.url, json=_call(rid), headers=h)
                assert r.status_code == 409, rid
            r = http.post(front.url, json=_call(10, "echo", 3), headers=h)
            assert _events(r.text)[-1]["result"]["structuredContent"]["arguments"] == {"a": 3}
        got = _received(tmp_path)[before:]
        assert [m.get("id") for m in got if m.get("method") == "tools/call"] == [8, 10]
        # Closing the hung POST told the server (notifications/cancelled), and the id stays
        # reserved until the server answers it: no later request can take that answer.
        deadline = time.monotonic() + PATIENCE
        while not any(m.get("method") == "notifications/cancelled" for m in _received(tmp_path)):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert http.post(front.url, json=_call(8), headers=h).status_code == 409
        # A withheld tool is refused on HTTP as on stdio; JSON answers when only JSON is accepted.
        r = http.post(
            front.url,
            json=_call(11, "wipe"),
            headers={**h, "Accept": "application/json"},
        )
        assert r.headers["content-type"] == "application/json"
        assert r.json()["id"] == 11 and "withheld tool 'wipe'" in r.json()["error"]["message"]
        # A response to a request the server never sent: accepted (202) and dropped.
        r = http.post(front.url, json={"jsonrpc": "2.0", "id": "srv-x", "result": {}}, headers=h)
        assert r.status_code == 202
        assert not any(m.get("id") in (11, "srv-x") for m in _received(tmp_path)[before:])


@pytest.mark.parametrize("enforce", [False, True])
def test_replies_nobody_asked_for_never_reach_a_client(
    tmp_path: Path, front_factory, enforce: bool
):
    """The server answers ids nobody sent and replies with string ids: a reply goes only to
    the POST that asked (with the id as that client sent it), a server request to the GET
    stream; the rest is dropped, recording or enforcing."""
    front = _hostile(
        front_factory,
        tmp_path,
        "unsolicited",
        "string_ids",
        extra=("--enforce",) if enforce else (),
    )
    with httpx2.Client(timeout=30) as http:
        r = http.post(front.url, json=INIT, headers=front.headers(**ACCEPT))
        assert _events(r.text) == [_events(r.text)[-1]] and _events(r.text)[-1]["id"] == 1
        sid = r.headers["mcp-session-id"]
        h = front.headers(**ACCEPT, **{"Mcp-Session-Id": sid})
        with http.stream("GET", front.url, headers=h) as get:
            lines = get.iter_lines()
            seen = []
            for line in lines:
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:]))
                    if seen[-1].get("id") == "srv-1":
                        break
        ids = [m.get("id") for m in seen]
        assert "srv-1" in ids and 1000 not in ids and "nobody-asked" not in ids
        r = http.post(front.url, json=_call(3), headers=h)
        assert [m["id"] for m in _events(r.text)] == [3]  # the int id, as the client sent it
    assert "no client request awaits it" in front.log() or enforce


# In front of a remote server ------------------------------------------------------------------

REMOTE_TOKEN = "remote-bearer-0123456789abcdef"
CLIENT_TOKEN = "client-own-bearer-fedcba9876543210"


def _remote_config(tmp: Path, url: str, *, forward: bool) -> Path:
    cfg = tmp / "mcp-review.toml"
    lines = [
        "[servers.demo]",
        f'url = "{url}"',
        # The config's own credential; with forwarding, the client's replaces it.
        'headers = { Authorization = "Bearer ${env:DEMO_TOKEN}" }',
    ]
    if forward:
        lines.append("forward_authorization = true")
    cfg.write_text("\n".join(lines) + "\n")
    return cfg


@pytest.mark.parametrize("forward", [False, True])
async def test_http_front_in_front_of_a_remote_server(tmp_path: Path, front_factory, forward: bool):
    """SDK client -> HTTP front -> a real Streamable HTTP server behind a bearer check. The
    proxy's token never reaches the server; the client's Authorization reaches it only with
    forward_authorization = true (then the proxy's token travels in X-MCP-Review-Token); no
    token reaches a log."""
    from servers.proxy_http_server import echo_http_server

    echo, wipe = _tool("echo", "echo a"), _tool("wipe", "rm")
    pins = tmp_path / "mcp-pins.toml"
    _pin(pins, [echo])
    want = CLIENT_TOKEN if forward else REMOTE_TOKEN
    with echo_http_server([echo, wipe], token=want) as (remote, url):
        cfg = _remote_config(tmp_path, url, forward=forward)
        os.environ["DEMO_TOKEN"] = REMOTE_TOKEN
        try:
            front = front_factory(
                SERVER, "--config", str(cfg), "--enforce", "--pins", str(pins), server=[]
            )
        finally:
            del os.environ["DEMO_TOKEN"]
        headers = (
            {"X-MCP-Review-Token": front.token, "Authorization": f"Bearer {CLIENT_TOKEN}"}
            if forward
            else {"Authorization": f"Bearer {front.token}"}
        )
        with anyio.fail_after(120):
            async with front.client(headers=headers) as c:
                assert [t.name for t in (await c.list_tools()).tools] == ["echo"]
                r = await c.call_tool("echo", {"a": 5})
                assert json.loads(r.content[0].text)["arguments"] == {"a": 5}
                with pytest.raises(MCPError):
                    await c.call_tool("wipe", {"a": 6})
        assert remote.ran == [{"tool": "echo", "arguments": {"a": 5}}]
        assert remote.auth_ok > 0 and remote.auth_refused == 0
        if forward:
            # The proxy's token alone, without X-MCP-Review-Token: 401 (Authorization is the
            # remote's now); a session is the client's that started it (another Authorization
            # on its id: 404).
            with httpx2.Client(timeout=30) as http:
                r = http.post(front.url, json=INIT, headers={**ACCEPT, **headers})
                sid = r.headers["mcp-session-id"]
                h2 = {
                    **ACCEPT,
                    **headers,
                    "Authorization": "Bearer someone-else",
                    "Mcp-Session-Id": sid,
                }
                assert http.post(front.url, json=_call(2), headers=h2).status_code == 404
                r = http.post(
                    front.url,
                    json=INIT,
                    headers={**ACCEPT, "Authorization": f"Bearer {front.token}"},
                )
                assert r.status_code == 401
    recs = read_jsonl(tmp_path / "calls.jsonl")
    assert [(r["tool"], r["arguments"]) for r in recs] == [("echo", {"a": 5})]
    token = front.token
    front.stop()
    for p in _every_file(tmp_path):
        data = p.read_bytes()
        for secret in (token, REMOTE_TOKEN, CLIENT_TOKEN):
            if p.name != "mcp-review.toml":
                assert secret.encode() not in data, (p, secret)


def test_a_server_that_dies_fails_its_sessions_requests_and_ends_the_session(
    tmp_path: Path, front_factory
):
    front = _hostile(front_factory, tmp_path, "list_crash", extra=("--enforce",))
    with httpx2.Client(timeout=30) as http:
        sid = _open_session(front, http)
        h = front.headers(**ACCEPT, **{"Mcp-Session-Id": sid})
        other = _open_session(front, http)
        r = http.post(
            front.url, json={"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, headers=h
        )
        err = _events(r.text)[-1]
        assert err["id"] == 4 and err["error"]["code"] == -32000
        assert "exited with code 5" in err["error"]["message"]
        deadline = time.monotonic() + PATIENCE
        while http.post(front.url, json=_call(5), headers=h).status_code != 404:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        # The other session and the front are unaffected.
        h2 = front.headers(**ACCEPT, **{"Mcp-Session-Id": other})
        r = http.post(front.url, json={"jsonrpc": "2.0", "id": 6, "method": "ping"}, headers=h2)
        assert _events(r.text)[-1] == {"jsonrpc": "2.0", "id": 6, "result": {}}
    assert front.proc.poll() is None


def test_listen_usage_errors_and_a_planted_token_file_link(tmp_path: Path):
    """Not loopback without --listen-any, a malformed address, and a token file that is a
    symbolic link (planted to carry the token elsewhere): exit 2 before anything listens."""
    target = tmp_path / "elsewhere"
    target.write_text("untouched\n")
    link = tmp_path / "front.token"
    link.symlink_to(target)
    base = [*mcp_review_argv("proxy"), "--name", SERVER]
    for extra, why in (
        (["--listen", "0.0.0.0:0"], "not a loopback address"),
        (["--listen", "127.0.0.1"], "HOST:PORT"),
        (["--listen", "127.0.0.1:0", "--token-file", str(link)], "symbolic link"),
        (["--listen", "127.0.0.1:0", "--max-sessions", "0"], "must be positive"),
    ):
        r = subprocess.run(
            [*base, *extra, "--", *sdk_warm()],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            env={**os.environ, "PROXY_TOOLS_FILE": str(tmp_path / "none.json")},
        )
        assert r.returncode == 2 and why in r.stderr, (extra, r.stderr)
        assert "listening" not in r.stderr
    assert target.read_text() == "untouched\n" and link.is_symlink()
