"""Stdio proxy engine: relays JSON-RPC lines byte-for-byte, records tools/call, enforces pins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from mcp_review.services.calllog import CallLog, dumps

try:  # ~5x faster than json on the hot path (every server line is parsed to filter noise).
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson ships with every supported setup
    _orjson = None

CHUNK = 1 << 20
"""Bytes asked of a pipe per read: big chunks keep a 10 MB line to ~10 reads."""

MAX_LINE = 256 * 1024 * 1024
"""A line longer than this is dropped (and logged) instead of buffered without bound."""

STDIN_GRACE = 1.0
"""After the client leaves, seconds the server gets to exit on its own stdin EOF. The SDK
client kills its server's process group 2 s after closing its stdin, and the server is in a
group of its own, so the whole escalation below must finish inside those 2 s."""

TERM_GRACE = 0.5
"""Seconds between SIGTERM and SIGKILL to the server's process group."""

PIN_POLL = 1.0
"""Seconds between pin-file checks when no message arrives (see Proxy._watch_pins)."""

CRASH_CODE = -32000
REFUSED_CODE = -32602
"""MCP answers a call to an unknown tool with -32602; to this client a withheld tool is one."""

EXIT_OK = 0
EXIT_SERVER_GONE = 3
"""The server could not be started or exited while the client was still connected
(exitcodes.UNREACHABLE)."""

WARNING_PREFIX = "⚠ WITHHELD BY MCP-REVIEW"


# Gate ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether one tool may be listed and called, and why (for the refusal message)."""

    allowed: bool
    status: str
    """pinned / new / changed / broken / denied / unlisted / ..."""
    reason: str = ""


class Gate(Protocol):
    """Decides per tool; implementations re-read their pin file when it changed on disk."""

    def check(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict]: ...


# Line I/O -----------------------------------------------------------------------------------


def _loads(raw: bytes) -> Any:
    """Parse one line; ValueError for anything that is not JSON (never RecursionError)."""
    if _orjson is not None:
        try:
            return _orjson.loads(raw)
        except _orjson.JSONDecodeError:
            # orjson refuses integers beyond 64 bits that json accepts exactly; fall through.
            pass
    try:
        return json.loads(raw)
    except RecursionError:  # nesting deeper than the interpreter can follow
        raise ValueError("nested too deeply to parse") from None


