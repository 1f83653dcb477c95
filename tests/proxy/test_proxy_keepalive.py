"""Issue 46 item 6: the proxy's HTTP sides keep their connections alive and speak the client's
protocol revision. A real SDK client makes many calls over Streamable HTTP on 127.0.0.1; the
TCP connections are counted where they are accepted (a counting forwarder in front of the
proxy's HTTP front, the remote server's own record of its peers' ports): counted units, never
seconds. The revision the client ends on is compared with what the same client mode gets from
the same server directly."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from helpers import int_tool as _tool
from servers.proxy_harness import ROOT, mcp_review_argv
from servers.proxy_http_server import echo_http_server
from test_proxy_http import Front, _pin

pytestmark = pytest.mark.slow

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

CALLS = 40
TOKEN = "tok-keepalive-remote-0a1b2c3d4e5f"
ECHO = _tool("echo", "echo a")


@pytest.fixture
def fronts(tmp_path: Path) -> Iterator[Callable[..., Front]]:
    """``mcp-review proxy --listen`` subprocesses (test_proxy_http's ``Front``), stopped after."""
    made: list[Front] = []

    def make(*extra: str, **kw: Any) -> Front:
        made.append(Front(tmp_path, *extra, **kw))
        return made[-1]

    yield make
    for f in made:
        f.stop()


class Forwarder:
    """A TCP forwarder on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self, port: int):
        self.port = port
        self.accepted = 0
        self.listen_port = 0

    async def serve(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
        self.listen_port = listener.extra(anyio.abc.SocketAttribute.local_port)
        task_status.started()
        await listener.serve(self._one)

    async def _one(self, client: Any) -> None:
        self.accepted += 1
        async with client, await anyio.connect_tcp("127.0.0.1", self.port) as upstream:

            async def pump(a: Any, b: Any) -> None:
                with contextlib.suppress(Exception):
                    async for chunk in a:
                        await b.send(chunk)
                with contextlib.suppress(Exception):
                    await b.send_eof()

            async with anyio.create_task_group() as tg:
                tg.start_soon(pump, client, upstream)
                tg.start_soon(pump, upstream, client)


async def _calls(c: Client) -> None:
    assert [t.name for t in (await c.list_tools()).tools] == ["echo"]
    for i in range(CALLS):
        r = await c.call_tool("echo", {"a": i})
        assert json.loads(r.content[0].text)["arguments"] == {"a": i}


async def _direct_version(url: str, mode: str) -> str:
    """The revision this client mode settles on with the remote server directly."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    async with Client(streamable_http_client(url, http_client=http), mode=mode, cache=None) as c:
        await c.list_tools()
        return str(c.protocol_version)


async def _through_front(front: Any, mode: str) -> tuple[str, int]:
    """``CALLS`` calls through the front by way of a counting forwarder: (the revision the
    client settled on, the connections it opened to the front)."""
    fwd = Forwarder(front.port)
    async with anyio.create_task_group() as tg:
        await tg.start(fwd.serve)
        # The front checks Host against its own port: the forwarder is transparent to it.
        http = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {front.token}", "Host": f"127.0.0.1:{front.port}"},
            timeout=30,
        )
        url = f"http://127.0.0.1:{fwd.listen_port}/mcp"
        async with Client(
            streamable_http_client(url, http_client=http),
            mode=mode,
            cache=None,
            read_timeout_seconds=30,
        ) as c:
            await _calls(c)
            version = str(c.protocol_version)
        tg.cancel_scope.cancel()
    return version, fwd.accepted


