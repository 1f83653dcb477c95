"""The proxy's two ends: the server as a child process in a group of its own (started, stopped,
swept), and the client's stdin/stdout as byte streams (pipes with flow control, or files)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import signal
import stat
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import anyio

from mcp_review.services.pipes import widen_pipe
from mcp_review.services.proxy.framing import CHUNK

STDIN_GRACE = 1.0
"""After the client leaves, seconds the server gets to exit on its own stdin EOF. The SDK
client kills its server's process group 2 s after closing its stdin, and the server is in a
group of its own, so the whole escalation below must finish inside those 2 s."""

TERM_GRACE = 0.5
"""Seconds between SIGTERM and SIGKILL to the server's process group."""


def _pipe_like(fd: int) -> bool:
    """Whether the event loop can poll ``fd``. A character device may not be pollable:
    epoll refuses /dev/null (EPERM), and asyncio then fails in a callback, leaving the
    proxy waiting for an EOF it never sees; such a device is read like a regular file."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return True
    if not stat.S_ISCHR(mode):
        return False
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
    except (OSError, ValueError):
        return False
    return True


def read_in_one_piece(transport: Any) -> None:
    """Let an asyncio read-pipe transport take what a widened pipe holds (up to ``CHUNK``) in
    one ``read``: its own 256 KiB made four reads, four wake-ups and four copies into the
    reader's buffer per MiB of a large message. Nothing changes where the transport has no
    such attribute (another event loop)."""
    if isinstance(getattr(transport, "max_size", None), int):
        transport.max_size = max(transport.max_size, CHUNK)


def _die_with_parent() -> Callable[[], None] | None:
    """preexec_fn asking Linux to SIGTERM the server if the proxy is SIGKILLed (no cleanup
    runs then). Resolved before fork: nothing may be imported in the child."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def preexec() -> None:
        prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    return preexec


# The server ---------------------------------------------------------------------------------


