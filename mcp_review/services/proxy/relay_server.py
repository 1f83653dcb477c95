"""The relay's server side: judging each line the server writes (replies matched to their
requests, listings filtered, results checked) before the client gets it. A mixin of
``relay.Proxy``, split from relay.py (one module per job)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio

from mcp_review.services.proxy.enforce import Enforcer, Verdict
from mcp_review.services.proxy.framing import id_keys, loads, short, wire
from mcp_review.services.proxy.process import ClientWriter
from mcp_review.services.proxy.recorder import Recorder
from mcp_review.services.proxy.relay_common import REFUSED_CODE, WARNING_PREFIX, Pending
from mcp_review.services.proxy.upstream import Upstream
from mcp_review.store.calllog import CallLog

_CALL_REPLY = re.compile(
    rb'\{"jsonrpc": ?"2\.0", ?"id": ?(0|-?[1-9][0-9]{0,15}|"[A-Za-z0-9_.:-]{1,64}"), ?"result": ?\{'
)
"""The head of a result as the Python SDK (and ``json.dumps``) writes it: the id read from it."""
_LARGE = 1 << 16
"""Record-only, a reply this long to a tools/call whose result is not recorded is passed on
after its head is read (``_pass_call_result``), not parsed."""


class ServerSide:
    """The server-to-client half of ``Proxy``: every attribute and helper it reads is the
    proxy's own, declared here for the type checker only."""

    if TYPE_CHECKING:
        upstream: Upstream
        calllog: CallLog | None
        gate: Enforcer | None
        mode: str
        scrub: Callable[[str], str] | None
        max_line: int
        server_requests: dict[tuple[str, Any], Any]
        known: dict[str, dict[str, Any]]
        surfaces_seen: dict[tuple[str, str], str]
        ambiguous: set[str]
        listing: set[str]
        noise_lines: int
        refused_calls: int
        _out: ClientWriter | None
        _recorder: Recorder | None
        pending: dict[tuple[str, Any], Pending]
        _can_notify: bool
        _advertised: frozenset[tuple[str, str]] | None

        def log(self, msg: str) -> None: ...
        def _overlong(self, side: str) -> Callable[[int], None]: ...
        def _find(self, keys: frozenset[tuple[str, Any]]) -> Pending | None: ...
        def _untrack(self, p: Pending) -> None: ...
        def _held_result(self, p: Pending, m: dict[str, Any]) -> None: ...
        async def _gate_check(self, tools: list[dict[str, Any]]) -> dict[str, Verdict]: ...
        async def _ui_content_refusal(self, uri: str, result: Any) -> str | None: ...
        def _error(
            self, rpc_id: Any, code: int, message: str, data: dict[str, Any] | None = None
        ) -> dict[str, Any]: ...
        async def _allowed_now(
            self, verdicts_too: dict[str, Verdict] | None = None
        ) -> frozenset[tuple[str, str]]: ...

    async def _server_to_client(self) -> None:
        assert self._out is not None
        out = self._out

        async def deliver(batch: list[bytes]) -> None:
            outs = [d for line in batch if (d := await self._on_server_line(line)) is not None]
            if outs:
                await out.write(b"".join(outs))
            rec = self._recorder
            if rec is not None and rec.busy and not self._call_in_flight():
                rec.quiet()

        await self.upstream.pump(
            deliver, max_line=self.max_line, on_overlong=self._overlong("server")
        )

    def _call_in_flight(self) -> bool:
        """A ``tools/call`` the server has not answered yet (the recorder waits for none to be
        left before it writes: recorder_child.DEFER)."""
        return any(p.method == "tools/call" and not p.cancelled for p in self.pending.values())

    def _noise(self, line: bytes, why: str) -> None:
        self.noise_lines += 1
        # Scrubbed before the cut (log() scrubs again): a secret cut in half no longer matches.
        text = line[:4096].decode("utf-8", "replace").rstrip("\r\n")
        if self.scrub is not None:
            text = self.scrub(text)
        text = text[:200]
        more = f" … ({len(line)} bytes)" if len(line) > 200 else ""
        self.log(f"dropped server stdout line ({why}): {text!r}{more}")

    async def _on_server_line(self, line: bytes) -> bytes | None:
        if self.gate is None and len(line) >= _LARGE:
            passed = self._pass_call_result(line)
            if passed is not None:
                return passed
        if not line.strip():
            return None
        try:
            msg = loads(line)
        except (ValueError, UnicodeDecodeError):
            self._noise(line, "not JSON")
            return None
        if self.gate is not None:
            return await self._judge_server_line(line, msg)
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

    def _pass_call_result(self, line: bytes) -> bytes | None:
        """Record-only: a large result to a pending tools/call whose result is not recorded,
        passed on as it came, its id read from its head (``_CALL_REPLY``) instead of parsing
        the whole line (1.8 ms a MiB of prose, 9 ms of small records): the id is all the relay
        needs of it. None for any other line, which is parsed as before. What this gives up
        (docs/proxy.md): such a line is not checked to be JSON to its end."""
        if self.calllog is not None and self.calllog.results_path:
            return None
        m = _CALL_REPLY.match(line)
        if m is None or not line.endswith((b"}\n", b"}\r\n", b"}")):
            return None
        p = self._find(id_keys(loads(m.group(1))))
        if p is None or p.method != "tools/call":
            return None
        self._untrack(p)
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

    def _page_of_listing(self, p: Pending, msg: dict[str, Any]) -> frozenset[str]:
        """For a reply to the client's tools/list: the names listed on the earlier pages of
        the same listing (a page without a cursor starts a new one); this page's names join
        them. Empty for anything else."""
        result = msg.get("result")
        if p.method != "tools/list" or not isinstance(result, dict):
            return frozenset()
        tools = result.get("tools")
        if not isinstance(tools, list):
            return frozenset()
        if p.first_page:
            self.listing = set()
        earlier = frozenset(self.listing)
        self.listing.update(
            t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)
        )
        return earlier

    def _on_reply(
        self, p: Pending, msg: dict[str, Any], earlier: frozenset[str] = frozenset()
    ) -> None:
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
        if (
            p.method == "tools/list"
            and isinstance(result, dict)
            and isinstance(result.get("tools"), list)
        ):
            self._learn(result["tools"], earlier)

    # --enforce: the client sees only replies to what it asked, tool lists filtered ----------

    async def _judge_server_line(self, line: bytes, msg: Any) -> bytes | None:
        """Under --enforce every server message the client gets is the proxy's serialisation of
        what it judged: a reply is matched to the request as clients match ids (and carries the
        client's id back), every reply whose result holds a ``tools`` array is filtered, and a
        reply to an id the proxy did not forward is dropped."""
        if isinstance(msg, list):
            if not msg:
                self._noise(line, "an empty batch")
                return None
            kept = [k for m in msg if (k := await self._judge_server_msg(line, m)) is not None]
            return wire(kept) if kept else None
        kept1 = await self._judge_server_msg(line, msg)
        return wire(kept1) if kept1 is not None else None

    async def _judge_server_msg(self, line: bytes, m: Any) -> dict[str, Any] | None:
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
            self._noise(line, f"a reply to id {short(m['id'])}, which the proxy did not forward")
            return None
        self._untrack(p)
        if p.reply is not None:  # the proxy's own tools/list: never relayed
            p.reply.set(m)
            return None
        m["id"] = p.rpc_id  # what the client sent, so every client matches it alike
        earlier = self._page_of_listing(p, m)
        self._on_reply(p, m, earlier)
        if p.hold is not None:
            self._held_result(p, m)
        if p.ui_uri is not None and "result" in m:
            why = await self._ui_content_refusal(p.ui_uri, m["result"])
            if why is not None:
                self.refused_calls += 1
                self.log(f"refused the content of resources/read {short(p.ui_uri, 80)}: {why}")
                return self._error(
                    p.rpc_id,
                    REFUSED_CODE,
                    f"mcp-review proxy refused this UI resource: {why}. Its content was not "
                    "relayed.",
                )
        result = m.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            # Whatever was asked: a client that reads a tool list from this reply must not
            # find a withheld tool in it.
            await self._filter_list(result, listed=p.method == "tools/list", earlier=earlier)
        if isinstance(result, dict):
            # Prompts, resources and templates: whatever was asked, a listed one
            # the operator did not approve as served never reaches the client.
            await self._filter_surfaces(result)
        if isinstance(result, dict) and "instructions" in result:
            # initialize / server/discover, or any reply that carries them: only approved
            # instructions reach the client (and so the model).
            await self._gate_instructions(result, p.method)
        return m

    async def _surface_refusal(self, method: str, params: Any) -> str | None:
        """Why a ``prompts/get`` or a (non-UI) ``resources/read`` is refused under --enforce
        (services/proxy/surfaces_gate.py), or None. Fail closed: a gate that cannot judge, or
        a pin file that cannot be read, refuses."""
        if self.gate is None:
            return None
        p = params if isinstance(params, dict) else {}
        if method == "resources/read":
            uri = p.get("uri")
            if isinstance(uri, str) and uri[:5].lower() == "ui://":
                return None  # an MCP Apps UI resource: judged by its tool's pin (_ui_refusal)
            judge, arg = getattr(self.gate, "resource_read", None), uri
        else:
            judge, arg = getattr(self.gate, "prompt_get", None), p.get("name")
        if judge is None:
            return "the gate cannot judge prompts and resources"
        try:
            why: str | None = await anyio.to_thread.run_sync(judge, arg, dict(self.surfaces_seen))
        except Exception as e:
            return f"it could not be checked against the pins: {short(str(e), 200)}"
        if why is not None:
            self.log(f"refused {method}: {why}")
        return why

    async def _filter_surfaces(self, result: dict[str, Any]) -> None:
        """Withhold from a listing reply every prompt, resource or template not approved as
        served (fail closed: an error withholds the whole list)."""
        from mcp_review.engine.surfaces import LIST_FIELD, surface_digest, surface_key

        for kind, field_ in LIST_FIELD.items():
            items = result.get(field_)
            if not isinstance(items, list):
                continue
            for w in items:
                k = surface_key(kind, w) if isinstance(w, dict) else None
                if k is not None:
                    try:
                        self.surfaces_seen[(kind, k)] = surface_digest(w)
                    except (ValueError, TypeError):
                        self.surfaces_seen[(kind, k)] = "unreadable"
            judge = getattr(self.gate, "surfaces", None)
            try:
                if judge is None:
                    raise RuntimeError("the gate cannot judge prompts and resources")
                kept, withheld = await anyio.to_thread.run_sync(judge, kind, items)
            except Exception as e:
                kept, withheld = [], [("*", f"pin check failed: {short(str(e), 200)}")]
            result[field_] = kept
            for name, why in withheld:
                self.log(f"withheld {kind} {short(name, 80)}: {why}")

    async def _gate_instructions(self, result: dict[str, Any], method: str) -> None:
        """Replace the server's ``instructions`` by what the gate approves: the same text when
        it is the approved one, the approved text when the server changed it, nothing when none
        was approved. Fail closed: no gate method, an error, or anything else: removed."""
        live = result["instructions"]
        judge = getattr(self.gate, "instructions", None)
        try:
            # A worker thread: the judgement may read and parse the pin file.
            send, why = (
                await anyio.to_thread.run_sync(judge, live)
                if judge is not None
                else (None, "the gate cannot judge them")
            )
        except Exception as e:
            send, why = None, f"pin check failed: {e}"
        if send is None:
            del result["instructions"]
        else:
            result["instructions"] = send
        if why:
            self.log(f"{method}: server instructions {why}")

    def _learn(self, tools: list[Any], earlier: frozenset[str] = frozenset()) -> None:
        """Remember the server's definitions (withheld ones too) to judge calls against.
        ``earlier``: names listed on the earlier pages of the same listing; listed again,
        they are ambiguous (the copy relayed first no longer vouches for calls)."""
        counts: dict[str, int] = {}
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                counts[t["name"]] = counts.get(t["name"], 0) + 1
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                name = t["name"]
                if counts[name] > 1 or name in earlier:
                    self.ambiguous.add(name)
                    self.known.pop(name, None)
                else:
                    self.ambiguous.discard(name)
                    self.known[name] = t

    async def _filter_list(
        self, result: dict[str, Any], *, listed: bool, earlier: frozenset[str] = frozenset()
    ) -> None:
        """Withhold (or mark) every tool of ``result`` the gate does not allow, every name
        listed twice in it and every name ``earlier`` pages of this listing listed already."""
        tools = result["tools"]
        counts: dict[str, int] = {}
        for t in tools:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                counts[t["name"]] = counts.get(t["name"], 0) + 1
        judged = [
            t
            for t in tools
            if isinstance(t, dict)
            and isinstance(t.get("name"), str)
            and counts[t["name"]] == 1
            and t["name"] not in earlier
        ]
        judged_ids = {id(t) for t in judged}
        try:
            verdicts = await self._gate_check(judged)
        except Exception as e:  # fail closed: a list nobody can vouch for shows nothing
            self.log(f"pin check failed, withholding every tool: {e}")
            verdicts = {
                t["name"]: Verdict(False, "error", f"pin check failed: {e}") for t in judged
            }
        kept: list[Any] = []
        hidden: list[str] = []
        replaced = False  # a definition served in place of the server's
        for t in tools:
            if id(t) in judged_ids:
                v = verdicts.get(t["name"]) or Verdict(False, "unknown", "no verdict")
            elif isinstance(t, dict) and isinstance(t.get("name"), str):
                v = Verdict(
                    False,
                    "ambiguous",
                    "the server listed this name on an earlier page too"
                    if t["name"] in earlier
                    else "the server listed two tools with this name",
                )
            else:
                v = Verdict(False, "invalid", "not a tool definition")
            if v.allowed and v.hold is not None:
                # The approved definition, whole, in place of the server's: no byte of the
                # unapproved one reaches the client.
                kept.append(v.hold.pinned)
                replaced = True
                if listed:
                    self.log(
                        f"serving the approved definition of {short(t['name'], 60)} "
                        f"({v.hold.pinned_digest}) while {v.hold.live_digest} waits for review"
                    )
                continue
            if v.allowed and v.serve is not None:
                # Pinned, but its _meta (or a key MCP does not define) is not the approved
                # one: the digest cannot see those, so the stored definition is served.
                kept.append(v.serve)
                replaced = True
                if listed:
                    self.log(
                        f"serving the approved _meta (and other keys outside the digest) of "
                        f"{short(t['name'], 60)}: the server's differ"
                    )
                continue
            if v.allowed:
                kept.append(t)
                continue
            hidden.append(
                t["name"] if isinstance(t, dict) and isinstance(t.get("name"), str) else "?"
            )
            if self.mode == "mark" and isinstance(t, dict) and isinstance(t.get("name"), str):
                t2 = dict(t)
                why = f" ({v.reason})" if v.reason else ""
                desc = t.get("description")
                t2["description"] = (
                    f"{WARNING_PREFIX}: '{t['name']}' is {v.status}{why} and calls to it are "
                    f"refused until the operator reviews it.\n\n"
                    + (desc if isinstance(desc, str) else "")
                )
                kept.append(t2)
        if listed:
            with contextlib.suppress(Exception):  # already failed closed above
                self._advertised = await self._allowed_now(verdicts_too=verdicts)
        if hidden:
            self.log(
                f"{'tools/list' if listed else 'a reply carrying tools'}: "
                f"{'marked' if self.mode == 'mark' else 'withheld'} "
                # short() quotes each name already (repr): a list's repr would quote it twice.
                f"{', '.join(short(n, 60) for n in hidden)}"
            )
        if hidden or replaced:
            result["tools"] = kept
