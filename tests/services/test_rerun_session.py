"""services/rerun.py against in-process MCP servers: the second connection decides again, live
results are redacted before comparing, shape drift against the pinned outputSchema.

The server counts every tools/call it receives (its own record, not mcp-review's)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.rerun import RecordedCall, RerunOutcome
from mcp_review.services.config import ServerConfig
from mcp_review.services.rerun import Settings, execute, plan

pytest.importorskip("mcp")

TOOL = {
    "name": "get_config",
    "inputSchema": {"type": "object"},
    "outputSchema": {
        "type": "object",
        "properties": {"cluster": {"type": "string"}},
        "required": ["cluster"],
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}


class Srv:
    def __init__(self) -> None:
        self.tools = [copy.deepcopy(TOOL)]
        self.answer: dict[str, Any] = {"cluster": "eu", "token": "t-1"}
        self.received: list[tuple[str, Any]] = []

    def server(self) -> Any:
        import mcp_types as t
        from mcp.server import Server

        async def list_tools(ctx: Any, params: Any) -> Any:
            return t.ListToolsResult(tools=[t.Tool.model_validate(d) for d in self.tools])

        async def call_tool(ctx: Any, params: Any) -> Any:
            self.received.append((params.name, params.arguments))
            return t.CallToolResult(content=[], structured_content=dict(self.answer))

        return Server("s", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _setup(srv: Srv) -> tuple[ServerConfig, PinFile, list[RecordedCall]]:
    cfg = ServerConfig("ops", target=srv.server(), timeout=60)
    pf = PinFile()
    pf.decide(make_pin("ops", ToolDef.from_wire(TOOL), Decision.APPROVED, by="t"))
    rec = RecordedCall(
        "get_config",
        {"env": "x"},
        time="t",
        rpc_id=1,
        digest=ToolDef.from_wire(TOOL).digest,
        sealed=True,
        result={"content": [], "structuredContent": {"cluster": "eu", "token": "[REDACTED]"}},
    )
    return cfg, pf, [rec]


@pytest.mark.anyio
async def test_a_definition_changed_between_plan_and_send_gets_nothing():
    srv = Srv()
    cfg, pf, calls = _setup(srv)
    planned = await plan(cfg, pf, calls, Settings())
    assert [c.will_send for c in planned.calls] == [True]
    # Between the question and the answer, the server drops its read-only claim.
    srv.tools[0]["annotations"] = {"readOnlyHint": False, "openWorldHint": False}
    report = await execute(cfg, pf, planned, Settings())
    (c,) = report.calls
    assert c.outcome is RerunOutcome.SKIPPED
    assert "live definition is not the approved one" in c.reason
    assert "changed since the plan: not sent" in c.reason
    assert srv.received == []


@pytest.mark.anyio
async def test_live_results_are_redacted_then_compared_and_shape_drift_is_caught():
    srv = Srv()
    cfg, pf, calls = _setup(srv)
    planned = await plan(cfg, pf, calls, Settings())
    report = await execute(cfg, pf, planned, Settings())
    (c,) = report.calls
    # "token" is redacted in the live answer as it was when recorded: same.
    assert c.outcome is RerunOutcome.SAME, c.reason
    assert c.live_result["structuredContent"]["token"] == "[REDACTED]"
    assert srv.received == [("get_config", {"env": "x"})] * 2
    # The answer loses a field the pinned outputSchema requires: shape drift.
    srv.answer = {"region": "eu"}
    report = await execute(cfg, pf, planned, Settings())
    (c,) = report.calls
    assert c.outcome is RerunOutcome.SHAPE_DRIFT
    assert "cluster" in c.comparison.differences[0].new


@pytest.mark.anyio
async def test_a_call_not_confirmed_is_never_sent():
    srv = Srv()
    cfg, pf, calls = _setup(srv)
    planned = await plan(cfg, pf, calls, Settings())
    planned.calls[0].outcome = RerunOutcome.SKIPPED  # what a declined plan looks like
    planned.calls[0].reason = "declined"
    report = await execute(cfg, pf, planned, Settings())
    assert report.calls[0].outcome is RerunOutcome.SKIPPED and srv.received == []


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
