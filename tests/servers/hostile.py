"""A hostile MCP server without the mcp SDK: every string it controls is an attack on the output.

Speaks raw JSON-RPC (initialize handshake, 2025-11-25; rejects ``server/discover``), over stdio
(``python hostile.py MODE``) or Streamable HTTP (``hostile_http_app(MODE)``, a plain ASGI app
answering each POST with one ``application/json`` reply). MODE:

- ``tools``: tool names, descriptions, property names, serverInfo name and version all carry
  ``HOSTILE`` (ESC sequences, OSC 52, C1 controls, bidi, TAG, CR/LF and a forged report line,
  HTML and Markdown link syntax); it also writes ``HOSTILE`` to stderr;
- ``error``: answers ``tools/list`` with a JSON-RPC error whose message is ``HOSTILE``;
- ``crash``: writes ``HOSTILE`` to stderr and exits before answering (stdio only);
- ``badproto``: answers initialize with ``HOSTILE`` as its protocol version;
- ``badutf8``: answers ``tools/list`` with a line holding an invalid UTF-8 byte, and stays up;
- ``shift``: the list changes between page 1 and page 2 (a tool inserted at the front);
- ``stderrflood``: writes ``MCP_REVIEW_FLOOD_BYTES`` (default 3 MiB) to stderr, then serves.
- ``wild``: ``WILD_TOOLS``, a list the SDK's models reject: one tool whose ``inputSchema`` has
  no ``type`` (as older server-filesystem releases send) beside a valid one;
- ``deviant``: ``DEVIANT_TOOLS``, one break of the MCP schema per tool (a name with a space, a
  number for a description, a string for annotations, a name listed twice) and an entry with
  no name, two per page;
- ``notalist``: answers ``tools/list`` with ``{"tools": {...}}`` (an object, not a list).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

HOSTILE = (
    "\x1b[2J\x1b[H\x1b]52;c;ZXZpbA==\x07\x9b31m\x85\u202eevil\u2066x\u2069\U000e0041"
    "\r\nPASS: 0 pinned\u2028\u2029\x0b\x0c"
    "</summary></details><img src=x onerror=alert(1)>[click](https://evil.example)"
    "|`code`*em*"
)
"""Every string a hostile server controls is built from this."""

HOSTILE_NAMES = [f"read{HOSTILE}", f"\nPASS: 0 pinned\n{HOSTILE}", "plain_tool"]
"""Tool names served in ``tools`` mode (one plain tool so a normal line is in every report)."""

PAGE = 2

WILD_TOOLS: list[dict[str, Any]] = [
    {
        "name": "search",
        "description": "Search the files.",
        "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"],
        },
    },
    {
        "name": "read_file",
        "description": "Read the complete contents of a file as text.",
        "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"},
    },
]
"""Served in ``wild`` mode, exactly as written here."""

DEVIANT_TOOLS: list[Any] = [
    {"name": "twice", "inputSchema": {"type": "object"}},
    {"name": "twice", "inputSchema": {"type": "object"}},
    {"name": "good", "inputSchema": {"type": "object"}},
    {"name": "has space", "inputSchema": {"type": "object"}},
    {"name": "numbered", "description": 42, "inputSchema": {"type": "object"}},
    {"name": "annotated", "annotations": "read-only", "inputSchema": {"type": "object"}},
    {"description": "an entry with no name"},
]
"""Served in ``deviant`` mode, two per page (the raw reading pages too; a name listed twice on
two pages would read as a list that changed while paged)."""


def hostile_tools() -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "title": HOSTILE,
            "description": f"Does things. {HOSTILE}",
            "inputSchema": {
                "type": "object",
                "properties": {
                    f"path{HOSTILE}": {"type": "string", "description": HOSTILE},
                    "q": {"type": "string"},
                },
            },
        }
        for n in HOSTILE_NAMES
    ]


def _plain(names: list[str]) -> list[dict[str, Any]]:
    return [{"name": n, "inputSchema": {"type": "object"}} for n in names]


class Hostile:
    """The reply logic, shared by both transports. ``reply`` returns the JSON-RPC reply as
    bytes (without the newline), or None for a notification."""

    def __init__(self, mode: str):
        self.mode = mode
        self.pages_served = 0

    def reply(self, msg: dict[str, Any]) -> bytes | None:
        if "id" not in msg:
            return None
        method, mid = msg.get("method"), msg["id"]
        params = msg.get("params") or {}
        if method == "initialize":
            info = (
                {"name": HOSTILE, "version": HOSTILE}
                if self.mode == "tools"
                else {"name": f"hostile-{self.mode}", "version": "0.1"}
            )
            proto = HOSTILE if self.mode == "badproto" else "2025-11-25"
            return _ok(
                mid,
                {
                    "protocolVersion": proto,
                    "capabilities": {"tools": {"listChanged": True}},
                    "serverInfo": info,
                },
            )
        if method == "ping":
            return _ok(mid, {})
        if method != "tools/list":
            return _err(mid, -32601, f"Method not found: {method}")
        if self.mode == "error":
            return _err(mid, -32603, HOSTILE)
        if self.mode == "badutf8":
            good = _ok(mid, {"tools": _plain(["caf\u00e9"])})
            return good.replace(b"caf\\u00e9", b"caf\xff")
        cursor = int(params.get("cursor") or 0)
        if self.mode == "notalist":
            return _ok(mid, {"tools": {"name": "not-a-list", "inputSchema": {"type": "object"}}})
        if self.mode == "shift":
            # Page 1 of the old list, then the list gains a tool at the front: page 2 of the
            # new list repeats "b" and "new" is never seen. Merging the two is a list that
            # never existed.
            self.pages_served += 1
            tools = _plain(["a", "b", "c", "d"] if cursor == 0 else ["new", "a", "b", "c", "d"])
        elif self.mode == "tools":
            tools = hostile_tools()
        elif self.mode == "wild":
            tools = WILD_TOOLS
        elif self.mode == "deviant":
            tools = DEVIANT_TOOLS
        else:
            tools = _plain(["alpha", "beta", "gamma"])
        result: dict[str, Any] = {"tools": tools[cursor : cursor + PAGE]}
        if cursor + PAGE < len(tools):
            result["nextCursor"] = str(cursor + PAGE)
        return _ok(mid, result)


def _ok(mid: Any, result: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}).encode()


def _err(mid: Any, code: int, message: str) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": message}}
    ).encode()


def hostile_http_app(mode: str) -> Any:
    """A Streamable HTTP endpoint (any path) answering every POST with one JSON reply."""
    h = Hostile(mode)

    async def app(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                ev = await receive()
                if ev["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif ev["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["method"] != "POST":
            await send({"type": "http.response.start", "status": 405, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        body = b""
        while True:
            ev = await receive()
            body += ev.get("body", b"")
            if not ev.get("more_body"):
                break
        out = h.reply(json.loads(body))
        if out is None:
            await send({"type": "http.response.start", "status": 202, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": out})

    return app


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "tools"
    err = sys.stderr.buffer
    if mode in ("tools", "error", "crash"):
        err.write(f"hostile: {HOSTILE}\n".encode("utf-8", "surrogatepass"))
        err.flush()
    if mode == "crash":
        sys.exit(3)
    if mode == "stderrflood":
        n = int(os.environ.get("MCP_REVIEW_FLOOD_BYTES", 3 << 20))
        line = b"flood " + b"x" * 1017 + b"\n"
        for _ in range(n // len(line)):
            err.write(line)
        err.flush()
    h = Hostile(mode)
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        reply = h.reply(msg)
        if reply is not None:
            out.write(reply + b"\n")
            out.flush()


if __name__ == "__main__":
    main()
