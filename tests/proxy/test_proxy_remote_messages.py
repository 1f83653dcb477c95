"""What a user sees in their client when the proxy cannot reach a remote server: each error
names the server's address (secrets scrubbed) and what to check, instead of an exception's
class name alone ("the HTTP request failed (ConnectError)"), for the mistakes a new user makes:
a server that is not running, a wrong token, a wrong path. Real SDK server on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from servers.proxy_harness import RawClient
from servers.proxy_http_server import echo_http_server

pytestmark = pytest.mark.slow

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}


def _first_error(tmp: Path, url: str, *extra: str, env: dict[str, str] | None = None) -> str:
    c = RawClient(tmp, "--url", url, "--name", "srv", *extra, server=None, env=env)
    with c:
        c.send(INIT)
        err = c.recv()["error"]
        assert err["code"] == -32000
        assert c.close() == 0
    log = (tmp / "proxy.log").read_text()
    return str(err["message"]) + "\n" + log


def test_a_server_that_is_not_running(tmp_path: Path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    msg = _first_error(tmp_path, f"http://127.0.0.1:{port}/mcp")
    first = msg.splitlines()[0]
    assert f"cannot connect to http://127.0.0.1:{port}/mcp" in first, first
    assert "is the server running" in first, first


def test_a_wrong_token(tmp_path: Path):
    with echo_http_server([], token="right-token-123") as (_srv, url):
        msg = _first_error(
            tmp_path,
            url + "?api_key=secret-in-query-456",
            "--header",
            "Authorization: Bearer ${env:SRV_TOKEN}",
            env={"SRV_TOKEN": "wrong-token-789"},
        )
    first = msg.splitlines()[0]
    assert "refused the proxy's credentials (HTTP 401)" in first, first
    assert url.split("?")[0] in first and "headers" in first and "login" in first, first
    for secret in ("wrong-token-789", "right-token-123", "secret-in-query-456"):
        assert secret not in msg


def test_a_wrong_path(tmp_path: Path):
    with echo_http_server([], token="t0ken-abc") as (_srv, url):
        bad = url.rsplit("/", 1)[0] + "/nope"
        msg = _first_error(tmp_path, bad, "--header", "Authorization: Bearer t0ken-abc")
    first = msg.splitlines()[0]
    assert f"{bad} answered HTTP 404" in first and "path" in first, first
