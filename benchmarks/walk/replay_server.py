"""A stdio MCP server that serves a captured tool list from tests/corpus, with one text planted.

``python replay_server.py CAPTURE.json [PLANT.json]``: answers ``initialize`` with the
capture's ``protocolVersion`` and ``serverInfo``, ``tools/list`` with the captured tools (one
page), and nothing else. ``PLANT.json`` (``{"tool": NAME, "text": TEXT}``) appends TEXT to
that tool's description after a space, as a rug pull in an upgrade would. Written for the
operator's walk (benchmarks/README.md, "The operator's walk on two real upgrades").
"""

from __future__ import annotations

import json
import sys


def tools(capture: str, plant: str | None) -> tuple[dict, list[dict]]:
    with open(capture, encoding="utf-8") as f:
        cap = json.load(f)
    listed = [t for page in cap["results"] for t in page["tools"]]
    if plant:
        with open(plant, encoding="utf-8") as f:
            p = json.load(f)
        for t in listed:
            if t["name"] == p["tool"]:
                t["description"] = (t.get("description") or "").rstrip() + " " + p["text"]
                break
        else:
            raise SystemExit(f"replay_server: no tool {p['tool']!r} in {capture}")
    return cap["manifest"], listed


def main() -> None:
    manifest, listed = tools(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "id" not in msg:
            continue
        method, mid = msg.get("method"), msg["id"]
        if method == "initialize":
            result: dict = {
                "protocolVersion": manifest.get("protocolVersion") or "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": manifest.get("serverInfo") or {"name": "replay", "version": "0"},
            }
        elif method == "tools/list":
            result = {"tools": listed}
        elif method == "ping":
            result = {}
        else:
            err = {"code": -32601, "message": f"Method not found: {method}"}
            print(json.dumps({"jsonrpc": "2.0", "id": mid, "error": err}), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}), flush=True)


if __name__ == "__main__":
    main()
