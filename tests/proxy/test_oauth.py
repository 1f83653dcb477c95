"""`mcp-review login` and the proxy's token refresh (issue 32 item 3), against a real MCP server
behind a real OAuth authorisation server on 127.0.0.1 (tests/servers/oauth_server.py: the
SDK's mcp.server.auth routes). The browser's part is driven with an HTTP client: it opens the
address login prints and follows the redirect to login's loopback receiver."""

from __future__ import annotations

import json
import re
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from servers.oauth_server import oauth_server
from servers.proxy_harness import ROOT, mcp_review_argv, read_jsonl

pytestmark = pytest.mark.slow

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402


def _config(tmp: Path, url: str) -> Path:
    cfg = tmp / "mcp-review.toml"
    cfg.write_text(f'state_dir = "state"\n\n[servers.demo]\nurl = "{url}"\noauth = true\n')
    return cfg


def _login(cfg: Path, *, tamper: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `mcp-review login demo --no-browser` and act as the browser: open the address it
    prints; the authorisation server redirects to login's loopback receiver. ``tamper``: the
    redirect arrives with another ``state`` (a forged or replayed redirect)."""
    p = subprocess.Popen(
        [
            *mcp_review_argv(),
            "login",
            "demo",
            "--config",
            str(cfg),
            "--no-browser",
            "--timeout",
            "60",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert p.stderr is not None
    lines = []
    for line in p.stderr:
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+/authorize\?\S+)", line)
        if m:
            with httpx2.Client(timeout=60) as http:
                r = http.get(m.group(1), follow_redirects=False)
                assert r.status_code in (302, 303, 307), r.text
                to = r.headers["location"]
                if tamper:
                    to = re.sub(r"state=[^&]+", "state=forged", to)
                http.get(to)
            break
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, "".join(lines) + err)


def _proxy_client(tmp: Path, cfg: Path) -> Client:
    params = StdioServerParameters(
        command=sys.executable,
        args=[*mcp_review_argv()[1:], "proxy", "demo", "--config", str(cfg)],
        cwd=str(ROOT),
    )
    return Client(
        stdio_client(params, errlog=open(tmp / "proxy.log", "a")),
        mode="legacy",
        cache=None,
        read_timeout_seconds=30,
    )


def _proxy_exit(cfg: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*mcp_review_argv(), "proxy", "demo", "--config", str(cfg)],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


async def _call_echo(tmp: Path, cfg: Path, a: int) -> Any:
    with anyio.fail_after(60):
        async with _proxy_client(tmp, cfg) as c:
            r = await c.call_tool("echo", {"a": a})
            return r.content[0].text


async def test_login_stores_tokens_and_the_proxy_only_refreshes_them(tmp_path: Path):
    with oauth_server() as (provider, url, ran):
        cfg = _config(tmp_path, url)
        tokens = tmp_path / "state" / "oauth" / "demo.json"

        # Before login: one line naming the server, exit 3, nothing relayed.
        r = _proxy_exit(cfg)
        assert r.returncode == 3 and r.stdout == ""
        assert (
            r.stderr.strip()
            .splitlines()[-1]
            .startswith("mcp-review proxy [demo]: no usable OAuth token for server 'demo'")
        )
        assert "mcp-review login demo" in r.stderr

        r = subprocess.run(
            [
                *mcp_review_argv(),
                "snapshot",
                "--config",
                str(cfg),
                "--out",
                str(tmp_path / "s0.json"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert r.returncode != 0 and "unauthorized" in (r.stderr + r.stdout).lower()

        r = _login(cfg)
        assert r.returncode == 0, r.stderr
        assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
        assert stat.S_IMODE(tokens.parent.stat().st_mode) == 0o700
        rec = json.loads(tokens.read_text())
        assert rec["tokens"]["access_token"] in provider.access
        # PKCE with S256 and the resource indicator (RFC 8707) went to /authorize.
        assert provider.authorize_params[-1].code_challenge
        assert provider.authorize_params[-1].resource == url

        assert await _call_echo(tmp_path, cfg, 1) == "1"
        assert provider.refreshes == 0
        # `snapshot` (fetch, as check and status use it) sends the stored token too.
        snap = tmp_path / "snap.json"
        r = subprocess.run(
            [
                *mcp_review_argv(),
                "snapshot",
                "--config",
                str(cfg),
                "--out",
                str(snap),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        assert [t["name"] for t in json.loads(snap.read_text())["servers"]["demo"]["tools"]] == [
            "echo"
        ]

        # The server stops taking the access token (it expired there): the proxy refreshes
        # on the 401 and retries; the new tokens are written back.
        provider.expire_all()
        assert await _call_echo(tmp_path, cfg, 2) == "2"
        assert provider.refreshes == 1
        rec2 = json.loads(tokens.read_text())
        assert rec2["tokens"]["access_token"] != rec["tokens"]["access_token"]

        # Expired by the clock: refreshed when the proxy starts.
        rec2["expires_at"] = time.time() - 60
        tokens.write_text(json.dumps(rec2))
        assert await _call_echo(tmp_path, cfg, 3) == "3"
        assert provider.refreshes == 2

        # Nothing usable left (expired, refresh revoked): one line, exit 3.
        provider.revoke_refresh()
        provider.expire_all()
        rec3 = json.loads(tokens.read_text())
        rec3["expires_at"] = time.time() - 60
        tokens.write_text(json.dumps(rec3))
        r = _proxy_exit(cfg)
        assert r.returncode == 3, r.stderr
        assert "no usable OAuth token for server 'demo'" in r.stderr
        assert "refused (HTTP 400)" in r.stderr

        assert [x["arguments"] for x in ran] == [{"a": 1}, {"a": 2}, {"a": 3}]
        issued = list(provider.issued)
    recs = read_jsonl(tmp_path / "state" / "calls" / "demo.jsonl")
    assert [x["arguments"] for x in recs] == [{"a": 1}, {"a": 2}, {"a": 3}]
    # No token anywhere but its own file: not the call log, the logs, the config.
    for p in tmp_path.rglob("*"):
        if p.is_file() and p != tokens:
            data = p.read_bytes()
            for t in issued:
                assert t.encode() not in data, (p, t[:6])


def test_login_refuses_a_redirect_with_another_state(tmp_path: Path):
    with oauth_server() as (provider, url, _ran):
        cfg = _config(tmp_path, url)
        r = _login(cfg, tamper=True)
        assert r.returncode == 3, r.stderr
        assert "mcp-review login [demo]: failed:" in r.stderr
        tokens = tmp_path / "state" / "oauth" / "demo.json"
        rec = json.loads(tokens.read_text()) if tokens.exists() else {}
        assert "tokens" not in rec  # at most the client registration
        assert not provider.access


def test_login_is_for_url_servers_and_the_token_file_is_never_followed(tmp_path: Path):
    cfg = tmp_path / "mcp-review.toml"
    cfg.write_text('state_dir = "state"\n\n[servers.local]\ncommand = "true"\n')
    r = subprocess.run(
        [*mcp_review_argv(), "login", "local", "--config", str(cfg)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2 and "login is for remote servers" in r.stderr
    # oauth = true on a stdio server is a config error.
    cfg.write_text('[servers.local]\ncommand = "true"\noauth = true\n')
    r = subprocess.run(
        [*mcp_review_argv(), "login", "local", "--config", str(cfg)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2 and "oauth" in r.stderr
    # A token file that is a symbolic link (planted to read or redirect the tokens): the
    # proxy refuses it (exit 3) instead of reading through it.
    cfg.write_text('state_dir = "state"\n\n[servers.demo]\nurl = "http://127.0.0.1:9/mcp"\n')
    (tmp_path / "state" / "oauth").mkdir(parents=True)
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps({"format": "mcp-review-oauth", "tokens": {"access_token": "x"}}))
    (tmp_path / "state" / "oauth" / "demo.json").symlink_to(target)
    r = _proxy_exit(cfg)
    assert r.returncode == 3 and "no usable OAuth token for server 'demo'" in r.stderr


async def test_the_http_front_refreshes_the_stored_token_for_every_session(tmp_path: Path):
    """`proxy demo --listen` in front of the OAuth server: each session's upstream sends the
    stored token; expired at the server, it is refreshed once and the next session uses it."""
    from mcp.client.streamable_http import streamable_http_client

    with oauth_server() as (provider, url, ran):
        cfg = _config(tmp_path, url)
        assert _login(cfg).returncode == 0
        log = tmp_path / "front.log"
        proc = subprocess.Popen(
            [
                *mcp_review_argv(),
                "proxy",
                "demo",
                "--config",
                str(cfg),
                "--listen",
                "127.0.0.1:0",
            ],
            stdin=subprocess.DEVNULL,
            stderr=open(log, "ab"),
            cwd=ROOT,
        )
        try:
            deadline = time.monotonic() + 60
            while not (
                m := re.search(r"listening on (\S+); bearer token in (\S+)", log.read_text())
            ):
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            front_url, token = m.group(1), Path(m.group(2)).read_text().strip()

            async def call(a: int) -> str:
                http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
                async with (
                    http,
                    Client(
                        streamable_http_client(front_url, http_client=http),
                        mode="legacy",
                        cache=None,
                        read_timeout_seconds=30,
                    ) as c,
                ):
                    r = await c.call_tool("echo", {"a": a})
                    return r.content[0].text

            with anyio.fail_after(120):
                assert await call(1) == "1"
                provider.expire_all()
                assert await call(2) == "2"
                assert await call(3) == "3"
            assert provider.refreshes == 1
            assert [x["arguments"] for x in ran] == [{"a": 1}, {"a": 2}, {"a": 3}]
        finally:
            proc.terminate()
            proc.wait(120)
        issued = list(provider.issued)
    tokens = tmp_path / "state" / "oauth" / "demo.json"
    for p in tmp_path.rglob("*"):
        if p.is_file() and p != tokens:
            for t in issued:
                assert t.encode() not in p.read_bytes(), (p, t[:6])


def test_login_at_a_server_without_oauth_says_so_in_one_line(tmp_path: Path):
    """A user runs `login` for a server that takes a fixed bearer token (no OAuth): the SDK
    logged its failure with a traceback ("OAuth flow error", 15 lines) above mcp-review's own
    line. Now: exit 3, one line naming the server and the failure, and the way out (a fixed
    token goes in `headers`); the server's error text reaches the terminal guarded."""
    from servers.proxy_http_server import echo_http_server

    with echo_http_server([], token="fixed-token-123") as (_srv, url):
        cfg = tmp_path / "mcp-review.toml"
        cfg.write_text(f'state_dir = "state"\n\n[servers.demo]\nurl = "{url}"\n')
        r = subprocess.run(
            [
                *mcp_review_argv(),
                "login",
                "demo",
                "--config",
                str(cfg),
                "--no-browser",
                "--timeout",
                "20",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert r.returncode == 3, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith("mcp-review login [demo]: failed: "), lines
    assert "`headers`" in lines[0], lines