def _pipe_like(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


async def read_line_batches(reader: asyncio.StreamReader, max_line: int = MAX_LINE,
                            on_overlong: Callable[[int], None] | None = None,
                            ) -> AsyncIterator[list[bytes]]:
    """Yield, per chunk read, the lines it completed, each with its ``\\n`` (the last line of
    the stream may lack it). Batches let a burst of pipelined messages go out in one write.
    Linear in the input: each chunk is searched once and copied once, never re-scanned."""
    parts: list[bytes] = []
    size = 0
    dropping = False
    while True:
        chunk = await reader.read(CHUNK)
        if not chunk:
            if parts and not dropping:
                yield [b"".join(parts)]
            return
        batch: list[bytes] = []
        start = 0
        while True:
            i = chunk.find(b"\n", start)
            if i < 0:
                piece = chunk[start:]
                if not dropping:
                    parts.append(piece)
                    size += len(piece)
                    if size > max_line:
                        dropping, parts = True, []
                else:
                    size += len(piece)
                break
            piece = chunk[start:i + 1]
            if dropping or size + len(piece) > max_line:
                if on_overlong is not None:
                    on_overlong(size + len(piece))
                dropping = False
            elif parts:
                parts.append(piece)
                batch.append(b"".join(parts))
            else:
                batch.append(piece)
            parts, size = [], 0
            start = i + 1
        if batch:
            yield batch


class _Out:
    """The client's stdout: an asyncio pipe with flow control, or a plain file (tests)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.writer: asyncio.StreamWriter | None = None
        self.broken = False

    async def open(self) -> None:
        if _pipe_like(self.fd):
            loop = asyncio.get_running_loop()
            f = os.fdopen(self.fd, "wb", buffering=0, closefd=False)
            transport, protocol = await loop.connect_write_pipe(
                asyncio.streams.FlowControlMixin, f)
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
                    view = view[os.write(self.fd, view):]
        except (BrokenPipeError, ConnectionResetError):
            self.broken = True  # the client is gone; the stdin side notices EOF and shuts down

    async def close(self) -> None:
        if self.writer is not None and not self.broken:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer.drain(), 2.0)
            self.writer.close()


async def _open_in(fd: int, limit: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit)
    if _pipe_like(fd):
        f = os.fdopen(fd, "rb", buffering=0, closefd=False)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), f)
        return reader

    # A regular file (a test redirect): asyncio cannot poll it, so a thread feeds the reader.
    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                loop.call_soon_threadsafe(reader.feed_eof)
                return
            loop.call_soon_threadsafe(reader.feed_data, chunk)

    threading.Thread(target=pump, name="proxy-stdin", daemon=True).start()
    return reader


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


# The proxy ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Pending:
    method: str
    tool: str | None = None
    call_time: str | None = None
    cancelled: bool = False


def _id_key(v: Any) -> tuple[str, Any] | None:
    # 1 and "1" are different JSON-RPC ids; lists/dicts are not valid ids at all.
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, str):
        return ("s", v)
    if isinstance(v, (int, float)):
        return ("n", v)
    return None


class Proxy:
    """One client ↔ one server. ``await run()`` returns the proxy's exit code.

    Every line is forwarded as the exact bytes received, with three exceptions: a non-JSON-RPC
    line on the server's stdout is dropped (it would corrupt the client's stream); with a gate,
    a ``tools/list`` result that holds a withheld tool is re-serialised without it (or with its
    description marked); and a ``tools/call`` to a withheld tool is answered by the proxy and
    never reaches the server.
    """

    def __init__(self, command: Sequence[str], *, name: str, env: dict[str, str] | None = None,
                 cwd: str | None = None, calllog: CallLog | None = None,
                 gate: Gate | None = None, mode: str = "withhold",
                 server_log: str | None = None, diag: TextIO | None = None,
                 max_line: int = MAX_LINE):
        if mode not in ("withhold", "mark"):
            raise ValueError(f"mode must be withhold or mark, not {mode!r}")
        self.command = list(command)
        self.name = name
        self.env = env
        self.cwd = cwd
        self.calllog = calllog
        self.gate = gate
        self.mode = mode
        self.server_log = server_log
        self.diag = diag if diag is not None else sys.stderr
        self.max_line = max_line
        self.pending: dict[tuple[str, Any], _Pending] = {}
        self.known: dict[str, dict[str, Any]] = {}
        """Latest definition of every tool the server listed (withheld ones included)."""
        self.proc: asyncio.subprocess.Process | None = None
        self.client_eof = False
        self.noise_lines = 0
        self.refused_calls = 0
        self._out: _Out | None = None
        self._to_record: list[tuple[_Pending, str, Any, Any]] = []
        self._can_notify = False
        self._advertised: frozenset[str] | None = None
        """Names the client was last shown (withheld ones excluded), for list_changed."""
        self._signal: int | None = None

    # diagnostics go to the proxy's stderr, which MCP clients keep as the server's log
    def log(self, msg: str) -> None:
        with contextlib.suppress(Exception):
            self.diag.write(f"mcp-review proxy [{self.name}]: {msg}\n")
            self.diag.flush()

    async def run(self, stdin_fd: int = 0, stdout_fd: int = 1) -> int:
        loop = asyncio.get_running_loop()
        err: Any = asyncio.subprocess.DEVNULL
        if self.server_log:
            os.makedirs(os.path.dirname(os.path.abspath(self.server_log)), exist_ok=True)
            err = open(self.server_log, "ab")  # handed to the child, closed below
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                # limit only bounds the reader's buffer (read_line_batches frames): small, so
                # a slow client pushes back on the server instead of the proxy hoarding memory.
                stderr=err, env=self.env, cwd=self.cwd, limit=CHUNK,
                # Its own group, so stopping it reaches its children (npx -> node) too.
                start_new_session=True, preexec_fn=_die_with_parent())
        except OSError as e:
            self.log(f"cannot start {self.command[0]!r}: {e.strerror or e}")
            return EXIT_SERVER_GONE
        finally:
            if err is not asyncio.subprocess.DEVNULL:
                err.close()
        self.log(f"started server pid {self.proc.pid}: {self.command[0]}")
        self._out = _Out(stdout_fd)
        await self._out.open()
        client_in = await _open_in(stdin_fd, CHUNK)

        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self._on_signal, sig, stop)
        c2s = asyncio.create_task(self._client_to_server(client_in))
        s2c = asyncio.create_task(self._server_to_client())
        stopper = asyncio.create_task(stop.wait())
        watcher = asyncio.create_task(self._watch_pins())
        stopped = False
        try:
            await asyncio.wait({c2s, s2c, stopper}, return_when=asyncio.FIRST_COMPLETED)
            for t in (c2s, s2c):
                if t.done() and not t.cancelled() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
            if self._signal is not None:
                c2s.cancel()
                await self._stop_server(s2c, grace=0.0)
                stopped = True
                return 128 + self._signal
            if c2s.done():
                # The client left (stdin EOF): normal shutdown, whatever the server says.
                await self._stop_server(s2c, grace=STDIN_GRACE)
                stopped = True
                return EXIT_OK
            # The server closed its stdout while the client is still there: it crashed.
            c2s.cancel()
            rc = await self._reap(STDIN_GRACE)
            self.log(f"server exited (code {rc}) while the client was connected; "
                     f"answering {self._open_requests()} pending request(s) with an error")
            await self._fail_pending(rc)
            await self._stop_server(None, grace=0.0)
            stopped = True
            return EXIT_SERVER_GONE
        finally:
            for t in (c2s, s2c, stopper, watcher):
                t.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.gather(c2s, s2c, stopper, watcher, return_exceptions=True)
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                with contextlib.suppress(Exception):
                    loop.remove_signal_handler(sig)
            if not stopped:
                self._killpg(signal.SIGKILL)  # an internal error: never leave an orphan
            await self._out.close()
            if self.calllog is not None:
                self.calllog.close()

    def _on_signal(self, sig: int, stop: asyncio.Event) -> None:
        self._signal = sig
        stop.set()

    # lifecycle ----------------------------------------------------------------------------

    async def _reap(self, timeout: float) -> int | None:
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            return None

    def _killpg(self, sig: int) -> bool:
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, sig)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    async def _stop_server(self, s2c: asyncio.Task | None, *, grace: float) -> None:
        """Close its stdin, give it ``grace`` to exit, then SIGTERM and SIGKILL its whole group
        (the leader may exit and leave children behind, so the group is swept regardless)."""
        assert self.proc is not None
        if self.proc.stdin is not None:
            with contextlib.suppress(Exception):
                self.proc.stdin.close()
        if grace > 0:
            await self._reap(grace)
        if self._killpg(signal.SIGTERM):
            deadline = asyncio.get_running_loop().time() + TERM_GRACE
            while asyncio.get_running_loop().time() < deadline:
                if self.proc.returncode is not None and not self._group_alive():
                    break
                await asyncio.sleep(0.02)
            self._killpg(signal.SIGKILL)
        await self._reap(1.0)
        if s2c is not None:
            # Let the relay forward whatever the server wrote before it went.
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(s2c, 0.5)

    def _group_alive(self) -> bool:
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    def _open_requests(self) -> int:
        return sum(1 for p in self.pending.values() if not p.cancelled)

    async def _fail_pending(self, rc: int | None) -> None:
        how = f"exited with code {rc}" if rc is not None else "closed its output"
        where = f" (its stderr is in {self.server_log})" if self.server_log else ""
        msg = f"mcp-review proxy: MCP server '{self.name}' {how} before answering{where}"
        for key, p in list(self.pending.items()):
            if p.cancelled:
                continue
            await self._send({"jsonrpc": "2.0", "id": key[1],
                              "error": {"code": CRASH_CODE, "message": msg}})
        self.pending.clear()

    async def _send(self, msg: Any) -> None:
        assert self._out is not None
        await self._out.write(dumps(msg) + b"\n")

    # client -> server ---------------------------------------------------------------------

    async def _client_to_server(self, reader: asyncio.StreamReader) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        server_alive = True
        async for batch in read_line_batches(reader, self.max_line, self._overlong("client")):
            outs = []
            for line in batch:
                out = await self._on_client_line(line)
                if out is not None:
                    outs.append(out)
            if outs and server_alive:
                try:
                    stdin.write(b"".join(outs))
                    await stdin.drain()
                except (BrokenPipeError, ConnectionResetError):
                    # The crash path answers what is pending; keep reading so the client's
                    # requests are tracked (and answered) until then.
                    server_alive = False
            if self._to_record:
                self._record()
        self.client_eof = True

    def _record(self) -> None:
        assert self.calllog is not None
        for p, tool, args, rpc_id in self._to_record:
            try:
                p.call_time = self.calllog.record_call(tool, args, rpc_id)
            except OSError as e:  # a full disk must not take the agent's tools down
                self.log(f"cannot write the call log: {e}")
        self._to_record.clear()

    def _overlong(self, side: str) -> Callable[[int], None]:
        def note(n: int) -> None:
            self.log(f"dropped a {n}-byte line from the {side}: longer than {self.max_line}")
        return note

    async def _on_client_line(self, line: bytes) -> bytes | None:
        """The bytes to forward (``line`` itself unless a batch had to be split), or None."""
        # Every line is parsed (a copy): pending ids are needed to answer them if the server
        # crashes, and a cheap substring pre-filter could be fooled by JSON escapes.
        try:
            msg = _loads(line)
        except ValueError:
            return line  # not ours to judge: the server answers it with a parse error
        if isinstance(msg, dict):
            answer = await self._on_client_msg(msg)
            return line if answer is None else None
        if isinstance(msg, list) and msg:
            kept, refused = [], []
            for m in msg:
                r = await self._on_client_msg(m, batch=True) if isinstance(m, dict) else None
                (kept if r is None else refused).append(m if r is None else r)
            if refused:
                # A batch (pre-2025-06-18 clients only) with a withheld call: the refusals go
                # back as one batch, the rest is forwarded re-serialised.
                await self._send(refused)
                return dumps(kept) + b"\n" if kept else None
        return line

    async def _on_client_msg(self, msg: dict[str, Any], batch: bool = False) -> Any:
        """Track a request; returns a refusal response if the proxy answers it itself."""
        method = msg.get("method")
        if not isinstance(method, str):
            return None
        if "id" not in msg:
            if method == "notifications/cancelled":
                params = msg.get("params")
                key = _id_key(params.get("requestId")) if isinstance(params, dict) else None
                if key is not None and key in self.pending:
                    self.pending[key].cancelled = True
            return None
        key = _id_key(msg["id"])
        if key is None:
            return None
        if method == "tools/call":
            params = msg.get("params")
            tool = params.get("name") if isinstance(params, dict) else None
            if not isinstance(tool, str):
                return None  # malformed: the server rejects it
            if self.gate is not None:
                v = self._verdict(tool)
                if not v.allowed:
                    self.refused_calls += 1
                    self.log(f"refused tools/call {tool!r}: {v.status}")
                    refusal = self._refusal(msg["id"], tool, v)
                    if not batch:
                        await self._send(refusal)
                    return refusal
            p = self.pending[key] = _Pending(method, tool)
            if self.calllog is not None:
                # Written after the request is forwarded: the server starts on it meanwhile.
                self._to_record.append((p, tool, params.get("arguments"), msg["id"]))
        else:
            self.pending[key] = _Pending(method)
        return None

    def _verdict(self, tool: str) -> Verdict:
        assert self.gate is not None
        d = self.known.get(tool)
        if d is None:
            return Verdict(False, "unlisted",
                           "the server has not listed it through this proxy, so it cannot be "
                           "checked against the pins (list tools first)")
        try:
            return self.gate.check([d]).get(tool) or Verdict(False, "unknown", "no verdict")
        except Exception as e:  # a broken pin file must fail closed, not crash the relay
            self.log(f"pin check failed: {e}")
            return Verdict(False, "error", f"the pin file could not be read: {e}")

    def _refusal(self, rpc_id: Any, tool: str, v: Verdict) -> dict[str, Any]:
        why = f": {v.reason}" if v.reason else ""
        return {"jsonrpc": "2.0", "id": rpc_id, "error": {
            "code": REFUSED_CODE,
            "message": (f"mcp-review withheld tool '{tool}' on server '{self.name}' "
                        f"({v.status}{why}). An operator must review it: run `mcp-review` "
                        f"(or `mcp-review approve {self.name} {tool}`)."),
            "data": {"tool": tool, "server": self.name, "status": v.status,
                     "reason": v.reason},
        }}

    # pin file -> client ---------------------------------------------------------------------

    def _allowed_now(self, verdicts_too: dict[str, Verdict] | None = None) -> frozenset[str]:
        assert self.gate is not None
        v = dict(self.gate.check(list(self.known.values())))
        v.update(verdicts_too or {})
        return frozenset(n for n, x in v.items() if x.allowed)

    async def _watch_pins(self) -> None:
        """Once a second: if an approval (or a denial) changed which tools the client should
        see, send it ``notifications/tools/list_changed`` so it re-lists now. Legacy sessions
        whose server declared ``tools.listChanged`` only; a 2026-07-28 client sees the change
        at its next ``tools/list`` (calls are judged afresh either way)."""
        while True:
            await asyncio.sleep(PIN_POLL)
            if self.gate is None or not self._can_notify or self._advertised is None:
                continue
            try:
                now = self._allowed_now()
            except Exception:  # reported on the next real check; nothing to tell the client
                continue
            if now != self._advertised:
                self._advertised = now
                self.log("the pin file changed what the client may see: sent tools/list_changed")
                await self._send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})

    # server -> client ---------------------------------------------------------------------

    async def _server_to_client(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None and self._out is not None
        out = self._out
        async for batch in read_line_batches(self.proc.stdout, self.max_line,
                                             self._overlong("server")):
            outs = [d for line in batch if (d := self._on_server_line(line)) is not None]
            if outs:
                await out.write(b"".join(outs))

    def _noise(self, line: bytes, why: str) -> None:
        self.noise_lines += 1
        text = line[:200].decode("utf-8", "replace").rstrip("\r\n")
        more = f" … ({len(line)} bytes)" if len(line) > 200 else ""
        self.log(f"dropped server stdout line ({why}): {text!r}{more}")

    def _on_server_line(self, line: bytes) -> bytes | None:
        if not line.strip():
            return None
        try:
            msg = _loads(line)
        except (ValueError, UnicodeDecodeError):
            self._noise(line, "not JSON")
            return None
        if isinstance(msg, dict):
            if msg.get("jsonrpc") != "2.0":
                self._noise(line, "not JSON-RPC 2.0")
                return None
            changed = self._on_server_msg(msg)
        elif isinstance(msg, list) and msg and all(isinstance(m, dict) for m in msg):
            changed = False
            for m in msg:
                changed = self._on_server_msg(m) or changed
        else:
            self._noise(line, "not a JSON-RPC message")
            return None
        if changed:
            return dumps(msg) + b"\n"
        return line if line.endswith(b"\n") else line + b"\n"

    def _on_server_msg(self, msg: dict[str, Any]) -> bool:
        """Handle a response to a tracked request; True if ``msg`` was modified in place."""
        if "method" in msg or "id" not in msg:
            return False  # a server request or notification: nothing to track
        key = _id_key(msg["id"])
        p = self.pending.pop(key, None) if key is not None else None
        if p is None:
            return False
        if p.method == "tools/call":
            if self.calllog is not None and self.calllog.results_path and p.tool and p.call_time:
                try:
                    self.calllog.record_result(p.tool, msg["id"], p.call_time, msg)
                except OSError as e:
                    self.log(f"cannot write the results log: {e}")
            return False
        if p.method == "tools/list":
            return self._filter_list(msg)
        if p.method == "initialize":
            # A legacy session: the proxy may tell the client to re-list when an approval
            # changes what it would see, if the server declared that notification.
            result = msg.get("result")
            caps = result.get("capabilities") if isinstance(result, dict) else None
            tools_cap = caps.get("tools") if isinstance(caps, dict) else None
            self._can_notify = isinstance(tools_cap, dict) and tools_cap.get("listChanged") is True
        return False

    def _filter_list(self, msg: dict[str, Any]) -> bool:
        result = msg.get("result")
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list):
            return False
        named = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        named_ids = {id(t) for t in named}
        for t in named:
            self.known[t["name"]] = t
        if self.gate is None:
            return False
        try:
            verdicts = self.gate.check(named)
        except Exception as e:  # fail closed: a list nobody can vouch for shows nothing
            self.log(f"pin check failed, withholding every tool: {e}")
            verdicts = {t["name"]: Verdict(False, "error", f"pin check failed: {e}")
                        for t in named}
        kept: list[Any] = []
        changed = False
        for t in tools:
            v = verdicts.get(t["name"]) if id(t) in named_ids else Verdict(False, "invalid")
            if v is None:
                v = Verdict(False, "unknown", "no verdict")
            if v.allowed:
                kept.append(t)
                continue
            changed = True
            if self.mode == "mark" and id(t) in named_ids:
                t2 = dict(t)
                why = f" ({v.reason})" if v.reason else ""
                t2["description"] = (
                    f"{WARNING_PREFIX}: '{t['name']}' is {v.status}{why} and calls to it are "
                    f"refused until an operator approves it with `mcp-review`.\n\n"
                    + (t.get("description") or ""))
                kept.append(t2)
        with contextlib.suppress(Exception):  # already failed closed above
            self._advertised = self._allowed_now(verdicts_too=verdicts)
        if changed:
            hidden = [n for n, v in verdicts.items() if not v.allowed]
            self.log(f"tools/list: {'marked' if self.mode == 'mark' else 'withheld'} {hidden}")
            result["tools"] = kept
        return changed


class PinGate:
    """The pin file's verdicts for one (server, principal), through ``core.status``.

    Allowed: pinned, or drifted in a way the tier auto-approves. Withheld: new, denied,
    broken, or anything the tier sends to review or blocks. The pin file is stat'ed on every
    check and re-read when its (mtime, size, inode) changed, so an approval takes effect on the
    next ``tools/list`` or ``tools/call`` without restarting anything. Verdicts are cached per
    definition object until then; a pin file that cannot be parsed raises (the proxy then
    fails closed).
    """

    def __init__(self, pins_path: str, server: str, *, principal: str = "default",
                 default_tier: str | None = None, calls_path: str | None = None):
        self.pins_path = pins_path
        self.server = server
        self.principal = principal
        self.default_tier = default_tier
        self.calls_path = calls_path
        self._sig: tuple[int, int, int] | bool | None = False  # False: never read
        self._pins: Any = None
        self._calls: Any = None
        self._cache: dict[str, tuple[dict[str, Any], Verdict]] = {}
        self.reloads = 0

    def _refresh(self) -> None:
        from mcp_review.core.pins import load_pins

        try:
            st = os.stat(self.pins_path)
            sig: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            sig = None
        if sig == self._sig:
            return
        self._pins = load_pins(self.pins_path)
        self._sig = sig
        self._cache.clear()
        # Recorded calls decide "broken"; they are re-read with the pins, not on every call.
        self._calls = None
        if self.calls_path and os.path.exists(self.calls_path):
            from mcp_review.core.status import load_call_log

            self._calls = load_call_log(self.calls_path)
        self.reloads += 1

    def check(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict]:
        self._refresh()
        out: dict[str, Verdict] = {}
        todo: list[dict[str, Any]] = []
        for t in tools:
            hit = self._cache.get(t["name"])
            if hit is not None and hit[0] is t:
                out[t["name"]] = hit[1]
            else:
                todo.append(t)
        if todo:
            for t, v in zip(todo, self._judge(todo), strict=True):
                self._cache[t["name"]] = (t, v)
                out[t["name"]] = v
        return out

    def _judge(self, tools: list[dict[str, Any]]) -> list[Verdict]:
        from mcp_review.core.errors import InputError
        from mcp_review.core.model import ToolDef
        from mcp_review.core.policy import Outcome
        from mcp_review.core.snapshot import ServerSnapshot
        from mcp_review.core.status import State, server_status

        verdicts: dict[int, Verdict] = {}
        defs = []
        for i, t in enumerate(tools):
            try:
                defs.append((i, ToolDef.from_wire(t, source=f"tools/list of {self.server}")))
            except InputError as e:
                verdicts[i] = Verdict(False, "invalid", e.detail)
        snap = ServerSnapshot(name=self.server, principal=self.principal,
                              tools=[d for _, d in defs])
        _, statuses = server_status(snap, self._pins, calls=self._calls,
                                    default_tier=self.default_tier, witnesses=False)
        by_name = {s.tool: s for s in statuses if s.state is not State.REMOVED}
        for i, d in defs:
            s = by_name[d.name]
            outcome = s.policy.outcome
            why = "; ".join(s.policy.reasons)
            if s.state is State.PINNED or (s.state is not State.DENIED
                                           and outcome is Outcome.AUTO_APPROVE):
                verdicts[i] = Verdict(True, str(s.state), why)
            elif s.state is State.DENIED or s.previously_denied:
                verdicts[i] = Verdict(False, "denied", why or "denied by the operator")
            else:
                verdicts[i] = Verdict(False, f"{s.state}, {outcome}", why)
        return [verdicts[i] for i in range(len(tools))]
