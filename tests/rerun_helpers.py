"""A workspace for `rerun` tests: a config, a pin file, a real stdio server, the proxy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from helpers import run_cli, stdio_server_argv

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "servers" / "rerun_server.py"

OUTPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "env": {"type": "string"},
        "cluster": {"type": "string"},
        "strategy": {"type": "string"},
    },
    "required": ["env", "cluster", "strategy"],
}

GET_CONFIG = {
    "name": "get_config",
    "description": "Read the deployment config of an env.",
    "inputSchema": {
        "type": "object",
        "properties": {"env": {"type": "string"}},
        "required": ["env"],
    },
    "outputSchema": OUTPUT_SCHEMA,
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}
DEPLOY = {
    "name": "deploy",
    "description": "Deploy to an env.",
    "inputSchema": {
        "type": "object",
        "properties": {"env": {"type": "string"}},
        "required": ["env"],
    },
    "annotations": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False},
}
CONFIG = {"cluster": "eu-west-1/staging-a", "strategy": "rolling"}


class Workspace:
    def __init__(
        self,
        tmp: Path,
        tools: list[dict[str, Any]],
        *,
        config: dict | None = None,
        volatile: bool = False,
        ignore: dict[str, list[str]] | None = None,
        extra_state: dict | None = None,
    ):
        self.tmp = tmp
        self.state = tmp / "state.json"
        self.seen = tmp / "seen.jsonl"
        self.cfg = tmp / "mcp-review.toml"
        self.pins = tmp / "mcp-pins.toml"
        self.calls = tmp / "calls.jsonl"
        # One user's state (the call-log seal key lives there) for the proxy and every command.
        self.state_home = os.environ.get("XDG_STATE_HOME") or str(tmp / "xdg-state")
        self.write_state(
            tools=tools, config=config or dict(CONFIG), volatile=volatile, **(extra_state or {})
        )
        lines = [
            'pins = "mcp-pins.toml"',
            "",
            "[servers.ops]",
            f"command = {json.dumps(sys.executable)}",
            f"args = {json.dumps(stdio_server_argv(SERVER)[1:])}",
            f"env = {{ RERUN_STATE = {json.dumps(str(self.state))}, "
            f"RERUN_SEEN = {json.dumps(str(self.seen))} }}",
            'calls = "calls.jsonl"',
            "record_results = true",
            "timeout = 60",
        ]
        for tool, ptrs in (ignore or {}).items():
            lines += ["", f"[servers.ops.tools.{tool}]", f"rerun_ignore = {json.dumps(ptrs)}"]
        self.cfg.write_text("\n".join(lines) + "\n")

    def write_state(self, **st: Any) -> None:
        cur = json.loads(self.state.read_text()) if self.state.exists() else {}
        cur.update(st)
        self.state.write_text(json.dumps(cur))

    def cli(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
        """The command run in this process (helpers.run_cli): the proxy (``record``) and the
        server stay real processes; what these tests check is what rerun does with them."""
        return run_cli(
            args,
            cwd=self.tmp,
            input=input,
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT / "tests"),
                "XDG_STATE_HOME": self.state_home,
            },
        )

    def pin_all(self) -> None:
        r = self.cli("pin", "--config", str(self.cfg), "--yes", "-q")
        assert r.returncode == 0, r.stderr

    def seen_calls(self) -> list[dict[str, Any]]:
        if not self.seen.exists():
            return []
        return [json.loads(x) for x in self.seen.read_text().splitlines() if x.strip()]

    def record(self, calls: list[tuple[str, dict[str, Any]]], *, list_first: bool = True) -> None:
        """The agent's session: an SDK client → `mcp-review proxy ops` → the server."""
        import anyio
        from mcp import Client, MCPError, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from servers.proxy_harness import mcp_review_argv

        # The proxy forks from the warm zygote (tests/servers/proxy_harness.py): a separate
        # process recording on real pipes; its interpreter's start-up is not the subject.
        python, *argv = mcp_review_argv(
            "proxy", "ops", "--config", str(self.cfg), "--server-log", str(self.tmp / "server.log")
        )
        params = StdioServerParameters(
            command=python,
            args=argv,
            env={"XDG_STATE_HOME": self.state_home},
            cwd=str(self.tmp),
        )

        async def go() -> None:
            with open(self.tmp / "proxy.log", "a") as err:
                async with Client(
                    stdio_client(params, errlog=err),
                    mode="legacy",
                    cache=None,
                    read_timeout_seconds=60,
                ) as c:
                    if list_first:
                        await c.list_tools()
                    for tool, args in calls:
                        try:
                            await c.session.send_request(
                                _call_request(tool, args),
                                _result_type(),
                                request_read_timeout_seconds=60,
                            )
                        except MCPError:
                            pass

        anyio.run(go)

    def rerun(
        self, *args: str, tools: tuple[str, ...] = (), input: str | None = None
    ) -> subprocess.CompletedProcess:
        return self.cli("rerun", "ops", *tools, "--config", str(self.cfg), *args, input=input)


def _call_request(tool: str, args: dict[str, Any]) -> Any:
    import mcp_types as t

    return t.CallToolRequest(params=t.CallToolRequestParams(name=tool, arguments=args))


def _result_type() -> Any:
    import mcp_types as t

    return t.CallToolResult
