"""The demo's MCP server program: serves "v1" or "v2" of a bundled tool list, as its state file says.

Run it over stdio (the client starts one process per connection)::

    python -m mcp_review.demo.servers stdio --server warehouse --state FILE

or over Streamable HTTP on 127.0.0.1 (prints the URL, serves until interrupted)::

    python -m mcp_review.demo.servers http --server devtools --state FILE [--port 0]

``serve_http(server, state)`` runs the HTTP one on a thread of the calling process (what
``mcp-review demo`` does). The state file holds ``v1`` or ``v2`` and is read on every
``tools/list``, so writing it changes what the server serves under a connected client, as a
real upstream update would. Lists are served three tools per page (clients must paginate).
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp_review.demo import definitions

PAGE = 3


def read_state(path: str | Path) -> str:
    """The version the state file names ("v1" or "v2")."""
    version = Path(path).read_text(encoding="utf-8").strip()
    if version not in definitions.VERSIONS:
        raise ValueError(
            f"{path}: expected one of {', '.join(definitions.VERSIONS)}, got {version!r}"
        )
    return version


def write_state(path: str | Path, version: str) -> None:
    """Switch every server reading ``path`` to ``version`` (atomic: a server never reads half)."""
    if version not in definitions.VERSIONS:
        raise ValueError(f"unknown demo version {version!r}")
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(version + "\n", encoding="utf-8")
    tmp.replace(p)


def make_server(server: str, state: str | Path) -> Any:
    """An ``mcp.server.Server`` listing ``server``'s tools at the version in ``state``."""
    import mcp_types as t
    from mcp.server import Server

    if server not in definitions.SERVERS:
        raise ValueError(
            f"no demo server {server!r} (expected one of {', '.join(definitions.SERVERS)})"
        )
    # serverInfo is fixed per connection: read at start (each stdio connection is a new process).
    info = definitions.SERVER_INFO[server][read_state(state)]

    async def list_tools(ctx: Any, params: Any) -> Any:
        tools = definitions.tools(server, read_state(state))
        i = int(params.cursor) if params is not None and params.cursor else 0
        nxt = str(i + PAGE) if i + PAGE < len(tools) else None
        return t.ListToolsResult(
            tools=[t.Tool.model_validate(d) for d in tools[i : i + PAGE]], next_cursor=nxt
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        wire = definitions.call_result(server, read_state(state), params.name, params.arguments)
        return t.CallToolResult.model_validate(wire)

    async def list_prompts(ctx: Any, params: Any) -> Any:
        return t.ListPromptsResult(
            prompts=[
                t.Prompt.model_validate(p) for p in definitions.prompts(server, read_state(state))
            ]
        )

    async def get_prompt(ctx: Any, params: Any) -> Any:
        text = f"Review this change:\n{(params.arguments or {}).get('diff', '')}"
        return t.GetPromptResult(
            messages=[t.PromptMessage(role="user", content=t.TextContent(type="text", text=text))]
        )

    extra: dict[str, Any] = {}
    if definitions.prompts(server, "v1"):  # only a server with prompts declares them
        extra = {"on_list_prompts": list_prompts, "on_get_prompt": get_prompt}
    return Server(
        info["name"],
        version=info["version"],
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        **extra,
    )


def _socket(port: int = 0) -> socket.socket:
    sock = socket.socket()
    # Without it every keep-alive response waits ~40 ms for a delayed ACK (Nagle).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


def _uvicorn(server: str, state: str | Path) -> Any:
    import uvicorn

    # A fresh app per start: its session manager runs only once.
    app = make_server(server, state).streamable_http_app()
    # Quiet: the demo's app owns the terminal, and a log line would garble it.
    return uvicorn.Server(
        uvicorn.Config(app, log_level="critical", access_log=False, lifespan="on")
    )


@contextmanager
def serve_http(server: str, state: str | Path, *, timeout: float = 20.0) -> Iterator[str]:
    """Serve ``server`` over Streamable HTTP on 127.0.0.1:<random> from a thread; yields the URL.
    The server is stopped (and the port closed) when the block ends."""
    sock = _socket()
    srv = _uvicorn(server, state)
    th = threading.Thread(
        target=srv.run, kwargs={"sockets": [sock]}, daemon=True, name=f"demo-http-{server}"
    )
    th.start()
    try:
        deadline = time.monotonic() + timeout
        while not srv.started:
            if not th.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"demo server {server!r} did not start over HTTP")
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        srv.should_exit = True
        th.join(5)
        sock.close()


def _stdio(server: str, state: str) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    srv = make_server(server, state)

    async def main() -> None:
        async with stdio_server() as (r, w):
            await srv.run(r, w, srv.create_initialization_options())

    anyio.run(main)


def _http(server: str, state: str, port: int) -> None:
    sock = _socket(port)
    srv = _uvicorn(server, state)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    srv.run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m mcp_review.demo.servers",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    p.add_argument("transport", choices=("stdio", "http"))
    p.add_argument("--server", required=True, choices=definitions.SERVERS)
    p.add_argument(
        "--state", required=True, metavar="FILE", help="file holding the version to serve: v1 or v2"
    )
    p.add_argument("--port", type=int, default=0, help="HTTP port (default: any free port)")
    args = p.parse_args(argv)
    try:
        read_state(args.state)
    except (OSError, ValueError) as e:
        print(f"demo server: {e}", file=sys.stderr)
        return 2
    if args.transport == "stdio":
        _stdio(args.server, args.state)
    else:
        _http(args.server, args.state, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
