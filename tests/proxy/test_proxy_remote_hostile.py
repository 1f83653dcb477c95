"""`proxy --enforce` in front of a hostile *remote* server (issue 32 item 4): the stdio hostile
tests repeated on the HTTP path, against a server that writes every HTTP byte by hand
(``servers/http_hostile.py``). Every check is made twice: on what the client got (no byte
naming the withheld tool but the refusal) and on what the server received."""

from __future__ import annotations

import contextlib
import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import int_tool as _tool
from servers.http_hostile import HostileHttp, serve_hostile
from servers.proxy_harness import PATIENCE, RawClient

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.services.proxy import REFUSED_CODE
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.slow

WITHHELD = "wipe"
ECHO, HANG, WIPE = _tool("echo", "echo a"), _tool("hang", "never answers"), _tool(WITHHELD, "rm")


@contextlib.contextmanager
def _session(
    tmp: Path, *flags: str, extra: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[tuple[RawClient, HostileHttp]]:
    """The proxy, enforcing (echo and hang approved, wipe new), in front of the hostile server."""
    pins = tmp / "mcp-pins.toml"
    pf = load_pins(str(pins))
    for t in (ECHO, HANG):
        pf.decide(make_pin("srv", ToolDef.from_wire(t), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    server = HostileHttp([ECHO, HANG, WIPE], flags)
    with serve_hostile(server) as url:
        c = RawClient(
            tmp,
            "--url",
            url,
            "--name",
            "srv",
            "--enforce",
            "--pins",
            str(pins),
            *extra,
            server=None,
            env=env,
        )
        with c:
            yield c, server


def _names(reply: dict[str, Any]) -> list[str]:
    return [t["name"] for t in reply["result"]["tools"]]


def _clean(c: RawClient, server: HostileHttp, refusals: int = 0) -> None:
    """No byte the client received names the withheld tool except the refusals; the server
    never received it."""
    lines = [x for x in c.all if WITHHELD.encode() in x]
    assert len(lines) == refusals, lines
    assert all(b"withheld tool 'wipe'" in x for x in lines)
    assert not any(WITHHELD.encode() in b for m, _, _, b in server.received if m == "POST")


@pytest.mark.parametrize(
    "flags",
    [
        (),
        ("json",),
        ("split",),
        ("tools_everywhere",),
        ("tools_everywhere", "split"),
        ("string_ids",),
        ("dup_keys",),
        ("dup_keys", "string_ids", "json"),
    ],
)
def test_a_tool_list_in_an_sse_event_is_judged_like_a_stdio_line(
    tmp_path: Path, flags: tuple[str, ...]
):
    with _session(tmp_path, *flags) as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        pong = c.request("ping")["result"]
        assert pong.get("tools", []) in ([], [ECHO, HANG])
        assert "result" in c.request("tools/call", {"name": "echo", "arguments": {"a": 1}})
        err = c.request("tools/call", {"name": WITHHELD, "arguments": {}})["error"]
        assert err["code"] == REFUSED_CODE
        assert c.close() == 0
    _clean(c, server, refusals=1)
    calls = [b for b in server.bodies() if b.get("method") == "tools/call"]
    assert [b["params"]["name"] for b in calls] == ["echo"]


def test_replies_to_ids_the_proxy_did_not_send_there_are_dropped(tmp_path: Path):
    """``preempt``: every answer's stream first answers the next id (a call not sent yet) and
    an id never sent, both with the full list: dropped, and the real answers still arrive."""
    with _session(tmp_path, "preempt") as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        assert "result" in c.request("tools/call", {"name": "echo", "arguments": {}})
        assert c.close() == 0
    _clean(c, server)
    replies = [json.loads(x) for x in c.all]
    assert [m["id"] for m in replies] == [1, 2, 3]
    assert "the answer to another request" in c.stderr()


def test_the_get_stream_cannot_replay_an_answer_and_passes_server_requests(tmp_path: Path):
    """``get_replay``: the GET stream replays the tools/list answers (full lists, the client's
    own ids) after they were given: dropped; the server's own request and notification pass."""
    with _session(tmp_path, "get_replay") as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        got = [c.recv(), c.recv()]
        assert [m.get("method") for m in got] == ["roots/list", "notifications/tools/list_changed"]
        c.send({"jsonrpc": "2.0", "id": "srv-1", "result": {"roots": []}})
        c.send({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        assert c.recv()["id"] == 9
        assert c.close() == 0
    _clean(c, server)
    assert "on the GET stream" in c.stderr()
    # The client's answer to the server's request reached the server.
    assert {"jsonrpc": "2.0", "id": "srv-1", "result": {"roots": []}} in server.bodies()


def test_a_resumed_stream_replaying_a_withheld_tool_is_filtered(tmp_path: Path):
    """``resume``: the tools/list stream breaks off after a priming event; the proxy resumes it
    with Last-Event-ID and the replay (the full list) is filtered like any answer."""
    with _session(tmp_path, "resume") as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        assert c.close() == 0
    _clean(c, server)
    gets = [h for m, _, h, _ in server.received if m == "GET"]
    assert any(h.get("last-event-id") == "e1" for h in gets)


def test_huge_headers_and_events_fail_the_request_not_the_proxy(tmp_path: Path):
    with _session(tmp_path, "huge_header") as (c, server):
        c.initialize()
        err = c.request("tools/list")["error"]
        assert "mcp-review proxy" in err["message"]
        assert "result" in c.request("ping")
        assert c.close() == 0
    _clean(c, server)
    with _session(tmp_path, "huge_event", extra=("--max-message-bytes", str(1 << 20))) as (
        c,
        server,
    ):
        c.initialize()
        err = c.request("tools/list")["error"]
        assert "ended before answering" in err["message"]
        assert "result" in c.request("ping")
        assert c.close() == 0
    _clean(c, server)
    assert "longer than 1048576" in c.stderr()


def test_an_expired_session_fails_pending_requests_and_starts_again(tmp_path: Path):
    """``expire``: after the first list the server forgets the session (404). The proxy answers
    the request with an error, starts a new session with the client's own initialize (and
    initialized), and the next request runs in it."""
    with _session(tmp_path, "expire") as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        err = c.request("tools/call", {"name": "echo", "arguments": {}})["error"]
        assert "ended the session" in err["message"]
        assert "result" in c.request("tools/call", {"name": "echo", "arguments": {"n": 2}})
        assert c.close() == 0
    _clean(c, server)
    methods = [b.get("method") for b in server.bodies()]
    assert methods.count("initialize") == 2 and methods.count("notifications/initialized") == 2
    inits = [b for b in server.bodies() if b.get("method") == "initialize"]
    assert inits[0] == inits[1]  # the client's own initialize, as it sent it
    # Only one initialize answer reached the client.
    assert sum(1 for x in c.all if b"hostile-http" in x) == 1
    assert "started a new session" in c.stderr()


@pytest.mark.parametrize(
    ("flag", "followed"),
    [("redirect_same", True), ("redirect_other", False), ("redirect_302", False)],
)
def test_only_same_origin_307_308_redirects_are_followed(tmp_path: Path, flag: str, followed: bool):
    with _session(tmp_path, flag) as (c, server):
        r = c.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        if followed:
            assert r["result"]["serverInfo"]["name"] == "hostile-http"
        else:
            assert "redirect" in r["error"]["message"]
        assert c.close() == 0
    paths = [p for m, p, _, _ in server.received if m == "POST"]
    assert paths == (["/mcp", "/mcp2"] if followed else ["/mcp"])


def test_a_call_pending_when_the_client_leaves_ends_cleanly(tmp_path: Path):
    with _session(tmp_path, "hang_call") as (c, server):
        c.initialize()
        c.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "hang"}})
        # Pending: the server has the call (it records a request before anything else, and
        # never answers this one), and the client has no answer.
        deadline = time.monotonic() + PATIENCE
        while not any(b.get("method") == "tools/call" for b in server.bodies()):
            assert time.monotonic() < deadline, server.bodies()
            time.sleep(0.02)
        with pytest.raises(queue.Empty):
            c.recv_line(0.2)
        assert c.close() == 0


TOKEN = "tok-HOSTILE-http-8c2e4a6f1b9d"


def test_a_server_echoing_the_token_leaves_it_in_no_file(tmp_path: Path):
    """``echo_auth``: the server sends back the Authorization header it got, in a call's result
    (recorded with --record-results), in an error and in a log notification. The client gets
    what the server sent (it is the client's own token); no file the proxy wrote holds it."""
    hdr = ("--header", "Authorization: Bearer ${env:HOSTILE_TOKEN}", "--record-results")
    with _session(tmp_path, "echo_auth", extra=hdr, env={"HOSTILE_TOKEN": TOKEN}) as (c, server):
        c.initialize()
        c.request("tools/list")
        r = c.request("tools/call", {"name": "echo", "arguments": {"a": 1}})
        assert TOKEN in json.dumps(r)
        assert TOKEN in c.request("ping")["error"]["message"]
        assert c.close() == 0
    assert all(h.get("authorization") == f"Bearer {TOKEN}" for m, _, h, _ in server.received)
    written = [f for f in tmp_path.rglob("*") if f.is_file()]
    assert {f.name for f in written} >= {"calls.jsonl", "calls.jsonl.results.jsonl", "proxy.log"}
    for f in written:
        data = f.read_bytes()
        assert TOKEN.encode() not in data and TOKEN[4:16].encode() not in data, f
    assert b"***" in (tmp_path / "calls.jsonl.results.jsonl").read_bytes()


def test_a_legacy_sse_endpoint_on_another_origin_is_refused(tmp_path: Path):
    """Legacy SSE: the ``endpoint`` event says where to POST; another origin is refused, the
    waiting ``initialize`` is answered with an error, and the proxy exits 3 (server gone)."""
    with _session(tmp_path, "legacy_elsewhere", extra=("--transport", "sse")) as (c, server):
        c.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
        err = c.recv()["error"]
        assert "another origin" in err["message"]
        assert c.proc.wait(PATIENCE) == 3
    assert [m for m, _, _, _ in server.received] == ["GET"]


def test_an_unreachable_server_answers_each_request_with_an_error(tmp_path: Path):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    c = RawClient(tmp_path, "--url", f"http://127.0.0.1:{port}/mcp", "--name", "srv", server=None)
    with c:
        c.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
        err = c.recv()["error"]
        assert "ConnectError" in err["message"] and err["code"] == -32000
        c.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        assert "error" in c.recv()
        assert c.close() == 0


def test_a_cancelled_2026_request_has_its_stream_closed_not_a_notification_posted(tmp_path: Path):
    """2026-07-28 has no client notifications over HTTP: the proxy cancels a request by closing
    its stream (as the SDK client does); a legacy cancellation is POSTed as sent."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    with _session(tmp_path, "hang_call") as (c, server):
        c.initialize()
        for rid, m in ((5, meta), (6, None)):
            params: dict[str, Any] = {"name": "hang", "arguments": {}}
            if m:
                params["_meta"] = m
            c.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
        c.send({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        assert c.recv()["id"] == 9  # both calls are in flight
        for rid in (5, 6):
            note = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
            c.send({**note, "params": {"requestId": rid}})
        c.send({"jsonrpc": "2.0", "id": 10, "method": "ping"})
        assert c.recv()["id"] == 10
        assert c.close() == 0
    cancels = [b for b in server.bodies() if b.get("method") == "notifications/cancelled"]
    assert [b["params"]["requestId"] for b in cancels] == [6]
    calls = [h for m, _, h, b in server.received if m == "POST" and b"hang" in b]
    assert [h.get("mcp-method") for h in calls] == ["tools/call", None]
    assert "closing the stream of cancelled request 5" in c.stderr()
    assert not any(b'"id":5' in x or b'"id": 5' in x for x in c.all)


def test_a_cut_get_stream_resumes_with_last_event_id(tmp_path: Path):
    """``get_cut``: the GET stream ends after event g1; the proxy opens it again with
    ``Last-Event-ID: g1`` and the next notification arrives; the tools/list answer replayed there
    is dropped (no answer belongs on the GET stream)."""
    with _session(tmp_path, "get_cut") as (c, server):
        c.initialize()
        assert _names(c.request("tools/list")) == ["echo", "hang"]
        got = list(c.notifications)  # what arrived before the list's answer
        while len(got) < 2:
            got.append(c.recv())
        assert [m["params"]["n"] for m in got] == [1, 2]
        assert c.close() == 0
    _clean(c, server)
    gets = [h.get("last-event-id") for m, _, h, _ in server.received if m == "GET"]
    assert gets[:2] == [None, "g1"]
    assert "on the GET stream" in c.stderr()


def test_a_call_before_any_list_is_judged_against_the_proxys_own_list_over_http(tmp_path: Path):
    """A 2026-07-28 client calls from its cache: the proxy POSTs its own tools/list (its own
    ids), judges the call on it, and never relays that list."""
    with _session(tmp_path, "string_ids") as (c, server):
        c.initialize()
        assert "result" in c.request("tools/call", {"name": "echo", "arguments": {"a": 1}})
        err = c.request("tools/call", {"name": WITHHELD, "arguments": {}})["error"]
        assert err["code"] == REFUSED_CODE and err["data"]["status"].startswith("new")
        assert c.close() == 0
    _clean(c, server, refusals=1)
    lists = [b["id"] for b in server.bodies() if b.get("method") == "tools/list"]
    assert lists and all(i.startswith("mcp-review-proxy/") for i in lists)
    assert [json.loads(x)["id"] for x in c.all] == [1, 2, 3]
