"""Proxy overhead: added latency per tools/call and throughput, direct vs through the proxy.

Loopback stdio, the SDK-free test server (tests/servers/proxy_raw.py) so the figures are the
proxy's cost and not an SDK's. Three paths: direct, proxy (recording every call, the default),
proxy --enforce (pin check on every call). Latency: sequential calls, one in flight. Throughput:
requests written as fast as the pipe takes them while a thread reads the answers.
``--sdk`` adds the same comparison through the mcp SDK client (what an agent sees).

The HTTP sides (issue 46 item 6), each beside its direct path in the same run: ``http-front``
is a keep-alive HTTP/1.1 client (``http.client``, one connection, ``Accept`` of both JSON and
SSE as SDK clients send) posting to ``proxy --listen`` in front of the same stdio server, against
``direct`` over stdio; ``http-upstream`` is the stdio client through ``proxy --url`` to an mcp SDK
server over Streamable HTTP (uvicorn on 127.0.0.1, a subprocess), against the same HTTP client
talking to that server directly (``http-direct``). The table's ``CPU/call`` column is the CPU
(user + system, from /proc) of the process in the path per timed call: the proxy or the front
for the proxied paths, the server for ``direct`` and ``http-direct``; counted, so steadier than
the wall figures when the machine is busy.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # runnable from a checkout without installing

RAW = [sys.executable, str(ROOT / "tests" / "servers" / "proxy_raw.py")]
TOOLS = [
    {
        "name": "echo",
        "description": "echo the arguments",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    }
]


def _pin(pins: Path) -> None:
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin
    from mcp_review.store.pinfile import load_pins, save_pins

    pf = load_pins(str(pins))
    pf.decide(make_pin("bench", ToolDef.from_wire(TOOLS[0]), Decision.APPROVED, by="bench"))
    save_pins(pf, str(pins))


HELD_TOOLS = [{**TOOLS[0], "description": "echo the arguments, now faster"}]
"""The server's tools for ``held``: a text change of the pinned tool, which --enforce holds."""


def _argv(kind: str, tmp: Path) -> list[str]:
    if kind == "direct":
        return RAW
    enforcing = kind in ("enforce", "held") or kind.startswith("held-")
    extra = ["--enforce", "--pins", str(tmp / "mcp-pins.toml")] if enforcing else []
    return [
        sys.executable,
        "-m",
        "mcp_review",
        "proxy",
        "--name",
        "bench",
        "--log",
        str(tmp / f"calls-{kind}.jsonl"),
        "--server-log",
        str(tmp / "server.log"),
        "--max-log-bytes",
        str(1 << 30),
        *extra,
        "--",
        *RAW,
    ]


class Conn:
    def __init__(self, kind: str, tmp: Path, url: str | None = None):
        tools = "tools-held.json" if kind == "held" or kind.startswith("held-") else "tools.json"
        env = {**os.environ, "PROXY_TOOLS_FILE": str(tmp / tools)}
        argv = _argv(kind, tmp)
        if url is not None:  # proxy --url: the remote server instead of the stdio one
            argv = [*argv[: argv.index("--")], "--url", url]
        self.p = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=ROOT,
        )
        self.i = 0
        self.call(
            b'"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},'
            b'"clientInfo":{"name":"bench","version":"0"}}'
        )
        self.call(b'"tools/list"')  # the proxy learns the definitions it will check calls against

    def call(self, method_and_params: bytes) -> bytes:
        self.i += 1
        self.p.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":%s}\n' % (self.i, method_and_params))
        self.p.stdin.flush()
        return self.p.stdout.readline()

    def cpu(self) -> float:
        """CPU seconds (user + system) the proxy process (or the direct server) has used."""
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(10)


