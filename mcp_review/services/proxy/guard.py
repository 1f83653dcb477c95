"""The HTTP front's connection guard: a flood of connections that never send
a request, or send one slowly, must not take the front from the client that holds the token.

uvicorn's ``limit_concurrency`` counts every open connection, so 160 idle sockets made every
authorised request a 503; and nothing timed out a request head that never ends. On loopback
every peer is 127.0.0.1, so a cap per peer is no help. This protocol (uvicorn's httptools one,
extended; its h11 one where httptools is not installed):

- **times out a slow head**: a connection must complete a request's head within
  ``header_timeout`` seconds of its first byte (or of connecting, or of its last answer);
- **times out a slow body**: the body must arrive within ``body_timeout`` seconds of the head;
- **caps connections** at ``max_connections``, and keeps that capacity for token holders: a
  connection beyond the cap closes the oldest one that has shown no token (never sent a head,
  or sent one without the token, and has no request in progress); only when every connection
  belongs to a token holder or is busy is the new one turned away.

- **bounds a head** at ``max_headers`` bytes: a head still incomplete past it is answered 431
  and the connection closed (h11 does this itself, as 400; llhttp keeps no such bound).

Memory is bounded by the cap times one head (``--max-headers``) and one read.

httptools rather than h11: llhttp parses a request in C where h11 parses and validates it in
Python, about half of the front's own CPU per call (benchmarks/README.md, "third pass").

It also **writes an answer in one piece**: uvicorn writes a response's head and its body
separately, two sends that wake the client twice (on a busy machine each wake-up waits for a
core); what the protocol writes in one turn of the event loop goes out in one send.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

_tools: type[Any] | None
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _tools
except ImportError:  # pragma: no cover - httptools is a dependency; h11 is the fallback
    _tools = None

HEADER_TIMEOUT = 10.0
"""Seconds a request's head may take (from the connection's first byte, or from connecting)."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take once its head is in."""
MAX_CONNECTIONS = 256
"""Open connections at once; past it, those that showed no token are closed first."""
MAX_HEADERS = 16 * 1024
"""Bytes of a request's head still incomplete past which it is answered 431."""
LOST = "mcp_review.connection_lost"
"""The key, in each request's ASGI ``scope["state"]``, of a future done when the request's
connection is gone (the client left, or the guard closed it): the app waits on it beside its
answer instead of a task per request reading ``http.disconnect``."""


def guarded_protocol(
    authorised: Callable[[Mapping[str, str]], bool],
    *,
    header_timeout: float = HEADER_TIMEOUT,
    body_timeout: float = BODY_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    max_headers: int = MAX_HEADERS,
    on_evict: Callable[[str], None] | None = None,
    h11_only: bool = False,
) -> type[Any]:
    """uvicorn's httptools protocol (h11's without httptools, or with ``h11_only``) with the
    guard above; ``authorised(headers)`` tells whether a request head carries the token
    (headers lower-cased, latin-1). h11's head bound is uvicorn's
    ``h11_max_incomplete_event_size``, which the caller sets to ``max_headers``."""

    class Guard(_Guard):
        _authorised = staticmethod(authorised)
        _header_timeout, _body_timeout = header_timeout, body_timeout
        _max_connections = max_connections
        _on_evict = None if on_evict is None else staticmethod(on_evict)

    if _tools is not None and not h11_only:
        return _tools_guarded(Guard, max_headers)
    return _h11_guarded(Guard)


