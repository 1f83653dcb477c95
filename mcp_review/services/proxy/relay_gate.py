"""The relay's gate: verdicts on calls, the refusals and errors it answers with, held tools'
results and the held-state file, and the pin watch. A mixin of ``relay.Proxy``, split from
relay.py (one module per job)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio

from mcp_review.services.proxy.enforce import Enforcer, Verdict
from mcp_review.services.proxy.framing import id_keys, short, wire
from mcp_review.services.proxy.hold import HELD
from mcp_review.services.proxy.relay_common import (
    ENVELOPE_KEYS,
    FETCH_MAX_PAGES,
    PIN_POLL,
    REFUSED_CODE,
    OwnReply,
    Pending,
)
from mcp_review.services.proxy.relay_server import ServerSide
from mcp_review.store.calllog import CallLog


class GateSide(ServerSide):
    """The gate's half of ``Proxy``: every attribute and helper it reads is the proxy's own,
    declared here for the type checker only."""

    if TYPE_CHECKING:
        name: str
        calllog: CallLog | None
        gate: Enforcer | None
        fetch_timeout: float
        held: dict[str, tuple[str, str, str]]
        _held_written: dict[str, tuple[str, str, str]]
        _held_at: float
        _held_file: bool
        _own_ids: int
        _nonce: str

        async def _send(self, msg: Any) -> None: ...
        def _track(self, p: Pending) -> None: ...
        async def _flush_to_server(self, extra: bytes = b"") -> None: ...
        def _error(
            self, rpc_id: Any, code: int, message: str, data: dict[str, Any] | None = None
        ) -> dict[str, Any]: ...

    async def _ui_refusal(self, params: Any) -> str | None:
        """Why a ``resources/read`` is refused under ``--enforce``: its ``uri`` is an MCP Apps
        UI resource (``ui://``) no approved tool names, or the pins cannot be read
        (fail closed). Other resources pass (they are not judged yet)."""
        uri = params.get("uri") if isinstance(params, dict) else None
        if not isinstance(uri, str) or not uri[:5].lower() == "ui://":
            return None
        judge = getattr(self.gate, "ui_resource", None)
        if judge is None:
            return None
        try:
            why: str | None = await anyio.to_thread.run_sync(judge, uri)
        except Exception as e:
            return f"the UI resource could not be checked against the pins: {short(str(e), 200)}"
        if why is not None:
            self.log(f"refused resources/read {short(uri, 80)}: {why}")
        return why

    async def _ui_content_refusal(self, uri: str, result: Any) -> str | None:
        """Why the server's answer to a ``resources/read`` of the UI resource ``uri`` is not
        relayed: not the approved content (PinEnforcer.ui_content), or it cannot be checked
        (fail closed: an error, or a gate that cannot judge content)."""
        judge = getattr(self.gate, "ui_content", None)
        if judge is None:
            return "the gate cannot check a UI resource's content"
        try:
            why: str | None = await anyio.to_thread.run_sync(judge, uri, result)
        except Exception as e:
            return f"the UI resource could not be checked against the pins: {short(str(e), 200)}"
        return why

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
                return Verdict(
                    False,
                    "unverified",
                    f"the proxy could not fetch the server's tool list to check it "
                    f"against the pins: {why}",
                )
            if tool in self.ambiguous:
                return Verdict(False, "ambiguous", "the server listed two tools with this name")
            d = self.known.get(tool)
            if d is None:
                return Verdict(False, "unlisted", "the server's tools/list does not include it")
        try:
            return (await self._gate_check([d])).get(tool) or Verdict(
                False, "unknown", "no verdict"
            )
        except Exception as e:  # a broken pin file must fail closed, not crash the relay
            self.log(f"pin check failed: {e}")
            return Verdict(False, "error", f"the pin file could not be read: {e}")

    async def _fetch_tools(self, call_params: dict[str, Any]) -> str | None:
        """List the server's tools (every page) for the proxy itself; None on success, else why
        not. Its ids are strings with a random part, reserved in ``pending`` like any request,
        so no client id can take their replies; the replies are never relayed."""
        meta = call_params.get("_meta")
        envelope = {k: meta[k] for k in ENVELOPE_KEYS if isinstance(meta, dict) and k in meta}
        tools: list[Any] = []
        cursor: Any = None
        for _ in range(FETCH_MAX_PAGES):
            params: dict[str, Any] = {"_meta": envelope} if envelope else {}
            if cursor is not None:
                params["cursor"] = cursor
            self._own_ids += 1
            rid = f"mcp-review-proxy/{self._nonce}/{self._own_ids}"
            answer = OwnReply()
            p = Pending("tools/list", rid, id_keys(rid), reply=answer)
            self._track(p)
            try:
                await self._flush_to_server(
                    wire({"jsonrpc": "2.0", "id": rid, "method": "tools/list", "params": params})
                )
                with anyio.move_on_after(self.fetch_timeout):
                    await answer.done.wait()
            finally:
                self._untrack(p)
            if not answer.done.is_set():
                return f"no answer to tools/list within {self.fetch_timeout:g} s"
            reply = answer.msg
            if reply is None:
                return "the server exited before answering tools/list"
            result = reply.get("result")
            if not isinstance(result, dict):
                err = reply.get("error")
                what = err.get("message") if isinstance(err, dict) else None
                return f"tools/list failed: {short(what)}" if what else "tools/list failed"
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
        """The model reads this text: it names no command that decides anything (an agent
        with a shell could run it), only what happened and that the operator decides."""
        why = f": {v.reason}" if v.reason else ""
        data: dict[str, Any] = {
            "tool": tool,
            "server": self.name,
            "status": v.status,
            "enforcement": v.enforcement or "withheld",
            "reason": v.reason,
        }
        if v.cue_kinds:
            data["cues"] = list(v.cue_kinds)
        return self._error(
            rpc_id,
            REFUSED_CODE,
            f"mcp-review withheld tool '{tool}' on server '{self.name}' ({v.status}{why}). "
            "Its calls are refused until the operator reviews it; nothing sent through this "
            "connection changes that. Nothing was forwarded.",
            data,
        )

    def _held_refusal(self, rpc_id: Any, tool: str, why: str) -> dict[str, Any]:
        return self._error(
            rpc_id,
            REFUSED_CODE,
            f"mcp-review refused this call to '{tool}' on server '{self.name}': the "
            f"proxy serves its approved definition while a change waits for review, "
            f"and {why}. Nothing was forwarded.",
            {"tool": tool, "server": self.name, "status": HELD, "enforcement": HELD, "reason": why},
        )

    def _held_result(self, p: Pending, m: dict[str, Any]) -> None:
        """A held tool's reply: a result the approved output schema does not allow becomes an
        error result saying why (clients skip output validation on errors)."""
        assert p.hold is not None and p.tool is not None
        if "result" not in m:
            return  # a JSON-RPC error: carries no structured result
        why = p.hold.check_result(m["result"])
        if why is None:
            return
        self.log(f"tools/call {p.tool!r}: held, result replaced: {why}")
        m["result"] = {
            "content": [
                {
                    "type": "text",
                    "text": (
                        f"mcp-review withheld this result of '{p.tool}' on server "
                        f"'{self.name}': {why}. The proxy serves the tool's approved "
                        "definition while a change waits for review."
                    ),
                }
            ],
            "isError": True,
        }

    # pin file -> client ---------------------------------------------------------------------

    async def _gate_check(self, tools: list[dict[str, Any]]) -> dict[str, Verdict]:
        """The gate's verdicts: from its cache when the pin file is unchanged, else judged in a
        worker thread (reading and parsing the pin file never stalls the relay)."""
        assert self.gate is not None
        hit = self.gate.peek(tools)
        if hit is not None:
            return hit
        return await anyio.to_thread.run_sync(self.gate.check, tools)

    async def _allowed_now(
        self, verdicts_too: dict[str, Verdict] | None = None
    ) -> frozenset[tuple[str, str]]:
        v = dict(await self._gate_check(list(self.known.values())))
        v.update(verdicts_too or {})
        self._note_held(v)
        return frozenset(
            (n, x.hold.pinned_digest if x.hold is not None else "")
            for n, x in v.items()
            if x.allowed
        )

    def _note_held(self, verdicts: dict[str, Verdict]) -> None:
        """Remember which tools are held now (and since when), for the state file."""
        from mcp_review.store.calllog import now_iso

        held: dict[str, tuple[str, str, str]] = {}
        for n, v in verdicts.items():
            if v.hold is None:
                continue
            was = self.held.get(n)
            same = was is not None and was[:2] == (v.hold.pinned_digest, v.hold.live_digest)
            held[n] = (
                v.hold.pinned_digest,
                v.hold.live_digest,
                was[2] if same and was is not None else now_iso(),
            )
        self.held = held

    async def _write_held(self) -> None:
        """Write ``<log>.held.json`` when what is held changed, else once a minute while any
        is (``status`` and the app read it: "held by the proxy")."""
        import time

        from mcp_review.store.calllog import HELD_REFRESH, held_state_path, write_held_state

        if self.calllog is None:
            return
        state = dict(sorted(self.held.items()))
        if state == self._held_written and (
            not state or time.monotonic() - self._held_at < HELD_REFRESH
        ):
            return
        tools = {
            n: {"pinned_digest": a, "live_digest": b, "since": c} for n, (a, b, c) in state.items()
        }
        try:
            await anyio.to_thread.run_sync(
                lambda: write_held_state(
                    held_state_path(self.calllog.path),  # type: ignore[union-attr]
                    server=self.name,
                    principal=self.calllog.principal,  # type: ignore[union-attr]
                    tools=tools,
                    key=self.calllog._key,  # type: ignore[union-attr]
                )
            )
        except OSError as e:
            self.log(f"cannot write the held-tools state file: {e}")
            return
        self._held_written, self._held_at, self._held_file = state, time.monotonic(), True

    async def _watch_pins(self) -> None:
        """Once a second: if an approval (or a denial) changed which tools the client should
        see, send it ``notifications/tools/list_changed`` so it re-lists now. Legacy sessions
        whose server declared ``tools.listChanged`` only; a 2026-07-28 client sees the change
        at its next ``tools/list`` (calls are judged afresh either way).

        Judging the known tools each time also means a changed pin file is parsed and judged
        here, off the relay path, usually before a call or a list needs the verdicts."""
        while True:
            await anyio.sleep(PIN_POLL)
            if self.gate is None or not self.known:
                continue
            try:
                now = await self._allowed_now()
            except Exception:  # reported on the next real check; nothing to tell the client
                continue
            await self._write_held()
            if not self._can_notify or self._advertised is None:
                continue
            if now != self._advertised:
                self._advertised = now
                self.log("the pin file changed what the client may see: sent tools/list_changed")
                await self._send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})

    # server -> client ---------------------------------------------------------------------
