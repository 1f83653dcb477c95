"""The relay: one client <-> one server, both directions as tasks of one anyio task group.
Record-only it forwards the exact bytes of every line it can log as the server will read it;
with a gate (``--enforce``) it judges every message."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import anyio

from mcp_review.services.proxy.enforce import Enforcer
from mcp_review.services.proxy.framing import (
    MAX_LINE,
    Unjudgeable,
    id_keys,
    read_line_batches,
    relay_loads,
    relay_read,
    salvage_id,
    short,
    strict_loads,
    usable_id,
    wire,
)
from mcp_review.services.proxy.gcpause import PAUSE_LIMIT, collector_paused
from mcp_review.services.proxy.hold import TASK_REFUSED, Hold
from mcp_review.services.proxy.process import (
    STDIN_GRACE,
    ClientIn,
    ClientOut,
    ClientReader,
    ClientWriter,
)
from mcp_review.services.proxy.recorder import LARGE, Entry, Recorder
from mcp_review.services.proxy.recorder_child import count_unrecorded
from mcp_review.services.proxy.relay_common import (
    CRASH_CODE,
    EXIT_OK,
    EXIT_SERVER_GONE,
    FETCH_TIMEOUT,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    REFUSED_CODE,
    Pending,
    starts_listing,
    ui_resource_uri,
)
from mcp_review.services.proxy.relay_gate import GateSide
from mcp_review.services.proxy.upstream import StdioUpstream, Upstream, UpstreamError
from mcp_review.store.calllog import CallLog, now_iso

_MAYBE_BLANK = (b"", b" ", b"\t", b"\r", b"\n")
"""A line's first byte when it may hold no message (spaces and tabs before its end)."""

# The proxy ----------------------------------------------------------------------------------


