"""One connection to one MCP server, shared by fetch, watch, rerun and the proxy: ``connect``
opens a connected ``mcp.Client`` (stdio, Streamable HTTP, SSE or in-process) whose faults a
``Probe`` notes; ``classify`` names what went wrong (one of ``ERROR_KINDS``); ``ServerStderr``
keeps a stdio server's stderr, capped, scrubbed and rotated, in its log.

The ``mcp`` package is imported inside functions only: importing it costs ~1.8 s of CPU.
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import datetime as _dt
import logging
import os
import re
import tempfile
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO, cast

from mcp_review.services.config import ServerConfig

ERROR_KINDS = (
    "spawn-failed",  # the command could not be started (not found, not executable)
    "exited",  # the process ended / closed the connection before answering
    "timed-out",  # no complete answer within the server's timeout
    "unauthorized",  # HTTP 401/403 (missing or wrong token)
    "not-an-mcp-server",  # HTTP 404/HTML, method not found, non-JSON on stdout
    "malformed-tool-list",  # the list does not validate (names the tool index and field)
    "flood",  # more tools or pages than the caps allow
    "refused",  # nothing listening / host unreachable
    "protocol-error",  # any other MCP error
    "internal-error",  # a bug on our side; the message says what
)

DISCOVER_PROBE_SECONDS = 3.0
"""The SDK's ``server/discover`` probe waits 10 s on a legacy server that ignores unknown
requests. 3 s is plenty for a live modern server; on expiry "auto" falls back to initialize."""


class FetchError(Exception):
    """A classified failure: ``kind`` is one of ``ERROR_KINDS``."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass(slots=True)
class Probe:
    """What the transports saw, for classifying a failure afterwards."""

    http_status: int | None = None
    http_content_type: str | None = None
    garbage: list[str] = field(default_factory=list)
    stderr: IO[str] | None = None
    bad_utf8: str | None = None
    """Set (by the decoder's error handler) when the server wrote bytes that are not UTF-8."""


# --- quieting the SDK ----------------------------------------------------------------------


_prepared = False


def _prepare_sdk() -> None:
    global _prepared
    if _prepared:
        return
    # Each non-JSON stdout line would log a traceback on the terminal (crib §1).
    logging.getLogger("mcp").setLevel(logging.CRITICAL)
    # httpx2 logs each request URL at INFO; a URL may carry a token in its query.
    for name in ("httpx2", "httpcore", "httpcore2"):
        logging.getLogger(name).setLevel(logging.WARNING)
    import mcp.client.session as _session

    # Read at call time by the SDK, so setting it once here bounds every probe.
    _session.DISCOVER_TIMEOUT_SECONDS = min(
        _session.DISCOVER_TIMEOUT_SECONDS, DISCOVER_PROBE_SECONDS
    )
    _prepared = True


# --- invalid UTF-8 on stdio ----------------------------------------------------------------

# The SDK decodes a stdio server's stdout strictly, and a decoding error leaves its reader
# draining until the whole timeout runs out. Decoding with this handler instead notes the
# first bad byte on the connection's probe (found through a context variable: the reader task
# is started inside ``connect`` and inherits it) and substitutes U+FFFD; the read stream then
# fails the connection at the next message, so the server is reported at once.
_UTF8_ERRORS = "mcp-review-invalid-utf8"
_utf8_probe: contextvars.ContextVar[Probe | None] = contextvars.ContextVar(
    "mcp_review_utf8_probe", default=None
)


def _on_invalid_utf8(e: UnicodeError) -> tuple[str, int]:
    probe = _utf8_probe.get()
    if isinstance(e, UnicodeDecodeError) and probe is not None and probe.bad_utf8 is None:
        bad = bytes(e.object[e.start : e.end])[:8]
        probe.bad_utf8 = f"byte{'s' if len(bad) > 1 else ''} {bad.hex(' ')}"
    return "\ufffd", e.end  # type: ignore[attr-defined]


codecs.register_error(_UTF8_ERRORS, _on_invalid_utf8)


def _check_utf8(probe: Probe) -> None:
    if probe.bad_utf8 is not None:
        raise FetchError(
            "protocol-error",
            f"the server wrote invalid UTF-8 on stdout "
            f"({probe.bad_utf8}); MCP messages are UTF-8 JSON",
        )


