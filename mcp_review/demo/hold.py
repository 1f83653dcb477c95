"""The demo through `mcp-review proxy --enforce`: which drifted tools the proxy
holds (serves as approved, still callable), which it withholds, and a real client on the
stdio server seeing the held ``run_query_cached`` as approved.

:func:`proxy_verdicts` asks the proxy's own judgement (``services.proxy.verdict_for``) about
every tool of a status report; :func:`through_the_proxy` starts ``mcp-review proxy warehouse
--enforce`` on the demo workspace and talks to it with the mcp SDK's client.
"""

from __future__ import annotations

import os
import sys
from typing import Any

HELD_TOOL = "run_query_cached"
"""The stdio server's honest change: a reworded description plus a new optional ``cache``."""


def proxy_verdicts(report: Any) -> list[dict[str, str]]:
    """Per drifted tool: what ``proxy --enforce`` does with it (``held``, ``withheld``,
    ``relayed``) and why, in report order. Pinned tools (relayed unchanged) are left out; a
    removed tool is not listed by its server at all."""
    from mcp_review.engine.status import State
    from mcp_review.services.proxy import verdict_for

    out = []
    for t in report.tools:
        if t.state in (State.PINNED, State.REMOVED):
            continue
        v = verdict_for(t)
        what = "held" if v.hold is not None else "relayed" if v.allowed else "withheld"
        if v.hold is not None:
            why = "served as approved; calls checked against the approved schema"
        elif v.allowed:
            why = "the tier re-pins this change: the server's definition is relayed"
        else:
            why = v.reason.rsplit("not held: ", 1)[-1] if "not held: " in v.reason else v.status
        out.append({"server": t.server, "tool": t.tool, "proxy": what, "why": why})
    return out


async def _session(config: str, pins: str, errlog: Any) -> dict[str, Any]:
    from mcp import Client, MCPError, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_review.demo import definitions

    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "mcp_review",
            "proxy",
            "warehouse",
            "--config",
            config,
            "--pins",
            pins,
            "--enforce",
            "--no-log",
        ],
        env={**os.environ},
    )
    approved = next(t for t in definitions.tools("warehouse", "v1") if t["name"] == HELD_TOOL)
    async with Client(
        stdio_client(params, errlog=errlog), mode="legacy", cache=None, read_timeout_seconds=60
    ) as c:
        listed: dict[str, Any] = {}
        cursor = None
        for _ in range(20):  # the demo servers list three tools per page
            page = await c.list_tools(cursor=cursor)
            listed.update((t.name, t) for t in page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        tool = listed.get(HELD_TOOL)
        served = tool.model_dump(by_alias=True, exclude_none=True, mode="json") if tool else None
        ran = await c.call_tool(HELD_TOOL, {"sql": "select 1"})
        try:
            await c.call_tool(HELD_TOOL, {"sql": "select 1", "cache": False})
            refused: str | None = None
        except MCPError as e:
            data = e.error.data if isinstance(e.error.data, dict) else {}
            refused = str(data.get("reason") or e.error.message)
    return {
        "tool": HELD_TOOL,
        "listed": sorted(listed),
        "served_as_approved": served == approved,
        "call": "ran" if not ran.is_error else "error",
        "call_with_new_parameter": {"refused": refused is not None, "reason": refused},
    }


def through_the_proxy(ws: Any) -> dict[str, Any]:
    """A real client through ``mcp-review proxy warehouse --enforce`` on the workspace: what
    it lists for the held tool, a call valid under its approved definition, and a call with
    the parameter v2 added (refused). The proxy's own log goes to ``proxy.log`` in the
    workspace."""
    import anyio

    with open(ws.root / "proxy.log", "a", encoding="utf-8") as errlog:
        result: dict[str, Any] = anyio.run(_session, str(ws.config_path), str(ws.pins_path), errlog)
    return result
