"""The record-only proxy's call records written by a process of their own.

The proxy relays on one thread: a large call's record (its redaction walk, the seal, the
write: ~6 ms a MiB of prose, ~30 ms of JSON records; benchmarks/README.md, "large calls, fifth
pass") held the server's reply back until it was written. Record-only (no ``--enforce``), a
call line of :data:`LARGE` bytes or more is handed, as the very bytes read with the time
stamp taken when it was read and the definition's digest, to a long-lived child (``Recorder``,
started with the first such line) that parses, redacts, seals and appends it with the same
``CallLog`` code; the relay goes on at once. The child confirms each line once its records are
written (one line back per line handed).

Order: a smaller call is recorded in the proxy only while nothing handed over is unconfirmed;
else it goes the same way (every call of a read goes one way). So records stay in the order
the calls were read.

What a crash loses (docs/proxy.md, "Large calls are recorded by a process of their own"):

- The recorder dies: the proxy sees its reply pipe end, says so on stderr, records every call
  it had not confirmed itself (a record the child wrote but had not confirmed appears twice:
  the same ``time``, ``id`` and arguments), and records in-process from then on.
- The proxy dies: the child ignores SIGINT/SIGTERM/SIGHUP, reads to the end of its pipe (the
  pipe outlives its writer), records all of it and exits; lost are only the bytes the proxy had
  not yet written into the pipe (with the child more than the pipe's 1 MiB behind).
- Both die at once (SIGKILL to the group, the machine going down): the calls the child had not
  yet recorded, at most :data:`BEHIND` bytes of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections import deque
from collections.abc import Callable
from typing import Any

from mcp_review.services.proxy.recorder_child import HEAD as _HEAD
from mcp_review.services.proxy.recorder_child import QUIET

LARGE = 64 * 1024
"""A call line this long (bytes) is recorded by the child; shorter ones in the proxy."""
BEHIND = 64 << 20
"""Bytes handed to the child and not confirmed past which the relay waits for it."""
CLOSE_WAIT = 120.0
"""At the proxy's end, how long it waits for the child to write what it was handed."""

Entry = tuple[int | None, Any, str | None]
"""One call of a handed line: its index in a batch (None: the line is the call), its
``Pending`` (whose ``call_time`` is the call's), the definition's digest."""
Fallback = Callable[[bytes, list[Entry]], None]
"""Records a line's calls in the proxy (the child is gone)."""


def spec_for(calllog: Any, scrub: Callable[[str], str] | None) -> dict[str, Any] | None:
    """What the child needs to write ``calllog``'s records as the proxy would, or None when
    it cannot (a scrubber other than a configured server's secrets, as an OAuth token that
    changes mid-session: recorded in-process). The secrets go over the pipe, never argv/env."""
    from mcp_review.services.config_model import ServerConfig

    if scrub is None:
        secrets = None
    elif getattr(scrub, "__func__", None) is ServerConfig.scrub and isinstance(
        getattr(scrub, "__self__", None), ServerConfig
    ):
        secrets = list(scrub.__self__.secrets)  # type: ignore[attr-defined]
    else:
        return None
    key = calllog._key  # (the store's writer keeps it; sent, never read from disk again)
    return {
        "path": calllog.path,
        "server": calllog.server,
        "principal": calllog.principal,
        "redact": list(calllog.redactor.patterns),
        "max_bytes": calllog.max_bytes,
        "backups": calllog.backups,
        "key": key.hex() if key is not None else None,
        "seal_problem": calllog.seal_problem,
        "secrets": secrets,
    }


def _argv() -> list[str]:
    # The very code this proxy runs (a checkout on PYTHONPATH too), in isolated mode: no
    # environment, no user site, no current directory on the path.
    import mcp_review

    root = os.path.dirname(os.path.dirname(os.path.abspath(mcp_review.__file__)))
    boot = (
        "import sys, types; sys.path.insert(0, sys.argv[1]); import mcp_review.services as s; "
        # the proxy package's __init__ (the relay, anyio, the gate) is not needed: skipped
        "p = types.ModuleType('mcp_review.services.proxy'); p.__path__ = [s.__path__[0] + "
        "'/proxy']; sys.modules[p.__name__] = p; "
        "from mcp_review.services.proxy.recorder_child import main; raise SystemExit(main())"
    )
    return [sys.executable, "-I", "-c", boot, root]