# --- the server's stderr log -----------------------------------------------------------------

STDERR_RUN_CAP = 256 * 1024
"""Bytes of one connection's stderr kept in the log; the rest is drained and dropped."""
STDERR_FILE_CAP = 1024 * 1024
"""A log that could grow past this with one more run is rotated to ``<name>.stderr.log.1``
first (one old generation kept), so a server's logs never take more than twice this."""


_CARRY_MAX = 64 * 1024
"""A stderr line longer than this is scrubbed and written in pieces."""


class ServerStderr:
    """A server's stderr: a pipe the child writes to, copied by a thread into the log up to
    ``STDERR_RUN_CAP`` bytes per connection (a flooding server neither fills the disk nor
    blocks on a full pipe). Passed to the SDK as ``errlog`` (it needs ``fileno()``).

    ``scrub`` (``ServerConfig.scrub``) is applied to each line before it is written: a server
    that prints the token it was given (``--api-key X``, ``API_KEY``) leaves ``***`` on disk."""

    def __init__(
        self,
        sink: IO[bytes],
        run_cap: int = STDERR_RUN_CAP,
        scrub: Callable[[str], str] | None = None,
    ):
        self._sink = sink
        self._scrub = scrub
        self._start = sink.tell()
        self._cap = run_cap
        self._own_sink = False
        r, w = os.pipe()
        self._r = r
        self._w: int | None = w
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._pump, name="mcp-review-stderr", daemon=True)
        self._thread.start()

    def fileno(self) -> int:
        if self._w is None:
            raise ValueError("the stderr pipe is closed")
        return self._w

    def write(self, s: str) -> int:  # the SDK never writes; file-like for anyone who does
        os.write(self.fileno(), s.encode("utf-8", "replace"))
        return len(s)

    def flush(self) -> None:
        pass

    def _pump(self) -> None:
        kept = 0
        cut = False
        carry = b""

        def emit(data: bytes) -> None:
            nonlocal kept, cut
            if self._scrub is not None:
                data = self._scrub(data.decode("utf-8", "surrogateescape")).encode(
                    "utf-8", "surrogateescape"
                )
            room = self._cap - kept
            if room > 0:
                part = data[:room]
                with self._lock:
                    self._sink.write(part)
                    self._sink.flush()
                kept += len(part)
            if len(data) > max(room, 0) and not cut:
                cut = True
                with self._lock:
                    self._sink.write(
                        f"\n--- stderr cut at {self._cap} bytes by mcp-review ---\n".encode()
                    )
                    self._sink.flush()

        try:
            while True:
                chunk = os.read(self._r, 65536)
                if not chunk:
                    break
                if cut:
                    continue  # past the cap: drained, neither scrubbed nor kept
                if self._scrub is None:
                    emit(chunk)
                    continue
                # Whole lines only, so a secret split across two reads is still matched.
                data = carry + chunk
                end = data.rfind(b"\n") + 1
                if end == 0 and len(data) > _CARRY_MAX:
                    end = len(data)
                carry = data[end:]
                if end:
                    emit(data[:end])
            if carry and not cut:
                emit(carry)
        except (OSError, ValueError):
            pass
        finally:
            os.close(self._r)
            if self._own_sink:
                with self._lock, contextlib.suppress(OSError):
                    self._sink.close()

    def release(self) -> None:
        """Hand the pipe over to the spawned child: close our end only. The copy thread runs
        until the child's end closes too, then closes the log itself (the proxy's way)."""
        self._own_sink = True
        if self._w is not None:
            os.close(self._w)
            self._w = None

    def join(self, wait: float) -> None:
        """Wait (at most ``wait`` s) for the copy thread to reach the end of the stream."""
        self._thread.join(wait)

    def _finish(self, wait: float = 2.0) -> None:
        if self._w is not None:
            os.close(self._w)
            self._w = None
        # EOF arrives once the (stopped) server's end is closed too; a grandchild that keeps
        # it open costs at most ``wait``.
        self._thread.join(wait)

    def text(self) -> str:
        """What this connection's server wrote (up to the cap), decoded leniently."""
        self._finish()
        with self._lock:
            try:
                self._sink.flush()
                end = self._sink.seek(0, os.SEEK_END)
                self._sink.seek(max(self._start, end - 4000))
                data = self._sink.read()
                self._sink.seek(0, os.SEEK_END)
            except (OSError, ValueError):
                return ""
        return data.decode("utf-8", "replace")

    def close(self) -> None:
        self._finish()
        with self._lock:
            self._sink.close()


