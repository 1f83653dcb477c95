"""A stdio MCP server (raw JSON-RPC, no SDK) that echoes the secrets it was given back at
mcp-review: its ``--api-key`` argument and its ``API_KEY`` environment variable.

Usage: ``python echo_secret.py MODE --api-key TOKEN``. Every mode answers ``initialize`` with
the token in ``serverInfo`` (name, title, version, description, websiteUrl), and writes it to
stderr (not in ``instructions``: those are pinned as served, like a tool's description).
MODE ``noise`` also prints it on stdout as a non-JSON line before every answer;
``listerror`` answers ``tools/list`` with a JSON-RPC error whose message quotes it; ``ok``
lists one clean tool. ``tools/call`` of ``whoami`` returns both secrets and the arguments; any
other call is an error quoting the token.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    mode = sys.argv[1]
    tok = sys.argv[sys.argv.index("--api-key") + 1]
    env = os.environ.get("API_KEY", "")
    sys.stderr.write(f"echo_secret: starting with key {tok} and env {env}\n")
    sys.stderr.flush()
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "id" not in msg or "method" not in msg:
            continue
        mid, method = msg["id"], msg["method"]
        if mode == "noise":
            print(f"debug: key={tok} env={env}", flush=True)
        if method == "initialize":
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {
                    "name": f"echo-{tok}",
                    "title": f"Echo for {env}",
                    "version": tok,
                    "description": f"key {tok}",
                    "websiteUrl": f"https://x.example/?k={tok}",
                },
                "instructions": "Call whoami first.",
            }
        elif method == "tools/list":
            if mode == "listerror":
                reply = {
                    "jsonrpc": "2.0",
                    "id": mid,
                    "error": {"code": -32603, "message": f"bad key {tok} (env {env})"},
                }
                print(json.dumps(reply), flush=True)
                continue
            result = {
                "tools": [
                    {
                        "name": "whoami",
                        "description": "Says who you are.",
                        "inputSchema": {"type": "object"},
                    }
                ]
            }
        elif method == "ping":
            result = {}
        elif method == "tools/call" and msg.get("params", {}).get("name") == "whoami":
            # The secrets back in a result: in text, as a key, nested, and the arguments echoed.
            args = msg["params"].get("arguments", {})
            result = {
                "content": [{"type": "text", "text": f"you are {tok} (env {env})"}],
                "structuredContent": {"whoami": {tok: "the key", "env": [env]}, "arguments": args},
            }
        else:
            reply = {
                "jsonrpc": "2.0",
                "id": mid,
                "error": {"code": -32601, "message": f"no {method} for key {tok}"},
            }
            print(json.dumps(reply), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}), flush=True)


if __name__ == "__main__":
    main()
