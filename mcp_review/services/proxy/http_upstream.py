"""A remote MCP server as the proxy's upstream: Streamable HTTP (or legacy SSE where the config
says ``type = "sse"``), spoken with httpx2 directly, every server message framed as one line and
handed to the relay's judging path like a stdio server's stdout.

Streamable HTTP: each client line is POSTed; a request's answer comes back as a JSON body or as
an SSE stream (with the server's own requests and notifications in it), and server-initiated
messages also come on a GET stream. The session id (``Mcp-Session-Id``) and the protocol
version (``MCP-Protocol-Version``) go on every request after ``initialize``.

Failing closed, over and above the relay's judgement:

- A response on a POST's stream must answer a request of that POST (as clients match ids); on
  the GET stream no response is expected at all. Anything else is dropped and logged.
- Only same-origin 307/308 redirects are followed (at most 5); any other is refused.
- An SSE event or a JSON body longer than the relay's line limit is dropped; an event that is
  not a ``message`` event is dropped (the SDK client ignores it too); data with a newline in it
  is re-serialised, or dropped when it does not parse.
- A request whose POST ends without its answer (an error status, 202, a dropped body, a stream
  cut off and not resumable) is answered by the proxy with a JSON-RPC error, so no client waits
  forever. A stream cut off after an event id is resumed with ``Last-Event-ID`` (a few times);
  what the server replays goes through the same checks.
- A 404 on a request carrying the session id means the server ended the session: every request
  pending gets a JSON-RPC error, and the proxy re-initialises with the client's original
  ``initialize`` (and ``notifications/initialized``); if that fails, the server is gone.

Header values (tokens) are set on the HTTP client only: nothing here writes them anywhere, and
the proxy's log scrubs them by value besides.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio

from mcp_review.services.proxy.framing import id_keys, loads, short, wire
from mcp_review.services.proxy.upstream import Deliver, Log, UpstreamError

SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
LAST_EVENT_ID = "last-event-id"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
NAME_BEARING = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
"""2026-07-28 requests mirror their method (and this param) in headers, as the SDK does."""

MAX_REDIRECTS = 5
RESUME_ATTEMPTS = 3
"""Times a POST's cut-off stream is resumed with Last-Event-ID before its requests fail."""
GET_ATTEMPTS = 5
"""Consecutive failures after which the GET stream is given up (server requests still come on
the POSTs' streams)."""
RECONNECT_DELAY = 1.0
MAX_RETRY_DELAY = 10.0
"""An SSE ``retry`` field beyond this many seconds is capped."""
NOTIFY_TIMEOUT = 30.0
"""Seconds a POST without requests (a notification, a response) may take: they are sent in
order, so a server that never answers one would stall the client."""
DRAIN_TIMEOUT = 1.0
DRAIN_BYTES = 64 * 1024
"""How long, and how much, an answered POST's stream is read on for its end (see ``_drain``)."""
UPSTREAM_ERROR = -32000
SESSION_ID_RE = re.compile(r"^[\x21-\x7e]{1,1024}$")
"""The spec: visible ASCII. Anything else (or longer) is refused."""
TOKEN_RE = re.compile(r"^[A-Za-z0-9._/-]{1,64}$")
"""A protocol version or method name that may be put in a header."""
_HEADER_SAFE = re.compile(r"^[\x20-\x7e]*$")


def encode_header_value(value: str) -> str:
    """As the SDK encodes ``Mcp-Name``: printable ASCII as is, anything else base64-wrapped."""
    if _HEADER_SAFE.match(value) and value == value.strip() and not value.startswith("=?base64?"):
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


_TOKEN_CHARS = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def param_header_map(schema: Any) -> dict[tuple[str, ...], str]:
    """The ``x-mcp-header`` annotations of a tool's input schema, by property path: on a
    property reached from the root through ``properties`` alone, an RFC 9110 token, on a
    string, integer or boolean property (what the SDK accepts; anything else is left out)."""
    out: dict[tuple[str, ...], str] = {}

    def walk(node: Any, path: tuple[str, ...]) -> None:
        props = node.get("properties") if isinstance(node, dict) and len(path) < 32 else None
        if not isinstance(props, dict):
            return
        for key, sub in props.items():
            if not isinstance(sub, dict):
                continue
            tok = sub.get("x-mcp-header")
            if (
                isinstance(tok, str)
                and _TOKEN_CHARS.match(tok)
                and sub.get("type") in ("string", "integer", "boolean")
            ):
                out[(*path, key)] = tok
            walk(sub, (*path, key))

    walk(schema, ())
    return out


