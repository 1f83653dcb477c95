"""A stdio JSON-RPC server without the mcp SDK (starts in ~50 ms) for the proxy's fault tests.

Tools come from the JSON file named in ``PROXY_TOOLS_FILE`` (re-read on every tools/list;
default: one ``echo`` tool). ``tools/call``: ``echo`` answers with the arguments and the sha256
of the request line exactly as received; ``crash`` exits 7 without answering; ``hang`` never
answers. Env switches: ``PROXY_PID_FILE`` (write "pid childpid"), ``PROXY_TAP`` (append every
line written to stdout), ``PROXY_NOISE=1`` (non-JSON-RPC lines between messages),
``PROXY_CHILD=1`` (spawn a grandchild ``sleep``), ``PROXY_STUBBORN=1`` (ignore SIGTERM and
stdin EOF: only SIGKILL stops it).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time

DEFAULT_TOOLS = [
    {"name": "echo", "description": "echo the arguments", "inputSchema": {"type": "object"}}
]


def tools() -> list[dict]:
    path = os.environ.get("PROXY_TOOLS_FILE")
    if not path:
        return DEFAULT_TOOLS
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main() -> None:
    out = sys.stdout.buffer
    tap = open(os.environ["PROXY_TAP"], "ab") if os.environ.get("PROXY_TAP") else None
    noise = os.environ.get("PROXY_NOISE") == "1"
    child = None
    if os.environ.get("PROXY_CHILD") == "1":
        child = subprocess.Popen(["sleep", "300"])
    if os.environ.get("PROXY_STUBBORN") == "1":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("PROXY_PID_FILE"):
        with open(os.environ["PROXY_PID_FILE"], "w") as f:
            f.write(f"{os.getpid()} {child.pid if child else 0}")
    print("proxy_raw: started", file=sys.stderr, flush=True)

    def send(obj: dict) -> None:
        if noise:
            out.write(b'proxy_raw: handling a request\n\n{"level": "info"}\n{"jsonrpc": \n')
        line = json.dumps(obj).encode() + b"\n"
        if tap:
            tap.write(line)
            tap.flush()
        out.write(line)
        out.flush()

    if noise:
        out.write(b"Welcome! This banner is not JSON.\n")
        out.flush()
    for raw in sys.stdin.buffer:
        msg = json.loads(raw)
        if "id" not in msg:
            continue
        mid, method = msg["id"], msg.get("method")
        if method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": mid,
                    "result": {
                        "protocolVersion": msg["params"].get("protocolVersion", "2025-11-25"),
                        "capabilities": {"tools": {"listChanged": True}},
                        "serverInfo": {"name": "proxy_raw", "version": "1.0"},
                    },
                }
            )
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": tools()}})
        elif method == "tools/call":
            name = msg["params"]["name"]
            if name == "crash":
                print("proxy_raw: crashing on purpose", file=sys.stderr, flush=True)
                os._exit(7)
            if name == "hang":
                continue
            args = msg["params"].get("arguments", {})
            send(
                {
                    "jsonrpc": "2.0",
                    "id": mid,
                    "result": {
                        "content": [{"type": "text", "text": f"{name} ok"}],
                        "structuredContent": {
                            "tool": name,
                            "arguments": args,
                            "sha256": hashlib.sha256(raw).hexdigest(),
                        },
                    },
                }
            )
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": {}})
    if os.environ.get("PROXY_STUBBORN") == "1":
        time.sleep(300)


if __name__ == "__main__":
    main()
