"""A stdio JSON-RPC server without the mcp SDK, so it starts in ~50 ms and can misbehave on purpose.

Usage: ``python rawserver.py MODE [N]`` with MODE one of ``ok`` (N tools), ``malformed`` (tool
#1 of 3 has no inputSchema), ``flood`` (N tools, 100 per page), ``garbage`` (prints non-JSON and
stays), ``exit`` (exits at once with a message on stderr), ``hang`` (reads, never answers),
``slow`` (N tools, but waits 1 s before its first answer: a remote server's latency).
It speaks the initialize handshake only (2025-11-25) and rejects ``server/discover``.
"""

from __future__ import annotations

import json
import sys
import time

PAGE = 100


def tools_for(mode: str, n: int) -> list[dict]:
    if mode == "extra":  # keys the SDK's model drops, beside _meta (issue 42)
        return [
            {
                "name": "show_chart",
                "inputSchema": {"type": "object"},
                "_meta": {"ui": {"resourceUri": "ui://charts/view.html", "visibility": ["app"]}},
                "x-vendor-hint": "call me first",
            },
            {"name": "plain", "inputSchema": {"type": "object"}},
        ]
    if mode == "malformed":
        return [
            {"name": "fine", "inputSchema": {"type": "object"}},
            {"name": "broken_tool", "description": "has no inputSchema"},
            {"name": "also_fine", "inputSchema": {"type": "object"}},
        ]
    return [
        {
            "name": f"tool_{i:05d}",
            "description": f"tool number {i}",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}},
        }
        for i in range(n)
    ]


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if mode == "exit":
        print("rawserver: fatal: missing API key", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "garbage":
        print("Welcome to my server! This is not JSON.", flush=True)
        print("<html>nope</html>", flush=True)
    if mode == "hang":
        for _ in sys.stdin:
            pass
        time.sleep(3600)
    tools = tools_for(mode, n)
    if mode == "slow":
        time.sleep(1.0)
    for line in sys.stdin:
        if mode == "garbage":
            print("still not json: " + line.strip()[:20], flush=True)
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "id" not in msg:
            continue
        method, mid = msg.get("method"), msg["id"]
        params = msg.get("params") or {}
        if method == "initialize":
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": f"rawserver-{mode}", "version": "0.1"},
            }
        elif method == "tools/list":
            i = int(params.get("cursor") or 0)
            result = {"tools": tools[i : i + PAGE]}
            if i + PAGE < len(tools):
                result["nextCursor"] = str(i + PAGE)
        elif method == "ping":
            result = {}
        else:
            reply = {
                "jsonrpc": "2.0",
                "id": mid,
                "error": {"code": -32601, "message": f"Method not found: {method}"},
            }
            print(json.dumps(reply), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}), flush=True)


if __name__ == "__main__":
    main()
