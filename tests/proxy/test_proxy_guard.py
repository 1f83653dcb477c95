"""The HTTP front's connection guard (services/proxy/guard.py) on each of uvicorn's protocols it
extends: httptools (what the front runs) and h11 (the fallback without httptools). A real
uvicorn serves an ASGI app on 127.0.0.1 in a thread; raw sockets play slow, oversized, idle and
departing clients. What is asserted is counted (requests the app saw, answers, closed
connections); the timeouts the tests wait out are short, the waits around them generous. Last,
the channel that carries the front's messages between a session's POSTs and its relay."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from mcp_review.services.proxy.guard import LOST, guarded_protocol

pytestmark = pytest.mark.slow

TOKEN = "tok-guard-0a1b2c3d"
HEAD_TIMEOUT = 1.0
BODY_TIMEOUT = 1.0
MAX_HEADERS = 4096
CAP = 8


class App:
    """Answers each request after reading its body; ``/wait`` instead waits for the guard's
    lost future (the client leaving), counting what it saw."""

    def __init__(self) -> None:
        self.requests = 0
        self.lost_seen = 0
        self.bodies: list[bytes] = []
        self.disconnects = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        self.requests += 1
        body = b""
        while True:
            m = await receive()
            if m["type"] == "http.disconnect":
                self.disconnects += 1
                return
            body += m.get("body", b"")
            if not m.get("more_body"):
                break
        self.bodies.append(body)
        if scope["path"] == "/wait":
            lost = scope["state"][LOST]
            await asyncio.wait_for(lost, 60)
            self.lost_seen += 1
            return
        out = b"ok %d" % len(body)
        head = [(b"content-type", b"text/plain"), (b"content-length", b"%d" % len(out))]
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": out})


class Served:
    def __init__(self, protocol: str):
        self.app = App()
        self.evicted: list[str] = []
        proto = guarded_protocol(
            lambda h: h.get("x-token") == TOKEN,
            header_timeout=HEAD_TIMEOUT,
            body_timeout=BODY_TIMEOUT,
            max_connections=CAP,
            max_headers=MAX_HEADERS,
            on_evict=self.evicted.append,
            h11_only=protocol == "h11",
        )
        self.protocol = proto
        config = uvicorn.Config(
            self.app,
            http=proto,
            interface="asgi3",
            lifespan="off",
            access_log=False,
            log_level="critical",
            ws="none",
            h11_max_incomplete_event_size=MAX_HEADERS,
        )
        self.server = uvicorn.Server(config)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive()
            time.sleep(0.01)

    def connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        return s

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


@pytest.fixture(params=["httptools", "h11"])
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    if request.param == "httptools":
        pytest.importorskip("httptools")
    s = Served(request.param)
    yield s
    s.stop()


def _request(
    path: str = "/", body: bytes = b"{}", *, token: bool = True, extra: bytes = b""
) -> bytes:
    return (
        b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%sContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n%s\r\n%s"
        % (
            path.encode(),
            b"X-Token: %s\r\n" % TOKEN.encode() if token else b"",
            len(body),
            extra,
            body,
        )
    )


def _answers(s: socket.socket, n: int) -> list[bytes]:
    """``n`` complete answers (head and content-length body) read from ``s``."""
    buf, out = b"", []
    while len(out) < n:
        head, sep, rest = buf.partition(b"\r\n\r\n")
        if sep:
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            if len(rest) >= length:
                out.append(head.split(b"\r\n")[0] + b" " + rest[:length])
                buf = rest[length:]
                continue
        chunk = s.recv(65536)
        assert chunk, f"closed after {len(out)} answers: {buf[:200]!r}"
        buf += chunk
    return out


def _closed_within(s: socket.socket, seconds: float) -> bool:
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
        return True
    except (TimeoutError, OSError) as e:
        return not isinstance(e, TimeoutError)


def test_keep_alive_answers_every_request_on_one_connection(served: Served):
    s = served.connect()
    for i in range(50):
        s.sendall(_request(body=b"x" * i))
        assert _answers(s, 1) == [b"HTTP/1.1 200 OK ok %d" % i]
    # Pipelined: three requests in one write, three answers in order.
    s.sendall(_request(body=b"a") + _request(body=b"bb") + _request(body=b"ccc"))
    assert _answers(s, 3) == [b"HTTP/1.1 200 OK ok %d" % n for n in (1, 2, 3)]
    assert served.app.requests == 53
    s.close()


def test_a_head_in_pieces_past_the_bound_is_refused_and_never_reaches_the_app(served: Served):
    s = served.connect()
    s.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    for i in range(MAX_HEADERS // 100 + 5):
        s.sendall(b"X-Pad-%03d: %s\r\n" % (i, b"p" * 88))
        time.sleep(0.005)
        if _peer_closed(s):
            break
    got = _read_all(s)
    status = got.split(b"\r\n")[0]
    # httptools: the guard's 431; h11: its own 400 (uvicorn's answer to h11's bound).
    assert status in (b"HTTP/1.1 431 Request Header Fields Too Large", b"HTTP/1.1 400 Bad Request")
    assert served.app.requests == 0
    s.close()


def _peer_closed(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) is not None
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


def _read_all(s: socket.socket) -> bytes:
    s.settimeout(30)
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except OSError:
        pass
    return out


def test_slow_heads_and_bodies_are_closed_and_the_app_reads_a_disconnect(served: Served):
    idle = served.connect()  # never sends a byte
    slow_head = served.connect()
    slow_head.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
    slow_body = served.connect()
    slow_body.sendall(_request(body=b"{" + b" " * 99)[:-90])  # the head, and 10 of 100 bytes
    # Keep-alive between answers is uvicorn's (5 s); an answered connection is not a slow head.
    answered = served.connect()
    answered.sendall(_request())
    assert _answers(answered, 1) == [b"HTTP/1.1 200 OK ok 2"]
    for s in (idle, slow_head, slow_body):
        assert _closed_within(s, 20)
    assert served.app.disconnects == 1  # the slow body's request read http.disconnect
    assert served.app.requests == 2
    for s in (idle, slow_head, slow_body, answered):
        s.close()


def test_the_lost_future_tells_the_app_its_client_left(served: Served):
    s = served.connect()
    s.sendall(_request("/wait"))
    deadline = time.monotonic() + 30
    while served.app.requests < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    s.close()
    while served.app.lost_seen < 1:
        assert time.monotonic() < deadline, "the app never learnt that its client left"
        time.sleep(0.01)


def test_past_the_cap_idle_connections_without_the_token_make_room(served: Served):
    idle = [served.connect() for _ in range(CAP * 2)]
    time.sleep(0.2)
    s = served.connect()
    s.sendall(_request())
    assert _answers(s, 1) == [b"HTTP/1.1 200 OK ok 2"]
    # The oldest idle connections were closed to make room; the token holder was served.
    assert _closed_within(idle[0], 20)
    assert served.evicted == []
    for c in [*idle, s]:
        c.close()


async def test_the_fronts_channel_keeps_order_bounds_and_ends():
    """``front_session.Channel`` (what replaced anyio's memory streams between a session's POSTs
    and its relay): items in the order put, ``put`` refused when full or closed, ``send`` waits
    for room, ``get`` drains what is left after a close and then raises ``Ended``."""
    from mcp_review.services.proxy.front_session import Channel, Empty, Ended

    ch = Channel(3)
    assert [ch.put(i) for i in range(4)] == [True, True, True, False]  # the fourth: full
    with pytest.raises(Empty):
        Channel(1).get_nowait()
    sent = asyncio.ensure_future(ch.send(3))  # waits for room
    await asyncio.sleep(0)
    assert not sent.done() and len(ch) == 3
    assert await ch.get() == 0
    assert await sent is True and len(ch) == 3
    ready = Channel(1).ready()
    assert not ready.done()
    got = [await ch.get(), await ch.get()]
    waiting = asyncio.ensure_future(ch.get())  # one left, then one put while it waits
    assert await waiting == 3
    later = asyncio.ensure_future(ch.get())
    await asyncio.sleep(0)
    assert not later.done()
    assert ch.put("x") and await later == "x"
    ch.put("y")
    ch.close()
    assert not ch.put("z")  # closed: nothing more goes in
    assert await ch.send("z") is False
    assert [m async for m in ch] == ["y"]  # what was in it still comes out, then the end
    with pytest.raises(Ended):
        await ch.get()
    assert got == [1, 2]