class HttpConn:
    """One keep-alive HTTP/1.1 connection speaking Streamable HTTP (legacy session): the
    ``Conn`` interface over ``proxy --listen`` or an HTTP MCP server."""

    def __init__(self, url: str, headers: dict[str, str] | None = None):
        m = re.match(r"http://([^:/]+):(\d+)(/\S*)", url)
        assert m, url
        self.path = m.group(3)
        self.h = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=60)
        self.h.connect()
        self.h.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **(headers or {}),
        }
        self.i = 0
        self.connections = 1
        init = self._post(
            b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":'
            b'"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}'
        )
        assert b'"result"' in init, init[:300]
        self._post(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        self.call(b'"tools/list"')

    def _post(self, body: bytes) -> bytes:
        self.h.request("POST", self.path, body=body, headers=self.headers)
        r = self.h.getresponse()
        data = r.read()
        sid = r.getheader("mcp-session-id")
        if sid:
            self.headers["Mcp-Session-Id"] = sid
            self.headers["MCP-Protocol-Version"] = "2025-11-25"
        if r.getheader("content-type", "").startswith("text/event-stream"):
            lines = [ln for ln in data.splitlines() if ln.startswith(b"data:")]
            return lines[-1][5:].strip() + b"\n" if lines else b""
        return data

    def call(self, method_and_params: bytes) -> bytes:
        self.i += 1
        return self._post(b'{"jsonrpc":"2.0","id":%d,"method":%s}' % (self.i, method_and_params))

    def close(self) -> None:
        self.h.close()


class FrontProc:
    """``mcp-review proxy --listen 127.0.0.1:0`` in front of the raw stdio server."""

    def __init__(self, tmp: Path):
        token_file = tmp / "front.token"
        self.err = tmp / "front.log"
        argv = _argv("http-front", tmp)
        cut = argv.index("--")
        argv[cut:cut] = ["--listen", "127.0.0.1:0", "--token-file", str(token_file)]
        env = {**os.environ, "PROXY_TOOLS_FILE": str(tmp / "tools.json")}
        self.p = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stderr=open(self.err, "wb"), env=env, cwd=ROOT
        )
        deadline = time.monotonic() + 60
        while not (m := re.search(r"listening on (http://\S+/mcp)", self.err.read_text())):
            assert self.p.poll() is None and time.monotonic() < deadline, self.err.read_text()
            time.sleep(0.05)
        self.url = m.group(1)
        self.token = token_file.read_text().strip()

    def close(self) -> None:
        self.p.terminate()
        self.p.wait(20)


_HTTP_SERVER = """
import socket, sys, uvicorn, mcp_types as t
from mcp.server import Server
TOOLS = [t.Tool.model_validate(d) for d in __import__("json").loads(sys.argv[1])]
async def list_tools(ctx, params):
    return t.ListToolsResult(tools=TOOLS)
async def call_tool(ctx, params):
    text = __import__("json").dumps(params.arguments or {})
    return t.CallToolResult(content=[t.TextContent(type="text", text=text)])
sock = socket.socket()
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
sock.bind(("127.0.0.1", 0))
print(sock.getsockname()[1], flush=True)
app = Server("bench", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
uvicorn.Server(uvicorn.Config(app.streamable_http_app(), log_level="critical")).run(
    sockets=[sock]
)
"""


class HttpServerProc:
    """An mcp SDK server over Streamable HTTP (uvicorn, 127.0.0.1) as a subprocess."""

    def __init__(self) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-c", _HTTP_SERVER, json.dumps(TOOLS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        port = int(self.p.stdout.readline())
        self.url = f"http://127.0.0.1:{port}/mcp"
        for _ in range(200):  # until uvicorn accepts
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)

    def close(self) -> None:
        self.p.terminate()
        self.p.wait(20)


CPU_PER_CALL: dict[str, float] = {}
"""Milliseconds of CPU (user + system) the measured process (the proxy, the front, or the
direct server) spent per timed call, by path: counted, so steadier than wall time on a busy box."""


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _sequential(
    c: Any, n: int, payload: int, kind: str = "", pid: int | None = None
) -> list[float]:
    req = _tools_call(payload)
    for _ in range(min(200, n)):  # warm up
        c.call(req)
    out = []
    cpu0 = _cpu(pid) if pid is not None else 0.0
    for _ in range(n):
        t0 = time.perf_counter()
        line = c.call(req)
        out.append(time.perf_counter() - t0)
        assert b'"result"' in line, line[:200]
    if pid is not None:
        CPU_PER_CALL[kind] = (_cpu(pid) - cpu0) * 1000 / n
    return out


def http_latency(kind: str, tmp: Path, n: int, payload: int) -> list[float]:
    """``http-front``, ``http-upstream`` or ``http-direct`` (see the module's docstring)."""
    if kind == "http-front":
        front = FrontProc(tmp)
        c: Any = HttpConn(front.url, {"Authorization": f"Bearer {front.token}"})
        try:
            return _sequential(c, n, payload, kind, front.p.pid)
        finally:
            c.close()
            front.close()
    server = HttpServerProc()
    try:
        if kind == "http-direct":
            c = HttpConn(server.url)
            pid = server.p.pid
        else:
            c = Conn("http-upstream", tmp, url=server.url)
            pid = c.p.pid
        try:
            return _sequential(c, n, payload, kind, pid)
        finally:
            c.close()
    finally:
        server.close()


def _tools_call(payload: int) -> bytes:
    return b'"tools/call","params":{"name":"echo","arguments":{"q":"' + b"x" * payload + b'"}}'