# A legacy session holds its GET stream open beside the POSTs' connection; a 2026-07-28 client
# opens no GET stream. Before item 6: one connection per call on both sides (40+).
BOUND = {"auto": 3, "legacy": 4}
ASKS = {"auto": "2026-07-28", "legacy": "2025-11-25"}


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_http_front_serves_many_calls_on_few_connections_in_the_clients_revision(
    tmp_path: Path, fronts: Any, mode: str
):
    pins = tmp_path / "mcp-pins.toml"
    _pin(pins, [ECHO])
    front = fronts("--enforce", "--pins", str(pins), tools=[ECHO])
    with anyio.fail_after(120):
        version, accepted = await _through_front(front, mode)
    assert version == ASKS[mode], front.log()
    assert 1 <= accepted <= BOUND[mode], (accepted, front.log())
    if mode == "auto":
        assert "2026-07-28, sessionless" in front.log()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_both_http_sides_keep_connections_and_the_revision(
    tmp_path: Path, fronts: Any, mode: str
):
    """SDK client -> HTTP front -> remote Streamable HTTP server: connections counted at the
    front (the forwarder) and at the server (its peers); the revision is the one the same
    client mode gets from the server directly."""
    with echo_http_server([dict(ECHO)], token=TOKEN) as (srv, url):
        with anyio.fail_after(60):
            direct = await _direct_version(url, mode)
        srv.peers.clear()
        cfg = tmp_path / "mcp-review.toml"
        cfg.write_text(
            f'[servers.demo]\nurl = "{url}"\nheaders = {{ Authorization = "Bearer {TOKEN}" }}\n'
        )
        front = fronts("demo", "--config", str(cfg), server=[])
        with anyio.fail_after(120):
            version, accepted = await _through_front(front, mode)
        assert version == direct == ASKS[mode]
        assert 1 <= accepted <= BOUND[mode], (accepted, front.log())
        assert 1 <= len(srv.peers) <= BOUND[mode], (len(srv.peers), front.log())
        assert [r["arguments"]["a"] for r in srv.ran] == list(range(CALLS))


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_stdio_proxy_to_a_remote_server_reuses_its_connections(tmp_path: Path, mode: str):
    """SDK client over stdio -> `proxy --url` -> remote server: the upstream side alone."""
    with echo_http_server([dict(ECHO)], token=TOKEN) as (srv, url):
        with anyio.fail_after(60):
            direct = await _direct_version(url, mode)
        srv.peers.clear()
        args = ["proxy", "--url", url, "--header", f"Authorization: Bearer {TOKEN}"]
        args += ["--name", "demo", "--log", str(tmp_path / "calls.jsonl")]
        params = StdioServerParameters(
            command=sys.executable, args=[*mcp_review_argv()[1:], *args], cwd=str(ROOT)
        )
        with open(tmp_path / "proxy.log", "a") as err, anyio.fail_after(120):
            async with Client(
                stdio_client(params, errlog=err), mode=mode, cache=None, read_timeout_seconds=30
            ) as c:
                await _calls(c)
                version = str(c.protocol_version)
        log = (tmp_path / "proxy.log").read_text()
        assert version == direct == ASKS[mode], log
        assert 1 <= len(srv.peers) <= BOUND[mode], (len(srv.peers), log)


async def test_two_sessionless_clients_share_the_relay_without_meeting_ids(
    tmp_path: Path, fronts: Any
):
    """Two 2026-07-28 clients (the same ids, 0, 1, 2 ...) at once through one front: the front
    renumbers their requests for the shared relay, so each gets its own answers."""
    front = fronts(tools=[ECHO])
    headers = {"Authorization": f"Bearer {front.token}"}

    async def one(tag: int, got: list[int]) -> None:
        http = httpx2.AsyncClient(headers=headers, timeout=30)
        async with Client(
            streamable_http_client(front.url, http_client=http), cache=None, read_timeout_seconds=30
        ) as c:
            assert c.protocol_version == ASKS["auto"]
            for i in range(15):
                r = await c.call_tool("echo", {"a": tag * 100 + i})
                got.append(json.loads(r.content[0].text)["arguments"]["a"])

    a: list[int] = []
    b: list[int] = []
    with anyio.fail_after(120):
        async with anyio.create_task_group() as tg:
            tg.start_soon(one, 1, a)
            tg.start_soon(one, 2, b)
    assert a == [100 + i for i in range(15)] and b == [200 + i for i in range(15)]
    assert front.log().count("2026-07-28, sessionless") == 1  # one relay for both
