"""Connect-and-list for 1, 10 and 50 local servers at once (target: 50 at once ≤ 3× the slowest alone).

Kinds of server (``--kinds``):
- ``raw``: stdio subprocesses that speak JSON-RPC without the SDK (~30 ms to start), so the
  figure is mcp-review's own cost per connection: spawn, handshake, paging, teardown;
- ``latency``: the raw server waiting 1 s before it answers (a remote or slow-starting server:
  the case where doing servers at once pays off most);
- ``sdk``: stdio subprocesses running the real mcp SDK server (``import mcp`` ≈ 1.3 s of CPU
  each, so 50 of them on 2 cores are bound by CPU, not by mcp-review);
- ``http``: N Streamable HTTP sessions against one local uvicorn server on a thread;
- ``inproc``: in-process SDK servers (no transport at all).
Each server lists 20 tools (pages of 2 for sdk/http/inproc, of 100 for raw).

    python benchmarks/bench_fetch.py                      # all kinds, 1/10/50
    python benchmarks/bench_fetch.py --kinds raw,sdk --sizes 1,10 --concurrency 50
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

import anyio  # noqa: E402

from mcp_review.services.config import ServerConfig  # noqa: E402
from mcp_review.services.fetch import Progress, fetch_all  # noqa: E402

SERVERS = HERE.parent / "tests" / "servers"
TOOLS = 20


def configs(kind: str, n: int, ctx: dict) -> list[ServerConfig]:
    if kind == "raw":
        return [
            ServerConfig(
                f"raw{i}",
                command=sys.executable,
                args=(str(SERVERS / "rawserver.py"), "ok", str(TOOLS)),
                timeout=120,
            )
            for i in range(n)
        ]
    if kind == "latency":
        return [
            ServerConfig(
                f"lat{i}",
                command=sys.executable,
                args=(str(SERVERS / "rawserver.py"), "slow", str(TOOLS)),
                timeout=120,
            )
            for i in range(n)
        ]
    if kind == "sdk":
        return [
            ServerConfig(
                f"sdk{i}",
                command=sys.executable,
                args=(str(SERVERS / "toolserver.py"),),
                env={"MCP_REVIEW_TOOLS_FILE": ctx["tools_file"]},
                timeout=300,
            )
            for i in range(n)
        ]
    if kind == "http":
        return [
            ServerConfig(f"http{i}", transport="http", url=ctx["url"], timeout=120)
            for i in range(n)
        ]
    if kind == "inproc":
        from servers.toolserver import ToolServer

        return [
            ServerConfig(f"in{i}", target=ToolServer(ctx["tools"]).server, timeout=120)
            for i in range(n)
        ]
    raise SystemExit(f"unknown kind {kind!r}")


def measure(cfgs: list[ServerConfig], concurrency: int) -> tuple[float, float, int]:
    """(wall seconds, slowest single server's own seconds, failures)."""
    per: dict[str, float] = {}

    def on_progress(p: Progress) -> None:
        if p.state in ("done", "failed"):
            per[p.server] = p.elapsed

    t0 = time.perf_counter()
    snap = anyio.run(lambda: fetch_all(cfgs, concurrency=concurrency, on_progress=on_progress))
    wall = time.perf_counter() - t0
    failures = sum(1 for s in snap.servers.values() if s.error or len(s.tools) != TOOLS)
    return wall, max(per.values()), failures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="raw,latency,inproc,http,sdk")
    ap.add_argument("--sizes", default="1,10,50")
    ap.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="bound on parallel connections (default: the config default)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs of the single-server case")
    a = ap.parse_args()
    from servers.toolserver import ToolServer, serve_http, tool

    from mcp_review.services.config import DEFAULT_CONCURRENCY

    conc = a.concurrency or DEFAULT_CONCURRENCY
    tools = [tool(f"t{i}", q={"type": "string"}) for i in range(TOOLS)]
    with tempfile.TemporaryDirectory() as d:
        tools_file = os.path.join(d, "tools.json")
        Path(tools_file).write_text(json.dumps(tools))
        with serve_http(ToolServer(tools).http_app()) as url:
            ctx = {"tools_file": tools_file, "url": url, "tools": tools}
            print(f"cpus={os.cpu_count()} concurrency={conc} tools/server={TOOLS}")
            print(f"{'kind':7} {'n':>3} {'wall s':>8} {'slowest alone s':>16} {'ratio':>6} fails")
            for kind in a.kinds.split(","):
                alone = min(measure(configs(kind, 1, ctx), conc)[0] for _ in range(a.repeat))
                for n in (int(x) for x in a.sizes.split(",")):
                    wall, _, fails = (
                        (alone, alone, 0) if n == 1 else measure(configs(kind, n, ctx), conc)
                    )
                    print(
                        f"{kind:7} {n:>3} {wall:8.2f} {alone:16.2f} {wall / alone:6.1f} {fails}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
