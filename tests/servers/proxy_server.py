"""A real MCP server (the mcp SDK, stdio) whose tool list is read from ``PROXY_TOOLS_FILE``.

The file (a JSON list of wire tool definitions) is re-read on every ``tools/list``, so a test
changes a tool under a connected client by rewriting it. Every tool echoes its arguments back
as JSON text. Speaks 2026-07-28 and, to clients that ask, the initialize handshake. With
``PROXY_RAN_FILE`` set, every call the server runs is appended to that file (one JSON line:
tool and arguments): the server's own record of what ran, whatever the proxy logged. With
``PROXY_RESOURCES_FILE`` set (a JSON object: URI -> text), ``resources/read`` serves those
texts as MCP Apps UI resources (``text/html;profile=mcp-app``).
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    import anyio
    import mcp_types as t
    from mcp.server import NotificationOptions, Server
    from mcp.server.stdio import stdio_server

    path = os.environ["PROXY_TOOLS_FILE"]

    def read() -> list[dict]:
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    async def list_tools(ctx, params):
        return t.ListToolsResult(tools=[t.Tool.model_validate(d) for d in read()])

    ran = os.environ.get("PROXY_RAN_FILE")

    async def call_tool(ctx, params):
        text = json.dumps(
            {"tool": params.name, "arguments": params.arguments or {}}, sort_keys=True
        )
        if ran:
            with open(ran, "a", encoding="utf-8") as f:
                f.write(text + "\n")
        return t.CallToolResult(content=[t.TextContent(type="text", text=text)])

    resources = os.environ.get("PROXY_RESOURCES_FILE")

    async def read_resource(ctx, params):
        assert resources is not None
        with open(resources, encoding="utf-8") as f:
            served = json.load(f)
        if params.uri not in served:
            raise ValueError(f"no resource {params.uri}")
        return t.ReadResourceResult(
            contents=[
                t.TextResourceContents(
                    uri=params.uri, mime_type="text/html;profile=mcp-app", text=served[params.uri]
                )
            ]
        )

    more = {"on_read_resource": read_resource} if resources else {}
    srv = Server(
        "proxy-test", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool, **more
    )
    print("proxy_server: started", file=sys.stderr, flush=True)

    async def run() -> None:
        async with stdio_server() as (r, w):
            await srv.run(
                r, w, srv.create_initialization_options(NotificationOptions(tools_changed=True))
            )

    anyio.run(run)


if __name__ == "__main__":
    main()
