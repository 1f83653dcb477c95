"""A real MCP server (the mcp SDK) whose tool list the test controls: in-process, stdio or HTTP.

- in-process: ``ToolServer(tools).server`` (mutate ``.tools`` between fetches);
- stdio: ``python toolserver.py`` reads its tool list (wire JSON) from the file named in
  ``MCP_REVIEW_TOOLS_FILE`` on every ``tools/list``, so a test edits the file between fetches
  (and sends ``MCP_REVIEW_INSTRUCTIONS`` as its instructions, when set);
- HTTP: ``ToolServer(tools).http_app(token=...)`` (a fresh Streamable HTTP ASGI app, optionally
  answering 401 unless ``Authorization: Bearer <token>``); ``serve_http`` runs one on a thread.
Lists are served two tools per page so every fetch exercises pagination.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

PAGE = 2


def tool(name: str, description: str = "", **props: Any) -> dict[str, Any]:
    """A wire tool definition with the given properties (each a JSON Schema)."""
    return {
        "name": name,
        "description": description or f"{name} tool",
        "inputSchema": {"type": "object", "properties": props},
    }


class ToolServer:
    def __init__(
        self,
        tools: list[dict[str, Any]] | Callable[[], list[dict[str, Any]]],
        *,
        name: str = "toolserver",
        version: str = "0.1",
        ttl_ms: int | None = None,
        instructions: str | None = None,
    ):
        self.tools = tools
        self.instructions = instructions
        """Sent in initialize / server/discover by servers made after it is set."""
        self.name = name
        self.version = version
        self.ttl_ms = ttl_ms
        self.lists = 0
        from mcp.server.subscriptions import InMemorySubscriptionBus

        self.bus = InMemorySubscriptionBus()
        self.sessions: list[Any] = []
        self.server = self.make_server()

    def current(self) -> list[dict[str, Any]]:
        return self.tools() if callable(self.tools) else self.tools

    def make_server(self) -> Any:
        import mcp_types as t
        from mcp.server import Server
        from mcp.server.subscriptions import ListenHandler

        async def list_tools(ctx: Any, params: Any) -> Any:
            self.lists += 1
            sess = getattr(ctx, "session", None)
            if sess is not None and sess not in self.sessions:
                self.sessions.append(sess)
            tools = self.current()
            i = int(params.cursor) if params is not None and params.cursor else 0
            page = tools[i : i + PAGE]
            nxt = str(i + PAGE) if i + PAGE < len(tools) else None
            kw: dict[str, Any] = {}
            if self.ttl_ms is not None:
                kw["ttl_ms"] = self.ttl_ms
            return t.ListToolsResult(
                tools=[t.Tool.model_validate(d) for d in page], next_cursor=nxt, **kw
            )

        return Server(
            self.name,
            version=self.version,
            on_list_tools=list_tools,
            on_subscriptions_listen=ListenHandler(self.bus),
            instructions=self.instructions,
        )

    async def changed(self) -> None:
        """Tell connected clients the list changed (listen stream and legacy notification)."""
        from mcp.server.subscriptions import ToolsListChanged

        await self.bus.publish(ToolsListChanged())
        for s in list(self.sessions):
            try:
                await s.send_tool_list_changed()
            except Exception:
                self.sessions.remove(s)

    def http_app(self, token: str | None = None) -> Any:
        app = self.make_server().streamable_http_app()
        if token is None:
            return app

        async def guarded(scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                auth = dict(scope.get("headers") or []).get(b"authorization", b"")
                if auth != f"Bearer {token}".encode():
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 401,
                            "headers": [
                                (b"content-type", b"application/json"),
                                (b"www-authenticate", b"Bearer"),
                            ],
                        }
                    )
                    await send(
                        {"type": "http.response.body", "body": b'{"error": "invalid_token"}'}
                    )
                    return
            await app(scope, receive, send)

        return guarded


@contextmanager
def serve_http(app: Any) -> Iterator[str]:
    """Run an ASGI app with uvicorn on a thread at 127.0.0.1:<random>; yields the /mcp URL."""
    import uvicorn

    sock = socket.socket()
    # Accepted sockets inherit this: without it every keep-alive response waits ~40 ms for a
    # delayed ACK (Nagle), which made a 2026-07-28 list of 10 pages take 0.45 s instead of 0.05.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="on"))
    th = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    deadline = time.monotonic() + 120  # never waited out: generous on a loaded machine
    while not server.started:
        if time.monotonic() > deadline or not th.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        server.should_exit = True
        th.join(5)


def _stdio_main() -> None:
    import anyio
    from mcp.server import NotificationOptions
    from mcp.server.stdio import stdio_server

    path = os.environ["MCP_REVIEW_TOOLS_FILE"]

    def read() -> list[dict[str, Any]]:
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    instructions = os.environ.get("MCP_REVIEW_INSTRUCTIONS")  # sent in initialize/discover
    srv = ToolServer(
        read, name=os.environ.get("MCP_REVIEW_SERVER_NAME", "toolserver"), instructions=instructions
    )
    print("toolserver: started", file=sys.stderr, flush=True)

    async def main() -> None:
        s = srv.server
        async with stdio_server() as (r, w):
            await s.run(
                r, w, s.create_initialization_options(NotificationOptions(tools_changed=True))
            )

    anyio.run(main)


if __name__ == "__main__":
    _stdio_main()
