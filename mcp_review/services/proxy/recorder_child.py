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
from typing import Any

NICE = 10
"""How much lower the child's CPU priority is than the proxy's where the kernel has no
idle class (``IDLE``). Its records are off the call's path (the relay goes on at once, up to
``recorder.BEHIND`` bytes ahead of it), so where the client, the server, the proxy and the
child want more CPU than there is, the call goes first and the records catch up in the gaps:
1 MiB calls on two cores went from 0.73 / 0.74 / 0.81x direct (prose / code / records, median
of 3 alternated runs) to 0.83 / 0.77 / 0.85x (benchmarks/README.md, "large calls, ninth
pass"). With a core to spare nothing changes."""
IDLE = getattr(os, "SCHED_IDLE", None)
"""The scheduling class the child takes where there is one (Linux): it runs on a core no other
task wants. Niced alone it still took the CPU from the server each time a frame woke it
(a task of the normal class preempts on waking; an idle one never does): 1 MiB calls on two
cores went from 0.80 / 0.77 / 0.88x direct (prose / code / records, three alternated A/B
pairs) to 0.89 / 0.89 / 0.94x, and the records reached the log sooner too (benchmarks/
README.md, "large calls, tenth pass"). On a machine busy for good the child still runs
(the class has a small weight, never none), and the relay waits for it only past
``recorder.BEHIND`` bytes; at the proxy's end what it has not written in
``recorder.CLOSE_WAIT`` the proxy writes itself."""
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
    for index, time, digest in calls:
        tool = "?"
        try:
            if why is not None:  # never: the proxy parsed these very bytes
                raise ValueError(why)
            m = msg[index] if index is not None else msg
            params = m["params"]
            tool = params["name"]
            # The parse is this process's own: the arguments are redacted in place.
            log.record_call(
                tool, params.get("arguments"), m["id"], time=time, digest=digest, owned=True
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
    if IDLE is not None:
        # Before the reader thread starts: a thread takes its creator's class.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, IDLE, os.sched_param(0))
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
        while (frame := frames.get()) is not None:
            with collector_paused():  # the frame's parse is acyclic and freed with it (gcpause.py)
                failed = _record_frame(log, *frame)
            if confirm:
                ack = json.dumps(failed).encode() + b"\n" if failed else b"\n"
                try:
                    os.write(1, ack)
                except OSError:  # the proxy is gone: record the rest all the same
                    confirm = False
    finally:
        log.close()
    return 0
