"""The proxy's HTTP front: Streamable HTTP to clients that take a URL.

One endpoint (``/mcp``): POST carries one JSON-RPC message, answered with JSON or an SSE
stream; GET opens the session's stream for server-initiated messages; DELETE ends the session.
The ``Mcp-Session-Id`` is minted here, on ``initialize``, and each session gets its own
upstream and its own ``Proxy`` (relay.py) fed from memory: every judgement (recording,
``--enforce``, withheld tools, framing limits) is the stdio front's code, not a copy of it.

What this layer adds is HTTP's own: a per-run bearer token (compared in constant time), a
loopback bind, ``Origin``/``Host`` checks against DNS rebinding, limits on bodies, headers and
sessions, and routing each reply to the POST that asked for it (a reply nobody asked for is
dropped). Only what the relay writes reaches a client, re-serialised (``wire``) so an SSE
``data:`` line can hold nothing but one message.

A 2026-07-28 request (its ``_meta`` names its revision; no session id, no ``initialize``) goes
to one sessionless session per binding, its id renumbered there so two clients' ids never meet.
An answer whose first message is the reply goes as one JSON body (a client reads it to its
end and keeps its connection); a server message first, or none within ``SSE_AFTER``, commits
to an SSE stream.

Split by job: ``front_session`` (one session: its inbox, the router of
server messages, its waiters), ``front_asgi`` (answers as text, JSON or SSE; waiting for a
first message or a disconnect), ``guard`` (the connection guard); this module is the front:
its checks (token, Host/Origin, limits), its sessions' lives, and the POST/GET/DELETE
exchanges."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import ipaddress
import secrets
import signal
import socket
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio

from mcp_review.services.proxy.framing import (
    Unjudgeable,
    id_keys,
    short,
    strict_loads,
    usable_id,
    wire,
)
from mcp_review.services.proxy.front_asgi import (
    PENDING,
    Reply,
    UvicornServer,
    first_message,
    is_modern,
    json_error,
    lost_future,
    until_disconnect,
)
from mcp_review.services.proxy.front_session import (
    Ended,
    Session,
    Stream,
    Waiter,
    digest,
)
from mcp_review.services.proxy.guard import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    MAX_CONNECTIONS,
    guarded_protocol,
)
from mcp_review.services.proxy.relay import Proxy
from mcp_review.services.proxy.relay_common import CRASH_CODE, INVALID_REQUEST, PARSE_ERROR

ENDPOINT = "/mcp"
MAX_BODY = 4 * 1024 * 1024
"""Bytes of one POST body; a larger one is answered 413 before it is read."""
MAX_HEADERS = 16 * 1024
"""Bytes of a request's headers: a larger head is answered 431 (by the guard when it arrives in
pieces beyond it, by the app when one read holds it)."""
MAX_SESSIONS = 16
"""Sessions at once: each runs its own upstream (a stdio server is a process)."""
IDLE_TIMEOUT = 1800.0
"""Seconds without a request (and no open stream) after which a session is ended."""
SSE_AFTER = 0.5
"""Seconds a request's answer may wait for its first message before the front commits to an
SSE stream (a reply that comes first goes as one JSON body, which keeps the connection)."""
SESSION_HEADER = "mcp-session-id"
TOKEN_HEADER = "x-mcp-review-token"
"""Where the proxy's token goes when ``Authorization`` belongs to the remote server
(``forward_authorization = true``); accepted always."""

MakeProxy = Callable[[int, Mapping[str, str]], Proxy]
"""(session number, the client's forwarded headers) -> the session's relay."""


@functools.lru_cache(maxsize=64)
def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_listen(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; ``:PORT`` is 127.0.0.1) -> (host, port)."""
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen wants HOST:PORT, not {value!r}")
    host = host.strip("[]") or "127.0.0.1"
    if host.lower() == "localhost":
        host = "127.0.0.1"
    return host, int(port)


# The front -----------------------------------------------------------------------------------


@dataclass
class Limits:
    max_body: int = MAX_BODY
    max_headers: int = MAX_HEADERS
    max_sessions: int = MAX_SESSIONS
    idle_timeout: float = IDLE_TIMEOUT
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = MAX_CONNECTIONS


@dataclass
class Front:
    """``await run(sock)``: serve until a signal (128+N) or ``stop()`` (0)."""

    make_proxy: MakeProxy
    name: str
    token: str
    listen_any: bool = False
    forward_authorization: bool = False
    limits: Limits = field(default_factory=Limits)
    diag: TextIO = field(default_factory=lambda: sys.stderr)
    scrub: Callable[[str], str] | None = None
    sessions: dict[bytes, Session] = field(default_factory=dict)
    sessionless: dict[bytes | None, Session] = field(default_factory=dict)
    """Per binding, the session serving 2026-07-28 requests (no ``Mcp-Session-Id``)."""
    port: int = 0
    _count: int = 0
    _stop: anyio.Event | None = None
    _signal: int | None = None
    _tg: Any = None

    def log(self, msg: str) -> None:
        with contextlib.suppress(Exception):
            if self.scrub is not None:
                msg = self.scrub(msg)
            self.diag.write(f"mcp-review proxy [{self.name}]: {msg}\n")
            self.diag.flush()

    def spawn(self, fn: Callable[..., Any], *args: Any) -> None:
        if self._tg is not None:
            self._tg.start_soon(fn, *args)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def run(self, sock: socket.socket, ready: Callable[[], None] | None = None) -> int:
        import uvicorn

        self.port = sock.getsockname()[1]
        self._stop = anyio.Event()
        config = uvicorn.Config(
            self.app,
            # uvicorn's httptools protocol with slow-head and slow-body timeouts, a head bound
            # and a connection cap that keeps room for token holders (services/proxy/guard.py).
            http=guarded_protocol(
                self._authorised,
                header_timeout=self.limits.header_timeout,
                body_timeout=self.limits.body_timeout,
                max_connections=self.limits.max_connections,
                max_headers=self.limits.max_headers,
                on_evict=lambda why: self.log(f"turned a connection away: {why}"),
            ),
            interface="asgi3",
            proxy_headers=False,
            ws="none",
            lifespan="off",
            access_log=False,
            log_level="warning",
            server_header=False,
            date_header=False,
            h11_max_incomplete_event_size=self.limits.max_headers,
            # No limit_concurrency: it counts every open connection, so idle sockets without
            # the token made every authorised request a 503 (the guard caps connections).
            timeout_graceful_shutdown=2,
        )
        server = UvicornServer(config).server
        loop = asyncio.get_running_loop()
        handled: list[int] = []

        def on_signal(sig: int) -> None:
            if self._signal is None:
                self._signal = sig
            self.stop()

        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, on_signal, int(signum))
                handled.append(int(signum))
        try:
            served = anyio.Event()

            async def serve() -> None:
                try:
                    await server.serve([sock])
                finally:
                    served.set()
                    self.stop()

            async with anyio.create_task_group() as tg:
                self._tg = tg
                tg.start_soon(serve)
                while not server.started and not served.is_set():
                    await anyio.sleep(0.01)
                if ready is not None and server.started:
                    ready()
                tg.start_soon(self._reap_idle)
                await self._stop.wait()
                for s in list(self.sessions.values()):
                    s.end()  # EOF to each relay: its upstream is stopped as on stdin EOF
                with anyio.move_on_after(5):
                    while self.sessions:
                        await anyio.sleep(0.02)
                server.should_exit = True  # open streams ended with their sessions
                with anyio.move_on_after(5):
                    await served.wait()
                tg.cancel_scope.cancel()
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
        return 128 + self._signal if self._signal else 0

    async def _reap_idle(self) -> None:
        every = min(5.0, self.limits.idle_timeout / 4)
        while True:
            await anyio.sleep(every)
            now = time.monotonic()
            for s in list(self.sessions.values()):
                if (
                    not s.ended
                    and s.open_exchanges == 0
                    and now - s.last_used > self.limits.idle_timeout
                ):
                    s.log(f"idle for {self.limits.idle_timeout:g} s: ended")
                    s.end()

    async def _run_session(self, s: Session) -> None:
        why = f"mcp-review proxy: the session with MCP server '{self.name}' ended"
        try:
            assert s.proxy is not None
            rc = await s.proxy.run(client=(s.inbox, s.router), signals=False)
            s.log(f"ended (relay exit {rc})")
            if rc != 0:
                why = (
                    f"mcp-review proxy: MCP server '{self.name}' could not be started or "
                    "exited; this session is over"
                )
        except Exception as e:  # one session's failure must not take the others down
            s.log(f"ended: {type(e).__name__}: {e}")
        finally:
            self.sessions.pop(s.key, None)
            if self.sessionless.get(s.binding) is s:
                del self.sessionless[s.binding]
            s.finish(why)

    # HTTP ------------------------------------------------------------------------------------

    async def app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        size = 0
        headers: dict[str, str] = {}
        for k, v in scope.get("headers") or ():
            size += len(k) + len(v) + 4
            # A header sent twice is refused below where it matters (token, session, origin).
            key = k.decode("latin-1").lower()
            headers[key] = v.decode("latin-1") if key not in headers else "\x00dup"
        if size > self.limits.max_headers:
            # The guard bounds a head that arrives in pieces; one read can hold a larger one.
            await Reply(send).plain(431, "Request Header Fields Too Large\n")
            return
        reply = Reply(send)
        why = self._refuse_origin(headers)
        if why is not None:
            self.log(f"refused a request: {why}")
            await reply.plain(403, f"Forbidden: {why}\n")
            return
        if not self._authorised(headers):
            await reply.plain(
                401,
                "Unauthorized: this proxy wants its bearer token (see the token file it named "
                "when it started)\n",
                extra=[(b"www-authenticate", b'Bearer realm="mcp-review proxy"')],
            )
            return
        if scope.get("path") != ENDPOINT:
            await reply.plain(404, f"Not Found: the MCP endpoint is {ENDPOINT}\n")
            return
        method = scope.get("method")
        if method == "POST":
            await self._post(headers, receive, reply, lost_future(scope))
        elif method == "GET":
            await self._get(headers, receive, reply, lost_future(scope))
        elif method == "DELETE":
            s = self._session(headers)
            if isinstance(s, Session):
                s.log("DELETE from the client: ended")
                s.end()
                await reply.plain(200, "")
            else:
                await reply.plain(s[0], s[1])
        else:
            await reply.plain(405, "Method Not Allowed\n", extra=[(b"allow", b"GET, POST, DELETE")])

    def _refuse_origin(self, headers: Mapping[str, str]) -> str | None:
        """Why a browser-borne request (DNS rebinding) is refused, or None. On loopback the
        ``Host`` must name a loopback address at this port; an ``Origin``, when present, must
        be this very origin (http, loopback host, this port; with --listen-any: the Host)."""
        host = headers.get("host", "")
        if not self.listen_any:
            h, _, p = host.rpartition(":")
            if not (is_loopback(h) and p == str(self.port)):
                return f"Host {short(host, 60)} is not this proxy's loopback address"
        origin = headers.get("origin")
        if origin is None:
            return None
        if origin == "\x00dup":
            return "two Origin headers"
        scheme, sep, rest = origin.partition("://")
        if not sep or scheme.lower() != "http" or "/" in rest:
            return f"foreign Origin {short(origin, 80)}"
        if self.listen_any:
            ok = rest.lower() == host.lower()
        else:
            h, _, p = rest.rpartition(":")
            ok = is_loopback(h) and p == str(self.port)
        return None if ok else f"foreign Origin {short(origin, 80)}"

    def _authorised(self, headers: Mapping[str, str]) -> bool:
        given = headers.get(TOKEN_HEADER)
        if given is None and not self.forward_authorization:
            auth = headers.get("authorization", "")
            scheme, _, value = auth.partition(" ")
            given = value.strip() if scheme.lower() == "bearer" else None
        if given is None or given == "\x00dup":
            return False
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())

    def _forwarded(self, headers: Mapping[str, str]) -> dict[str, str]:
        if self.forward_authorization and "authorization" in headers:
            return {"Authorization": headers["authorization"]}
        return {}

    def _binding(self, headers: Mapping[str, str]) -> bytes | None:
        fwd = self._forwarded(headers)
        return digest(fwd["Authorization"]) if fwd else None

    def _session(self, headers: Mapping[str, str]) -> Session | tuple[int, str]:
        sid = headers.get(SESSION_HEADER)
        if sid is None:
            return 400, "Bad Request: no Mcp-Session-Id (send initialize first)\n"
        s = self.sessions.get(digest(sid))
        if s is None or s.ended or s.binding != self._binding(headers):
            # Unknown, ended, or another client's (another Authorization forwarded): the same
            # answer for each, so a session id tells a caller nothing.
            return 404, "Not Found: no such session (it ended, or was never started)\n"
        return s

    async def _message(
        self, headers: Mapping[str, str], receive: Any, reply: Reply
    ) -> tuple[dict[str, Any], bytes, bool] | None:
        """A POST's one JSON-RPC message, its body and whether the client accepts SSE; or
        None once the POST has been answered with why it was refused."""
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            await reply.plain(415, "Unsupported Media Type: POST application/json\n")
            return None
        accept = headers.get("accept", "*/*").lower()
        sse = "text/event-stream" in accept
        if not sse and "application/json" not in accept and "*/*" not in accept:
            await reply.plain(406, "Not Acceptable: accept application/json or text/event-stream\n")
            return None
        body = await self._body(headers, receive, reply)
        if body is None:
            return None
        try:
            msg = strict_loads(body)
        except Unjudgeable as e:
            await reply.json(400, json_error(None, PARSE_ERROR, f"Parse error: {e}"))
            return None
        if isinstance(msg, list):
            await reply.json(
                400,
                json_error(
                    None,
                    INVALID_REQUEST,
                    "JSON-RPC batches are not accepted over Streamable HTTP (removed in "
                    "2025-06-18): send one message per POST",
                ),
            )
            return None
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
            await reply.json(400, json_error(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message"))
            return None
        is_request = "method" in msg and "id" in msg
        rid = msg.get("id") if is_request else None
        if is_request and not usable_id(rid):
            await reply.json(
                400,
                json_error(
                    None, INVALID_REQUEST, "a request id must be a string or an integer below 2**53"
                ),
            )
            return None
        if "method" not in msg and not ("id" in msg and (("result" in msg) != ("error" in msg))):
            await reply.json(
                400, json_error(None, INVALID_REQUEST, "neither a request nor a response")
            )
            return None
        return msg, body, sse

    async def _post(
        self,
        headers: Mapping[str, str],
        receive: Any,
        reply: Reply,
        lost: asyncio.Future[None] | None,
    ) -> None:
        got = await self._message(headers, receive, reply)
        if got is None:
            return
        msg, body, sse = got
        is_request = "method" in msg and "id" in msg
        rid = msg.get("id") if is_request else None
        # CR and LF can only be whitespace between tokens of valid JSON: spaces keep it one
        # line for the relay (which frames on \n), meaning the same.
        line = body.replace(b"\r", b" ").replace(b"\n", b" ") + b"\n"
        extra: list[tuple[bytes, bytes]] = []
        if msg.get("method") == "initialize" and SESSION_HEADER not in headers:
            if not is_request:
                await reply.json(400, json_error(None, INVALID_REQUEST, "initialize needs an id"))
                return
            created = self._new_session(headers)
            if isinstance(created, tuple):
                await reply.json(created[0], json_error(rid, CRASH_CODE, created[1]))
                return
            s = created
            extra = [(SESSION_HEADER.encode(), s.sid.encode())]
        elif SESSION_HEADER not in headers and is_modern(msg):
            # 2026-07-28: no session id, no initialize; one shared relay per binding.
            shared = self._sessionless_for(headers)
            if isinstance(shared, tuple):
                await reply.json(shared[0], json_error(rid, CRASH_CODE, shared[1]))
                return
            s = shared
        else:
            found = self._session(headers)
            if isinstance(found, tuple):
                await reply.json(found[0], json_error(rid, INVALID_REQUEST, found[1].strip()))
                return
            s = found
        with s.exchange():
            if not is_request:
                if not await s.post(line):
                    await reply.plain(404, "Not Found: the session ended\n")
                    return
                await reply.plain(202, "")
                return
            wire_id = None
            if s.sessionless:
                s.renumbered += 1
                wire_id = s.renumbered
                line = wire({**msg, "id": wire_id})
            keys = id_keys(rid if wire_id is None else wire_id)
            if s.find(keys) is not None:
                await reply.json(
                    409,
                    json_error(
                        rid,
                        INVALID_REQUEST,
                        f"the id {short(rid)} is already in use by a request of this session "
                        'that has not been answered (clients match 1 and "1" as one id)',
                    ),
                )
                return
            w = Waiter(rid, keys, Stream.new(sse), wire_id=wire_id)
            for k in keys:
                s.waiters[k] = w
            if sse:
                s.posts.append(w.stream)
            try:
                if not await s.post(line):
                    s.unregister(w)
                    await reply.json(404, json_error(rid, INVALID_REQUEST, "the session ended"))
                    return
                await self._answer(s, w, receive, reply, extra, lost)
            finally:
                if w.stream in s.posts:
                    s.posts.remove(w.stream)
                if not w.answered:
                    s.cancel(w)

    async def _answer(
        self,
        s: Session,
        w: Waiter,
        receive: Any,
        reply: Reply,
        extra: list[tuple[bytes, bytes]],
        lost: asyncio.Future[None] | None,
    ) -> None:
        if not w.stream.sse:
            async with until_disconnect(receive, lost):
                with contextlib.suppress(Ended):
                    m = await w.stream.chan.get()
                    await reply.json(200, wire(m), extra=extra)
            return
        # The content type waits for the first message: a reply that comes first is answered
        # as one JSON body, which a client reads to its end and so keeps its connection alive
        # (an SDK client closes an SSE response once the reply is in, and with it the
        # connection); a server message before it commits to SSE, as the SDK's server does.
        # Past SSE_AFTER seconds without a message the stream is committed to, so a long call's
        # client has its answer's head (as the SDK's server does).
        s.flush_queued(w.stream)
        first = await first_message(receive, w.stream, SSE_AFTER, lost)
        if first is None:  # the client left (uvicorn drops this), or its stream ended
            await reply.json(200, json_error(w.rpc_id, CRASH_CODE, "the session ended"))
            return
        if isinstance(first, dict) and "method" not in first:
            await reply.json(200, wire(first), extra=extra)
            return
        await reply.start_sse(extra)
        async with until_disconnect(receive, lost):
            if first is PENDING:
                with contextlib.suppress(Ended):
                    first = await w.stream.chan.get()
            if isinstance(first, dict):
                await reply.event(first)
                if "method" in first:
                    async for m in w.stream.chan:
                        await reply.event(m)
                        if m is not None and "method" not in m:
                            break
        await reply.finish()

    async def _get(
        self,
        headers: Mapping[str, str],
        receive: Any,
        reply: Reply,
        lost: asyncio.Future[None] | None,
    ) -> None:
        if "text/event-stream" not in headers.get("accept", "").lower():
            await reply.plain(406, "Not Acceptable: GET opens a text/event-stream\n")
            return
        found = self._session(headers)
        if isinstance(found, tuple):
            await reply.plain(*found)
            return
        s = found
        if s.get_stream is not None:
            await reply.plain(409, "Conflict: this session's GET stream is open already\n")
            return
        stream = Stream.new()
        s.get_stream = stream
        with s.exchange():
            try:
                await reply.start_sse([])
                s.flush_queued(stream)
                async with until_disconnect(receive, lost):
                    async for m in stream.chan:
                        await reply.event(m)
                await reply.finish()
            finally:
                if s.get_stream is stream:
                    s.get_stream = None

    async def _body(self, headers: Mapping[str, str], receive: Any, reply: Reply) -> bytes | None:
        cap = self.limits.max_body
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            await reply.plain(413, f"Content Too Large: a POST body holds at most {cap} bytes\n")
            return None
        parts: list[bytes] = []
        size = 0
        while True:
            m = await receive()
            if m["type"] == "http.disconnect":
                return None
            chunk = m.get("body", b"")
            size += len(chunk)
            if size > cap:
                await reply.plain(
                    413, f"Content Too Large: a POST body holds at most {cap} bytes\n"
                )
                return None
            parts.append(chunk)
            if not m.get("more_body"):
                return b"".join(parts)

    def _sessionless_for(self, headers: Mapping[str, str]) -> Session | tuple[int, str]:
        s = self.sessionless.get(self._binding(headers))
        if s is not None and not s.ended:
            return s
        return self._new_session(headers, sessionless=True)

    def _new_session(
        self, headers: Mapping[str, str], *, sessionless: bool = False
    ) -> Session | tuple[int, str]:
        live = sum(1 for s in self.sessions.values() if not s.ended)
        if live >= self.limits.max_sessions:
            self.log(f"refused a new session: {live} are open (the most --max-sessions allows)")
            return 503, (
                f"mcp-review proxy: {live} sessions are open, the most this proxy allows; "
                "end one (DELETE) or wait for an idle one to end"
            )
        self._count += 1
        sid = secrets.token_urlsafe(32)
        s = Session(self, self._count, sid, self._binding(headers), sessionless=sessionless)
        try:
            s.proxy = self.make_proxy(self._count, self._forwarded(headers))
        except Exception as e:
            self.log(f"cannot start a session: {e}")
            return 500, f"mcp-review proxy: cannot start a session: {e}"
        self.sessions[s.key] = s
        if sessionless:
            self.sessionless[s.binding] = s
        s.log("started (2026-07-28, sessionless)" if sessionless else "started")
        assert self._tg is not None
        self._tg.start_soon(self._run_session, s)
        return s