def param_headers(header_map: Mapping[tuple[str, ...], str], arguments: Any) -> dict[str, str]:
    """The ``Mcp-Param-*`` headers a 2026-07-28 ``tools/call`` mirrors from its arguments, as
    the SDK client writes them (a missing or non-scalar value: no header)."""
    out: dict[str, str] = {}
    for path, tok in header_map.items():
        node = arguments
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, bool):
            text = "true" if node else "false"
        elif isinstance(node, (str, int, float)):
            try:
                text = str(node)
            except ValueError:  # an integer past the digit limit
                continue
        else:
            continue
        out[f"Mcp-Param-{tok}"] = encode_header_value(text)
    return out


def _quiet_http_logs() -> None:
    # httpx2 and httpcore log request URLs (a query may carry a token) and headers at debug:
    # in a proxy whose stderr is the client's log file, none of it may reach a handler.
    for name in ("httpx2", "httpx", "httpcore", "httpcore2", "hpack", "h2"):
        lg = logging.getLogger(name)
        lg.setLevel(logging.CRITICAL + 1)
        lg.propagate = False


# SSE ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class Event:
    event: str
    data: bytes
    id: str | None


class SSEParser:
    """The WHATWG event-stream format over byte chunks: lines end at CRLF, LF or CR (a CR that
    ends a chunk waits for the next one), ``data`` lines join with LF, a blank line dispatches;
    the last event id persists across events. An event whose data would pass ``max_event``
    bytes (or a line longer than that) is dropped whole and ``on_overlong`` told its size."""

    def __init__(self, max_event: int, on_overlong: Callable[[int], None]):
        self.max_event = max_event
        self.on_overlong = on_overlong
        self._buf = bytearray()
        self._data: list[bytes] = []
        self._size = 0
        self._type = ""
        self._over = 0
        """Bytes of the event being dropped (0: not dropping)."""
        self._skip_line = False
        self.last_id: str | None = None
        self.retry: float | None = None
        self._started = False

    def feed(self, chunk: bytes) -> list[Event]:
        out: list[Event] = []
        buf = self._buf
        buf += chunk
        if not self._started and len(buf) >= 3:
            self._started = True
            if buf.startswith(b"\xef\xbb\xbf"):
                del buf[:3]
        pos = 0
        n = len(buf)
        while pos < n:
            cr = buf.find(b"\r", pos)
            lf = buf.find(b"\n", pos)
            if cr == -1 and lf == -1:
                break
            if cr != -1 and (lf == -1 or cr < lf):
                if cr + 1 == n:
                    break  # a CR at the end: the next chunk may bring its LF
                end, nxt = cr, cr + 2 if buf[cr + 1] == 0x0A else cr + 1
            else:
                end, nxt = lf, lf + 1
            line = bytes(buf[pos:end])
            pos = nxt
            if self._skip_line:
                self._skip_line = False
                self._over += len(line)
                continue
            ev = self._line(line)
            if ev is not None:
                out.append(ev)
        del buf[:pos]
        if len(buf) > self.max_event + 64:
            # A line with no end in sight: drop it (and so its event) as it streams in.
            self._over += len(buf)
            self._skip_line = True
            buf.clear()
        return out

    def _line(self, line: bytes) -> Event | None:
        if not line:
            return self._dispatch()
        if line.startswith(b":"):
            return None
        name, colon, value = line.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            if self._over:
                self._over += len(value) + 1
                return None
            self._size += len(value) + 1
            if self._size > self.max_event:
                self._over = self._size
                self._data = []
                return None
            self._data.append(value)
        elif name == b"event":
            self._type = value.decode("utf-8", "replace")
        elif name == b"id":
            if b"\0" not in value:
                self.last_id = value.decode("utf-8", "replace")
        elif name == b"retry" and value.isdigit():
            self.retry = min(int(value) / 1000.0, MAX_RETRY_DELAY)
        return None

    def _dispatch(self) -> Event | None:
        kind, data, over = self._type or "message", self._data, self._over
        self._type, self._data, self._size, self._over = "", [], 0, 0
        if over:
            self.on_overlong(over)
            return None
        if not data:
            return None
        return Event(kind, b"\n".join(data), self.last_id)


# One POST -----------------------------------------------------------------------------------


