"""The server end of a proxy session, whatever the transport: ``Upstream`` is what the relay
needs of a server (messages in, messages out, a way to stop it), so every server message goes
through the same judging path in ``relay`` whether it came from a child process's stdout
(``StdioUpstream``) or from an HTTP response (``http_upstream.HttpUpstream``).

Messages cross this interface as *lines*: one JSON-RPC message (or batch) per ``bytes`` ending
in ``b"\\n"``, as a stdio server writes them. An HTTP upstream frames what it receives that way
(an event whose data holds a newline is re-serialised first); the relay never sees HTTP.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from mcp_review.services.proxy.framing import read_line_batches
from mcp_review.services.proxy.process import ServerProcess

Deliver = Callable[[list[bytes]], Awaitable[None]]
"""Takes a batch of server lines to the relay (which judges them and writes the client's)."""
Log = Callable[[str], None]
"""The proxy's log (it scrubs secrets): an upstream logs nothing anywhere else."""


class UpstreamError(Exception):
    """The upstream could not be started; the message is secret-free and names the cause."""


class Upstream(Protocol):
    """One server, for one client session. The relay calls, in this order: ``start`` once,
    then ``pump`` (a task) alongside ``write`` (from the client's task), then ``stop`` (the
    client left, or a signal) or ``ended`` (``pump`` returned by itself: the server is gone),
    ``kill`` on an internal error or a cancellation, and ``aclose`` last, always."""

    label: str
    """What the proxy's log calls the server (secret-free)."""

    async def start(self, log: Log) -> None:
        """Start the server (stdio) or get ready to reach it (HTTP). Raises ``UpstreamError``."""
        ...

    async def pump(
        self, deliver: Deliver, *, max_line: int, on_overlong: Callable[[int], None]
    ) -> None:
        """Pass every server message to ``deliver``, in order, one caller at a time, until the
        server is gone (returns) or the caller is cancelled. A message longer than
        ``max_line`` bytes is dropped and ``on_overlong(size)`` called."""
        ...

    async def write(self, data: bytes) -> bool:
        """Send one or more client lines (each ending in ``\\n``, already judged by the relay).
        False once the server is gone (the relay then waits for ``pump`` to end)."""
        ...

    async def stop(self, *, grace: float) -> None:
        """The client left (``grace`` > 0) or a signal came (0): end the session."""
        ...

    async def ended(self, timeout: float) -> str:
        """After ``pump`` returned on its own: why the server went ("exited with code 1"),
        waiting up to ``timeout`` seconds to know."""
        ...

    async def kill(self) -> None:
        """The last resort (an internal error or a cancellation): end it now, shielded."""
        ...

    async def aclose(self) -> None:
        """Release what the upstream holds (logs, connections); called once, last."""
        ...


class StdioUpstream:
    """A server the proxy starts as a child process and speaks to over its stdin/stdout; its
    stderr goes to ``server_log`` (scrubbed, capped, rotated), never to the client."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        server_log: str | None = None,
        scrub: Callable[[str], str] | None = None,
    ):
        self.command = list(command)
        self.env = env
        self.cwd = cwd
        self.server_log = server_log
        self.scrub = scrub
        self.label = self.command[0] if self.command else "?"
        self.server: ServerProcess | None = None
        self._stderr_log: Any = None

    async def start(self, log: Log) -> None:
        err: Any = asyncio.subprocess.DEVNULL
        if self.server_log:
            from mcp_review.services.transport import STDERR_FILE_CAP, ServerStderr, open_stderr_log

            # Bounded like fetch's logs: half the file cap per session, rotated before it.
            cap = STDERR_FILE_CAP // 2
            err = ServerStderr(open_stderr_log(self.server_log, cap), run_cap=cap, scrub=self.scrub)
        try:
            self.server = await ServerProcess.start(
                self.command, env=self.env, cwd=self.cwd, stderr=err
            )
        except OSError as e:
            raise UpstreamError(f"cannot start {self.command[0]!r}: {e.strerror or e}") from None
        finally:
            if err is not asyncio.subprocess.DEVNULL:
                err.release()  # the child holds the pipe; the log closes when it exits
                self._stderr_log = err
        log(f"started server pid {self.server.pid}: {self.command[0]}")

    async def pump(
        self, deliver: Deliver, *, max_line: int, on_overlong: Callable[[int], None]
    ) -> None:
        assert self.server is not None
        async for batch in read_line_batches(self.server.stdout, max_line, on_overlong):
            await deliver(batch)

    async def write(self, data: bytes) -> bool:
        assert self.server is not None
        return await self.server.write(data)

    async def stop(self, *, grace: float) -> None:
        assert self.server is not None
        await self.server.stop(grace=grace)

    async def ended(self, timeout: float) -> str:
        assert self.server is not None
        code = await self.server.reap(timeout)
        how = f"exited with code {code}" if code is not None else "closed its output"
        where = f" (its stderr is in {self.server_log})" if self.server_log else ""
        return how + where

    async def kill(self) -> None:
        if self.server is not None:
            await self.server.kill()

    async def aclose(self) -> None:
        if self._stderr_log is not None:
            # The server is gone: let its last stderr lines reach the log.
            self._stderr_log.join(2.0)
