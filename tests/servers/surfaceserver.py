"""A real MCP server (the mcp SDK's low-level Server) serving prompts, resources and resource
templates the test controls (issue 43), one tool besides, two entries per page (every list is
paged). Mutate ``.prompts``, ``.resources``, ``.templates`` (wire JSON) between fetches.
``prompts/get`` checks the served prompt's required arguments; ``resources/read`` answers a
listed URI with a small text."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

PAGE = 2


class SurfaceServer:
    def __init__(
        self,
        prompts: list[dict[str, Any]] | None = None,
        resources: list[dict[str, Any]] | None = None,
        templates: list[dict[str, Any]] | None = None,
    ):
        self.prompts = prompts if prompts is not None else []
        self.resources = resources if resources is not None else []
        self.templates = templates if templates is not None else []
        self.sessions: list[Any] = []
        self.server = self.make_server()

    async def changed(self) -> None:
        """Send notifications/prompts/list_changed to the clients that listed prompts."""
        for sess in list(self.sessions):
            await sess.send_prompt_list_changed()

    def reload(self) -> None:
        """stdio: re-read ``MCP_REVIEW_SURFACES_FILE`` (``{"prompts", "resources",
        "templates"}``) so a test edits the file between lists."""
        path = os.environ.get("MCP_REVIEW_SURFACES_FILE")
        if path:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
            self.prompts, self.resources = d.get("prompts", []), d.get("resources", [])
            self.templates = d.get("templates", [])

    def make_server(self) -> Any:
        import mcp_types as t
        from mcp import MCPError
        from mcp.server import Server

        def page(items: list[dict[str, Any]], params: Any) -> tuple[list[dict[str, Any]], Any]:
            i = int(params.cursor) if params is not None and params.cursor else 0
            return items[i : i + PAGE], (str(i + PAGE) if i + PAGE < len(items) else None)

        async def list_tools(ctx: Any, params: Any) -> Any:
            return t.ListToolsResult(tools=[t.Tool(name="noop", inputSchema={"type": "object"})])

        async def list_prompts(ctx: Any, params: Any) -> Any:
            self.reload()
            sess = getattr(ctx, "session", None)
            if sess is not None and sess not in self.sessions:
                self.sessions.append(sess)
            items, nxt = page(self.prompts, params)
            return t.ListPromptsResult(
                prompts=[t.Prompt.model_validate(p) for p in items], next_cursor=nxt
            )

        async def list_resources(ctx: Any, params: Any) -> Any:
            self.reload()
            items, nxt = page(self.resources, params)
            return t.ListResourcesResult(
                resources=[t.Resource.model_validate(r) for r in items], next_cursor=nxt
            )

        async def list_templates(ctx: Any, params: Any) -> Any:
            self.reload()
            items, nxt = page(self.templates, params)
            return t.ListResourceTemplatesResult(
                resource_templates=[t.ResourceTemplate.model_validate(r) for r in items],
                next_cursor=nxt,
            )

        async def get_prompt(ctx: Any, params: Any) -> Any:
            self.reload()
            p = next((p for p in self.prompts if p["name"] == params.name), None)
            if p is None:
                raise MCPError(-32602, f"unknown prompt {params.name}")
            given = params.arguments or {}
            for a in p.get("arguments", []):
                if a.get("required") and a["name"] not in given:
                    raise MCPError(-32602, f"missing required argument {a['name']}")
            return t.GetPromptResult(
                description=p.get("description"),
                messages=[
                    t.PromptMessage(
                        role="user", content=t.TextContent(type="text", text=f"prompt {p['name']}")
                    )
                ],
            )

        async def read_resource(ctx: Any, params: Any) -> Any:
            uri = str(params.uri)
            return t.ReadResourceResult(
                contents=[t.TextResourceContents(uri=uri, text=f"contents of {uri}")]
            )

        return Server(
            "surfaceserver",
            version="0.1",
            on_list_tools=list_tools,
            on_list_prompts=list_prompts,
            on_get_prompt=get_prompt,
            on_list_resources=list_resources,
            on_list_resource_templates=list_templates,
            on_read_resource=read_resource,
        )


def _stdio_main() -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    srv = SurfaceServer()
    srv.reload()
    print("surfaceserver: started", file=sys.stderr, flush=True)

    async def main() -> None:
        s = srv.server
        async with stdio_server() as (r, w):
            await s.run(r, w, s.create_initialization_options())

    anyio.run(main)


if __name__ == "__main__":
    _stdio_main()