class ServerProcess:
    """The MCP server the proxy runs. Its own session (process group), so stopping it reaches
    its children (npx -> node) too; asked by the kernel to die with the proxy.

    asyncio's subprocess, not anyio's: anyio cannot pass the ``preexec_fn`` that sets the
    parent-death signal, and the pipes' flow control is what keeps a slow client pushing back
    on the server."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc

    @classmethod
    async def start(
        cls, command: Sequence[str], *, env: dict[str, str] | None, cwd: str | None, stderr: Any
    ) -> ServerProcess:
        """Raises OSError when the command cannot be started."""
        proc = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            # limit only bounds the reader's buffer (read_line_batches frames): small, so
            # a slow client pushes back on the server instead of the proxy hoarding memory.
            stderr=stderr,
            env=env,
            cwd=cwd,
            limit=CHUNK,
            start_new_session=True,
            preexec_fn=_die_with_parent(),
        )
        transport = getattr(proc, "_transport", None)  # the SubprocessTransport
        for fd in (0, 1):
            with contextlib.suppress(Exception):
                pipe_transport = transport.get_pipe_transport(fd)  # type: ignore[union-attr]
                widen_pipe(pipe_transport.get_extra_info("pipe").fileno())
                if fd == 1:
                    read_in_one_piece(pipe_transport)
        return cls(proc)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def stdout(self) -> asyncio.StreamReader:
        assert self.proc.stdout is not None
        return self.proc.stdout

    async def write(self, data: bytes) -> bool:
        """Write to the server's stdin; False once it is gone (a broken pipe)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True

    async def reap(self, timeout: float) -> int | None:
        """Its exit code, or None if it is still running after ``timeout`` seconds."""
        with anyio.move_on_after(timeout):
            return await self.proc.wait()
        return None

    def killpg(self, sig: int) -> bool:
        try:
            os.killpg(self.proc.pid, sig)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    def group_alive(self) -> bool:
        try:
            os.killpg(self.proc.pid, 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    async def stop(self, *, grace: float) -> None:
        """Close its stdin, give it ``grace`` to exit, then SIGTERM and SIGKILL its whole group
        (the leader may exit and leave children behind, so the group is swept regardless)."""
        if self.proc.stdin is not None:
            with contextlib.suppress(Exception):
                self.proc.stdin.close()
        if grace > 0:
            await self.reap(grace)
        if self.killpg(signal.SIGTERM):
            with anyio.move_on_after(TERM_GRACE):
                while self.proc.returncode is None or self.group_alive():
                    await anyio.sleep(0.02)
            self.killpg(signal.SIGKILL)
        await self.reap(1.0)

    async def kill(self) -> None:
        """The last resort, for an internal error or a cancellation: SIGKILL the group at once
        and reap the leader (shielded: it runs while the caller is being cancelled)."""
        self.killpg(signal.SIGKILL)
        with anyio.CancelScope(shield=True):
            await self.reap(1.0)


# The client ---------------------------------------------------------------------------------


class ClientReader(Protocol):
    """What the relay reads the client from: ``ClientIn`` (stdin), or the HTTP front's
    in-memory stream of one session's messages (``read`` returns b"" when the client left)."""

    async def open(self) -> None: ...

    async def read(self, n: int = -1, /) -> bytes: ...

    def close(self) -> None: ...


class ClientWriter(Protocol):
    """What the relay writes the client's messages to (newline-terminated JSON lines):
    ``ClientOut`` (stdout), or the HTTP front's router of one session."""

    async def open(self) -> None: ...

    async def write(self, data: bytes) -> None: ...

    async def close(self) -> None: ...


class ClientOut:
    """The client's stdout: an asyncio pipe with flow control, or a plain file (tests)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.writer: asyncio.StreamWriter | None = None
        self.broken = False

    async def open(self) -> None:
        if _pipe_like(self.fd):
            widen_pipe(self.fd)
            loop = asyncio.get_running_loop()
            f = os.fdopen(self.fd, "wb", buffering=0, closefd=False)
            transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, f)
            self.writer = asyncio.StreamWriter(transport, protocol, None, loop)

    async def write(self, data: bytes) -> None:
        if self.broken:
            return
        try:
            if self.writer is not None:
                self.writer.write(data)
                await self.writer.drain()
            else:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.fd, view) :]
        except (BrokenPipeError, ConnectionResetError):
            self.broken = True  # the client is gone; the stdin side notices EOF and shuts down

    async def close(self) -> None:
        """Flush what is buffered (at most 2 s, shielded: it also runs on cancellation)."""
        if self.writer is None:
            return
        if not self.broken:
            with (
                anyio.CancelScope(shield=True),
                anyio.move_on_after(2.0),
                contextlib.suppress(Exception),
            ):
                await self.writer.drain()
        self.writer.close()


class ClientIn:
    """The client's stdin: an asyncio pipe reader, or a regular file (a test redirect) that
    asyncio cannot poll, read in a worker thread one chunk at a time."""

    def __init__(self, fd: int):
        self.fd = fd
        self._reader: asyncio.StreamReader | None = None
        self._transport: asyncio.BaseTransport | None = None

    async def open(self) -> None:
        if _pipe_like(self.fd):
            widen_pipe(self.fd)
            loop = asyncio.get_running_loop()
            self._reader = asyncio.StreamReader(limit=CHUNK)
            f = os.fdopen(self.fd, "rb", buffering=0, closefd=False)
            reader = self._reader
            self._transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), f
            )
            read_in_one_piece(self._transport)

    async def read(self, n: int = -1, /) -> bytes:
        if self._reader is not None:
            return await self._reader.read(n)
        return await anyio.to_thread.run_sync(self._read_file, n if n > 0 else CHUNK)

    def _read_file(self, n: int) -> bytes:
        try:
            return os.read(self.fd, n)
        except OSError:
            return b""

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()  # closefd=False: the fd itself stays the caller's
