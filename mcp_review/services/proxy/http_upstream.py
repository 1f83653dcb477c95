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

The module is split by job: ``http_headers`` (request headers),
``http_sse`` (the event-stream parser), ``http_exchange`` (state, one exchange, judging server
data), ``http_streams`` (the server's streams, session restore, legacy SSE); this one is the
``Upstream`` interface and the client's side (each client line sent as a POST, its answer read).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import anyio

from mcp_review.services.proxy.framing import id_keys, loads, short
from mcp_review.services.proxy.http_exchange import UPSTREAM_ERROR, HttpExchange, Post, Refused
from mcp_review.services.proxy.http_headers import (
    METHOD_HEADER,
    SESSION_HEADER,
    SESSION_ID_RE,
    encode_header_value,
    param_header_map,
    param_headers,
    quiet_http_logs,
)
from mcp_review.services.proxy.http_sse import Event, SSEParser
from mcp_review.services.proxy.http_streams import HttpStreams
from mcp_review.services.proxy.upstream import Deliver, Log, UpstreamError

__all__ = [
    "UPSTREAM_ERROR",
    "Event",
    "HttpExchange",
    "HttpUpstream",
    "SSEParser",
    "encode_header_value",
    "param_header_map",
    "param_headers",
]

NOTIFY_TIMEOUT = 30.0
"""Seconds a POST without requests (a notification, a response) may take: they are sent in
order, so a server that never answers one would stall the client."""


class HttpUpstream(HttpStreams):
    """A remote server (``transport`` "http": Streamable HTTP; "sse": the legacy transport)."""

    # the Upstream interface -------------------------------------------------------------------

    async def start(self, log: Log) -> None:
        self.log = log
        quiet_http_logs()
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
        post = Post(raw, msgs)
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

    async def _run_post(self, post: Post) -> None:
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

    async def _post(self, post: Post) -> None:
        import httpx2

        msg = post.msgs[0] if len(post.msgs) == 1 else None
        url = self._sse_endpoint if self.transport == "sse" else None
        try:
            async with self._open("POST", self._headers_for(msg), post.body, url) as resp:
                await self._on_response(post, resp)
        except Refused as e:
            self.log(f"refused: {e}")
            await self._fail(post, str(e))
        except (httpx2.HTTPError, httpx2.StreamError) as e:
            why = self._http_failed(e)
            self.log(f"{why}: {short(str(e), 200)}")
            await self._fail(post, why)
        except Exception as e:  # a bug of ours must not leave the client waiting
            self.log(f"internal error on a POST: {type(e).__name__}: {short(str(e), 200)}")
            await self._fail(post, f"internal error ({type(e).__name__})")

    async def _on_response(self, post: Post, resp: Any) -> None:
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

    async def _error_body(self, post: Post, resp: Any) -> None:
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
