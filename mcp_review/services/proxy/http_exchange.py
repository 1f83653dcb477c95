"""The remote upstream's exchanges (the proxy by job): its state, one HTTP
exchange (same-origin redirects only), the headers of a request, and judging what the server
sends (a response must answer a request of the POST it came on; data is framed as one line for
the relay). ``http_streams`` adds the server's streams, ``http_upstream`` the client's side."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio

from mcp_review.services.proxy.framing import id_keys, loads, short, wire
from mcp_review.services.proxy.http_headers import (
    ENVELOPE_VERSION,
    METHOD_HEADER,
    NAME_BEARING,
    NAME_HEADER,
    SESSION_HEADER,
    TOKEN_RE,
    VERSION_HEADER,
    encode_header_value,
    param_header_map,
    param_headers,
)
from mcp_review.services.proxy.http_sse import SSEParser
from mcp_review.services.proxy.upstream import Log

MAX_REDIRECTS = 5
UPSTREAM_ERROR = -32000


@dataclass(eq=False)
class Post:
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


class Refused(Exception):
    """An HTTP answer the proxy will not use (a redirect it does not follow ...)."""


class HttpExchange:
    """A remote server's state and exchanges (``HttpUpstream`` is the whole upstream)."""

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
        self._posts: set[Post] = set()
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

    async def _fail(self, post: Post, why: str) -> None:
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
                raise Refused(
                    f"the server redirected (HTTP {resp.status_code}); only same-origin "
                    "307/308 redirects are followed"
                )
            nxt = target.join(loc)
            if not self._same_origin(origin, nxt):
                raise Refused(
                    f"the server redirected (HTTP {resp.status_code}) to another origin "
                    f"({nxt.scheme}://{nxt.host}); only same-origin redirects are followed"
                )
            target = nxt
        else:
            raise Refused(f"more than {MAX_REDIRECTS} redirects")
        assert resp is not None
        try:
            yield resp
        finally:
            await resp.aclose()

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
        post: Post | None,
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

    # judging what the server sends ------------------------------------------------------------

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

    async def _take(self, post: Post | None, data: bytes, *, on_get: bool) -> None:
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

    def _check(self, post: Post | None, m: Any, on_get: bool) -> bytes | None:
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

    def _owner(self, rid: Any) -> Post | None:
        keys = id_keys(rid)
        return next((p for p in self._posts if any(r[1] & keys for r in p.requests)), None)
