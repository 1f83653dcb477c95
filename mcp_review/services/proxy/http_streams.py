"""The remote upstream's streams from the server: reading an answered POST's
stream to its end, resuming a cut-off one, the GET stream for the server's own messages, a
session the server ended (re-initialised with the client's own ``initialize``), and the legacy
SSE transport's one event stream."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio

from mcp_review.services.proxy.framing import id_keys, loads, short
from mcp_review.services.proxy.http_exchange import HttpExchange, Post, Refused
from mcp_review.services.proxy.http_headers import (
    LAST_EVENT_ID,
    SESSION_HEADER,
    SESSION_ID_RE,
    TOKEN_RE,
)
from mcp_review.services.proxy.http_sse import SSEParser

RESUME_ATTEMPTS = 3
"""Times a POST's cut-off stream is resumed with Last-Event-ID before its requests fail."""
GET_ATTEMPTS = 5
"""Consecutive failures after which the GET stream is given up (server requests still come on
the POSTs' streams)."""
RECONNECT_DELAY = 1.0
DRAIN_TIMEOUT = 1.0
DRAIN_BYTES = 64 * 1024
"""How long, and how much, an answered POST's stream is read on for its end (see ``_drain``)."""


class HttpStreams(HttpExchange):
    # a POST's stream after its answer -----------------------------------------------------------

    async def _drain(self, post: Post, chunks: AsyncIterator[bytes], parser: SSEParser) -> None:
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

    async def _resume(self, post: Post) -> None:
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
            except (Refused, httpx2.HTTPError):
                return

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
                except Refused as e:
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
            init = Post(self._init_body, [loads(self._init_body)])
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
        except (Refused, httpx2.HTTPError, ValueError) as e:
            why = str(e) if isinstance(e, Refused) else type(e).__name__
        if why is not None:
            self.log(f"cannot start a new session: {why}")
            self._dead = f"ended the session and refused a new one ({why})"
            self._in_send.close()
        else:
            self.log("started a new session with the client's initialize")
            self._start_get()
        ready.set()

    async def _own_reply(self, post: Post, resp: Any) -> dict[str, Any] | None:
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
        except (Refused, httpx2.HTTPError) as e:
            why = str(e) if isinstance(e, Refused) else self._http_failed(e)
        self.log(f"legacy SSE: {why}")
        self._dead = f"closed its event stream ({why})"
        for p in list(self._posts):
            await self._fail(p, f"the server {self._dead}")
        self._in_send.close()
