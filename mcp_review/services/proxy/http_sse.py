"""The WHATWG event-stream format, parsed for the proxy's remote upstream (an SSE answer to a
POST, the GET stream, the legacy transport's stream)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MAX_RETRY_DELAY = 10.0
"""An SSE ``retry`` field beyond this many seconds is capped."""


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