def latency(kind: str, tmp: Path, n: int, payload: int) -> list[float]:
    c = Conn(kind, tmp)
    req = _tools_call(payload)
    for _ in range(min(200, n)):  # warm up
        c.call(req)
    out = []
    cpu0 = c.cpu()
    for _ in range(n):
        t0 = time.perf_counter()
        line = c.call(req)
        out.append(time.perf_counter() - t0)
        assert line.endswith(b"\n") and b'"result"' in line, line[:200]
    CPU_PER_CALL[kind] = (c.cpu() - cpu0) * 1000 / n
    c.close()
    return out


def throughput(kind: str, tmp: Path, n: int, payload: int) -> float:
    c = Conn(kind, tmp)
    req = _tools_call(payload)
    lines = [b'{"jsonrpc":"2.0","id":%d,"method":%s}\n' % (1000 + i, req) for i in range(n)]
    got = []

    def read() -> None:
        for _ in range(n):
            got.append(c.p.stdout.readline())

    th = threading.Thread(target=read)
    t0 = time.perf_counter()
    th.start()
    for ln in lines:
        c.p.stdin.write(ln)
    c.p.stdin.flush()
    th.join()
    dt = time.perf_counter() - t0
    assert len(got) == n and all(b'"result"' in g for g in got)
    c.close()
    return n / dt


def sdk_latency(kind: str, tmp: Path, n: int) -> list[float]:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    argv = _argv(kind, tmp)
    params = StdioServerParameters(
        command=argv[0],
        args=argv[1:],
        cwd=str(ROOT),
        env={"PROXY_TOOLS_FILE": str(tmp / "tools.json")},
    )
    out: list[float] = []

    async def main() -> None:
        with open(tmp / "sdk.log", "a") as err:
            async with Client(stdio_client(params, errlog=err), mode="legacy", cache=None) as c:
                await c.list_tools()
                for i in range(n + 50):
                    t0 = time.perf_counter()
                    await c.call_tool("echo", {"q": "x"})
                    if i >= 50:
                        out.append(time.perf_counter() - t0)

    anyio.run(main)
    return out


def sdk_http_latency(tmp: Path, n: int, mode: str) -> tuple[list[float], str]:
    """The mcp SDK client (``mode``) over Streamable HTTP through ``proxy --listen`` in front
    of the raw stdio server: (latencies, the protocol revision the client settled on)."""
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    front = FrontProc(tmp)
    out: list[float] = []
    version: list[str] = []

    async def main() -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {front.token}"}, timeout=60)
        async with Client(
            streamable_http_client(front.url, http_client=http), mode=mode, cache=None
        ) as c:
            version.append(str(c.protocol_version))
            await c.list_tools()
            for i in range(n + 50):
                t0 = time.perf_counter()
                await c.call_tool("echo", {"q": "x"})
                if i >= 50:
                    out.append(time.perf_counter() - t0)

    try:
        anyio.run(main)
    finally:
        front.close()
    return out, version[0]


def _ms(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100)[int(q) - 1] * 1000 if q < 100 else max(xs) * 1000


def held_cost(tmp: Path, recorded: int, n: int) -> tuple[float, float]:
    """(CPU ms per call of the proxy process, median round trip ms) for ``n`` calls to a held
    tool under --enforce, with ``recorded`` calls already in its call log (issue 46 item 5)."""
    from mcp_review.store.calllog import CallLog

    kind = f"held-{recorded}"
    log = tmp / f"calls-{kind}.jsonl"
    w = CallLog(str(log), server="bench", max_bytes=1 << 30)
    for i in range(recorded):
        w.record_call("echo", {"q": f"recorded call {i}"}, rpc_id=i)
    w.close()
    c = Conn(kind, tmp)
    req = _tools_call(100)
    for _ in range(50):
        c.call(req)
    t0 = c.cpu()
    rt = []
    for _ in range(n):
        s = time.perf_counter()
        line = c.call(req)
        rt.append(time.perf_counter() - s)
        assert b'"result"' in line, line[:300]
    used = c.cpu() - t0
    c.close()
    return used / n * 1000, statistics.median(rt) * 1000


