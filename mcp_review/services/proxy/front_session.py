"""One session of the proxy's HTTP front (the proxy by job): the client's
messages queued for the session's relay (``Inbox``), each message the relay writes for the
client routed to the POST whose request it answers, or to the session's GET stream
(``Router``), and the session's bookkeeping (its waiters, streams and queue)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from mcp_review.services.proxy.framing import id_keys, loads, short, wire
from mcp_review.services.proxy.relay import Proxy
from mcp_review.services.proxy.relay_common import CRASH_CODE

MAX_QUEUED = 1000
"""Server messages waiting for a client stream, per session; the oldest go first beyond."""
MAX_INBOX = 64
"""Client messages waiting for the relay, per session: more POSTs wait (back pressure from a
server that does not read reaches the client instead of the proxy's memory)."""


def digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogateescape")).digest()


class SessionHost(Protocol):
    """What a session needs of its front: its log, and a task group for its own tasks."""

    def log(self, msg: str) -> None: ...

    def spawn(self, fn: Callable[..., Any], *args: Any) -> None: ...


class Empty(Exception):
    """Nothing in the channel yet (``Channel.get_nowait``)."""


class Ended(Exception):
    """The channel is closed and empty: nothing more will come."""


class Channel:
    """A bounded queue between the tasks of one event loop, in the order put.

    ``put`` never waits (False when full or closed); ``send`` waits for room; ``get`` waits for
    an item and raises ``Ended`` once the channel is closed and drained; ``ready()`` is a future
    done when ``get`` would not wait. One reader at a time. anyio's memory streams yield to the
    event loop on every send and every receive: per call through the front that was three more
    turns of the loop, each one a wake-up on a busy machine, for no ordering it needs."""

    __slots__ = ("_cap", "_closed", "_items", "_ready", "_room")

    def __init__(self, cap: int):
        self._items: collections.deque[Any] = collections.deque()
        self._cap = cap
        self._closed = False
        self._ready: asyncio.Future[None] | None = None
        self._room: collections.deque[asyncio.Future[None]] = collections.deque()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def closed(self) -> bool:
        return self._closed

    def put(self, item: Any) -> bool:
        if self._closed or len(self._items) >= self._cap:
            return False
        self._items.append(item)
        r = self._ready
        if r is not None and not r.done():
            r.set_result(None)
        return True

    async def send(self, item: Any) -> bool:
        """Put ``item`` once there is room; False when the channel is (or gets) closed."""
        while not self._closed and len(self._items) >= self._cap:
            fut = asyncio.get_running_loop().create_future()
            self._room.append(fut)
            try:
                await fut
            finally:
                with contextlib.suppress(ValueError):
                    self._room.remove(fut)
        return self.put(item)

    def get_nowait(self) -> Any:
        if self._items:
            item = self._items.popleft()
            if self._room:
                f = self._room.popleft()
                if not f.done():
                    f.set_result(None)
            return item
        raise Ended if self._closed else Empty

    def ready(self) -> asyncio.Future[None]:
        """A future done as soon as ``get_nowait`` has an answer (an item, or ``Ended``)."""
        r = self._ready
        if r is None or r.done():
            r = self._ready = asyncio.get_running_loop().create_future()
            if self._items or self._closed:
                r.set_result(None)
        return r

    async def get(self) -> Any:
        while not self._items:  # (tested first: an exception per wait costs more)
            if self._closed:
                raise Ended
            await self.ready()
        return self.get_nowait()

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        while True:
            try:
                yield await self.get()
            except Ended:
                return

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        r = self._ready
        if r is not None and not r.done():
            r.set_result(None)
        while self._room:
            f = self._room.popleft()
            if not f.done():
                f.set_result(None)


@dataclass(eq=False)
class Stream:
    """Messages for one SSE stream (a POST's or the GET stream), or for one JSON answer."""

    chan: Channel
    sse: bool = True

    @classmethod
    def new(cls, sse: bool = True) -> Stream:
        # One slot more than MAX_QUEUED: the reply always fits behind the server's messages.
        return cls(Channel(MAX_QUEUED + 1), sse)

    def room(self) -> bool:
        return len(self.chan) < MAX_QUEUED

    def put(self, msg: dict[str, Any]) -> bool:
        return self.chan.put(msg)

    def close(self) -> None:
        self.chan.close()


@dataclass(eq=False)
class Waiter:
    """A client request posted to the relay: its reply goes back on its own POST."""

    rpc_id: Any
    keys: frozenset[tuple[str, Any]]
    stream: Stream
    answered: bool = False
    abandoned: bool = False
    """The client closed the POST before the reply: the id stays reserved until it comes."""
    wire_id: Any = None
    """The id the relay saw, when the front renumbered the request (a sessionless session
    shared by several clients); None: the client's own."""


class Inbox:
    """The relay's ``ClientReader``: the lines the client posted, b"" once the session ends."""

    def __init__(self) -> None:
        self.chan = Channel(MAX_INBOX)

    async def open(self) -> None:
        return None

    async def read(self, n: int = -1, /) -> bytes:
        try:
            return bytes(await self.chan.get())
        except Ended:
            return b""

    def close(self) -> None:
        self.chan.close()


class Router:
    """The relay's ``ClientWriter``: each message it writes for the client goes to the POST
    whose request it answers, a server request or notification to the session's GET stream
    (else the newest open POST stream, else a bounded queue until a stream opens)."""

    def __init__(self, session: Session):
        self.session = session

    async def open(self) -> None:
        return None

    async def write(self, data: bytes) -> None:
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            try:
                msg = loads(line)
            except ValueError:
                self.session.log("dropped a message for the client that is not JSON")
                continue
            for m in msg if isinstance(msg, list) else [msg]:
                self.session.route(m)

    async def close(self) -> None:
        return None


class Session:
    def __init__(
        self,
        front: SessionHost,
        number: int,
        sid: str,
        binding: bytes | None,
        *,
        sessionless: bool = False,
    ):
        self.front = front
        self.number = number
        self.sid = sid
        self.key = digest(sid)
        """Sessions are looked up by the id's digest (no lookup compares the id itself)."""
        self.binding = binding
        """Digest of the ``Authorization`` forwarded upstream at ``initialize`` (None when
        nothing is forwarded): a request presenting another is not this session's."""
        self.inbox = Inbox()
        self.router = Router(self)
        self.waiters: dict[tuple[str, Any], Waiter] = {}
        self.posts: list[Stream] = []
        """Open POST SSE streams, oldest first."""
        self.get_stream: Stream | None = None
        self.queued: collections.deque[dict[str, Any]] = collections.deque()
        self.open_exchanges = 0
        self.last_used = time.monotonic()
        self.ended = False
        self.proxy: Proxy | None = None
        self.sessionless = sessionless
        """The 2026-07-28 revision's: no ``Mcp-Session-Id``, every request self-contained,
        one relay (and upstream) shared by the requests of one binding; the front renumbers
        their ids so two clients' ids never meet in it."""
        self.renumbered = 0

    def log(self, msg: str) -> None:
        self.front.log(f"session {self.number}: {msg}")

    @contextlib.contextmanager
    def exchange(self) -> Iterator[None]:
        self.open_exchanges += 1
        self.last_used = time.monotonic()
        try:
            yield
        finally:
            self.open_exchanges -= 1
            self.last_used = time.monotonic()

    def find(self, keys: frozenset[tuple[str, Any]]) -> Waiter | None:
        for k in keys:
            w = self.waiters.get(k)
            if w is not None:
                return w
        return None

    def unregister(self, w: Waiter) -> None:
        for k in w.keys:
            if self.waiters.get(k) is w:
                del self.waiters[k]

    async def post(self, line: bytes) -> bool:
        if self.ended:
            return False
        return await self.inbox.chan.send(line)

    def route(self, m: Any) -> None:
        if not isinstance(m, dict):
            self.log("dropped a message for the client that is not a JSON-RPC object")
            return
        if "method" not in m and "id" in m:
            w = self.find(id_keys(m["id"]))
            if w is None or w.answered:
                self.log(f"dropped a reply to id {short(m['id'])}: no client request awaits it")
                return
            self.unregister(w)
            w.answered = True
            if w.stream in self.posts:  # its stream ends with this reply: nothing after it
                self.posts.remove(w.stream)
            if w.abandoned:
                return
            m["id"] = w.rpc_id  # the id as this client sent it
            w.stream.put(m)
            return
        # A server request or notification: the GET stream, else the newest POST stream.
        for s in ([self.get_stream] if self.get_stream is not None else []) + self.posts[::-1]:
            if s.room() and s.put(m):
                return
        if len(self.queued) >= MAX_QUEUED:
            self.queued.popleft()
            self.log(f"no client stream for {MAX_QUEUED} server messages: dropped the oldest")
        self.queued.append(m)

    def flush_queued(self, s: Stream) -> None:
        while self.queued and s.room():
            s.put(self.queued.popleft())

    def cancel(self, w: Waiter) -> None:
        """The client closed its POST before the reply: tell the server (as closing the
        stream means on Streamable HTTP) and keep the id reserved until the reply comes."""
        if w.answered or w.abandoned:
            return
        w.abandoned = True
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {
                "requestId": w.rpc_id if w.wire_id is None else w.wire_id,
                "reason": "the client closed its HTTP stream",
            },
        }
        self.front.spawn(self.post, wire(note))

    def end(self) -> None:
        """Stop taking messages: the relay reads EOF and stops the upstream."""
        if not self.ended:
            self.ended = True
            self.inbox.chan.close()

    def finish(self, why: str) -> None:
        """The relay is gone: every unanswered request gets an error, every stream ends."""
        self.end()
        for w in list({id(w): w for w in self.waiters.values()}.values()):
            if not w.answered and not w.abandoned:
                w.stream.put(
                    {
                        "jsonrpc": "2.0",
                        "id": w.rpc_id,
                        "error": {"code": CRASH_CODE, "message": why},
                    }
                )
            w.answered = True
        self.waiters.clear()
        for s in [*self.posts, *([self.get_stream] if self.get_stream else [])]:
            s.close()
