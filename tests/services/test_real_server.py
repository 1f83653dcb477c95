"""Real published servers, run from their packages: mcp-server-time (PyPI) and server-everything (npm)."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import pytest

from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import fetch_all

pytestmark = pytest.mark.slow


@pytest.mark.skipif(
    importlib.util.find_spec("mcp_server_time") is None,
    reason="mcp-server-time is not installed: pip install -e '.[test]' installs it",
)
async def test_mcp_server_time_from_pypi(tmp_path):
    base = ServerConfig(
        "time",
        command=sys.executable,
        args=("-m", "mcp_server_time", "--local-timezone", "UTC"),
        timeout=60,
    )
    legacy = ServerConfig(
        "time-legacy", command=base.command, args=base.args, timeout=60, mode="legacy"
    )
    snap = await fetch_all([base, legacy], log_dir=tmp_path)
    for name, proto in (("time", "2026-07-28"), ("time-legacy", "2025-11-25")):
        s = snap.servers[name]
        assert s.error is None, s.error
        assert s.protocol_version == proto
        assert s.server_info is not None and s.server_info["name"] == "mcp-time"
        by_name = {t.name: t for t in s.tools}
        assert set(by_name) == {"get_current_time", "convert_time"}
        schema = by_name["get_current_time"].input_schema
        assert schema["type"] == "object" and "timezone" in schema["properties"]
    # Same server, two protocol eras: the security-relevant definition is identical.
    a = {t.name: t.digest for t in snap.servers["time"].tools}
    b = {t.name: t.digest for t in snap.servers["time-legacy"].tools}
    assert a == b


@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
async def test_server_everything_from_npm(tmp_path):
    cfg = ServerConfig(
        "everything",
        command="npx",
        args=("-y", "@modelcontextprotocol/server-everything"),
        timeout=120,
    )
    s = (await fetch_all([cfg], log_dir=tmp_path)).servers["everything"]
    assert s.error is None, s.error
    assert s.protocol_version == "2025-11-25"  # TS SDK: initialize after the discover probe
    names = {t.name for t in s.tools}
    assert {"echo", "get-sum"} <= names and len(names) >= 10
