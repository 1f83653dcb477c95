"""The HTTP front's connection guard: a flood of connections that never send
a request, or send one slowly, must not take the front from the client that holds the token.

uvicorn's ``limit_concurrency`` counts every open connection, so 160 idle sockets made every
authorised request a 503; and nothing timed out a request head that never ends. On loopback
every peer is 127.0.0.1, so a cap per peer is no help. This h11 protocol (uvicorn's, extended):

- **times out a slow head**: a connection must complete a request's head within
  ``header_timeout`` seconds of its first byte (or of connecting, or of its last answer);
- **times out a slow body**: the body must arrive within ``body_timeout`` seconds of the head;
- **caps connections** at ``max_connections``, and keeps that capacity for token holders: a
  connection beyond the cap closes the oldest one that has shown no token (never sent a head,
  or sent one without the token, and has no request in progress); only when every connection
  belongs to a token holder or is busy is the new one turned away.

Memory is bounded by the cap times what h11 buffers for one head (``--max-headers``).

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

HEADER_TIMEOUT = 10.0
"""Seconds a request's head may take (from the connection's first byte, or from connecting)."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take once its head is in."""
MAX_CONNECTIONS = 256
"""Open connections at once; past it, those that showed no token are closed first."""


def guarded_protocol(
    authorised: Callable[[Mapping[str, str]], bool],
    *,
    header_timeout: float = HEADER_TIMEOUT,
    body_timeout: float = BODY_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    on_evict: Callable[[str], None] | None = None,
) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the guard above; ``authorised(headers)`` tells whether a
    request head carries the token (headers lower-cased, latin-1)."""

    class Guarded(H11Protocol):
        _head_timer: Any = None
        _body_timer: Any = None
        _token = False
        _born = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.transport = _Coalescing(transport, self.loop)  # type: ignore[assignment]
            self._born = time.monotonic()
            self._arm_head()
            if len(self.connections) > max_connections:
                self._make_room()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        # --- the timers ----------------------------------------------------------------

        def _follow(self) -> None:
            """Arm or disarm the timers from where the current request stands."""
            state = self.conn.their_state
            if state is h11.IDLE:
                if self._body_timer is not None:
                    self._body_timer.cancel()
                    self._body_timer = None
                # uvicorn's keep-alive timer closes a connection idle after an answer; once
                # a byte of the next head arrives it is cancelled, and the head timer runs.
                if self.timeout_keep_alive_task is None:
                    self._arm_head()
                return
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            if not self._token and self.headers is not None:
                heads = {k.decode("latin-1"): v.decode("latin-1") for k, v in self.headers}
                self._token = authorised(heads)
            if state is h11.SEND_BODY:
                if self._body_timer is None:
                    self._body_timer = self.loop.call_later(body_timeout, self._slow, "body")
            elif self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _arm_head(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._slow, "head")

        def _disarm(self) -> None:
            for t in (self._head_timer, self._body_timer):
                if t is not None:
                    t.cancel()
            self._head_timer = self._body_timer = None

        def _slow(self, what: str) -> None:
            self._head_timer = self._body_timer = None
            if self.transport.is_closing():
                return
            if what == "body" and self.cycle is not None and not self.cycle.response_started:
                # The app is waiting for the rest of the body: it reads a disconnect.
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.transport.close()

        # --- the cap ---------------------------------------------------------------------

        def _idle(self) -> bool:
            return not self._token and (self.cycle is None or self.cycle.response_complete)

        def _make_room(self) -> None:
            victims = [c for c in self.connections if isinstance(c, Guarded) and c._idle()]
            victims = [c for c in victims if c is not self] or [self]
            victim = min(victims, key=lambda c: c._born)
            if on_evict is not None and victim is self:
                on_evict(f"{len(self.connections)} connections, all busy or holding the token")
            victim._disarm()
            victim.transport.close()
            self.connections.discard(victim)

    return Guarded


class _Coalescing:
    """A transport whose writes in one turn of the event loop go out as one write (at the end
    of the turn); everything else, and a close, goes to the real transport after a flush."""

    def __init__(self, transport: Any, loop: Any):
        self._t = transport
        self._loop = loop
        self._buf: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not data:
            return
        if not self._buf:
            self._loop.call_soon(self._flush)
        self._buf.append(bytes(data))

    def _flush(self) -> None:
        if self._buf:
            data = b"".join(self._buf)
            self._buf.clear()
            if not self._t.is_closing():
                self._t.write(data)

    def close(self) -> None:
        self._flush()
        self._t.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)
