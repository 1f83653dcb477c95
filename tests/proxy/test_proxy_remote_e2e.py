"""End to end (issue 32, must show): the mcp SDK client → `mcp-review proxy` (stdio) → a real
Streamable HTTP MCP server (the SDK's, uvicorn on 127.0.0.1) behind a bearer check. An approved
call runs and is recorded, an unapproved tool is withheld and refused, the token reaches the
server and no file the proxy (or anything else) wrote, and `check`/`status` replay the calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import int_tool as _tool
from servers.proxy_harness import ROOT, mcp_review_argv, read_jsonl
from servers.proxy_http_server import EchoHttpServer, echo_http_server

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.services.proxy import REFUSED_CODE
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.slow

mcp = pytest.importorskip("mcp")
from mcp import Client, MCPError, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

TOKEN = "tok-REMOTE-e2e-5f1c9a7b3d2e"
ECHO, WIPE = _tool("echo", "echo a"), _tool("wipe", "removes everything")


@pytest.fixture
def remote() -> Iterator[tuple[EchoHttpServer, str]]:
    with echo_http_server([dict(ECHO), dict(WIPE)], token=TOKEN) as (srv, url):
        yield srv, url


def _project(tmp: Path, url: str) -> tuple[Path, Path]:
    """A config naming the remote server (its token from the environment) and pins approving
    ``echo`` only."""
    cfg = tmp / "mcp-review.toml"
    cfg.write_text(
        f'timeout = 10\n\n[servers.remote]\nurl = "{url}"\n'
        'headers = { Authorization = "Bearer ${env:REMOTE_TOKEN}" }\n'
    )
    pins = tmp / "mcp-pins.toml"
    pf = load_pins(str(pins))
    pf.decide(make_pin("remote", ToolDef.from_wire(ECHO), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    return cfg, pins


def _client(tmp: Path, args: list[str], mode: str) -> Client:
    params = StdioServerParameters(
        command=sys.executable,
        args=[*mcp_review_argv()[1:], "proxy", *args],
        env={"REMOTE_TOKEN": TOKEN},
        cwd=str(ROOT),
    )
    errlog = open(tmp / "proxy.log", "a")
    return Client(
        stdio_client(params, errlog=errlog), mode=mode, cache=None, read_timeout_seconds=30
    )


def _no_token_anywhere(tmp: Path) -> int:
    """Every file under ``tmp`` (call log, results, the proxy's log, pins, state) is free of the
    token; returns how many files were read."""
    n = 0
    for f in tmp.rglob("*"):
        if f.is_file():
            n += 1
            data = f.read_bytes()
            assert TOKEN.encode() not in data, f
            assert TOKEN[4:20].encode() not in data, f
    return n


def _text(result: Any) -> Any:
    return json.loads(result.content[0].text)


@pytest.mark.parametrize("front", ["config", "url"])
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_sdk_client_through_the_proxy_to_a_remote_server(
    tmp_path: Path, remote: tuple[EchoHttpServer, str], mode: str, front: str
):
    srv, url = remote
    cfg, pins = _project(tmp_path, url)
    if front == "config":
        args = ["remote", "--config", str(cfg), "--enforce", "--record-results"]
        calls = tmp_path / ".mcp-review" / "calls" / "remote.jsonl"
    else:
        calls = tmp_path / "calls.jsonl"
        args = [
            "--url",
            url,
            "--header",
            "Authorization: Bearer ${env:REMOTE_TOKEN}",
            "--name",
            "remote",
            "--pins",
            str(pins),
            "--log",
            str(calls),
            "--record-results",
            "--enforce",
        ]
    async with _client(tmp_path, args, mode) as c:
        listed = await c.list_tools()
        assert [t.name for t in listed.tools] == ["echo"]  # wipe is new: withheld
        r = await c.call_tool("echo", {"a": 7})
        assert _text(r) == {"tool": "echo", "arguments": {"a": 7}}
        # A call (and so its result) carrying the token under a key no pattern redacts: the
        # call log and the results log scrub it by value.
        r = await c.call_tool("echo", {"a": 8, "note": f"use {TOKEN}"})
        assert _text(r)["arguments"]["note"] == f"use {TOKEN}"
        with pytest.raises(MCPError) as e:
            await c.call_tool("wipe", {"a": 1})
        assert e.value.error.code == REFUSED_CODE
        assert "withheld tool 'wipe'" in e.value.error.message
        assert [r["tool"] for r in srv.ran] == ["echo", "echo"]
        # Approving it applies live: the pin file is re-read, the next call goes through.
        pf = load_pins(str(pins))
        pf.decide(make_pin("remote", ToolDef.from_wire(WIPE), Decision.APPROVED, by="test"))
        save_pins(pf, str(pins))
        assert _text(await c.call_tool("wipe", {"a": 1}))["tool"] == "wipe"
    # The server ran the approved calls only; the token reached it on every request.
    assert [r["tool"] for r in srv.ran] == ["echo", "echo", "wipe"]
    assert srv.auth_ok > 0 and srv.auth_refused == 0
    recorded = read_jsonl(calls)
    assert [(x["tool"], x["arguments"]) for x in recorded] == [
        ("echo", {"a": 7}),
        ("echo", {"a": 8, "note": "use ***"}),
        ("wipe", {"a": 1}),
    ]
    assert recorded[0]["digest"] == ToolDef.from_wire(ECHO).digest
    results = read_jsonl(Path(str(calls) + ".results.jsonl"))
    assert len(results) == 3 and "use ***" in json.dumps(results[1])
    log = (tmp_path / "proxy.log").read_text()
    assert "refused tools/call 'wipe'" in log and "withheld" in log
    assert _no_token_anywhere(tmp_path) >= 4


def _cli(tmp: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*mcp_review_argv(), *argv],
        capture_output=True,
        text=True,
        cwd=tmp,
        env={**os.environ, "REMOTE_TOKEN": TOKEN},
        timeout=120,
    )


async def test_check_and_status_replay_the_calls_recorded_through_the_remote_proxy(
    tmp_path: Path, remote: tuple[EchoHttpServer, str]
):
    srv, url = remote
    cfg, pins = _project(tmp_path, url)
    args = ["remote", "--config", str(cfg), "--enforce"]
    async with _client(tmp_path, args, "legacy") as c:
        await c.list_tools()
        await c.call_tool("echo", {"a": 7})
        await c.call_tool("echo", {"a": 8})
    assert len(srv.ran) == 2
    # The server then makes `a` a string: both recorded calls would now be rejected.
    srv.tools = [
        {**ECHO, "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
        WIPE,
    ]
    for cmd in ("check", "status"):
        p = _cli(tmp_path, cmd, "--config", str(cfg), "--pins", str(pins), "--format", "json")
        assert p.returncode == 1, p.stderr
        assert TOKEN not in p.stdout + p.stderr
        out = json.loads(p.stdout)
        (echo,) = [t for t in out["tools"] if t["tool"] == "echo"]
        # The two calls the proxy recorded are read from its default log and replayed.
        assert echo["status"] == "broken" and echo["calls_recorded"] == 2, echo
        assert "2 recorded call(s) broken" in echo["policy"]["reasons"]
    _no_token_anywhere(tmp_path)


@pytest.mark.parametrize("transport", ["http", "sse"])
async def test_server_requests_are_relayed_both_ways_over_http_and_legacy_sse(
    tmp_path: Path, transport: str
):
    """A server-sent request (elicitation) made during a call reaches the client through the
    proxy, and the client's answer reaches the server, over Streamable HTTP and legacy SSE;
    under --enforce with no pins every tool is withheld and refused on both."""
    import mcp_types as t
    from servers.sdk_remote import sdk_server
    from servers.toolserver import serve_http

    srv = sdk_server()
    app = srv.sse_app() if transport == "sse" else srv.streamable_http_app()
    asked: list[str] = []

    async def answer(ctx: Any, params: Any) -> Any:
        asked.append(params.message)
        return t.ElicitResult(action="accept", content={"name": "ada"})

    with serve_http(app) as url:
        if transport == "sse":
            url = url[: -len("/mcp")] + "/sse"
        base = ["--url", url, "--transport", transport, "--name", "sdk", "--log"]
        calls = tmp_path / "calls.jsonl"
        params = StdioServerParameters(
            command=sys.executable,
            args=[*mcp_review_argv()[1:], "proxy", *base, str(calls)],
            cwd=str(ROOT),
        )
        errlog = open(tmp_path / "proxy.log", "a")
        async with Client(
            stdio_client(params, errlog=errlog),
            mode="legacy",
            cache=None,
            read_timeout_seconds=30,
            elicitation_callback=answer,
        ) as c:
            assert sorted(x.name for x in (await c.list_tools()).tools) == ["ask", "echo"]
            assert (await c.call_tool("ask", {})).content[0].text == "hello ada"
            assert (await c.call_tool("echo", {"a": 3})).content[0].text == "echo 3"
        assert asked == ["who are you?"]
        assert [x["tool"] for x in read_jsonl(calls)] == ["ask", "echo"]
        # Enforcing, from a config entry (`type = "sse"` for the legacy transport), no pins.
        cfg = tmp_path / "mcp-review.toml"
        kind = '\ntype = "sse"' if transport == "sse" else ""
        cfg.write_text(f'[servers.sdk]\nurl = "{url}"{kind}\ncalls = "{calls}"\n')
        pins = tmp_path / "none.toml"
        params = StdioServerParameters(
            command=sys.executable,
            args=[
                *mcp_review_argv("proxy")[1:],
                "sdk",
                "--config",
                str(cfg),
                "--enforce",
                "--pins",
                str(pins),
            ],
            cwd=str(ROOT),
        )
        async with Client(
            stdio_client(params, errlog=errlog), mode="auto", cache=None, read_timeout_seconds=30
        ) as c:
            assert (await c.list_tools()).tools == []
            with pytest.raises(MCPError) as e:
                await c.call_tool("echo", {"a": 4})
            assert e.value.error.code == REFUSED_CODE
        assert [x["tool"] for x in read_jsonl(calls)] == ["ask", "echo"]
    log = (tmp_path / "proxy.log").read_text()
    assert log.count("(legacy SSE)") == (2 if transport == "sse" else 0), log


async def test_a_2026_call_mirrors_x_mcp_header_parameters_in_headers(tmp_path: Path):
    """2026-07-28: a tool whose schema mirrors parameters in headers (``x-mcp-header``) is
    called with the ``Mcp-Param-*`` headers the server checks (it refuses the call without
    them: "Mcp-Param-N header is missing"), a nested and a non-ASCII value included."""
    regional = {
        "name": "regional",
        "inputSchema": {
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "q": {
                    "type": "object",
                    "properties": {"n": {"type": "integer", "x-mcp-header": "N"}},
                },
            },
        },
    }
    with echo_http_server([regional], token=TOKEN) as (srv, url):
        args = ["--url", url, "--header", "Authorization: Bearer ${env:REMOTE_TOKEN}"]
        args += ["--name", "remote", "--log", str(tmp_path / "calls.jsonl")]
        async with _client(tmp_path, args, "auto") as c:
            assert c.protocol_version == "2026-07-28"
            await c.list_tools()
            r = await c.call_tool("regional", {"region": "eu west ü", "q": {"n": 5}})
            assert not r.is_error, r
        assert srv.ran == [
            {"tool": "regional", "arguments": {"region": "eu west ü", "q": {"n": 5}}}
        ]
