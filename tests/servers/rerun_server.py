"""A real MCP server (the mcp SDK, stdio) for `rerun` tests: tools and behaviour from a file.

``RERUN_STATE`` names a JSON file re-read on every request: ``{"tools": [wire definitions],
"config": {...}, "volatile": bool, "fail": bool, "sleep": seconds, "describe": str}``. ``get_config``
answers ``config`` plus the ``env`` argument (and, when ``volatile``, a fresh timestamp and
request id) as structuredContent and as JSON text; ``deploy`` and every other tool answer a
text line. Every ``tools/call`` received is appended to the file ``RERUN_SEEN`` *before* it is
answered, so a test can check independently of mcp-review which calls reached the server.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid


def main() -> None:
    import anyio
    import mcp_types as t
    from mcp.server import NotificationOptions, Server
    from mcp.server.stdio import stdio_server

    def state() -> dict:
        with open(os.environ["RERUN_STATE"], encoding="utf-8") as f:
            return json.load(f)

    async def list_tools(ctx, params):
        return t.ListToolsResult(tools=[t.Tool.model_validate(d) for d in state()["tools"]])

    async def call_tool(ctx, params):
        with open(os.environ["RERUN_SEEN"], "a", encoding="utf-8") as f:
            f.write(json.dumps({"tool": params.name, "arguments": params.arguments}) + "\n")
        st = state()
        args = params.arguments or {}
        if st.get("fail"):
            return t.CallToolResult(
                content=[t.TextContent(type="text", text="backend down")], is_error=True
            )
        if params.name == "get_config":
            if st.get("sleep"):
                await anyio.sleep(st["sleep"])
            out = {**st.get("config", {}), "env": args.get("env")}
            if st.get("volatile"):
                out["generated_at"] = time.time_ns()
                out["request_id"] = uuid.uuid4().hex
            text = json.dumps(out, sort_keys=True)
            return t.CallToolResult(
                content=[t.TextContent(type="text", text=text)], structured_content=out
            )
        if params.name == "describe":
            text = st.get("describe", "")
            if st.get("volatile"):
                text += f" at {time.time_ns()}"
            return t.CallToolResult(content=[t.TextContent(type="text", text=text)])
        return t.CallToolResult(
            content=[t.TextContent(type="text", text=f"{params.name} done for {args.get('env')}")]
        )

    srv = Server("rerun-test", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)
    print("rerun_server: started", file=sys.stderr, flush=True)

    async def run() -> None:
        async with stdio_server() as (r, w):
            await srv.run(
                r, w, srv.create_initialization_options(NotificationOptions(tools_changed=True))
            )

    anyio.run(run)


if __name__ == "__main__":
    main()