class Recorder:
    """The proxy's side: hands lines over, reads confirmations, falls back when the child
    goes. One per relay, started with the first line handed over."""

    def __init__(self, spec: dict[str, Any], log: Callable[[str], None], fallback: Fallback):
        self.spec = spec
        self.log = log
        self.fallback = fallback
        self.proc: asyncio.subprocess.Process | None = None
        self.waiting: deque[tuple[bytes, list[Entry]]] = deque()
        """Lines handed over and not confirmed, oldest first."""
        self.behind = 0
        self.failed = False
        """The child could not start or died: every call is recorded in-process now."""
        self._room = asyncio.Event()
        self._acks: asyncio.Task[None] | None = None
        self._closing = False
        self._quiet = False
        """A QUIET frame went after the last line handed."""

    @property
    def busy(self) -> bool:
        """Something handed over is not confirmed yet (a call recorded now in the proxy
        would come before it in the log)."""
        return bool(self.waiting)

    async def _start(self) -> bool:
        from mcp_review.services.pipes import widen_pipe

        try:
            proc = await asyncio.create_subprocess_exec(
                *_argv(),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env={},
            )
        except OSError as e:
            self.failed = True
            self.log(f"cannot start the call log's recorder ({e}): recording in this process")
            return False
        self.proc = proc
        assert proc.stdin is not None
        fd = proc.stdin.get_extra_info("pipe").fileno()
        widen_pipe(fd)  # a MiB line crosses in one write
        head = json.dumps(self.spec).encode()
        proc.stdin.write(_HEAD.pack(len(head), 0) + head)
        self._acks = asyncio.get_running_loop().create_task(self._read_acks())
        return True

    async def hand(self, line: bytes, entries: list[Entry], by_orjson: bool = False) -> bool:
        """Hand ``line``'s calls to the child: True once handed (it, or this proxy when it
        dies, records them), False when they must be recorded here now. ``by_orjson``: the
        proxy read the line's message as ``orjson.loads`` gives it (framing.relay_read), so
        the child parses it so, without the checks that found it."""
        if self.failed or (self.proc is None and not await self._start()):
            return False
        assert self.proc is not None and self.proc.stdin is not None
        self.waiting.append((line, entries))
        self.behind += len(line)
        self._quiet = False
        calls = [[i, p.call_time, d] for i, p, d in entries]
        head = json.dumps({"calls": calls, "orjson": True} if by_orjson else calls).encode()
        self.proc.stdin.write(_HEAD.pack(len(head), len(line)) + head)
        self.proc.stdin.write(line)
        while self.behind > BEHIND and not self.failed:
            self._room.clear()
            await self._room.wait()
        return True

    def quiet(self) -> None:
        """The relay has no ``tools/call`` in flight: the child may write what it was handed
        (it waits for this, or ``recorder_child.DEFER``, before it takes the CPU). Once per
        lull; nothing when nothing is unconfirmed."""
        if self._quiet or not self.waiting or self.failed or self.proc is None:
            return
        assert self.proc.stdin is not None
        self._quiet = True
        self.proc.stdin.write(_HEAD.pack(len(QUIET), 0) + QUIET)

    async def _read_acks(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while self.waiting or not self._closing:
                ack = await out.readline()
                if not ack or not self.waiting:
                    break
                line, _ = self.waiting.popleft()
                self.behind -= len(line)
                if ack.strip():
                    self._unrecorded(ack)
                if self.behind <= BEHIND:
                    self._room.set()
        except (OSError, ValueError, asyncio.LimitOverrunError):
            pass
        await self._gone()

    def _unrecorded(self, ack: bytes) -> None:
        """The child's report of calls it could not write (a full disk): said here, where
        the proxy's log scrubs its secrets."""
        with contextlib.suppress(ValueError):
            for tool, why, counted in json.loads(ack):
                self.log(f"forwarded tools/call {tool} UNRECORDED ({counted}): {why}")

    async def _gone(self) -> None:
        """The child's confirmations ended: every line not confirmed is recorded here, at once
        (before any call read later), then the child's end is said."""
        self.failed = True
        self._room.set()
        if not self.waiting:
            return
        n = sum(len(e) for _, e in self.waiting)
        while self.waiting:
            line, entries = self.waiting.popleft()
            self.behind -= len(line)
            self.fallback(line, entries)
        how = "ended"
        if self.proc is not None:
            with contextlib.suppress(TimeoutError):
                rc = await asyncio.wait_for(self.proc.wait(), 5.0)
                how = f"was killed by signal {-rc}" if rc < 0 else f"exited with code {rc}"
        self.log(
            f"the call log's recorder {how} before confirming {n} call record(s): the proxy "
            "wrote them itself (one the recorder wrote unconfirmed appears twice, same time "
            "and id), and records in this process from now on"
        )

    async def close(self) -> None:
        """The relay ends: let the child write everything handed to it, then exit (waiting up
        to :data:`CLOSE_WAIT`; past it, or if it dies, the rest is recorded here)."""
        if self.proc is None:
            return
        self._closing = True
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        if self._acks is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._acks), CLOSE_WAIT)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self._acks
        with contextlib.suppress(TimeoutError, ProcessLookupError):
            await asyncio.wait_for(self.proc.wait(), 5.0)