class _Guard:
    """What both protocols share: a connection's start and end, the timers' arming, the cap,
    the lost future and the coalescing transport. Mixed into uvicorn's protocol class, which
    follows it in each ``Guarded`` class's MRO (``super()`` here is uvicorn's); its limits and
    callbacks are set, per front, by the subclass :func:`guarded_protocol` makes."""

    _authorised: Callable[[Mapping[str, str]], bool]
    _header_timeout: float
    _body_timeout: float
    _max_connections: int
    _on_evict: Callable[[str], None] | None
    _head_timer: Any = None
    _body_timer: Any = None
    _token = False
    _born = 0.0
    _lost: Any = None
    _out: _Coalescing
    loop: Any
    transport: Any
    connections: Any
    cycle: Any
    app_state: dict[str, Any]

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._out = _Coalescing(transport, self.loop)
        self.transport = self._out
        self._born = time.monotonic()
        self._lost = self.loop.create_future()
        # uvicorn copies app_state into each request's scope["state"]: one per connection.
        self.app_state = {**self.app_state, LOST: self._lost}
        self._arm_head()
        if len(self.connections) > self._max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]
        if not self._lost.done():
            self._lost.set_result(None)

    def _check_token(self, raw: list[tuple[bytes, bytes]]) -> None:
        if not self._token:
            self._token = self._authorised(
                {k.decode("latin-1"): v.decode("latin-1") for k, v in raw}
            )

    def _arm_head(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self._header_timeout, self._slow, "head")

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _arm_body(self) -> None:
        if self._body_timer is None:
            self._body_timer = self.loop.call_later(self._body_timeout, self._slow, "body")

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _disarm(self) -> None:
        self._disarm_head()
        self._disarm_body()

    def _slow(self, what: str) -> None:
        self._head_timer = self._body_timer = None
        if self.transport.is_closing():
            return
        if what == "body" and self.cycle is not None and not self.cycle.response_started:
            # The app is waiting for the rest of the body: it reads a disconnect.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

    def _idle(self) -> bool:
        return not self._token and (self.cycle is None or self.cycle.response_complete)

    def _make_room(self) -> None:
        victims = [c for c in self.connections if isinstance(c, _Guard) and c._idle()]
        victims = [c for c in victims if c is not self] or [self]
        victim = min(victims, key=lambda c: c._born)
        if self._on_evict is not None and victim is self:
            self._on_evict(f"{len(self.connections)} connections, all busy or holding the token")
        victim._disarm()
        victim.transport.close()
        self.connections.discard(victim)


def _h11_guarded(guard: type[Any]) -> type[Any]:
    class Guarded(guard, H11Protocol):  # type: ignore[misc]
        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            self._out.flush()  # the whole answer is written: send it now, in one piece
            super().on_response_complete()
            self._follow()

        def _follow(self) -> None:
            """Arm or disarm the timers from where the current request stands."""
            state = self.conn.their_state
            if state is h11.IDLE:
                self._disarm_body()
                # uvicorn's keep-alive timer closes a connection idle after an answer; once
                # a byte of the next head arrives it is cancelled, and the head timer runs.
                if self.timeout_keep_alive_task is None:
                    self._arm_head()
                return
            self._disarm_head()
            if self.headers is not None:
                self._check_token(self.headers)
            if state is h11.SEND_BODY:
                self._arm_body()
            else:
                self._disarm_body()

    return Guarded


def _tools_guarded(guard: type[Any], max_headers: int) -> type[Any]:
    assert _tools is not None

    class Guarded(guard, _tools):  # type: ignore[misc, valid-type]
        _in_head = True
        """Between requests, or inside a head (llhttp has read no complete head since)."""
        _in_body = False
        _head_bytes = 0
        _refused = False

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)
            if self._in_head and not self.transport.is_closing():
                # A head still incomplete after this read: bounded, and timed from here.
                self._head_bytes += len(data)
                if self._head_bytes > max_headers:
                    self._refuse_head()
                    return
                if self.timeout_keep_alive_task is None:
                    self._arm_head()
            elif self._in_body:
                self._arm_body()

        # llhttp's callbacks, the request's progress (uvicorn's own, then the guard's) -----

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._in_head, self._in_body, self._head_bytes = False, True, 0
            self._disarm_head()
            self._check_token(self.headers)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._in_body = False
            self._disarm_body()

        def on_response_complete(self) -> None:
            self._out.flush()  # the whole answer is written: send it now, in one piece
            super().on_response_complete()
            if not self._in_body and not self.pipeline:
                # uvicorn's keep-alive timer closes a connection idle after an answer; once
                # a byte of the next head arrives it is cancelled, and the head timer runs.
                self._in_head = True
                if self.timeout_keep_alive_task is None and not self.transport.is_closing():
                    self._arm_head()

        def _refuse_head(self) -> None:
            self._refused = True
            self._disarm()
            body = b"Request Header Fields Too Large\n"
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
            )
            self.transport.close()

    return Guarded


class _Coalescing:
    """A transport whose writes in one turn of the event loop go out as one write (at the end
    of the turn); everything else, and a close, goes to the real transport after a flush."""

    def __init__(self, transport: Any, loop: Any):
        self._t = transport
        self._loop = loop
        self._buf: list[bytes] = []
        self._due: Any = None

    def write(self, data: bytes) -> None:
        if not data:
            return
        if self._due is None:
            self._due = self._loop.call_soon(self._flush)
        self._buf.append(bytes(data))

    def flush(self) -> None:
        """Write what is buffered now (a complete answer: nothing more will join it)."""
        if self._due is not None:
            self._due.cancel()
        self._flush()

    def _flush(self) -> None:
        self._due = None
        if self._buf:
            data = b"".join(self._buf)
            self._buf.clear()
            if not self._t.is_closing():
                self._t.write(data)

    def close(self) -> None:
        self.flush()
        self._t.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)