def _load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="sequential calls per path")
    ap.add_argument("--payload", type=int, default=100, help="bytes of argument per call")
    ap.add_argument("--sdk", action="store_true", help="also measure through the mcp SDK client")
    ap.add_argument(
        "--held-log",
        default="0,10000,100000",
        help="recorded calls in the log before the held-call cost is measured (comma list; "
        "'' to skip)",
    )
    ap.add_argument("--only-held", action="store_true", help="measure the held-call cost only")
    ap.add_argument(
        "--only-latency", action="store_true", help="stop after the added-latency table"
    )
    ap.add_argument(
        "--only-sdk", action="store_true", help="the SDK client's table only (stdio and HTTP)"
    )
    ap.add_argument(
        "--no-upstream", action="store_true", help="skip proxy --url (an SDK HTTP server)"
    )
    ap.add_argument(
        "--paths",
        default="",
        help="only these latency paths (comma list, e.g. 'direct,http-front'; default: all)",
    )
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "tools.json").write_text(json.dumps(TOOLS))
        (tmp / "tools-held.json").write_text(json.dumps(HELD_TOOLS))
        _pin(tmp / "mcp-pins.toml")
        print(f"load average: {_load()}")
        sizes = [int(x) for x in a.held_log.split(",") if x.strip()]
        if sizes:
            print(f"held tool under --enforce, {min(a.n, 500)} calls after N recorded calls")
            for size in sizes:
                cpu, med = held_cost(tmp, size, min(a.n, 500))
                print(
                    f"  N={size:>7}: proxy CPU {cpu:.3f} ms/call, round trip median {med:.3f} ms"
                    f"  (load {_load()})"
                )
        if a.only_held:
            return
        if a.only_sdk:
            _sdk_table(tmp, min(a.n, 1000))
            return
        print(
            f"tools/call round trip over loopback stdio, {a.n} sequential calls, "
            f"{a.payload}-byte argument"
        )
        lat: dict[str, list[float]] = {}
        loads: dict[str, str] = {}
        paths = ["direct", "proxy", "enforce", "held", "http-front"]
        if not a.no_upstream:
            paths += ["http-direct", "http-upstream"]
        if a.paths:
            wanted = [p.strip() for p in a.paths.split(",") if p.strip()]
            paths = [p for p in paths if p in wanted]
        for k in paths:
            lat[k] = (http_latency if k.startswith("http") else latency)(k, tmp, a.n, a.payload)
            loads[k] = _load()
        print(
            f"{'path':<18}{'median':>10}{'p90':>10}{'p99':>10}{'added (median)':>17}"
            f"{'added (p99)':>13}{'CPU/call':>10}   against       load after"
        )
        for k, xs in lat.items():
            against = "http-direct" if k == "http-upstream" else "direct"
            if against not in lat:
                against = k  # its direct path was not asked for: nothing to subtract
            base, base99 = statistics.median(lat[against]), _ms(lat[against], 99)
            med = statistics.median(xs)
            print(
                f"{k:<18}{med * 1000:>8.3f}ms{_ms(xs, 90):>8.3f}ms{_ms(xs, 99):>8.3f}ms"
                f"{(med - base) * 1000:>14.3f}ms{_ms(xs, 99) - base99:>11.3f}ms"
                f"{CPU_PER_CALL.get(k, float('nan')):>8.3f}ms   "
                f"{against:<14}{loads[k]}"
            )
        if a.only_latency:
            if a.sdk:
                _sdk_table(tmp, min(a.n, 1000))
            return
        n_tp = max(2000, a.n)
        print(f"\nthroughput, {n_tp} pipelined calls")
        tp = {k: throughput(k, tmp, n_tp, a.payload) for k in ("direct", "proxy", "enforce")}
        for k, v in tp.items():
            print(f"{k:<18}{v:>10.0f} calls/s   ratio to direct {v / tp['direct']:.2f}")
        big = 1 << 20
        tpb = {k: throughput(k, tmp, 50, big) for k in ("direct", "proxy")}
        print(f"(load {_load()})")
        print("\nthroughput, 50 calls of 1 MiB (request and echoed response)")
        for k, v in tpb.items():
            print(f"{k:<18}{v * 2:>10.1f} MiB/s   ratio to direct {v / tpb['direct']:.2f}")
        if a.sdk:
            _sdk_table(tmp, min(a.n, 1000))


def _sdk_table(tmp: Path, n: int) -> None:
    print(f"\nthrough the mcp SDK client, {n} calls (direct and proxy: stdio, legacy mode)")
    sl = {k: sdk_latency(k, tmp, n) for k in ("direct", "proxy")}
    versions = {}
    for mode in ("legacy", "auto"):
        sl[f"http-front-{mode}"], versions[f"http-front-{mode}"] = sdk_http_latency(tmp, n, mode)
    b = statistics.median(sl["direct"])
    for k, xs in sl.items():
        med = statistics.median(xs)
        print(
            f"{k:<20}{med * 1000:>8.3f}ms median  p99 {_ms(xs, 99):.3f}ms  added "
            f"{(med - b) * 1000:.3f}ms  {versions.get(k, '')}  (load {_load()})"
        )


if __name__ == "__main__":
    main()
