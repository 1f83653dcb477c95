"""The HTTP front's ASGI plumbing: answers written as plain text, JSON or an
SSE stream (``Reply``), waiting for an answer's first message or the client's disconnect, and
uvicorn without its own signal handling."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio

from mcp_review.services.proxy.framing import wire
from mcp_review.services.proxy.front_session import Empty, Ended, Stream
from mcp_review.services.proxy.guard import LOST

ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"


def is_modern(msg: dict[str, Any]) -> bool:
    """A 2026-07-28 request: its ``_meta`` envelope names its protocol version."""
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and isinstance(meta.get(ENVELOPE_VERSION), str)


def json_error(rpc_id: Any, code: int, message: str) -> bytes:
    return wire({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}})


class UvicornServer:
    """uvicorn's server without its signal handling (it re-raises a caught signal once it has
    stopped): the front stops it itself, after ending the sessions."""

    def __init__(self, config: Any):
        import uvicorn

        class Server(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

        self.server = Server(config)


def lost_future(scope: dict[str, Any]) -> asyncio.Future[None] | None:
    """The future the connection guard (``guard.LOST``) puts in each request's scope, done
    when the client's connection is gone; None under a server without the guard."""
    state = scope.get("state")
    fut = state.get(LOST) if isinstance(state, dict) else None
    return fut if isinstance(fut, asyncio.Future) else None


@contextlib.asynccontextmanager
async def until_disconnect(receive: Any, lost: asyncio.Future[None] | None = None) -> Any:
    """Run the body until it finishes or the client disconnects (which cancels it). With the
    guard's ``lost`` future: a cancel scope that future's callback cancels, no task; without
    it, a task reading ``receive`` for ``http.disconnect``."""
    if lost is not None:
        with anyio.CancelScope() as scope:

            def gone(_: Any) -> None:
                scope.cancel()

            lost.add_done_callback(gone)
            try:
                yield scope
            finally:
                lost.remove_done_callback(gone)
        return
    async with anyio.create_task_group() as tg:

        async def watch() -> None:
            while True:
                m = await receive()
                if m["type"] == "http.disconnect":
                    tg.cancel_scope.cancel()
                    return

        tg.start_soon(watch)
        try:
            yield tg.cancel_scope
        finally:
            tg.cancel_scope.cancel()


PENDING = object()
"""``first_message``: nothing came within the wait (the answer is still to come)."""


async def first_message(
    receive: Any, stream: Stream, wait: float, lost: asyncio.Future[None] | None = None
) -> Any:
    """The stream's first message (a dict); None when the client disconnects first or the
    stream ends; ``PENDING`` when nothing came within ``wait`` seconds. With the guard's
    ``lost`` future no task is made: the stream's own ready future and ``lost`` are waited on
    together (before: a getter task and a disconnect-watcher task per request, two more hops
    of the event loop per call)."""
    chan = stream.chan
    if len(chan) or chan.closed:
        try:
            return chan.get_nowait()
        except Ended:
            return None
    ready = chan.ready()
    if lost is not None:
        # One future awaited, woken by the reply, the disconnect or the timer: asyncio.wait
        # over two would add a turn of the loop (its own waiter) to every call.
        def wake(_: Any = None) -> None:
            if not ready.done():
                ready.set_result(None)

        lost.add_done_callback(wake)
        timer = asyncio.get_running_loop().call_later(wait, wake)
        try:
            await ready
        finally:
            timer.cancel()
            lost.remove_done_callback(wake)
    else:

        async def disconnected() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        watcher = asyncio.ensure_future(disconnected())
        try:
            await asyncio.wait((ready, watcher), timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watcher.cancel()
        lost = watcher
    try:
        return chan.get_nowait()
    except Empty:
        gone = lost is not None and lost.done() and not lost.cancelled()
        return None if gone else PENDING
    except Ended:
        return None


class Reply:
    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]]):
        self._send = send
        self.started = False

    async def _start(self, status: int, headers: list[tuple[bytes, bytes]]) -> None:
        self.started = True
        await self._send({"type": "http.response.start", "status": status, "headers": headers})

    async def plain(
        self, status: int, text: str, *, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        body = text.encode()
        await self._start(
            status,
            [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *(extra or []),
            ],
        )
        await self._send({"type": "http.response.body", "body": body})

    async def json(
        self, status: int, body: bytes, *, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        await self._start(
            status,
            [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(extra or []),
            ],
        )
        await self._send({"type": "http.response.body", "body": body})

    async def start_sse(self, extra: list[tuple[bytes, bytes]]) -> None:
        await self._start(
            200,
            [
                (b"content-type", b"text/event-stream"),
                (b"cache-control", b"no-cache, no-transform"),
                (b"x-accel-buffering", b"no"),
                *extra,
            ],
        )

    async def event(self, m: dict[str, Any]) -> None:
        # wire() output is one line: no CR or LF can end the data field early.
        data = b"event: message\ndata: " + wire(m)[:-1] + b"\n\n"
        await self._send({"type": "http.response.body", "body": data, "more_body": True})

    async def finish(self) -> None:
        with contextlib.suppress(Exception):
            await self._send({"type": "http.response.body", "body": b""})