# --- connecting ----------------------------------------------------------------------------


def log_path(log_dir: str | os.PathLike[str], server: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", server) or "_"
    return Path(log_dir) / f"{safe}.stderr.log"


class _WatchedRead:
    """Wraps a transport's read stream to note non-JSON lines (the SDK only logs them)."""

    def __init__(self, inner: Any, probe: Probe):
        self._inner = inner
        self._probe = probe

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> _WatchedRead:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    def __aiter__(self) -> _WatchedRead:
        return self

    async def __anext__(self) -> Any:
        return self._seen(await self._inner.__anext__())

    async def receive(self) -> Any:
        return self._seen(await self._inner.receive())

    def _seen(self, item: Any) -> Any:
        # A message decoded from invalid UTF-8 is never delivered: the connection fails here.
        _check_utf8(self._probe)
        if isinstance(item, Exception) and len(self._probe.garbage) < 3:
            self._probe.garbage.append(_garbage_text(item))
        return item


def _garbage_text(e: Exception) -> str:
    # pydantic's JSON error carries the offending line as input_value.
    m = re.search(r"input_value=(['\"])(.*?)\1, input_type", str(e))
    # Kept long: it is cut to 80 characters only after secrets are scrubbed (classify).
    return m.group(2)[:4000] if m else type(e).__name__


@contextlib.asynccontextmanager
async def _watched(transport: Any, probe: Probe) -> AsyncIterator[Any]:
    async with transport as (read, write):
        yield _WatchedRead(read, probe), write


def _http_client(cfg: ServerConfig, probe: Probe, timeout: float) -> Any:
    import httpx2

    async def on_response(response: Any) -> None:
        # The SDK turns a 401 into a bare -32603; keep the status to say "unauthorized".
        if response.status_code >= 400 or probe.http_status is None:
            probe.http_status = response.status_code
            probe.http_content_type = response.headers.get("content-type")

    auth = None
    if cfg.token_file is not None and os.path.lexists(cfg.token_file):
        # `mcp-review login` stored OAuth tokens: sent, and refreshed when they expired.
        from mcp_review.services.oauth import NoUsableToken, StoredTokenAuth, make_auth

        try:
            auth = make_auth(StoredTokenAuth(cfg.token_file, cfg.name, cfg.url), lambda _why: None)
        except (NoUsableToken, ValueError):
            auth = None  # the server's 401 says "unauthorized", as without a token
    return httpx2.AsyncClient(
        headers=dict(cfg.headers),
        auth=auth,
        event_hooks={"response": [on_response]},
        timeout=httpx2.Timeout(timeout, read=max(timeout, 30.0)),
        follow_redirects=True,
    )


@contextlib.asynccontextmanager
async def connect(
    cfg: ServerConfig,
    *,
    errlog: TextIO | ServerStderr | None = None,
    message_handler: Any = None,
    probe: Probe | None = None,
) -> AsyncIterator[Any]:
    """Open one connected ``mcp.Client`` for ``cfg`` (cache off, stderr to ``errlog``)."""
    _prepare_sdk()
    from mcp import Client, StdioServerParameters

    probe = probe if probe is not None else Probe()
    kw: dict[str, Any] = {"mode": cfg.mode, "cache": None, "message_handler": message_handler}
    if cfg.target is not None:
        async with Client(cfg.target, **kw) as c:
            yield c
        return
    if cfg.transport == "stdio":
        from mcp.client.stdio import stdio_client

        assert cfg.command is not None
        params = StdioServerParameters(
            command=cfg.command, args=list(cfg.args), env=dict(cfg.env) or None, cwd=cfg.cwd
        )
        # The field is a Literal of the standard handlers; model_copy sets ours unvalidated.
        params = params.model_copy(update={"encoding_error_handler": _UTF8_ERRORS})
        # Never the terminal: the SDK default is sys.__stderr__, which garbles a TUI.
        err = errlog if errlog is not None else open(os.devnull, "w")
        token = _utf8_probe.set(probe)
        try:
            # The SDK declares TextIO but only hands errlog to the child process: fileno() is
            # all it uses, which ServerStderr provides.
            sdk_err = cast("TextIO", err)
            async with Client(_watched(stdio_client(params, errlog=sdk_err), probe), **kw) as c:
                yield c
        finally:
            _utf8_probe.reset(token)
            if errlog is None:
                err.close()
        return
    assert cfg.url is not None
    if cfg.transport == "sse":
        from mcp.client.sse import sse_client

        def factory(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
            return _http_client(cfg, probe, cfg.timeout)

        transport = sse_client(cfg.url, headers=dict(cfg.headers), httpx_client_factory=factory)
        async with Client(transport, **kw) as c:
            yield c
        return
    from mcp.client.streamable_http import streamable_http_client

    async with _http_client(cfg, probe, cfg.timeout) as http:
        async with Client(streamable_http_client(cfg.url, http_client=http), **kw) as c:
            yield c


# --- the stderr log of one run ---


def open_stderr_log(path: str | os.PathLike[str], run_cap: int = STDERR_RUN_CAP) -> IO[bytes]:
    """Open a server's stderr log for appending, first rotating it to ``<name>.1`` when this
    run could take it past ``STDERR_FILE_CAP`` (fetch, watch and the proxy share the file).

    The log holds whatever the server printed (tokens, paths, its users' data), so like the
    call log it is the user's alone: created 0600 (a folder it makes, 0700) whatever the umask,
    and a log left readable by an earlier version is tightened (its rotated copy too)."""
    path = Path(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        if path.stat().st_size + run_cap + 512 > STDERR_FILE_CAP:
            rotated = path.with_name(path.name + ".1")
            os.replace(path, rotated)
            with contextlib.suppress(OSError):
                os.chmod(rotated, 0o600)
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    with contextlib.suppress(OSError):  # not ours to change (another owner): still written
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    return os.fdopen(fd, "a+b")


def open_errlog(cfg: ServerConfig, log_dir: str | os.PathLike[str] | None) -> ServerStderr | None:
    if cfg.transport != "stdio" or cfg.target is not None:
        return None
    if log_dir is None:
        return ServerStderr(tempfile.TemporaryFile("w+b"), scrub=cfg.scrub)
    f = open_stderr_log(log_path(log_dir, cfg.name))
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    f.write(f"--- {stamp} mcp-review connect {cfg.name} ---\n".encode("utf-8", "backslashreplace"))
    f.flush()
    return ServerStderr(f, scrub=cfg.scrub)


def stderr_tail(
    f: ServerStderr | None, limit: int = 300, scrub: Callable[[str], str] | None = None
) -> str:
    """The last lines the server wrote to stderr in this run, at most ``limit`` characters,
    scrubbed by ``scrub`` *before* the cut (a secret cut in half no longer matches)."""
    if f is None:
        return ""
    text = f.text()
    if scrub is not None:
        text = scrub(text)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("--- ")]
    tail = " | ".join(lines[-3:])
    return tail[-limit:]


# --- what went wrong ---


def scrub_json(value: Any, scrub: Callable[[str], str]) -> Any:
    """``value`` (JSON data) with every string in it, keys included, passed through ``scrub``."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {
            scrub(k) if isinstance(k, str) else k: scrub_json(v, scrub) for k, v in value.items()
        }
    if isinstance(value, list):
        return [scrub_json(v, scrub) for v in value]
    return value


def server_info_of(client: Any, cfg: ServerConfig) -> dict[str, Any] | None:
    """What the server says about itself (``serverInfo``) as JSON, scrubbed of ``cfg``'s
    secrets: a server may echo the token it was given as its name or version, and this goes
    into snapshots, pin files and every report."""
    info = client.server_info
    if info is None:
        return None
    scrubbed: dict[str, Any] = scrub_json(
        info.model_dump(by_alias=True, exclude_none=True, mode="json"), cfg.scrub
    )
    return scrubbed


def leaves(e: BaseException) -> Iterable[BaseException]:
    """Flatten the SDK's nested exception groups into their leaf exceptions."""
    if isinstance(e, BaseExceptionGroup):
        for x in e.exceptions:
            yield from leaves(x)
    else:
        yield e


def classify(e: BaseException, cfg: ServerConfig, probe: Probe) -> tuple[str, str]:
    """Map an exception (or group) from connecting/listing to ``(kind, message)``."""
    import httpx2
    from mcp import MCPError

    found = list(leaves(e))
    for x in found:
        if isinstance(x, FetchError):
            return x.kind, x.message
    status = probe.http_status
    if status in (401, 403):
        return "unauthorized", (
            f"HTTP {status} from {cfg.display_target}: "
            + ("missing or rejected credentials" if status == 401 else "forbidden")
            + " (check the headers/token)"
        )
    for x in found:
        if isinstance(x, TimeoutError):
            break
        if isinstance(x, (FileNotFoundError, PermissionError)) or (
            isinstance(x, OSError) and cfg.transport == "stdio" and not isinstance(x, TimeoutError)
        ):
            return "spawn-failed", f"cannot start {cfg.command!r}: {x.strerror or x}"
        if isinstance(x, httpx2.ConnectError):
            return "refused", f"cannot connect to {cfg.display_target}: {first_line(x, cfg)}"
        if isinstance(x, httpx2.TimeoutException):
            return "timed-out", f"no answer from {cfg.display_target} within {cfg.timeout:g} s"
        if isinstance(x, httpx2.HTTPError):
            return "refused", f"HTTP failure talking to {cfg.display_target}: {first_line(x, cfg)}"
    if probe.garbage:
        first = cfg.scrub(probe.garbage[0])[:80]
        return "not-an-mcp-server", (
            f"printed non-JSON on stdout (first: {first!r}); stdout must carry only JSON-RPC"
        )
    if status == 404:
        return "not-an-mcp-server", f"HTTP 404 at {cfg.display_target}: no MCP endpoint there"
    ctype = (probe.http_content_type or "").split(";")[0].strip()
    if status is not None and status >= 400 and ctype in ("text/html", "text/plain"):
        return "not-an-mcp-server", f"HTTP {status} ({ctype}) from {cfg.display_target}"
    for x in found:
        if isinstance(x, TimeoutError):
            return "timed-out", f"no complete answer within {cfg.timeout:g} s"
        if isinstance(x, MCPError):
            code = getattr(x, "code", None)
            if code is None and getattr(x, "error", None) is not None:
                code = x.error.code
            if code == -32000 or "connection closed" in str(x).lower():
                what = (
                    "the process exited"
                    if cfg.transport == "stdio"
                    else "the server closed the connection"
                )
                return "exited", f"{what} before answering"
            if code == -32001:
                return "timed-out", f"request timed out: {first_line(x, cfg)}"
            if code == -32601:
                return (
                    "not-an-mcp-server",
                    f"method not found: {first_line(x, cfg)} (is this an MCP server?)",
                )
            if code == -32600 and ctype == "text/html":
                return "not-an-mcp-server", f"{cfg.display_target} answered with HTML"
            if status is not None and status >= 400:
                return "protocol-error", f"HTTP {status}: {first_line(x, cfg)}"
            return "protocol-error", f"MCP error {code}: {first_line(x, cfg)}"
        if isinstance(x, (anyio_closed_types())):
            return "exited", "the connection closed before answering"
        if isinstance(x, RuntimeError) and "protocol version" in str(x).lower():
            return "protocol-error", first_line(x, cfg)
    x = found[0] if found else e
    return "internal-error", f"{type(x).__name__}: {first_line(x, cfg)}"


def anyio_closed_types() -> tuple[type[BaseException], ...]:
    import anyio

    return (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)


def first_line(x: BaseException, cfg: ServerConfig | None = None) -> str:
    """The first line of an exception's message, scrubbed of ``cfg``'s secrets before the cut."""
    text = str(x)
    if cfg is not None:
        text = cfg.scrub(text)
    s = text.strip().splitlines()
    return s[0][:300] if s else type(x).__name__
