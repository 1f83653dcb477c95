"""The SDK's high-level server for the remote proxy's tests: ``echo`` and ``ask``, which asks
the client a question (``elicitation/create``, a server-sent request) in the middle of the call.

No ``from __future__ import annotations``: MCPServer reads the tools' annotations at runtime."""

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel


class Name(BaseModel):
    name: str


def sdk_server() -> MCPServer:
    srv = MCPServer("sdk-remote")

    @srv.tool()
    def echo(a: int) -> str:
        return f"echo {a}"

    @srv.tool()
    async def ask(ctx: Context) -> str:
        r = await ctx.elicit("who are you?", Name)
        return f"hello {r.data.name if r.data else r.action}"

    return srv