@dataclass(eq=False)
class _Post:
    """One client line sent as one POST: the requests in it are answered on its response."""

    body: bytes
    msgs: list[Any]
    requests: list[tuple[Any, frozenset[tuple[str, Any]]]] = field(default_factory=list)
    """(the id as the client sent it, its keys as clients match it), unanswered ones."""
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    session: str | None = None
    last_id: str | None = None
    """The last event id its stream gave (to resume it with)."""
    on_stream: bool = False
    """Legacy SSE: accepted, its answers will come on the event stream."""
    modern: bool = False
    """A 2026-07-28 request (its envelope names the version): closing its stream cancels it."""

    def owns(self, rid: Any) -> tuple[Any, frozenset[tuple[str, Any]]] | None:
        keys = id_keys(rid)
        return next((r for r in self.requests if r[1] & keys), None)

    @property
    def method(self) -> str | None:
        m = self.msgs[0] if len(self.msgs) == 1 else None
        return m.get("method") if isinstance(m, dict) else None


class _Refused(Exception):
    """An HTTP answer the proxy will not use (a redirect it does not follow ...)."""


class HttpUpstream:
    """A remote server (``transport`` "http": Streamable HTTP; "sse": the legacy transport)."""

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        transport: str = "http",
        timeout: float = 30.0,
        label: str | None = None,
        auth: Any = None,
    ):
        if transport not in ("http", "sse"):
            raise ValueError(f"transport must be http or sse, not {transport!r}")
        self.url = url
        self.headers = dict(headers or {})
        self.transport = transport
        self.timeout = timeout
        self.label = label or url
        self.auth = auth
        """An ``httpx2.Auth`` for every request (the stored OAuth token, services.oauth)."""
        self.log: Log = lambda _msg: None
        self._http: Any = None
        self._session: str | None = None
        self._version: str | None = None
        self._init_body: bytes | None = None
        self._initialized_body: bytes | None = None
        self._posts: set[_Post] = set()
        self._out_send, self._out_recv = anyio.create_memory_object_stream[bytes](16)
        self._in_send, self._in_recv = anyio.create_memory_object_stream[list[bytes]](16)
        self._ready = anyio.Event()
        self._ready.set()
        self._tg: Any = None
        self._dead: str | None = None
        self._get_running = False
        self._max_line = 0
        self._on_overlong: Callable[[int], None] = lambda _n: None
        self._sse_endpoint: str | None = None
        self._sse_ready = anyio.Event()
        self._param_maps: dict[str, dict[tuple[str, ...], str]] = {}
        """Per tool the server listed, its ``x-mcp-header`` annotations (``param_header_map``)."""

    # the Upstream interface -------------------------------------------------------------------

    async def start(self, log: Log) -> None:
        self.log = log
        _quiet_http_logs()
        try:
            import httpx2
        except ImportError as e:  # pragma: no cover - a dependency of mcp
            raise UpstreamError(f"cannot speak HTTP: {e}") from None
        self._http = httpx2.AsyncClient(
            headers=self.headers,
            auth=self.auth,
            timeout=httpx2.Timeout(self.timeout, read=None),
            follow_redirects=False,
        )
        log(
            f"relaying to {self.label} ({'legacy SSE' if self.transport == 'sse' else 'Streamable HTTP'})"
        )

    async def pump(
        self, deliver: Deliver, *, max_line: int, on_overlong: Callable[[int], None]
    ) -> None:
        self._max_line = max_line
        self._on_overlong = on_overlong
        async with anyio.create_task_group() as tg:
            self._tg = tg
            if self.transport == "sse":
                tg.start_soon(self._legacy_stream)
            tg.start_soon(self._dispatch)
            async with self._in_recv:
                async for batch in self._in_recv:
                    await deliver(batch)
            tg.cancel_scope.cancel()

    async def write(self, data: bytes) -> bool:
        if self._dead is not None:
            return False
        try:
            await self._out_send.send(data)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return False
        return True

    async def stop(self, *, grace: float) -> None:
        # End the session on the server (best effort), then every stream.
        if self._session is not None and self._http is not None and grace > 0:
            with anyio.move_on_after(min(grace, 2.0)):
                with contextlib.suppress(Exception):
                    async with self._open("DELETE", self._base_headers()):
                        pass
        self._end("stopped")

    async def ended(self, timeout: float) -> str:
        return self._dead or "closed the connection"

    async def kill(self) -> None:
        self._end("killed")

    async def aclose(self) -> None:
        self._end("closed")
        if self._http is not None:
            with anyio.CancelScope(shield=True), anyio.move_on_after(2.0):
                await self._http.aclose()

    # plumbing ---------------------------------------------------------------------------------

    def _end(self, why: str) -> None:
        if self._dead is None:
            self._dead = why
        self._in_send.close()
        self._out_send.close()
        if self._tg is not None:
            self._tg.cancel_scope.cancel()

    async def _emit(self, lines: list[bytes]) -> None:
        if not lines:
            return
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await self._in_send.send(lines)

    def _error_line(self, rid: Any, why: str) -> bytes:
        return wire(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "error": {"code": UPSTREAM_ERROR, "message": f"mcp-review proxy: {why}"},
            }
        )

    async def _fail(self, post: _Post, why: str) -> None:
        """Answer every unanswered request of ``post`` with an error, and stop reading it.
        The answers go out shielded: the caller may be the POST's own task, being cancelled."""
        lines = [self._error_line(rid, why) for rid, _ in post.requests]
        post.requests = []
        post.scope.cancel()
        if lines:
            self.log(f"answering {len(lines)} request(s) with an error: {why}")
            with anyio.CancelScope(shield=True), anyio.move_on_after(5.0):
                await self._emit(lines)

    def _base_headers(self) -> dict[str, str]:
        h: dict[str, str] = {}
        if self._session is not None:
            h[SESSION_HEADER] = self._session
        if self._version is not None:
            h[VERSION_HEADER] = self._version
        return h

    def _headers_for(self, msg: Any) -> dict[str, str]:
        h = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        method = msg.get("method") if isinstance(msg, dict) else None
        if method == "initialize":
            return h  # a new session: no id, no version yet
        h.update(self._base_headers())
        params = msg.get("params") if isinstance(msg, dict) else None
        meta = params.get("_meta") if isinstance(params, dict) else None
        version = meta.get(ENVELOPE_VERSION) if isinstance(meta, dict) else None
        if isinstance(version, str) and TOKEN_RE.match(version) and isinstance(method, str):
            # A 2026-07-28 request: its envelope's version, its method (and name) in headers.
            assert isinstance(params, dict)
            h[VERSION_HEADER] = version
            if TOKEN_RE.match(method):
                h[METHOD_HEADER] = method
            key = NAME_BEARING.get(method)
            name = params.get(key) if key else None
            if isinstance(name, str):
                h[NAME_HEADER] = encode_header_value(name)
            if method == "tools/call" and isinstance(name, str) and name in self._param_maps:
                h.update(param_headers(self._param_maps[name], params.get("arguments")))
        return h

    def _same_origin(self, a: Any, b: Any) -> bool:
        return (a.scheme, a.host, a.port) == (b.scheme, b.host, b.port) and not b.userinfo

    @contextlib.asynccontextmanager
    async def _open(
        self,
        method: str,
        headers: dict[str, str],
        content: bytes | None = None,
        url: str | None = None,
    ) -> AsyncIterator[Any]:
        """One HTTP exchange, streamed, following same-origin 307/308 redirects only."""
        import httpx2

        target = httpx2.URL(url or self.url)
        origin = target
        resp = None
        for _ in range(MAX_REDIRECTS + 1):
            req = self._http.build_request(method, target, headers=headers, content=content)
            resp = await self._http.send(req, stream=True, follow_redirects=False)
            if not (300 <= resp.status_code < 400):
                break
            loc = resp.headers.get("location")
            await resp.aclose()
            if resp.status_code not in (307, 308) or not loc:
                raise _Refused(
                    f"the server redirected (HTTP {resp.status_code}); only same-origin "
                    "307/308 redirects are followed"
                )
            nxt = target.join(loc)
            if not self._same_origin(origin, nxt):
                raise _Refused(
                    f"the server redirected (HTTP {resp.status_code}) to another origin "
                    f"({nxt.scheme}://{nxt.host}); only same-origin redirects are followed"
                )
            target = nxt
        else:
            raise _Refused(f"more than {MAX_REDIRECTS} redirects")
        assert resp is not None
        try:
            yield resp
        finally:
            await resp.aclose()

    # client -> server -------------------------------------------------------------------------

    async def _dispatch(self) -> None:
        """Send each client line in order: requests each on a POST of their own (answered
        concurrently), anything without a request (notifications, responses) before the next
        line goes; ``initialize`` completes first (the session id comes with its answer)."""
        async with self._out_recv:
            async for data in self._out_recv:
                for raw in data.split(b"\n"):
                    if not raw.strip():
                        continue
                    await self._ready.wait()
                    if self.transport == "sse":
                        await self._sse_ready.wait()
                    await self._send_line(raw)

    async def _send_line(self, raw: bytes) -> None:
        try:
            msg = loads(raw)
        except (ValueError, UnicodeDecodeError):
            return  # the relay only forwards what parses; nothing to send
        msgs = msg if isinstance(msg, list) else [msg]
        post = _Post(raw, msgs)
        for m in msgs:
            if isinstance(m, dict) and isinstance(m.get("method"), str) and "id" in m:
                keys = id_keys(m["id"])
                if keys:
                    post.requests.append((m["id"], keys))
        method = post.method
        if method == "initialize":
            self._init_body = raw
            self._initialized_body = None
            self._session = None
            self._version = None
        elif method == "notifications/initialized":
            self._initialized_body = raw
        elif method == "notifications/cancelled" and self._cancel_modern(msgs[0]):
            return
        post.modern = isinstance(self._headers_for(msgs[0]).get(METHOD_HEADER), str)
        assert self._tg is not None
        if post.requests and method != "initialize":
            self._tg.start_soon(self._run_post, post)
            return
        wait = max(self.timeout, NOTIFY_TIMEOUT) if method == "initialize" else NOTIFY_TIMEOUT
        with anyio.move_on_after(wait) as t:
            await self._run_post(post)
        if t.cancelled_caught:
            self.log(f"no answer to a {short(method)} message within {wait:g} s")
            await self._fail(post, f"no answer within {wait:g} s")
        if method == "notifications/initialized" and self.transport == "http":
            self._start_get()

    def _cancel_modern(self, note: Any) -> bool:
        """A cancellation of a 2026-07-28 request: that protocol has no client notifications
        over HTTP, closing the request's stream is the signal (as the SDK client does). True
        when it was handled so (nothing to POST)."""
        params = note.get("params") if isinstance(note, dict) else None
        rid = params.get("requestId") if isinstance(params, dict) else None
        post = next((p for p in self._posts if p.modern and p.owns(rid)), None)
        if post is None:
            return False
        self.log(f"closing the stream of cancelled request {short(rid)}")
        post.requests = []  # the client gave up on it: no answer is owed
        post.scope.cancel()
        return True

    async def _run_post(self, post: _Post) -> None:
        self._posts.add(post)
        post.session = self._session
        try:
            with post.scope:
                await self._post(post)
            if post.requests and not post.on_stream and not post.scope.cancel_called:
                await self._fail(post, "the server's response ended before answering")
        finally:
            if not (post.on_stream and post.requests):
                self._posts.discard(post)

    async def _post(self, post: _Post) -> None:
        import httpx2

        msg = post.msgs[0] if len(post.msgs) == 1 else None
        url = self._sse_endpoint if self.transport == "sse" else None
        try:
            async with self._open("POST", self._headers_for(msg), post.body, url) as resp:
                await self._on_response(post, resp)
        except _Refused as e:
            self.log(f"refused: {e}")
            await self._fail(post, str(e))
        except (httpx2.HTTPError, httpx2.StreamError) as e:
            why = self._http_failed(e)
            self.log(f"{why}: {short(str(e), 200)}")
            await self._fail(post, why)
        except Exception as e:  # a bug of ours must not leave the client waiting
            self.log(f"internal error on a POST: {type(e).__name__}: {short(str(e), 200)}")
            await self._fail(post, f"internal error ({type(e).__name__})")

    async def _on_response(self, post: _Post, resp: Any) -> None:
        status = resp.status_code
        if status == 404 and post.session is not None and post.method != "initialize":
            await self._session_expired(post.session)
            await self._fail(
                post, "the server ended the session (HTTP 404); send the request again"
            )
            return
        if status in (401, 403):
            await self._fail(
                post,
                f"{self.label} refused the proxy's credentials (HTTP {status}): check the token "
                "in the server's `headers` (or `--header`), or run `mcp-review login` if it "
                "uses OAuth",
            )
            return
        if status == 202 or (self.transport == "sse" and 200 <= status < 300):
            if self.transport == "sse":
                post.on_stream = True
                return  # legacy SSE: every answer comes on the event stream
            if post.requests:
                await self._fail(post, "the server answered a request with 202 Accepted")
            return
        if status >= 300:
            await self._error_body(post, resp)
            return
        if post.method == "initialize":
            sid = resp.headers.get(SESSION_HEADER)
            if sid is not None and not SESSION_ID_RE.match(sid):
                await self._fail(post, "the server sent an invalid Mcp-Session-Id")
                return
            self._session = sid
        ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype == "application/json":
            body = await self._read_capped(resp)
            if body is not None and body.strip():
                await self._take(post, body, on_get=False)
        elif ctype == "text/event-stream":
            chunks = resp.aiter_bytes()  # one iterator: a response's bytes are read once
            parser = await self._read_events(post, resp, chunks=chunks)
            if post.requests and post.last_id is not None:
                await self._resume(post)
            elif not post.requests:
                await self._drain(post, chunks, parser)
        elif post.requests:
            await self._fail(post, f"the server answered with content type {short(ctype, 60)}")

    def _http_failed(self, e: Exception) -> str:
        """A failed request, for the client: the server's address (scrubbed) and what to check,
        not the exception's text (it may carry a URL with a secret in its query)."""
        import httpx2

        kind = type(e).__name__
        if isinstance(e, httpx2.ConnectError):
            return (
                f"cannot connect to {self.label} ({kind}): is the server running, and the URL "
                "right?"
            )
        if isinstance(e, httpx2.TimeoutException):
            return f"{self.label} did not answer in time ({kind})"
        return f"the HTTP request to {self.label} failed ({kind})"

    async def _error_body(self, post: _Post, resp: Any) -> None:
        """A status >= 300: a JSON-RPC error in the body answers its request (through the
        relay's checks like any answer); otherwise the proxy answers with the status."""
        ctype = resp.headers.get("content-type", "").lower()
        if post.requests and ctype.startswith("application/json"):
            body = await self._read_capped(resp, limit=min(self._max_line, 1 << 20))
            if body is not None:
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    m = loads(body)
                    if isinstance(m, dict) and "error" in m and post.owns(m.get("id")):
                        await self._take(post, body, on_get=False)
        if post.requests:
            why = f"{self.label} answered HTTP {resp.status_code}"
            if resp.status_code in (404, 405) and post.method == "initialize":
                why += ": is the URL's path right (the MCP endpoint, often /mcp)?"
            await self._fail(post, why)

    async def _read_capped(self, resp: Any, limit: int | None = None) -> bytes | None:
        cap = limit or self._max_line
        buf = bytearray()
        total = 0
        async for chunk in resp.aiter_bytes():
            total += len(chunk)
            if total > cap:
                continue
            buf += chunk
        if total > cap:
            self._on_overlong(total)
            return None
        return bytes(buf)

    async def _read_events(
        self,
        post: _Post | None,
        resp: Any,
        parser: SSEParser | None = None,
        chunks: AsyncIterator[bytes] | None = None,
    ) -> SSEParser:
        """Read an event stream; for a POST (or its resumption) stop once it is answered
        (``chunks``: the response's byte iterator, to read on from where this stops)."""
        parser = parser or SSEParser(self._max_line, self._on_overlong)
        async for chunk in chunks if chunks is not None else resp.aiter_bytes():
            for ev in parser.feed(chunk):
                if ev.event != "message":
                    self.log(f"dropped an SSE event of type {short(ev.event, 60)}")
                    continue
                await self._take(post, ev.data, on_get=post is None)
            if post is not None:
                post.last_id = parser.last_id
                if not post.requests:
                    return parser
        return parser

    async def _drain(self, post: _Post, chunks: AsyncIterator[bytes], parser: SSEParser) -> None:
        """Read a POST's stream to its end once its requests are answered (the server closes
        it next), so its connection goes back to the pool: closing a response mid-body
        closes the connection, and every call paid for a new one. What still comes goes
        through the same checks; a stream that does not end soon, or runs long, is closed."""
        read = 0
        with anyio.move_on_after(DRAIN_TIMEOUT):
            async for chunk in chunks:
                read += len(chunk)
                if read > DRAIN_BYTES:
                    return
                for ev in parser.feed(chunk):
                    if ev.event == "message":
                        await self._take(post, ev.data, on_get=False)

    async def _resume(self, post: _Post) -> None:
        """The POST's stream was cut off after an event id: ask for the rest (GET with
        Last-Event-ID); the replay goes through the same checks."""
        import httpx2

        for _ in range(RESUME_ATTEMPTS):
            last = post.last_id
            if last is None or not post.requests:
                return
            h = {**self._base_headers(), "accept": "text/event-stream", LAST_EVENT_ID: last}
            self.log("the server's event stream was cut off: resuming it with Last-Event-ID")
            try:
                async with self._open("GET", h) as resp:
                    ctype = resp.headers.get("content-type", "").lower()
                    if resp.status_code != 200 or not ctype.startswith("text/event-stream"):
                        return
                    await self._read_events(post, resp)
            except (_Refused, httpx2.HTTPError):
                return

    def _frame(self, data: bytes) -> bytes | None:
        """``data`` as one line: as received unless it holds a line break (pretty-printed
        JSON), then re-serialised; None when such data does not parse."""
        if b"\n" not in data and b"\r" not in data:
            return data + b"\n"
        try:
            return wire(loads(data))
        except (ValueError, UnicodeDecodeError, TypeError):
            self.log(f"dropped server data with a line break that is not JSON ({len(data)} bytes)")
            return None

    async def _take(self, post: _Post | None, data: bytes, *, on_get: bool) -> None:
        """A server message from ``post``'s answer (or the GET stream): responses must answer a
        request of that POST; a batch is split into its messages."""
        if len(data) > self._max_line:
            self._on_overlong(len(data))
            return
        if not data.strip():
            return  # an event with an empty data field (a priming event): no message
        try:
            msg = loads(data)
        except (ValueError, UnicodeDecodeError):
            line = self._frame(data)
            await self._emit([line] if line is not None else [])  # the relay logs it as noise
            return
        if isinstance(msg, list) and msg:
            lines = [self._check(post, m, on_get) for m in msg]
            await self._emit([x for x in lines if x is not None])
            return
        if isinstance(msg, dict) and self._response(msg):
            if self._check(post, msg, on_get) is None:
                return
        line = self._frame(data)
        if line is not None:
            await self._emit([line])

    @staticmethod
    def _response(m: Any) -> bool:
        return isinstance(m, dict) and "method" not in m and "id" in m

    def _check(self, post: _Post | None, m: Any, on_get: bool) -> bytes | None:
        """One message of a server batch or answer: a response is passed only when it answers
        an unanswered request of ``post``; anything else is left to the relay."""
        if not self._response(m):
            return wire(m)
        rid = m["id"]
        if self.transport == "sse":
            post = self._owner(rid)
        hit = post.owns(rid) if post is not None else None
        if hit is None or post is None:
            where = "the GET stream" if on_get else "the answer to another request"
            self.log(
                f"dropped a reply to id {short(rid)} on {where}: the proxy did not send it there"
            )
            return None
        post.requests.remove(hit)
        if post.on_stream and not post.requests:
            self._posts.discard(post)
        result = m.get("result")
        if post.method == "tools/list" and isinstance(result, dict):
            self._learn(result.get("tools"))
        if post.method == "initialize":
            result = m.get("result")
            v = result.get("protocolVersion") if isinstance(result, dict) else None
            self._version = v if isinstance(v, str) and TOKEN_RE.match(v) else None
        return wire(m)

    def _learn(self, tools: Any) -> None:
        """Note each listed tool's ``x-mcp-header`` annotations, for the headers of its calls."""
        for t in tools if isinstance(tools, list) else []:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                found = param_header_map(t.get("inputSchema"))
                if found:
                    self._param_maps[t["name"]] = found
                else:
                    self._param_maps.pop(t["name"], None)

    def _owner(self, rid: Any) -> _Post | None:
        keys = id_keys(rid)
        return next((p for p in self._posts if any(r[1] & keys for r in p.requests)), None)

    # server -> client: the GET stream ---------------------------------------------------------

    def _start_get(self) -> None:
        if self._session is not None and not self._get_running and self._tg is not None:
            self._get_running = True
            self._tg.start_soon(self._get_stream)

    async def _get_stream(self) -> None:
        import httpx2

        fails = 0
        parser = SSEParser(self._max_line, self._on_overlong)
        sid = self._session
        try:
            while fails < GET_ATTEMPTS and self._session == sid and sid is not None:
                h = {**self._base_headers(), "accept": "text/event-stream"}
                if parser.last_id is not None:
                    h[LAST_EVENT_ID] = parser.last_id
                try:
                    async with self._open("GET", h) as resp:
                        if resp.status_code == 405:
                            return  # the server offers no such stream
                        if resp.status_code == 404:
                            await self._session_expired(sid)
                            return
                        ctype = resp.headers.get("content-type", "").lower()
                        if resp.status_code != 200 or not ctype.startswith("text/event-stream"):
                            fails += 1
                        else:
                            fails = 0
                            await self._read_events(None, resp, parser)
                except _Refused as e:
                    self.log(f"the server's stream for its own requests: {e}")
                    return
                except httpx2.HTTPError:
                    fails += 1
                await anyio.sleep(parser.retry if parser.retry is not None else RECONNECT_DELAY)
        finally:
            self._get_running = False

    # session expiry ---------------------------------------------------------------------------

    async def _session_expired(self, sid: str) -> None:
        """The server ended session ``sid`` (404): fail what is pending, start a new session
        with the client's own ``initialize`` before anything else is sent."""
        if self._session != sid:
            return  # already handled
        self._session = None
        pending = [p for p in self._posts if p.requests]
        self.log(
            f"the server ended the session (HTTP 404): answering the requests pending "
            f"({sum(len(p.requests) for p in pending)}) with an error and re-initialising"
        )
        for p in pending:
            await self._fail(p, "the server ended the session (HTTP 404); send the request again")
        if self._init_body is None:
            return  # a 2026-07-28 client: no session to restore
        self._ready = anyio.Event()
        assert self._tg is not None
        self._tg.start_soon(self._reinitialise)

    async def _reinitialise(self) -> None:
        import httpx2

        ready = self._ready
        why = None
        try:
            assert self._init_body is not None
            init = _Post(self._init_body, [loads(self._init_body)])
            msg = init.msgs[0]
            init.requests = [(msg.get("id"), id_keys(msg.get("id")))]
            with anyio.move_on_after(self.timeout) as t:
                async with self._open("POST", self._headers_for(msg), init.body) as resp:
                    sid = resp.headers.get(SESSION_HEADER)
                    if resp.status_code != 200:
                        why = f"HTTP {resp.status_code}"
                    elif sid is not None and not SESSION_ID_RE.match(sid):
                        why = "an invalid Mcp-Session-Id"
                    else:
                        self._session = sid
                        reply = await self._own_reply(init, resp)
                        if reply is None or "result" not in reply:
                            why = "no result to initialize"
                        else:
                            v = (
                                reply["result"].get("protocolVersion")
                                if isinstance(reply["result"], dict)
                                else None
                            )
                            self._version = v if isinstance(v, str) and TOKEN_RE.match(v) else None
                if why is None and self._initialized_body is not None:
                    h = self._headers_for(loads(self._initialized_body))
                    async with self._open("POST", h, self._initialized_body) as resp:
                        if resp.status_code >= 300:
                            why = f"HTTP {resp.status_code} to notifications/initialized"
            if t.cancelled_caught:
                why = f"no answer within {self.timeout:g} s"
        except (_Refused, httpx2.HTTPError, ValueError) as e:
            why = str(e) if isinstance(e, _Refused) else type(e).__name__
        if why is not None:
            self.log(f"cannot start a new session: {why}")
            self._dead = f"ended the session and refused a new one ({why})"
            self._in_send.close()
        else:
            self.log("started a new session with the client's initialize")
            self._start_get()
        ready.set()

    async def _own_reply(self, post: _Post, resp: Any) -> dict[str, Any] | None:
        """The answer to the proxy's own (re-)initialize: read, never relayed."""
        ctype = resp.headers.get("content-type", "").lower()
        keys = post.requests[0][1]
        if ctype.startswith("application/json"):
            body = await self._read_capped(resp, limit=1 << 20)
            m = loads(body) if body else None
            return m if isinstance(m, dict) and id_keys(m.get("id")) & keys else None
        parser = SSEParser(1 << 20, lambda _n: None)
        async for chunk in resp.aiter_bytes():
            for ev in parser.feed(chunk):
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    m = loads(ev.data)
                    if self._response(m) and id_keys(m.get("id")) & keys:
                        return m if isinstance(m, dict) else None
        return None

    # legacy SSE ---------------------------------------------------------------------------------

    async def _legacy_stream(self) -> None:
        """The 2024-11-05 transport: one GET event stream; its ``endpoint`` event names where to
        POST (same origin only), and every answer comes on the stream."""
        import httpx2

        why = None
        try:
            async with self._open("GET", {"accept": "text/event-stream"}) as resp:
                ctype = resp.headers.get("content-type", "").lower()
                if resp.status_code != 200 or not ctype.startswith("text/event-stream"):
                    why = f"HTTP {resp.status_code} ({short(ctype, 40)}) to the event stream"
                else:
                    parser = SSEParser(self._max_line, self._on_overlong)
                    async for chunk in resp.aiter_bytes():
                        for ev in parser.feed(chunk):
                            if ev.event == "endpoint" and self._sse_endpoint is None:
                                target = httpx2.URL(self.url).join(
                                    ev.data.decode("utf-8", "replace")
                                )
                                if not self._same_origin(httpx2.URL(self.url), target):
                                    why = "its endpoint event names another origin"
                                    break
                                self._sse_endpoint = str(target)
                                self._sse_ready.set()
                            elif ev.event == "message":
                                await self._take(None, ev.data, on_get=True)
                            else:
                                self.log(f"dropped an SSE event of type {short(ev.event, 60)}")
                        if why:
                            break
                    why = why or "the event stream ended"
        except (_Refused, httpx2.HTTPError) as e:
            why = str(e) if isinstance(e, _Refused) else self._http_failed(e)
        self.log(f"legacy SSE: {why}")
        self._dead = f"closed its event stream ({why})"
        for p in list(self._posts):
            await self._fail(p, f"the server {self._dead}")
        self._in_send.close()
