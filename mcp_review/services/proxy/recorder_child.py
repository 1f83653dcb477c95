"""The call log's recorder process (``recorder.Recorder`` starts it): records every line the
record-only proxy hands it, in order, with the proxy's own ``CallLog`` code, and confirms each.

Started without the proxy package's ``__init__`` (``recorder._argv``): it imports only what a
record needs (this module, ``framing``, the call log, the server's secrets), a fraction of the
proxy's start-up."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

NICE = 10
"""How much lower the child's CPU priority is than the proxy's. Its records are off the
call's path (the relay goes on at once, up to ``recorder.BEHIND`` bytes ahead of it), so where the client, the server, the proxy and the
child want more CPU than there is, the call goes first and the records catch up in the gaps:
1 MiB calls on two cores went from 0.73 / 0.74 / 0.81x direct (prose / code / records, median
of 3 alternated runs) to 0.83 / 0.77 / 0.85x (benchmarks/README.md, "large calls, ninth
pass"). With a core to spare nothing changes."""
DEFER = 1.0
"""Seconds a handed line may wait for the relay to go quiet before its records are written
anyway. The child writes a line's records once the proxy says no ``tools/call`` is in flight
(``QUIET``), so on a machine short of CPU it does not take a core from the client, the server
or the proxy while they work on the calls (woken for every frame, it preempted the one running,
``nice`` or not); past this age, or :data:`DEFER_BYTES`, it writes them at once, so records
never wait on a relay that is never quiet. Pipelined 1 MiB calls on two cores, three
alternated A/B pairs: prose 0.78 -> 0.96x direct, code 0.76 -> 0.86x, records 0.86 -> 0.98x,
the records on disk sooner too (benchmarks/README.md, "large calls, tenth pass"). The idle
scheduling class did as well on a quiet box and starved the child on a busy one."""
DEFER_BYTES = 16 << 20
"""Bytes of handed lines past which the child writes at once, quiet or not (a quarter of what
the relay lets it fall behind, ``recorder.BEHIND``)."""
QUIET = b'"quiet"'
"""A frame's head with no line: the proxy had no ``tools/call`` in flight when it wrote it;
every line handed before it may be written now. Never confirmed."""
HEAD = struct.Struct("!II")
"""A frame: the length of its JSON head, the length of the line; then both."""


def _read_exact(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def _reader(fd: int, frames: queue.SimpleQueue[tuple[bytes, bytes] | None]) -> None:
    """Drains the proxy's pipe into memory as fast as it fills (so the proxy's writes do not
    wait while a record is written), one frame at a time, then None at its end."""
    try:
        while True:
            head = _read_exact(fd, HEAD.size)
            if head is None:
                break
            nhead, nline = HEAD.unpack(head)
            meta = _read_exact(fd, nhead)
            line = _read_exact(fd, nline) if nline else b""
            if meta is None or line is None:
                break
            frames.put((meta, line))
    finally:
        frames.put(None)


def _record_frame(log: Any, meta: bytes, line: bytes) -> list[list[Any]]:
    """Record one line's calls as the proxy would (``Proxy._record``): the failures. ``meta``:
    the calls (index, time, digest), or ``{"calls": [...], "orjson": true}`` when the proxy
    read the line's message as ``orjson.loads`` gives it (``framing.relay_read``: no lone
    carriage return, every integer exact): then parsed so, without those checks."""
    from mcp_review.services.proxy.framing import relay_loads, short

    calls = json.loads(meta)
    msg: Any = None
    why: str | None = "unread"
    if type(calls) is dict:
        if calls.get("orjson") is True:
            import orjson

            with contextlib.suppress(orjson.JSONDecodeError):  # (never: the proxy parsed it)
                msg, why = orjson.loads(line), None
        calls = calls["calls"]
    if why is not None:
        msg, why = relay_loads(line)
    failed: list[list[Any]] = []
    for index, stamp, digest in calls:
        tool = "?"
        try:
            if why is not None:  # never: the proxy parsed these very bytes
                raise ValueError(why)
            m = msg[index] if index is not None else msg
            params = m["params"]
            tool = params["name"]
            # The parse is this process's own: the arguments are redacted in place.
            log.record_call(
                tool, params.get("arguments"), m["id"], time=stamp, digest=digest, owned=True
            )
            continue
        except (OSError, ValueError, TypeError, RecursionError, KeyError, IndexError) as e:
            err = f"cannot write the call log: {e}"
        failed.append([short(tool, 60), err, count_unrecorded(log)])
    return failed


def count_unrecorded(log: Any) -> str:
    """Count one call forwarded without its record (``CallLog.note_unrecorded``) and say where,
    as the proxy's message puts it (the proxy's own recording says the same)."""
    n = log.note_unrecorded()
    if n is None:
        return "and it cannot be counted on disk either"
    return f"{n} so far, counted in {log.path}.unrecorded for `mcp-review status`"


def _open_log(spec: dict[str, Any]) -> Any:
    from mcp_review.store.calllog import CallLog

    secrets, key = spec.pop("secrets"), spec.pop("key")
    scrub = None
    if secrets:  # (config_model brings the engine's cues: ~0.2 s more start-up, only then)
        from mcp_review.services.config_model import ServerConfig

        scrub = ServerConfig(spec["server"], command="-", expanded=tuple(secrets)).scrub
    return CallLog(
        **{k: spec[k] for k in ("path", "server", "principal", "redact", "max_bytes", "backups")},
        scrub=scrub,
        sealing=(bytes.fromhex(key) if key is not None else None, spec["seal_problem"]),
    )


def _when_due(
    frames: queue.SimpleQueue[tuple[bytes, bytes] | None],
    defer: float = DEFER,
    defer_bytes: int = DEFER_BYTES,
) -> Iterator[tuple[bytes, bytes]]:
    """The handed frames in the order handed, each once it is due: a ``QUIET`` frame came
    after it, it waited ``defer`` seconds, the frames waiting hold ``defer_bytes``, or the
    pipe ended (everything left, at once)."""
    waiting: deque[tuple[float, bytes, bytes]] = deque()
    size = 0
    free = 0  # how many of the oldest waiting frames a QUIET frame let go
    ended = False
    while waiting or not ended:
        if waiting and (ended or free or size >= defer_bytes):
            _, meta, line = waiting.popleft()
            size -= len(line)
            free = max(0, free - 1)
            yield meta, line
            continue
        timeout = waiting[0][0] + defer - time.monotonic() if waiting else None
        if timeout is not None and timeout <= 0:
            free = 1  # the oldest has waited long enough
            continue
        try:
            frame = frames.get(timeout=timeout)
        except queue.Empty:
            continue
        if frame is None:
            ended = True
        elif frame[0] == QUIET and not frame[1]:
            free = len(waiting)
        else:
            waiting.append((time.monotonic(), *frame))
            size += len(frame[1])


def main() -> int:
    """The child: records every frame handed to it, in order, confirming each on stdout,
    until its stdin ends (the proxy closed it, or died)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # the proxy's end, not a signal, ends it
    from mcp_review.services.proxy.gcpause import collector_paused
    from mcp_review.services.proxy.heap import keep_heap

    keep_heap()
    with contextlib.suppress(OSError):
        os.nice(NICE)
    head = _read_exact(0, HEAD.size)
    if head is None:
        return 0
    spec = _read_exact(0, HEAD.unpack(head)[0])
    if spec is None:
        return 0
    log = _open_log(json.loads(spec))
    frames: queue.SimpleQueue[tuple[bytes, bytes] | None] = queue.SimpleQueue()
    threading.Thread(target=_reader, args=(0, frames), daemon=True).start()
    confirm = True
    try:
        for meta, line in _when_due(frames):
            with collector_paused():  # the frame's parse is acyclic and freed with it (gcpause.py)
                failed = _record_frame(log, meta, line)
            if confirm:
                ack = json.dumps(failed).encode() + b"\n" if failed else b"\n"
                try:
                    os.write(1, ack)
                except OSError:  # the proxy is gone: record the rest all the same
                    confirm = False
    finally:
        log.close()
    return 0