class Proxy(GateSide):
    """One client ↔ one server. ``await run()`` returns the proxy's exit code.

    Without a gate every line is forwarded as the exact bytes received, except that a
    non-JSON-RPC line on the server's stdout is dropped (it would corrupt the client's stream)
    and a client line the proxy cannot log as the server will read it (a lone ``\\r``, invalid
    UTF-8, not JSON to the proxy) is refused.
    With a gate (``--enforce``) the proxy fails closed both ways: a client line is parsed
    strictly and forwarded as the proxy's own serialisation of what it judged (a ``tools/call``
    to a withheld tool, a line it cannot parse, an id already pending: answered or dropped,
    never forwarded); a server reply is matched to its request as clients match ids, dropped if
    the proxy did not forward that request, and filtered whenever its result holds ``tools``.
    """

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        name: str,
        upstream: Upstream | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        calllog: CallLog | None = None,
        gate: Enforcer | None = None,
        mode: str = "withhold",
        server_log: str | None = None,
        diag: TextIO | None = None,
        max_line: int = MAX_LINE,
        fetch_timeout: float = FETCH_TIMEOUT,
        scrub: Callable[[str], str] | None = None,
        label: str | None = None,
        record_aside: dict[str, Any] | None = None,
    ):
        """``record_aside``: record-only, large calls are recorded by a child process
        (``recorder.spec_for``; ignored with a gate or without a call log)."""
        if mode not in ("withhold", "mark"):
            raise ValueError(f"mode must be withhold or mark, not {mode!r}")
        if (command is None) == (upstream is None):
            raise ValueError("give the server's command or an upstream, not both or neither")
        self.name = name
        self.label = label or name
        """How the log names this relay (the HTTP front adds the session's number)."""
        self.upstream: Upstream = (
            upstream
            if upstream is not None
            else StdioUpstream(command or (), env=env, cwd=cwd, server_log=server_log, scrub=scrub)
        )
        """The server, whatever its transport (``upstream.Upstream``)."""
        self.calllog = calllog
        self.gate = gate
        self.mode = mode
        self.diag = diag if diag is not None else sys.stderr
        self.scrub = scrub
        """Removes the secrets the server was given (``ServerConfig.scrub``) from every line the
        proxy logs: MCP clients keep the proxy's stderr as the server's log file."""
        self.max_line = max_line
        self.fetch_timeout = fetch_timeout
        self.pending: dict[tuple[str, Any], Pending] = {}
        """Requests sent to the server and not answered yet, under every key of ``id_keys``."""
        self.server_requests: dict[tuple[str, Any], Any] = {}
        """Ids of requests the server sent the client and that are not answered yet."""
        self.known: dict[str, dict[str, Any]] = {}
        self.surfaces_seen: dict[tuple[str, str], str] = {}
        """Digests of the prompts, resources and templates the server last listed through this
        relay, by (kind, name or URI) (a get or read of a changed one is refused)."""
        """Latest definition of every tool the server listed (withheld ones included)."""
        self.ambiguous: set[str] = set()
        """Names the server listed twice in one list (or on two pages of one listing): which
        one a client uses is anyone's guess."""
        self.listing: set[str] = set()
        """Names on the pages of the client's current listing so far (from its last tools/list
        without a cursor): a name listed again on a later page is ambiguous."""
        self.dropped_lines = 0
        self._own_ids = 0
        self._nonce = os.urandom(12).hex()
        self._c2s_out: list[bytes] = []
        self._to_record: list[
            tuple[Pending, str, Any, Any, str | None, bytes, int | None, bool]
        ] = []
        """Record-only: calls of the batch being forwarded (each with its line, its index in a
        batch, and whether the line's message is orjson's reading: framing.relay_read), handed
        to the recorder before it is written or recorded once it is."""
        self._line_now: tuple[bytes, int | None, bool] = (b"", None, False)
        self._recorder = (
            Recorder(record_aside, self.log, self._record_line)
            if record_aside is not None and calllog is not None and gate is None
            else None
        )
        """Record-only: the child process recording large calls (recorder.py)."""
        self._server_gone = False
        self.client_eof = False
        self.noise_lines = 0
        self.refused_calls = 0
        self._out: ClientWriter | None = None
        self.unrecorded_calls = 0
        """Calls forwarded record-only while the call log could not be written."""
        self._digests: dict[str, tuple[dict[str, Any], str]] = {}
        """Digest of each tool's latest listed definition (cached per definition object)."""
        self._can_notify = False
        self._advertised: frozenset[tuple[str, str]] | None = None
        """What the client was last shown (withheld ones excluded): each name with the digest
        of the approved definition served in its place when held ("" when the server's own
        definition is relayed), for list_changed (an approval that ends a hold changes it)."""
        self.held: dict[str, tuple[str, str, str]] = {}
        """Tools held now: name -> (approved digest, live digest, since), for the state file."""
        self._held_written: dict[str, tuple[str, str, str]] = {}
        self._held_at = 0.0
        self._held_file = False
        """This proxy wrote the state file (removed at exit, even when it holds nothing now)."""
        self._signal: int | None = None
        self._signals = True

    # diagnostics go to the proxy's stderr, which MCP clients keep as the server's log
    def log(self, msg: str) -> None:
        with contextlib.suppress(Exception):
            if self.scrub is not None:
                msg = self.scrub(msg)
            self.diag.write(f"mcp-review proxy [{self.label}]: {msg}\n")
            self.diag.flush()

    async def run(
        self,
        stdin_fd: int = 0,
        stdout_fd: int = 1,
        *,
        client: tuple[ClientReader, ClientWriter] | None = None,
        signals: bool = True,
    ) -> int:
        """Relay until the client leaves (0), the server goes (3) or a signal arrives (128+N).

        ``client``: the client's two streams when they are not file descriptors (the HTTP
        front feeds each session's relay from memory: the same judging, one relay per
        session). ``signals=False``: the caller handles SIGTERM/SIGINT/SIGHUP (it ends the
        client's stream instead), so several relays can share one process.

        Structured: both directions, the pin watcher and the shutdown run in one task group,
        so nothing outlives this call. A cancellation from outside propagates (it is never
        swallowed); on the way out the server's group is killed, as on an internal error."""
        self._signals = signals
        try:
            await self.upstream.start(self.log)
        except UpstreamError as e:
            self.log(str(e))
            await self.upstream.aclose()
            return EXIT_SERVER_GONE
        client_in: ClientReader
        if client is not None:
            client_in, self._out = client
        else:
            self._out = ClientOut(stdout_fd)
            client_in = ClientIn(stdin_fd)
        stopped = False
        try:
            await self._out.open()
            await client_in.open()
            rc = await self._relay(client_in)
            stopped = True
            return rc
        finally:
            if not stopped:
                # An internal error or a cancellation: never leave an orphan.
                await self.upstream.kill()
            client_in.close()
            await self._out.close()
            if self._recorder is not None:
                with anyio.CancelScope(shield=True):
                    await self._recorder.close()  # every record handed over is written first
            if self.calllog is not None:
                if self._held_file:
                    from mcp_review.store.calllog import held_state_path, remove_held_state

                    remove_held_state(held_state_path(self.calllog.path))
                self.calllog.close()
            await self.upstream.aclose()

    async def _relay(self, client_in: ClientReader) -> int:
        server = self.upstream
        ended = anyio.Event()
        why: list[str] = []

        def end(reason: str) -> None:
            if not why:
                why.append(reason)
            ended.set()

        def on_signal(sig: int) -> None:
            if self._signal is None:
                self._signal = sig
            end("signal")

        loop = asyncio.get_running_loop()
        handled: list[int] = []
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP) if self._signals else ():
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, on_signal, int(signum))
                handled.append(int(signum))
        client_scope = anyio.CancelScope()
        server_done = anyio.Event()

        async def client_pump() -> None:
            with client_scope:
                await self._client_to_server(client_in)
                end("client")

        async def server_pump() -> None:
            try:
                await self._server_to_client()
            finally:
                server_done.set()
            end("server")

        async def drain_server() -> None:
            # Let the relay forward whatever the server wrote before it went.
            with anyio.move_on_after(0.5):
                await server_done.wait()

        rc = EXIT_OK
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(client_pump)
                tg.start_soon(server_pump)
                tg.start_soon(self._watch_pins)
                await ended.wait()
                if why[0] == "signal":
                    client_scope.cancel()
                    await server.stop(grace=0.0)
                    await drain_server()
                    rc = 128 + (self._signal or 0)
                elif why[0] == "client":
                    # The client left (stdin EOF): normal shutdown, whatever the server says.
                    await server.stop(grace=STDIN_GRACE)
                    await drain_server()
                    rc = EXIT_OK
                else:
                    # The server closed its stdout while the client is still there: it crashed.
                    client_scope.cancel()
                    how = await server.ended(STDIN_GRACE)
                    self.log(
                        f"server {how} while the client was connected; "
                        f"answering {self._open_requests()} pending request(s) with an "
                        "error"
                    )
                    await self._fail_pending(how)
                    await server.stop(grace=0.0)
                    rc = EXIT_SERVER_GONE
                tg.cancel_scope.cancel()  # the pin watcher, and a server pump still draining
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
        return rc

    def _open(self) -> list[Pending]:
        return list({id(p): p for p in self.pending.values()}.values())

    def _open_requests(self) -> int:
        return sum(1 for p in self._open() if not p.cancelled and p.reply is None)

    def _track(self, p: Pending) -> None:
        for k in p.keys:
            self.pending[k] = p

    def _find(self, keys: frozenset[tuple[str, Any]]) -> Pending | None:
        for k in keys:
            p = self.pending.get(k)
            if p is not None:
                return p
        return None

    def _untrack(self, p: Pending) -> None:
        for k in p.keys:
            if self.pending.get(k) is p:
                del self.pending[k]

    async def _fail_pending(self, how: str) -> None:
        msg = f"mcp-review proxy: MCP server '{self.name}' {how} before answering"
        for p in self._open():
            if p.reply is not None:  # the proxy's own tools/list: the call it serves is
                p.reply.set(None)  # pending too, and answered below
                continue
            if p.cancelled:
                continue
            await self._send(
                {"jsonrpc": "2.0", "id": p.rpc_id, "error": {"code": CRASH_CODE, "message": msg}}
            )
        self.pending.clear()

    async def _send(self, msg: Any) -> None:
        assert self._out is not None
        await self._out.write(wire(msg))

    # client -> server ---------------------------------------------------------------------

    async def _client_to_server(self, reader: ClientReader) -> None:
        async for batch in read_line_batches(reader, self.max_line, self._overlong("client")):
            # a large line's value is held until judged, forwarded and recorded, then freed
            # (gcpause.py: the collector would walk it for nothing)
            large = any(len(line) >= LARGE for line in batch)
            with collector_paused(large, PAUSE_LIMIT):
                await self._client_batch(batch)
        self.client_eof = True

    async def _client_batch(self, batch: list[bytes]) -> None:
        for line in batch:
            if self.gate is not None:
                out = await self._judge_client_line(line)
            else:
                out = await self._on_client_line(line)
            if out is not None:
                self._c2s_out.append(out)
        if self._recorder is not None and self._to_record:
            await self._hand_off(self._recorder)
        try:
            await self._flush_to_server()
        finally:  # (a cancelled write too: recorded and maybe not forwarded, never the reverse)
            self._record_forwarded()

    def _record_forwarded(self) -> None:
        """Record-only: write the records of the calls just forwarded. After the forward, so the
        server works on a large call while it is recorded (docs/proxy.md, "The call log": a
        proxy killed between the two loses that call's record)."""
        for p, tool, args, rpc_id, digest, _, _, _ in self._to_record:
            self._record(p, tool, args, rpc_id, digest, None)
        self._to_record.clear()

    async def _hand_off(self, rec: Recorder) -> None:
        """Record-only: the read's calls handed to the recorder, before they are forwarded,
        when one of their lines is large or the recorder has calls not yet written (all of
        them, so the log keeps the order they were read in); else left to _record_forwarded."""
        items = self._to_record
        if rec.failed or not (rec.busy or any(len(it[5]) >= LARGE for it in items)):
            return
        self._to_record = []
        i = 0
        while i < len(items):
            line = items[i][5]
            j = i
            while j < len(items) and items[j][5] is line:
                j += 1
            group = items[i:j]
            if not await rec.hand(line, [(it[6], it[0], it[4]) for it in group], items[i][7]):
                for p, tool, args, rpc_id, digest, _, _, _ in group:
                    self._record(p, tool, args, rpc_id, digest, None)
            i = j

    def _record_line(self, line: bytes, entries: list[Entry]) -> None:
        """The recorder went before writing ``line``'s records: written here, parsed again."""
        msg, _ = relay_loads(line)
        for index, p, digest in entries:
            m = msg[index] if index is not None else msg
            params = m["params"]
            self._record(p, params["name"], params.get("arguments"), m["id"], digest, None)

    async def _flush_to_server(self, extra: bytes = b"") -> None:
        """Write what the client pump has judged (and ``extra``, the proxy's own request after
        it, so order is kept). A dead server is noticed by the crash path, which answers what
        is pending; the client's lines are still read and tracked until then."""
        data = b"".join(self._c2s_out) + extra
        self._c2s_out.clear()
        if not data or self._server_gone:
            return
        if not await self.upstream.write(data):
            self._server_gone = True

    def _record(
        self, p: Pending, tool: str, args: Any, rpc_id: Any, digest: str | None, hold: Hold | None
    ) -> str | None:
        """Write one call's record: under ``--enforce`` before the call is forwarded (every call
        it forwards is on the record), record-only just after. None when written, else why not:
        ``--enforce`` then refuses the call; record-only forwards it anyway (a full disk must not
        take the agent's tools down), says so and counts it beside the log (``status`` reports
        it)."""
        assert self.calllog is not None
        try:
            p.call_time = self.calllog.record_call(
                tool,
                args,
                rpc_id,
                time=p.call_time,
                digest=digest,
                held={"live_digest": hold.live_digest} if hold is not None else None,
            )
            return None
        except (OSError, ValueError, TypeError, RecursionError) as e:
            why = f"cannot write the call log: {e}"
        if self.gate is None:
            self.unrecorded_calls += 1
            counted = count_unrecorded(self.calllog)
            self.log(f"forwarded tools/call {short(tool, 60)} UNRECORDED ({counted}): {why}")
        return why

    def _overlong(self, side: str) -> Callable[[int], None]:
        def note(n: int) -> None:
            self.log(f"dropped a {n}-byte line from the {side}: longer than {self.max_line}")

        return note

    # record-only: relays each line as received, tracking what it needs to record and to answer
    # crashes, and refuses the lines it cannot log as the server will read them

    async def _on_client_line(self, line: bytes) -> bytes | None:
        """The bytes to forward: ``line`` itself, untouched (no gate: nothing is judged), or
        None when the line is refused. Every line is parsed (a copy): pending ids are needed to
        answer them if the server crashes, and the call log needs every ``tools/call``; a
        cheap substring pre-filter could be fooled by JSON escapes.

        A line is refused (answered with -32700 when its id can be read, else dropped; logged
        either way) when some server could read other messages in it than the proxy does: a
        lone ``\\r`` or invalid UTF-8 (``framing_hazard``), or anything the proxy cannot parse
        (a JavaScript server reads a 5,000-digit integer as Infinity, and nesting deeper than
        Python's parser follows): the call log would miss a call the server runs."""
        if line[:1] in _MAYBE_BLANK:  # (a slice of a long line is a copy: only when it may be)
            end = 2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0
            if not line[: len(line) - end].strip(b" \t"):
                return line  # a blank line: no message on any side
        msg, why, by_orjson = relay_read(line)
        if why is not None:
            await self._refuse_line(line, why)
            return None
        batch = isinstance(msg, list)
        for i, m in enumerate(msg if batch else [msg]):
            if isinstance(m, dict):
                self._line_now = (line, i if batch else None, by_orjson)
                self._track_unjudged(m)
        return line

    async def _refuse_line(self, line: bytes, why: str) -> None:
        """Drop a client line and log it; answer -32700 when its id reads without guessing."""
        rid = salvage_id(line)
        self._drop_client(f"a line it cannot judge ({why})", len(line))
        if rid is not None:
            await self._send(
                self._error(
                    rid,
                    PARSE_ERROR,
                    f"mcp-review proxy refused this message: {why}. Nothing was forwarded.",
                )
            )

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
        if method == "initialize":
            self._client_is(msg.get("params"))
        tool = None
        params = msg.get("params")
        if method == "tools/call":
            tool = params.get("name") if isinstance(params, dict) else None
            if not isinstance(tool, str):
                return  # malformed: the server rejects it
        old = self._find(keys)
        if old is not None:
            self._untrack(old)  # a reused id: the newer request owns it now
        p = Pending(method, msg["id"], keys, tool=tool, first_page=starts_listing(msg))
        self._track(p)
        if tool is not None and self.calllog is not None:
            # Recorded once the batch is forwarded (_record_forwarded); its time is taken now,
            # so a reply read before the record is written still finds it.
            assert isinstance(params, dict)
            p.call_time = now_iso()
            digest = self._definition_digest(tool)
            self._to_record.append(
                (p, tool, params.get("arguments"), msg["id"], digest, *self._line_now)
            )

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
        from mcp_review.engine.model import digest_of

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
            msg = strict_loads(line)
        except Unjudgeable as e:
            await self._refuse_line(line, str(e))
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
            return wire(msg)
        except (TypeError, ValueError, RecursionError) as e:  # pragma: no cover - parsed above
            self._drop_client(f"a message it cannot re-serialise ({e})", 0)
            return None

    def _drop_client(self, what: str, size: int) -> None:
        self.dropped_lines += 1
        more = f" ({size} bytes)" if size else ""
        self.log(f"dropped from the client: {what}{more}; nothing was forwarded")

    def _error(
        self, rpc_id: Any, code: int, message: str, data: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        return {"jsonrpc": "2.0", "id": rpc_id, "error": error}

    def _client_is(self, params: Any) -> None:
        """The client's ``clientInfo`` (initialize): the gate judges its host (engine/hosts.py;
        a gate without hosts ignores it), and the session's client is recorded beside the
        call log (``store.calllog.record_client``)."""
        info = params.get("clientInfo") if isinstance(params, dict) else None
        if not isinstance(info, dict) or not isinstance(info.get("name"), str):
            return
        name = info["name"]
        for_client = getattr(self.gate, "for_client", None)
        if for_client is not None:
            self.gate = for_client(name)  # this session's own view when its host counts
        if self.calllog is not None:
            # Recorded per session: `check` infers the hosts that count from it.
            from mcp_review.store.calllog import record_client

            try:
                record_client(self.calllog.path, name, info.get("version"))
            except OSError as e:
                self.log(f"cannot record the client's clientInfo: {e}")

    def _refuse(self, rid: Any, usable: bool, code: int, why: str) -> tuple[Any, Any]:
        """(nothing to forward, the refusal to send back) for a client message the proxy will
        not forward: answered with an error when its id can carry one, else dropped and
        logged, since a client cannot match an answer to an id it cannot use."""
        if usable:
            self.log(f"refused a request (id {rid!r}): {why}")
            return None, self._error(
                rid,
                code,
                f"mcp-review proxy refused this request: {why}. Nothing was forwarded.",
            )
        self._drop_client(why, 0)
        return None, None

    def _judge_client_response(self, m: dict[str, Any], has_id: bool, rid: Any) -> tuple[Any, Any]:
        """A client's response to a request the server sent it (sampling, roots, ping...):
        forwarded only when it answers a request the server did send, so a client cannot
        inject answers the server never asked for."""
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

    async def _judge_surface_read(
        self, method: str, m: dict[str, Any], rid: Any, keys: frozenset[tuple[str, Any]]
    ) -> tuple[Any, Any] | None:
        """A resources/read or prompts/get judged against the decisions on that surface (and a
        UI resource against its tool's): the refusal, the read tracked as a UI fetch, or None
        when it goes on as any other request."""
        if method == "resources/read":
            why = await self._ui_refusal(m.get("params"))
            if why is None:
                why = await self._surface_refusal(method, m.get("params"))
            if why is not None:
                self.refused_calls += 1
                return self._refuse(rid, True, REFUSED_CODE, why)
            uri = ui_resource_uri(m.get("params"))
            if uri is not None:
                self._track(Pending(method, rid, keys, ui_uri=uri))
                return m, None
        if method == "prompts/get":
            why = await self._surface_refusal(method, m.get("params"))
            if why is not None:
                self.refused_calls += 1
                return self._refuse(rid, True, REFUSED_CODE, why)
        return None

    async def _judge_tool_call(
        self, m: dict[str, Any], rid: Any, keys: frozenset[tuple[str, Any]]
    ) -> tuple[Any, Any]:
        """A tools/call judged by the gate: refused, refused as held when its arguments leave
        the approved definition, or recorded in the call log and forwarded (under --enforce,
        refused when it cannot be recorded)."""
        params = m.get("params")
        tool = params.get("name") if isinstance(params, dict) else None
        if not isinstance(tool, str):
            return self._refuse(rid, True, REFUSED_CODE, "a tools/call without a tool name")
        # Tracked while it is judged: if the server dies during the proxy's own tools/list,
        # the crash path answers this call too.
        p = Pending("tools/call", rid, keys, tool=tool)
        self._track(p)
        assert isinstance(params, dict)
        v = await self._verdict(tool, params)
        if not v.allowed:
            self._untrack(p)
            self.refused_calls += 1
            self.log(f"refused tools/call {tool!r}: {v.status}")
            return None, self._refusal(rid, tool, v)
        digest = self._definition_digest(tool)
        if v.hold is not None:
            # Held: the client knows the approved definition only; the call must be one it
            # allows (validated, closed world), and not a task whose result escapes the check.
            why = (
                TASK_REFUSED
                if "task" in params
                else v.hold.check_arguments(params.get("arguments"))
            )
            if why is not None:
                self._untrack(p)
                self.refused_calls += 1
                self.log(f"refused tools/call {tool!r}: held, {why}")
                return None, self._held_refusal(rid, tool, why)
            p.hold = v.hold
            digest = v.hold.pinned_digest  # what the client saw, and what rerun trusts
        if self.calllog is not None:
            unrecorded = self._record(p, tool, params.get("arguments"), rid, digest, v.hold)
            if unrecorded is not None:
                # Under --enforce a call off the record is not forwarded.
                self._untrack(p)
                self.refused_calls += 1
                self.log(f"refused tools/call {tool!r}: {unrecorded}")
                return None, self._error(
                    rid,
                    INTERNAL_ERROR,
                    f"mcp-review proxy refused this call to '{tool}' on server '{self.name}': "
                    "the call log cannot be written, and under --enforce no call runs off the "
                    "record. Nothing was forwarded.",
                    {"tool": tool, "server": self.name, "status": "unrecorded"},
                )
        return m, None

    async def _judge_client_msg(self, m: Any) -> tuple[Any, Any]:
        """(message to forward, answer to send back); either may be None."""
        if not isinstance(m, dict):
            self._drop_client("a JSON value that is not a JSON-RPC message", 0)
            return None, None
        has_id = "id" in m
        rid = m.get("id")
        usable = has_id and usable_id(rid)
        if m.get("jsonrpc") != "2.0":
            return self._refuse(rid, usable, INVALID_REQUEST, "not JSON-RPC 2.0")
        if "method" not in m:
            return self._judge_client_response(m, has_id, rid)
        method = m["method"]
        if not isinstance(method, str):
            return self._refuse(rid, usable, INVALID_REQUEST, "its method is not a string")
        if "result" in m or "error" in m:
            return self._refuse(rid, usable, INVALID_REQUEST, "it is both a request and a response")
        if method == "initialize":
            self._client_is(m.get("params"))
        if not has_id:
            if not method.startswith("notifications/"):
                # A server might run a tools/call sent as a notification; nobody could answer it.
                self._drop_client(f"a {method!r} request without an id", 0)
                return None, None
            self._note_cancel(method, m)
            return m, None
        if not usable:
            self._drop_client(
                f"a {method!r} request whose id {short(rid)} is not a string or "
                f"an integer below 2**53",
                0,
            )
            return None, None
        keys = id_keys(rid)
        if self._find(keys) is not None:
            return self._refuse(
                rid,
                usable,
                INVALID_REQUEST,
                f"its id {rid!r} is already in use by a request that "
                'has not been answered (clients match 1 and "1" '
                "as one id)",
            )
        surface = await self._judge_surface_read(method, m, rid, keys)
        if surface is not None:
            return surface
        if method != "tools/call":
            self._track(Pending(method, rid, keys, first_page=starts_listing(m)))
            return m, None
        return await self._judge_tool_call(m, rid, keys)
