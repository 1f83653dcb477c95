"""A real MCP server (the mcp SDK over Streamable HTTP, uvicorn on 127.0.0.1) for the remote
proxy's end-to-end tests: it lists ``tools`` (mutable), echoes each call's arguments back as
JSON text and records every call it ran in ``ran`` (the server's own record, whatever the proxy
logged), and answers 401 unless ``Authorization: Bearer <token>``. It also records every
``Authorization`` header it saw, so a test can tell the token did reach the server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from servers.toolserver import serve_http


class EchoHttpServer:
    def __init__(self, tools: list[dict[str, Any]], *, token: str):
        self.tools = tools
        self.token = token
        self.ran: list[dict[str, Any]] = []
        self.auth_ok = 0
        self.auth_refused = 0
        self.peers: set[Any] = set()
        """Every (host, port) a request came from: one per TCP connection the server
        accepted that carried a request (a client's port is its connection's)."""

    def make_server(self) -> Any:
        import mcp_types as t
        from mcp.server import Server

        async def list_tools(ctx: Any, params: Any) -> Any:
            return t.ListToolsResult(tools=[t.Tool.model_validate(d) for d in self.tools])

        async def call_tool(ctx: Any, params: Any) -> Any:
            rec = {"tool": params.name, "arguments": params.arguments or {}}
            self.ran.append(rec)
            text = json.dumps(rec, sort_keys=True)
            return t.CallToolResult(content=[t.TextContent(type="text", text=text)])

        return Server(
            "proxy-http-test", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool
        )

    def app(self) -> Any:
        inner = self.make_server().streamable_http_app()
        want = f"Bearer {self.token}".encode()

        async def guarded(scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                self.peers.add(tuple(scope.get("client") or ()))
                auth = dict(scope.get("headers") or []).get(b"authorization", b"")
                if auth != want:
                    self.auth_refused += 1
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 401,
                            "headers": [(b"content-type", b"application/json")],
                        }
                    )
                    await send(
                        {"type": "http.response.body", "body": b'{"error": "invalid_token"}'}
                    )
                    return
                self.auth_ok += 1
            await inner(scope, receive, send)

        return guarded


@contextmanager
def echo_http_server(
    tools: list[dict[str, Any]], *, token: str
) -> Iterator[tuple[EchoHttpServer, str]]:
    srv = EchoHttpServer(tools, token=token)
    with serve_http(srv.app()) as url:
        yield srv, url
