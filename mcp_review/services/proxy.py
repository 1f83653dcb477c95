"""Stdio proxy engine: relays JSON-RPC lines byte-for-byte, records tools/call, enforces pins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from mcp_review.services.calllog import CallLog

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
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

FETCH_TIMEOUT = 30.0
"""Seconds the proxy waits for the server's answer to its own ``tools/list``."""
FETCH_MAX_PAGES = 100
"""Pages of its own ``tools/list`` the proxy follows before it gives up (and fails closed)."""
MAX_SAFE_ID = 2**53 - 1
"""Beyond this a JavaScript client's ``Number`` cannot tell two integer ids apart."""
ENVELOPE_KEYS = ("io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo",
                 "io.modelcontextprotocol/clientCapabilities")
"""2026-07-28 per-request ``_meta`` keys the proxy copies from a client's call into its own
``tools/list`` (a modern server rejects a request without them)."""

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


class _Unjudgeable(ValueError):
    """A client line the enforcing proxy will not forward: it cannot judge it as the server would."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _Unjudgeable(f"the key {dup!r} appears twice in one object (parsers disagree on "
                           "which one counts)")
    return d


def _no_constant(name: str) -> Any:
    raise _Unjudgeable(f"{name} is not JSON")


def _strict_loads(raw: bytes) -> Any:
    """Parse one client line as the enforcing proxy must: UTF-8 strictly, no duplicate keys,
    no NaN/Infinity, depth and integer size bounded by the stdlib parser. Anything else raises
    ``_Unjudgeable`` (what a server's lenient parser would make of it is not ours to guess)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Unjudgeable(f"not valid UTF-8 (byte {e.start})") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _Unjudgeable:
        raise
    except RecursionError:
        raise _Unjudgeable("nested too deeply to parse") from None
    except ValueError as e:  # JSONDecodeError, and integers beyond the stdlib's digit limit
        raise _Unjudgeable(f"not JSON: {str(e)[:120]}") from None


def _wire(msg: Any) -> bytes:
    """The one serialisation the enforcing proxy forwards: exactly what it judged."""
    out = None
    if _orjson is not None:
        try:
            out = _orjson.dumps(msg)
        except TypeError:  # >64-bit integers, lone surrogates, depth > 255: the stdlib copes
            pass
    if out is None:
        out = json.dumps(msg, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()
    if b"\xe2\x80" in out:  # U+2028/9 end a line for JavaScript and str.splitlines readers
        out = out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return out + b"\n"


_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008" \
            "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\Z")
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")


def _js_number(s: str) -> float | int | None:
    """What JavaScript's ``Number(s)`` gives (the TypeScript SDK matches response ids with it),
    or None for NaN."""
    s = s.strip(_JS_SPACE)
    if not s:
        return 0
    m = _JS_RADIX.match(s)
    if m:
        return float(int(m.group(1)[1:], {"x": 16, "o": 8, "b": 2}[m.group(1)[0].lower()]))
    if _JS_DECIMAL.match(s):
        return float(s.replace("Infinity", "inf"))
    return None


def id_keys(v: Any) -> frozenset[tuple[str, Any]]:
    """Every key under which some client could match JSON-RPC id ``v``; empty if ``v`` is not a
    usable id. The Python SDK turns an id string into ``int(s)`` when it can, the TypeScript SDK
    into ``Number(s)`` (so ``"1"``, ``" 1"``, ``"0x1"`` and ``1.0`` all answer request 1), and a
    JavaScript client reads an integer beyond 2**53 as the nearest double. Two ids whose key sets
    meet are one id to some client."""
    keys: set[tuple[str, Any]] = set()
    nums: list[Any] = []
    if isinstance(v, bool) or v is None:
        return frozenset()
    if isinstance(v, int):
        nums.append(v)
    elif isinstance(v, float):
        nums.append(v)
    elif isinstance(v, str):
        keys.add(("s", v))
        with contextlib.suppress(ValueError):
            nums.append(int(v))
        js = _js_number(v)
        if js is not None:
            nums.append(js)
    else:
        return frozenset()
    for n in nums:
        if isinstance(n, float) and (n != n or n in (float("inf"), float("-inf"))):
            continue
        keys.add(("n", n))  # 1.0 == 1 as a dict key, as in JavaScript
        if isinstance(n, int) and abs(n) > MAX_SAFE_ID:
            with contextlib.suppress(OverflowError):
                keys.add(("n", float(n)))
    return frozenset(keys)


def _usable_id(v: Any) -> bool:
    """An id the enforcing proxy accepts on a client request (and may answer with): a string,
    or an integer every client reads exactly. MCP forbids null; floats, bools, arrays and
    objects are not ids any SDK sends."""
    if isinstance(v, str):
        return True
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SAFE_ID


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s"{}\[\]:,]+', re.S)
_SMALL_INT = re.compile(rb"-?(?:0|[1-9][0-9]{0,15})\Z")


def _salvage_id(raw: bytes) -> Any:
    """The id of a line that did not parse, when it can be read without guessing: the line is
    an object whose top level has exactly one key spelled ``"id"`` (and no escaped key that
    might decode to it), with a plain string or a small integer as its value. Else None."""
    depth = 0
    expect_key = False
    key: bytes | None = None
    found: list[bytes] = []
    after_colon = False
    first = True
    for m in _TOKEN.finditer(raw):
        tok = m.group()
        if first and tok != b"{":
            return None
        first = False
        if tok in (b"{", b"["):
            if depth == 1 and after_colon and key == b'"id"':
                return None  # an object or array as the id
            depth += 1
            expect_key = tok == b"{" and depth == 1
            after_colon = False
            continue
        if tok in (b"}", b"]"):
            depth -= 1
            if depth == 0:
                break
            continue
        if depth != 1:
            continue
        if tok == b",":
            expect_key, after_colon, key = True, False, None
        elif tok == b":":
            after_colon = True
        elif expect_key:
            if b"\\" in tok:
                return None  # "\u0069d" is "id" too
            key, expect_key = tok, False
        elif after_colon and key == b'"id"':
            found.append(tok)
            after_colon = False
    if len(found) != 1:
        return None
    tok = found[0]
    if _SMALL_INT.match(tok):
        n = int(tok)
        return n if abs(n) <= MAX_SAFE_ID else None
    if tok.startswith(b'"') and b"\\" not in tok and len(tok) <= 258:
        try:
            return tok[1:-1].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _short(v: Any, n: int = 80) -> str:
    """A bounded repr for the proxy's log and errors (untrusted text, escaped by repr)."""
    r = repr(v)
    return r if len(r) <= n else r[:n] + "…"


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


@dataclass(slots=True, eq=False)
class _Pending:
    method: str
    rpc_id: Any = None
    """The id exactly as the client sent it (answers and relayed replies carry it back)."""
    keys: frozenset[tuple[str, Any]] = frozenset()
    tool: str | None = None
    call_time: str | None = None
    cancelled: bool = False
    reply: asyncio.Future[dict[str, Any]] | None = None
    """Set on the proxy's own requests: the reply goes here and never to the client."""


class Proxy:
    """One client ↔ one server. ``await run()`` returns the proxy's exit code.

    Without a gate every line is forwarded as the exact bytes received, except that a
    non-JSON-RPC line on the server's stdout is dropped (it would corrupt the client's stream).
    With a gate (``--enforce``) the proxy fails closed both ways: a client line is parsed
    strictly and forwarded as the proxy's own serialisation of what it judged (a ``tools/call``
    to a withheld tool, a line it cannot parse, an id already pending: answered or dropped,
    never forwarded); a server reply is matched to its request as clients match ids, dropped if
    the proxy did not forward that request, and filtered whenever its result holds ``tools``.
    """

    def __init__(self, command: Sequence[str], *, name: str, env: dict[str, str] | None = None,
                 cwd: str | None = None, calllog: CallLog | None = None,
                 gate: Gate | None = None, mode: str = "withhold",
                 server_log: str | None = None, diag: TextIO | None = None,
                 max_line: int = MAX_LINE, fetch_timeout: float = FETCH_TIMEOUT,
                 scrub: Callable[[str], str] | None = None):
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
        self._stderr_log: Any = None
        self.diag = diag if diag is not None else sys.stderr
        self.scrub = scrub
        """Removes the secrets the server was given (``ServerConfig.scrub``) from every line the
        proxy logs: MCP clients keep the proxy's stderr as the server's log file."""
        self.max_line = max_line
        self.fetch_timeout = fetch_timeout
        self.pending: dict[tuple[str, Any], _Pending] = {}
        """Requests sent to the server and not answered yet, under every key of ``id_keys``."""
        self.server_requests: dict[tuple[str, Any], Any] = {}
        """Ids of requests the server sent the client and that are not answered yet."""
        self.known: dict[str, dict[str, Any]] = {}
        """Latest definition of every tool the server listed (withheld ones included)."""
        self.ambiguous: set[str] = set()
        """Names the server listed twice in one list: which one a client uses is anyone's guess."""
        self.dropped_lines = 0
        self._own_ids = 0
        self._nonce = os.urandom(12).hex()
        self._c2s_out: list[bytes] = []
        self._server_gone = False
        self.proc: asyncio.subprocess.Process | None = None
        self.client_eof = False
        self.noise_lines = 0
        self.refused_calls = 0
        self._out: _Out | None = None
        self._to_record: list[tuple[_Pending, str, Any, Any, str | None]] = []
        self._digests: dict[str, tuple[dict[str, Any], str]] = {}
        """Digest of each tool's latest listed definition (cached per definition object)."""
        self._can_notify = False
        self._advertised: frozenset[str] | None = None
        """Names the client was last shown (withheld ones excluded), for list_changed."""
        self._signal: int | None = None

    # diagnostics go to the proxy's stderr, which MCP clients keep as the server's log
    def log(self, msg: str) -> None:
        with contextlib.suppress(Exception):
            if self.scrub is not None:
                msg = self.scrub(msg)
            self.diag.write(f"mcp-review proxy [{self.name}]: {msg}\n")
            self.diag.flush()

    async def run(self, stdin_fd: int = 0, stdout_fd: int = 1) -> int:
        loop = asyncio.get_running_loop()
        err: Any = asyncio.subprocess.DEVNULL
        if self.server_log:
            from mcp_review.services.fetch import STDERR_FILE_CAP, ServerStderr, open_stderr_log

            # Bounded like fetch's logs: half the file cap per session, rotated before it.
            cap = STDERR_FILE_CAP // 2
            err = ServerStderr(open_stderr_log(self.server_log, cap), run_cap=cap,
                               scrub=self.scrub)
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
                err.release()  # the child holds the pipe; the log closes when it exits
                self._stderr_log = err
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
            if self._stderr_log is not None:
                # The server is gone: let its last stderr lines reach the log.
                self._stderr_log.join(2.0)

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

    def _open(self) -> list[_Pending]:
        return list({id(p): p for p in self.pending.values()}.values())

    def _open_requests(self) -> int:
        return sum(1 for p in self._open() if not p.cancelled and p.reply is None)

    def _track(self, p: _Pending) -> None:
        for k in p.keys:
            self.pending[k] = p

    def _find(self, keys: frozenset[tuple[str, Any]]) -> _Pending | None:
        for k in keys:
            p = self.pending.get(k)
            if p is not None:
                return p
        return None

    def _untrack(self, p: _Pending) -> None:
        for k in p.keys:
            if self.pending.get(k) is p:
                del self.pending[k]

    async def _fail_pending(self, rc: int | None) -> None:
        how = f"exited with code {rc}" if rc is not None else "closed its output"
        where = f" (its stderr is in {self.server_log})" if self.server_log else ""
        msg = f"mcp-review proxy: MCP server '{self.name}' {how} before answering{where}"
        for p in self._open():
            if p.reply is not None:  # the proxy's own tools/list: the call it serves is
                p.reply.cancel()     # pending too, and answered below
                continue
            if p.cancelled:
                continue
            await self._send({"jsonrpc": "2.0", "id": p.rpc_id,
                              "error": {"code": CRASH_CODE, "message": msg}})
        self.pending.clear()

    async def _send(self, msg: Any) -> None:
        assert self._out is not None
        await self._out.write(_wire(msg))

    # client -> server ---------------------------------------------------------------------

    async def _client_to_server(self, reader: asyncio.StreamReader) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        async for batch in read_line_batches(reader, self.max_line, self._overlong("client")):
            for line in batch:
                if self.gate is not None:
                    out = await self._judge_client_line(line)
                else:
                    out = await self._on_client_line(line)
                if out is not None:
                    self._c2s_out.append(out)
            await self._flush_to_server()
            if self._to_record:
                self._record()
        self.client_eof = True

    async def _flush_to_server(self, extra: bytes = b"") -> None:
        """Write what the client pump has judged (and ``extra``, the proxy's own request after
        it, so order is kept). A dead server is noticed by the crash path, which answers what
        is pending; the client's lines are still read and tracked until then."""
        assert self.proc is not None and self.proc.stdin is not None
        data = b"".join(self._c2s_out) + extra
        self._c2s_out.clear()
        if not data or self._server_gone:
            return
        try:
            self.proc.stdin.write(data)
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self._server_gone = True

    def _record(self) -> None:
        assert self.calllog is not None
        for p, tool, args, rpc_id, digest in self._to_record:
            try:
                p.call_time = self.calllog.record_call(tool, args, rpc_id, digest=digest)
            except (OSError, ValueError) as e:  # a full disk must not take the agent's tools down
                self.log(f"cannot write the call log: {e}")
        self._to_record.clear()

    def _overlong(self, side: str) -> Callable[[int], None]:
        def note(n: int) -> None:
            self.log(f"dropped a {n}-byte line from the {side}: longer than {self.max_line}")
        return note

    # record-only: a byte-exact relay that tracks what it needs to record and answer crashes

    async def _on_client_line(self, line: bytes) -> bytes | None:
        """The bytes to forward: ``line`` itself, untouched (no gate: nothing is judged)."""
        # Every line is parsed (a copy): pending ids are needed to answer them if the server
        # crashes, and a cheap substring pre-filter could be fooled by JSON escapes.
        try:
            msg = _loads(line)
        except ValueError:
            return line  # not ours to judge (no gate): the server answers it with a parse error
        for m in (msg if isinstance(msg, list) else [msg]):
            if isinstance(m, dict):
                self._track_unjudged(m)
        return line

    def _track_unjudged(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if not isinstance(method, str):
            return
        if "id" not in msg:
            self._note_cancel(method, msg)
            return
        keys = id_keys(msg["id"])
        if not keys:
            return
        tool = None
        params = msg.get("params")
        if method == "tools/call":
            tool = params.get("name") if isinstance(params, dict) else None
            if not isinstance(tool, str):
                return  # malformed: the server rejects it
        old = self._find(keys)
        if old is not None:
            self._untrack(old)  # a reused id: the newer request owns it now
        p = _Pending(method, msg["id"], keys, tool=tool)
        self._track(p)
        if tool is not None and self.calllog is not None:
            # Written after the request is forwarded: the server starts on it meanwhile.
            assert isinstance(params, dict)
            self._to_record.append((p, tool, params.get("arguments"), msg["id"],
                                    self._definition_digest(tool)))

    def _definition_digest(self, tool: str) -> str | None:
        """Digest of the definition this call was made against: the last one the server listed
        through this proxy, taken when the call passes (``rerun`` re-sends a call only if this
        definition was approved and read-only). None when the proxy has not seen the tool
        listed, or saw it listed twice: such a call is never re-sent."""
        d = self.known.get(tool)
        if d is None or tool in self.ambiguous:
            return None
        hit = self._digests.get(tool)
        if hit is not None and hit[0] is d:
            return hit[1]
        from mcp_review.core.model import digest_of

        try:
            digest = digest_of(d)
        except (ValueError, TypeError):  # NaN, too deep: not a definition anyone approved
            return None
        self._digests[tool] = (d, digest)
        return digest

    def _note_cancel(self, method: str, msg: dict[str, Any]) -> None:
        if method != "notifications/cancelled":
            return
        params = msg.get("params")
        p = self._find(id_keys(params.get("requestId"))) if isinstance(params, dict) else None
        if p is not None:
            p.cancelled = True

    # --enforce: nothing reaches the server that the gate has not judged ---------------------

    async def _judge_client_line(self, line: bytes) -> bytes | None:
        """The proxy's own serialisation of what it judged and lets through, or None. A line it
        cannot parse strictly is never forwarded: answered with an error when its id can be
        read without guessing, else dropped and logged."""
        if not line.strip():
            return None
        try:
            msg = _strict_loads(line)
        except _Unjudgeable as e:
            rid = _salvage_id(line)
            self._drop_client(f"a line it cannot judge ({e})", len(line))
            if rid is not None:
                await self._send(self._error(rid, PARSE_ERROR, f"mcp-review proxy refused this "
                                             f"message: {e}. Nothing was forwarded."))
            return None
        if isinstance(msg, list):
            if not msg:
                self._drop_client("an empty batch", len(line))
                return None
            kept, answers = [], []
            for m in msg:
                fwd, answer = await self._judge_client_msg(m)
                if fwd is not None:
                    kept.append(fwd)
                if answer is not None:
                    answers.append(answer)
            if answers:
                # A batch (pre-2025-06-18 clients only): the proxy's answers go back as one.
                await self._send(answers)
            return self._serialise_client(kept) if kept else None
        fwd, answer = await self._judge_client_msg(msg)
        if answer is not None:
            await self._send(answer)
        return self._serialise_client(fwd) if fwd is not None else None

    def _serialise_client(self, msg: Any) -> bytes | None:
        try:
            return _wire(msg)
        except (TypeError, ValueError, RecursionError) as e:  # pragma: no cover - parsed above
            self._drop_client(f"a message it cannot re-serialise ({e})", 0)
            return None

    def _drop_client(self, what: str, size: int) -> None:
        self.dropped_lines += 1
        more = f" ({size} bytes)" if size else ""
        self.log(f"dropped from the client: {what}{more}; nothing was forwarded")

    def _error(self, rpc_id: Any, code: int, message: str) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}}

    async def _judge_client_msg(self, m: Any) -> tuple[Any, Any]:
        """(message to forward, answer to send back); either may be None."""
        if not isinstance(m, dict):
            self._drop_client("a JSON value that is not a JSON-RPC message", 0)
            return None, None
        has_id = "id" in m
        rid = m.get("id")
        usable = has_id and _usable_id(rid)

        def refuse(code: int, why: str) -> tuple[Any, Any]:
            if usable:
                self.log(f"refused a request (id {rid!r}): {why}")
                return None, self._error(rid, code, f"mcp-review proxy refused this request: "
                                                    f"{why}. Nothing was forwarded.")
            self._drop_client(why, 0)
            return None, None

        if m.get("jsonrpc") != "2.0":
            return refuse(INVALID_REQUEST, "not JSON-RPC 2.0")
        if "method" not in m:
            # A response to a request the server sent the client (sampling, roots, ping...).
            if not has_id or ("result" in m) == ("error" in m):
                self._drop_client("a message that is neither a request nor a response", 0)
                return None, None
            keys = id_keys(rid)
            hit = next((k for k in keys if k in self.server_requests), None)
            if hit is None:
                self._drop_client(f"a response (id {rid!r}) to no request the server sent", 0)
                return None, None
            for k in keys:
                self.server_requests.pop(k, None)
            return m, None
        method = m["method"]
        if not isinstance(method, str):
            return refuse(INVALID_REQUEST, "its method is not a string")
        if "result" in m or "error" in m:
            return refuse(INVALID_REQUEST, "it is both a request and a response")
        if not has_id:
            if not method.startswith("notifications/"):
                # A server might run a tools/call sent as a notification; nobody could answer it.
                self._drop_client(f"a {method!r} request without an id", 0)
                return None, None
            self._note_cancel(method, m)
            return m, None
        if not usable:
            self._drop_client(f"a {method!r} request whose id {_short(rid)} is not a string or "
                              f"an integer below 2**53", 0)
            return None, None
        keys = id_keys(rid)
        if self._find(keys) is not None:
            return refuse(INVALID_REQUEST, f"its id {rid!r} is already in use by a request that "
                                           "has not been answered (clients match 1 and \"1\" "
                                           "as one id)")
        if method != "tools/call":
            self._track(_Pending(method, rid, keys))
            return m, None
        params = m.get("params")
        tool = params.get("name") if isinstance(params, dict) else None
        if not isinstance(tool, str):
            return refuse(REFUSED_CODE, "a tools/call without a tool name")
        # Tracked while it is judged: if the server dies during the proxy's own tools/list,
        # the crash path answers this call too.
        p = _Pending(method, rid, keys, tool=tool)
        self._track(p)
        assert isinstance(params, dict)
        v = await self._verdict(tool, params)
        if not v.allowed:
            self._untrack(p)
            self.refused_calls += 1
            self.log(f"refused tools/call {tool!r}: {v.status}")
            return None, self._refusal(rid, tool, v)
        if self.calllog is not None:
            self._to_record.append((p, tool, params.get("arguments"), rid,
                                    self._definition_digest(tool)))
        return m, None

    async def _verdict(self, tool: str, params: dict[str, Any]) -> Verdict:
        assert self.gate is not None
        if tool in self.ambiguous:
            return Verdict(False, "ambiguous", "the server listed two tools with this name")
        d = self.known.get(tool)
        if d is None:
            # Not listed through this proxy yet (2026-07-28 clients call from a cached list):
            # judge it against a list the proxy fetches itself.
            why = await self._fetch_tools(params)
            if why is not None:
                return Verdict(False, "unverified",
                               f"the proxy could not fetch the server's tool list to check it "
                               f"against the pins: {why}")
            if tool in self.ambiguous:
                return Verdict(False, "ambiguous", "the server listed two tools with this name")
            d = self.known.get(tool)
            if d is None:
                return Verdict(False, "unlisted", "the server's tools/list does not include it")
        try:
            return self.gate.check([d]).get(tool) or Verdict(False, "unknown", "no verdict")
        except Exception as e:  # a broken pin file must fail closed, not crash the relay
            self.log(f"pin check failed: {e}")
            return Verdict(False, "error", f"the pin file could not be read: {e}")

    async def _fetch_tools(self, call_params: dict[str, Any]) -> str | None:
        """List the server's tools (every page) for the proxy itself; None on success, else why
        not. Its ids are strings with a random part, reserved in ``pending`` like any request,
        so no client id can take their replies; the replies are never relayed."""
        meta = call_params.get("_meta")
        envelope = {k: meta[k] for k in ENVELOPE_KEYS if isinstance(meta, dict) and k in meta}
        loop = asyncio.get_running_loop()
        tools: list[Any] = []
        cursor: Any = None
        for _ in range(FETCH_MAX_PAGES):
            params: dict[str, Any] = {"_meta": envelope} if envelope else {}
            if cursor is not None:
                params["cursor"] = cursor
            self._own_ids += 1
            rid = f"mcp-review-proxy/{self._nonce}/{self._own_ids}"
            p = _Pending("tools/list", rid, id_keys(rid), reply=loop.create_future())
            self._track(p)
            assert p.reply is not None
            await self._flush_to_server(_wire({"jsonrpc": "2.0", "id": rid, "method": "tools/list",
                                               "params": params}))
            try:
                reply = await asyncio.wait_for(p.reply, self.fetch_timeout)
            except TimeoutError:
                return f"no answer to tools/list within {self.fetch_timeout:g} s"
            finally:
                self._untrack(p)
            result = reply.get("result")
            if not isinstance(result, dict):
                err = reply.get("error")
                what = err.get("message") if isinstance(err, dict) else None
                return f"tools/list failed: {_short(what)}" if what else "tools/list failed"
            page = result.get("tools")
            if not isinstance(page, list):
                return "its tools/list result has no tools array"
            tools.extend(page)
            cursor = result.get("nextCursor")
            if cursor is None:
                self.log(f"fetched tools/list itself to judge a call: {len(tools)} tools")
                self._learn(tools)
                return None
            if not isinstance(cursor, str):
                return "its tools/list gave a nextCursor that is not a string"
        return f"its tools/list ran past {FETCH_MAX_PAGES} pages"

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
        # Scrubbed before the cut (log() scrubs again): a secret cut in half no longer matches.
        text = line[:4096].decode("utf-8", "replace").rstrip("\r\n")
        if self.scrub is not None:
            text = self.scrub(text)
        text = text[:200]
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
        if self.gate is not None:
            return self._judge_server_line(line, msg)
        if isinstance(msg, dict):
            if msg.get("jsonrpc") != "2.0":
                self._noise(line, "not JSON-RPC 2.0")
                return None
            self._on_server_msg(msg)
        elif isinstance(msg, list) and msg and all(isinstance(m, dict) for m in msg):
            for m in msg:
                self._on_server_msg(m)
        else:
            self._noise(line, "not a JSON-RPC message")
            return None
        return line if line.endswith(b"\n") else line + b"\n"

    def _on_server_msg(self, msg: dict[str, Any]) -> None:
        """Record-only: note a response to a tracked request (nothing is changed)."""
        if "method" in msg or "id" not in msg:
            return  # a server request or notification: nothing to track
        p = self._find(id_keys(msg["id"]))
        if p is None:
            return
        self._untrack(p)
        self._on_reply(p, msg)

    def _on_reply(self, p: _Pending, msg: dict[str, Any]) -> None:
        result = msg.get("result")
        if p.method == "tools/call":
            if self.calllog is not None and self.calllog.results_path and p.tool and p.call_time:
                try:
                    self.calllog.record_result(p.tool, msg["id"], p.call_time, msg)
                except (OSError, ValueError) as e:
                    self.log(f"cannot write the results log: {e}")
        elif p.method == "initialize":
            # A legacy session: the proxy may tell the client to re-list when an approval
            # changes what it would see, if the server declared that notification.
            caps = result.get("capabilities") if isinstance(result, dict) else None
            tools_cap = caps.get("tools") if isinstance(caps, dict) else None
            self._can_notify = isinstance(tools_cap, dict) and tools_cap.get("listChanged") is True
        if p.method == "tools/list" and isinstance(result, dict) \
                and isinstance(result.get("tools"), list):
            self._learn(result["tools"])

    # --enforce: the client sees only replies to what it asked, tool lists filtered ----------

    def _judge_server_line(self, line: bytes, msg: Any) -> bytes | None:
        """Under --enforce every server message the client gets is the proxy's serialisation of
        what it judged: a reply is matched to the request as clients match ids (and carries the
        client's id back), every reply whose result holds a ``tools`` array is filtered, and a
        reply to an id the proxy did not forward is dropped."""
        if isinstance(msg, list):
            if not msg:
                self._noise(line, "an empty batch")
                return None
            kept = [k for m in msg if (k := self._judge_server_msg(line, m)) is not None]
            return _wire(kept) if kept else None
        kept1 = self._judge_server_msg(line, msg)
        return _wire(kept1) if kept1 is not None else None

    def _judge_server_msg(self, line: bytes, m: Any) -> dict[str, Any] | None:
        if not isinstance(m, dict) or m.get("jsonrpc") != "2.0":
            self._noise(line, "not JSON-RPC 2.0")
            return None
        if "method" in m:
            if not isinstance(m["method"], str) or "result" in m or "error" in m:
                self._noise(line, "neither a request, a notification nor a response")
                return None
            if "id" in m:
                keys = id_keys(m["id"])
                if not keys:
                    self._noise(line, "a server request with an id no client can answer")
                    return None
                for k in keys:
                    self.server_requests[k] = m["id"]
            return m
        if "id" not in m or ("result" in m) == ("error" in m):
            self._noise(line, "a response with no id, or with both or neither of result/error")
            return None
        p = self._find(id_keys(m["id"]))
        if p is None:
            self._noise(line, f"a reply to id {_short(m['id'])}, which the proxy did not forward")
            return None
        self._untrack(p)
        if p.reply is not None:  # the proxy's own tools/list: never relayed
            if not p.reply.done():
                p.reply.set_result(m)
            return None
        m["id"] = p.rpc_id  # what the client sent, so every client matches it alike
        self._on_reply(p, m)
        result = m.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            # Whatever was asked: a client that reads a tool list from this reply must not
            # find a withheld tool in it.
            self._filter_list(result, listed=p.method == "tools/list")
        if isinstance(result, dict) and "instructions" in result:
            # initialize / server/discover, or any reply that carries them: only approved
            # instructions reach the client (and so the model).
            self._gate_instructions(result, p.method)
        return m

    def _gate_instructions(self, result: dict[str, Any], method: str) -> None:
        """Replace the server's ``instructions`` by what the gate approves: the same text when
        it is the approved one, the approved text when the server changed it, nothing when none
        was approved. Fail closed: no gate method, an error, or anything else: removed."""
        live = result["instructions"]
        judge = getattr(self.gate, "instructions", None)
        try:
            send, why = judge(live) if judge is not None else (None, "the gate cannot judge them")
        except Exception as e:
            send, why = None, f"pin check failed: {e}"
        if send is None:
            del result["instructions"]
        else:
            result["instructions"] = send
        if why:
            self.log(f"{method}: server instructions {why}")

    def _learn(self, tools: list[Any]) -> None:
        """Remember the server's definitions (withheld ones too) to judge calls against."""
        counts: dict[str, int] = {}
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                counts[t["name"]] = counts.get(t["name"], 0) + 1
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                name = t["name"]
                if counts[name] > 1:
                    self.ambiguous.add(name)
                    self.known.pop(name, None)
                else:
                    self.ambiguous.discard(name)
                    self.known[name] = t

    def _filter_list(self, result: dict[str, Any], *, listed: bool) -> None:
        tools = result["tools"]
        counts: dict[str, int] = {}
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                counts[t["name"]] = counts.get(t["name"], 0) + 1
        judged = [t for t in tools if isinstance(t, dict) and counts.get(t.get("name"), 0) == 1]
        judged_ids = {id(t) for t in judged}
        assert self.gate is not None
        try:
            verdicts = self.gate.check(judged)
        except Exception as e:  # fail closed: a list nobody can vouch for shows nothing
            self.log(f"pin check failed, withholding every tool: {e}")
            verdicts = {t["name"]: Verdict(False, "error", f"pin check failed: {e}")
                        for t in judged}
        kept: list[Any] = []
        hidden: list[str] = []
        for t in tools:
            if id(t) in judged_ids:
                v = verdicts.get(t["name"]) or Verdict(False, "unknown", "no verdict")
            elif isinstance(t, dict) and isinstance(t.get("name"), str):
                v = Verdict(False, "ambiguous", "the server listed two tools with this name")
            else:
                v = Verdict(False, "invalid", "not a tool definition")
            if v.allowed:
                kept.append(t)
                continue
            hidden.append(t["name"] if isinstance(t, dict) and isinstance(t.get("name"), str)
                          else "?")
            if self.mode == "mark" and isinstance(t, dict) and isinstance(t.get("name"), str):
                t2 = dict(t)
                why = f" ({v.reason})" if v.reason else ""
                desc = t.get("description")
                t2["description"] = (
                    f"{WARNING_PREFIX}: '{t['name']}' is {v.status}{why} and calls to it are "
                    f"refused until an operator approves it with `mcp-review`.\n\n"
                    + (desc if isinstance(desc, str) else ""))
                kept.append(t2)
        if listed:
            with contextlib.suppress(Exception):  # already failed closed above
                self._advertised = self._allowed_now(verdicts_too=verdicts)
        if hidden:
            self.log(f"{'tools/list' if listed else 'a reply carrying tools'}: "
                     f"{'marked' if self.mode == 'mark' else 'withheld'} "
                     f"{[_short(n, 60) for n in hidden]}")
            result["tools"] = kept


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
        # A pin whose digest does not verify is kept aside (never trusted): its tool is withheld
        # with the reason, the others are judged as usual.
        self._pins = load_pins(self.pins_path, allow_unverified=True)
        self._sig = sig
        self._cache.clear()
        # Recorded calls decide "broken"; they are re-read with the pins, not on every call.
        self._calls = None
        if self.calls_path and os.path.exists(self.calls_path):
            from mcp_review.core.status import load_call_log

            self._calls = load_call_log(self.calls_path)
        self.reloads += 1

    def instructions(self, live: Any) -> tuple[Any, str]:
        """What the client may receive for the server's ``instructions`` (None: remove the
        key), and why it differs from what the server sent ("" when it does not).

        A server that sends none (``""``) passes as is. Otherwise only the approved text
        passes: the same text when unchanged, the approved text in place of a changed one;
        new, denied or unverified instructions (and a non-string value) are removed."""
        from mcp_review.core.instructions import instructions_digest, live_text

        if isinstance(live, str) and live == "":
            return live, ""
        self._refresh()
        pin = self._pins.instructions.get((self.server, self.principal))
        if (self.server, self.principal) in self._pins.unverified_instructions:
            return None, "withheld: their pin does not verify"
        text = live_text(live)
        if text is None:
            return None, "withheld: not a string"
        if pin is None:
            return None, "withheld: new, never approved (mcp-review approve SERVER --instructions)"
        if not pin.approved:
            if pin.digest == instructions_digest(text):
                return None, "withheld: denied by the operator"
            return None, "withheld: changed since they were denied"
        if pin.digest == instructions_digest(text):
            return text, ""
        return pin.text, "changed since approved: the approved text was passed instead"

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
            bad = self._pins.unverified.get((self.server, self.principal, d.name))
            if bad is not None:
                verdicts[i] = Verdict(False, "unverified pin", f"its pin does not verify: {bad[1]}")
                continue
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
