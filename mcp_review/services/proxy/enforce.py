"""The proxy's enforcement: which tools (and which server instructions) the client may see and call,
judged from the pin file off the relay path and cached until the pin file changes."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mcp_review.services.proxy.hold import HELD, Hold

if TYPE_CHECKING:
    from mcp_review.engine.status import ToolStatus

SETTLE_NS = 2_000_000_000
"""A file's timestamps tick coarsely (a few ms on Linux, up to 2 s elsewhere): a change made
within this long of the last read may leave size, times and inode as they were, so until the
file is older than this its bytes are compared, not only its ``stat``."""


PEEK_GROWTH = 64 * 1024
"""Bytes of calls appended since the last read that ``peek`` reads itself, on the event loop
(a few calls: well under a millisecond); more go to ``check`` in a worker thread."""


def _now_ns() -> int:
    """The wall clock file timestamps are compared with."""
    return time.time_ns()


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether one tool may be listed and called, and why (for the refusal message)."""

    allowed: bool
    status: str
    """pinned / new / changed / broken / denied / unlisted / held / ..."""
    reason: str = ""
    hold: Hold | None = None
    """Set on a held tool (``allowed``, status ``held``): the client is served the approved
    definition and every call and result is checked against it (services/proxy/hold.py)."""
    serve: dict[str, Any] | None = None
    """A definition served in place of the server's (the relay honours it). Unset since the
    digest covers the whole tool (scheme 3): a pinned tool's ``_meta`` and other keys
    are the approved ones, and a change to them is a change like any other (held or
    withheld)."""
    enforcement: str = ""
    """``withheld`` / ``held`` / ``served`` (engine/enforcement.py); "" for a verdict the
    relay makes itself (ambiguous, unlisted, unverified: withheld)."""
    cue_kinds: tuple[str, ...] = ()
    """For a tool withheld for a blocking cue: the cue kinds (the refusal's ``data.cues``)."""
    row: str = ""
    """The id of the engine's precedence row that decided (engine/enforcement.PRECEDENCE)."""


class Enforcer(Protocol):
    """Decides per tool; implementations re-read their pin file when it changed on disk.

    ``check`` may block (it reads files and computes status): the relay runs it in a worker
    thread. ``peek`` must not: it answers from the cache, or None when only ``check`` can."""

    def check(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict]: ...

    def peek(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict] | None: ...


Signature = tuple[int, int, int, int, int]
"""(device, inode, size, mtime_ns, ctime_ns) of the pin file. ctime cannot be set back by
``touch``/``utime``, so a rewrite that restores size and mtime still changes it."""


def _parse_call_log(path: str, data: bytes) -> Any:
    """``data`` (whole lines of the call log at ``path``) as ``store.readers.load_call_log``
    reads a file: calls grouped by tool, bad lines counted."""
    import io

    from mcp_review.engine.calls import parse_calls
    from mcp_review.engine.status import call_log_of

    return call_log_of(
        path, lambda st: parse_calls(io.BytesIO(data), source=path, strict=False, stats=st)
    )


class PinEnforcer:
    """The pin file's verdicts for one (server, principal), through ``engine.status``.

    Allowed: pinned, or drifted in a way the tier auto-approves. Withheld: new, denied,
    broken, or anything the tier sends to review or blocks. The pin file is stat'ed on every
    check and re-read when its signature (device, inode, size, mtime, ctime) changed, or, while
    it changed too recently for its timestamps to tell, when its bytes differ from the bytes
    judged; so an approval takes effect on the next ``tools/list`` or ``tools/call`` without
    restarting anything. Verdicts are cached per definition object until then; a pin file that
    cannot be read or parsed raises on every check until it can (the proxy then fails closed:
    a stale verdict is never served).

    Thread-safe: ``check`` runs in worker threads, ``peek`` on the event loop.
    """

    def __init__(
        self,
        pins_path: str,
        server: str,
        *,
        principal: str = "default",
        default_tier: str | None = None,
        calls_path: str | None = None,
        hold: bool = True,
    ):
        self.pins_path = pins_path
        self.hold = hold
        """Hold changed tools whose change allows it (the default under ``--enforce``); False:
        withhold every change the tier does not auto-approve (``--withhold-changed``)."""
        self.server = server
        self.principal = principal
        self.default_tier = default_tier
        self.calls_path = calls_path
        self._sig: Signature | bool | None = False  # False: never read (or the last read failed)
        self._digest: bytes | None = None
        """sha256 of the bytes read just before the pins were parsed (None: no file)."""
        self._settled = False
        """The file was older than SETTLE_NS when read: its signature alone tells a change."""
        self._pins: Any = None
        self._calls: Any = None
        self._calls_sig: Signature | bool | None = False
        """The call log's signature when ``_calls`` was read (False: not read yet)."""
        self._calls_stale = False
        """The call log changed since ``_calls`` was read: re-read it before judging anew."""
        self._calls_off = 0
        """How many bytes of the call log ``_calls`` holds (whole lines)."""
        self._cache: dict[str, tuple[dict[str, Any], Verdict]] = {}
        self._watch: dict[str, tuple[Verdict, Any]] = {}
        """Per allowed drifted tool: (its cached verdict, a replayer fed the calls recorded
        since it was judged: engine.compare.watcher)."""
        self._lock = threading.Lock()
        self._ui_uris: tuple[Any, frozenset[str]] | None = None
        self._ui_records: tuple[Any, dict[str, list[Any]]] | None = None
        """The UI resources the approved pins name, with the pins they were read from."""
        self.reloads = 0
        self.client_profile: str | None = None
        """The host profile of the connected client (its ``clientInfo``, engine/hosts.py):
        a change that is a host regression there is held (services/proxy/hold.py)."""
        self.vet: Any = None
        """``--require-signed``: called with each pin file read; it sets aside
        (``PinFile.unverified``) every decision whose signatures do not verify, so its tool is
        withheld with the reason (services/signing.py ``withhold_unsigned``)."""

    def for_client(self, client_name: Any) -> PinEnforcer:
        """The gate for a session whose client said who it is (``initialize``'s
        ``clientInfo.name``): this one when its host has no profile (or the same), else a gate
        of its own that judges that host too. Sessions of ``--listen`` share this gate: one
        client's host never changes what another is served."""
        from mcp_review.engine.hosts import profile_for_client

        profile = profile_for_client(client_name)
        if profile == self.client_profile:
            return self
        gate = PinEnforcer(
            self.pins_path,
            self.server,
            principal=self.principal,
            default_tier=self.default_tier,
            calls_path=self.calls_path,
            hold=self.hold,
        )
        gate.vet = self.vet
        gate.client_profile = profile
        return gate

    def _stat(self) -> Signature | None:
        try:
            st = os.stat(self.pins_path)
        except FileNotFoundError:
            return None
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _calls_stat(self) -> Signature | None:
        """The call log's signature: it only grows (one ``O_APPEND`` write per call) or is
        rotated (a new inode), so a new call always changes its size or inode."""
        if not self.calls_path:
            return None
        try:
            st = os.stat(self.calls_path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _calls_moved(self) -> bool:
        return self._calls_stat() != self._calls_sig

    def _follow_calls(self) -> None:
        """Under the lock, the pins unchanged: when calls were recorded since the log was read
        (by this proxy or another), the log is read again (its new lines) before the next
        verdict is given, so a drifted tool is judged with the calls `status` would replay.
        Which verdicts the new calls can change is decided then (:meth:`_sync_calls`)."""
        if self._calls_moved():
            self._calls_stale = True

    def _sync_calls(self, sig: Signature | bool | None = False) -> None:
        """Under the lock: read the calls recorded since, and drop only the verdicts they can
        change (a recorded call changes only its own tool's verdict, so the
        cost of a call does not grow with the log). A pinned tool's verdict does not depend on
        calls; a withheld one stays withheld (more calls never lift a refusal); an allowed
        drifted tool (held, or re-pinned by the tier) is re-judged only when one of its new
        calls is broken or still sends a removed property, which its watcher (a replayer fed
        only the new calls) tells. A rotated or truncated log is read whole and every drifted
        verdict is judged again. ``sig``: the call log's signature, stat'ed by the caller (False:
        stat it here)."""
        grown = self._load_calls(sig)
        if grown is None:
            self._cache = {k: v for k, v in self._cache.items() if v[1].status == "pinned"}
            self._watch.clear()
            return
        for tool, new in grown.items():
            hit = self._cache.get(tool)
            if hit is None or hit[1].status == "pinned" or not hit[1].allowed:
                continue
            w = self._watch.get(tool)
            if w is not None and w[0] is hit[1]:
                mark = w[1].noted
                w[1].feed(new)
                if not w[1].turned_since(mark):
                    continue  # nothing the verdict turns on: it stands
            self._cache.pop(tool, None)
            self._watch.pop(tool, None)

    def _load_calls(self, sig: Signature | bool | None = False) -> dict[str, list[Any]] | None:
        """Read the call log; when it is the file read last time, grown, only its new lines
        (it is append-only between rotations: re-reading 10 MiB for every call recorded would
        cost each call to a held or auto-approved tool a second). Returns the new calls by
        tool when only new lines were read, None when the log was read whole (or is gone).
        ``sig``: the log's signature when the caller stat'ed it (False: stat it here), before
        reading either way, so a write in between is seen next time."""
        if sig is False:
            sig = self._calls_stat()
        assert not isinstance(sig, bool)
        prev = self._calls_sig
        grown = (
            self._calls is not None
            and isinstance(prev, tuple)
            and sig is not None
            and sig[:2] == prev[:2]
            and sig[2] >= self._calls_off
        )
        self._calls_sig, self._calls_stale = sig, False
        if sig is None or self.calls_path is None:
            self._calls, self._calls_off = None, 0
            return None
        start = self._calls_off if grown else 0
        try:
            if grown:
                # The bytes appended up to the stat above (a few calls, typically one): one
                # pread, no buffered file object (read on the event loop by ``peek``).
                fd = os.open(self.calls_path, os.O_RDONLY | os.O_CLOEXEC)
                try:
                    data = os.pread(fd, sig[2] - start, start)
                finally:
                    os.close(fd)
            else:
                with open(self.calls_path, "rb") as f:
                    data = f.read()
        except FileNotFoundError:
            self._calls, self._calls_off = None, 0
            return None
        except OSError as e:  # as store.readers.open_log says it
            from mcp_review.engine.errors import InputError

            self._calls_sig = False
            raise InputError(f"cannot read: {e.strerror}", source=self.calls_path) from None
        data = data[: data.rfind(b"\n") + 1]  # a line being written is read next time
        from mcp_review.engine.calls import one_call

        one = one_call(data) if grown else None
        self._calls_off = start + len(data)
        if one is not None:
            # One call appended (this proxy's own last call, typically): read as parse_calls
            # reads it, without a reader per line (engine.calls.one_call).
            assert one.tool is not None
            have = self._calls.by_tool.setdefault(one.tool, [])
            one.index = len(have) + 1
            have.append(one)
            return {one.tool: [one]}
        part = _parse_call_log(self.calls_path, data)
        if not grown:
            self._calls = part
            return None
        calls = self._calls
        for tool, new in part.by_tool.items():
            have = calls.by_tool.setdefault(tool, [])
            for c in new:
                c.index = len(have) + 1
                have.append(c)
        calls.unattributed += part.unattributed
        calls.skipped += part.skipped
        calls.surrogates += part.surrogates
        return dict(part.by_tool)

    @staticmethod
    def _is_settled(sig: Signature | None) -> bool:
        return sig is None or _now_ns() - max(sig[3], sig[4]) > SETTLE_NS

    def _read_digest(self) -> bytes | None:
        try:
            with open(self.pins_path, "rb") as f:
                return hashlib.sha256(f.read()).digest()
        except FileNotFoundError:
            return None

    def _refresh(self) -> None:
        """Under the lock. Raises (and forgets what it had) when the pin file cannot be read."""
        from mcp_review.store.pinfile import load_pins

        sig = self._stat()
        if self._sig is not False and sig == self._sig:
            if self._settled:
                self._follow_calls()
                return
            if self._read_digest() == self._digest:
                self._settled = self._is_settled(sig)
                self._follow_calls()
                return
        self._sig = False
        self._cache.clear()
        self._watch.clear()
        # Bytes first, then parse: a change in between makes the digest stale, never the pins,
        # so the next check re-reads rather than trusting what it did not judge.
        digest = self._read_digest()
        # A pin whose digest does not verify is kept aside (never trusted): its tool is withheld
        # with the reason, the others are judged as usual.
        self._pins = load_pins(self.pins_path, allow_unverified=True)
        if self.vet is not None:
            self.vet(self._pins)
        # Recorded calls decide "broken": re-read with the pins, and when the log has grown
        # (``_follow_calls``), not on every call.
        self._load_calls()
        self._sig, self._digest, self._settled = sig, digest, self._is_settled(sig)
        self.reloads += 1

    def peek(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict] | None:
        """The cached verdicts for ``tools`` when the pin file is unchanged since they were
        judged (one ``stat``, no parsing), else None. Calls appended to the log since (up to
        ``PEEK_GROWTH`` bytes) are read here, as ``check`` would, and a verdict they turn is a
        miss. Never waits: a check in progress in a worker thread is a miss."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if self._sig is False or not self._settled:
                return None
            try:
                if self._stat() != self._sig:
                    return None
            except OSError:
                return None  # check() reports it
            sig = self._calls_stat()  # once: what is read below is judged as of this stat
            moved = sig != self._calls_sig
            if moved and self._follows_calls(tools) and self._grew_a_little(sig):
                # What check() would do first, here: read the few calls appended since (the
                # proxy's own last call, typically) and drop only the verdicts they turn. A
                # worker thread for that cost a held call two thread hand-offs.
                try:
                    self._sync_calls(sig)
                except Exception:
                    return None  # check() reports it
                moved = sig != self._calls_sig  # a write since that stat: seen next time
            out: dict[str, Verdict] = {}
            for t in tools:
                hit = self._cache.get(t["name"])
                if hit is None or hit[0] is not t or (moved and hit[1].status != "pinned"):
                    return None
                out[t["name"]] = hit[1]
            return out
        finally:
            self._lock.release()

    def _follows_calls(self, tools: Sequence[dict[str, Any]]) -> bool:
        """Some of ``tools`` has a cached verdict that recorded calls can turn (not pinned):
        only then are new calls worth reading (a pinned tool's calls change nothing)."""
        for t in tools:
            hit = self._cache.get(t["name"])
            if hit is not None and hit[0] is t and hit[1].status != "pinned":
                return True
        return False

    def _grew_a_little(self, sig: Signature | None) -> bool:
        """The call log (``sig``: its signature now) is the file read last time, grown by at
        most ``PEEK_GROWTH`` bytes."""
        prev = self._calls_sig
        return (
            self._calls is not None
            and isinstance(prev, tuple)
            and sig is not None
            and sig[:2] == prev[:2]
            and 0 <= sig[2] - self._calls_off <= PEEK_GROWTH
        )

    def instructions(self, live: Any) -> tuple[Any, str]:
        """What the client may receive for the server's ``instructions`` (None: remove the
        key), and why it differs from what the server sent ("" when it does not).

        A server that sends none (``""``) passes as is. Otherwise only the approved text
        passes: the same text when unchanged, the approved text in place of a changed one;
        new, denied or unverified instructions (and a non-string value) are removed."""
        from mcp_review.engine.instructions import instructions_digest, live_text

        if isinstance(live, str) and live == "":
            return live, ""
        with self._lock:
            self._refresh()
            pins = self._pins
        pin = pins.instructions.get((self.server, self.principal))
        if (self.server, self.principal) in pins.unverified_instructions:
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

    def _current_pins(self) -> Any:
        with self._lock:
            self._refresh()
            return self._pins

    def surfaces(self, kind: str, items: list[Any]) -> tuple[list[Any], list[tuple[str, str]]]:
        """The listed prompts, resources or templates the client may see, and the withheld
        ones with why (services/proxy/surfaces_gate.py). Blocks like :meth:`check`."""
        from mcp_review.services.proxy import surfaces_gate

        pins = self._current_pins()
        ui = [
            w
            for w in items
            if kind == "resource"
            and isinstance(w, dict)
            and isinstance(w.get("uri"), str)
            and w["uri"][:5].lower() == "ui://"
        ]
        kept, withheld = surfaces_gate.filter_list(
            pins, self.server, self.principal, kind, [w for w in items if w not in ui]
        )
        for w in ui:  # an MCP Apps UI resource: listed when an approved tool names it
            why = self.ui_resource(w["uri"])
            if why is None:
                kept.append(w)
            else:
                withheld.append((w["uri"], why))
        return kept, withheld

    def prompt_get(self, name: Any, seen: Any) -> str | None:
        """Why a ``prompts/get`` is refused, or None."""
        from mcp_review.services.proxy import surfaces_gate

        pins = self._current_pins()
        return surfaces_gate.prompt_refusal(pins, self.server, self.principal, name, seen)

    def resource_read(self, uri: Any, seen: Any) -> str | None:
        """Why a ``resources/read`` of a non-UI resource is refused, or None."""
        from mcp_review.services.proxy import surfaces_gate

        pins = self._current_pins()
        return surfaces_gate.read_refusal(pins, self.server, self.principal, uri, seen)

    def ui_resource(self, uri: str) -> str | None:
        """Why a ``resources/read`` of the MCP Apps UI resource ``uri`` is refused, or None when
        the approved definition of an approved tool of this (server, principal) names it
        (``_meta.ui.resourceUri``, ``ui/resourceUri``, ``openai/outputTemplate``): the
        operator approved that UI with the tool. Blocks like :meth:`check`."""
        from mcp_review.engine.rules.meta import ui_resource_uris

        with self._lock:
            self._refresh()
            pins = self._pins
            cached = self._ui_uris
            if cached is None or cached[0] is not pins:
                uris: set[str] = set()
                for (s, p, _), pin in pins.pins.items():
                    if s == self.server and p == self.principal and pin.approved:
                        try:
                            meta = pin.tool_def().wire.get("_meta")
                        except Exception:  # verified on load; a definition that cannot be
                            continue  # read names nothing
                        uris.update(ui_resource_uris(meta))
                cached = self._ui_uris = (pins, frozenset(uris))
        if uri in cached[1]:
            return None
        return (
            "no approved tool names this UI resource (ui://): approve the tool whose _meta "
            "points at it first"
        )

    def ui_content(self, uri: str, result: Any) -> str | None:
        """Why the server's ``resources/read`` ``result`` for the UI resource ``uri`` may not
        reach the client, or None when it may: an approved tool of this
        (server, principal) names ``uri`` and the content, MIME type and content ``_meta``
        are the ones approved with it (engine/ui_resource.py). Approved pins that predate UI
        pinning hold no record: the URI check (:meth:`ui_resource`) is all they give, until
        the tool's next decision records its content. Blocks like :meth:`check`."""
        from mcp_review.engine.rules.meta import ui_resource_uris
        from mcp_review.engine.ui_resource import PIN_KEY, from_toml, served_matches

        with self._lock:
            self._refresh()
            pins = self._pins
            cached = self._ui_records
            if cached is None or cached[0] is not pins:
                by_uri: dict[str, list[Any]] = {}
                for (s, p, _), pin in pins.pins.items():
                    if s != self.server or p != self.principal or not pin.approved:
                        continue
                    try:
                        meta = pin.tool_def().wire.get("_meta")
                    except Exception:  # verified on load; a definition that cannot be
                        continue  # read names nothing
                    rows = pin.extra.get(PIN_KEY)
                    records = from_toml(rows) if rows is not None else None
                    for u in ui_resource_uris(meta):
                        rec = None
                        if rows is not None:
                            rec = next((r for r in records or () if r.uri == u), False)
                        by_uri.setdefault(u, []).append(rec)
                cached = self._ui_records = (pins, by_uri)
        found = cached[1].get(uri)
        if not found:
            return (
                "no approved tool names this UI resource (ui://): approve the tool whose _meta "
                "points at it first"
            )
        kept = [r for r in found if r is not None]
        if not kept:
            return None  # pins that predate UI pinning: the URI is what was approved
        why = "its approved record cannot be read"
        for r in kept:
            if r is False:
                why = "the pin of the tool that names it holds no record of it"
                continue
            why = served_matches(r, uri, result) or ""
            if not why:
                return None
        return f"{why}: approve the tool again to approve its new UI"

    def check(self, tools: Sequence[dict[str, Any]]) -> dict[str, Verdict]:
        with self._lock:
            self._refresh()
            if self._calls_stale:
                self._sync_calls()
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
        from mcp_review.engine.errors import InputError
        from mcp_review.engine.model import ToolDef
        from mcp_review.engine.snapshot import ServerSnapshot
        from mcp_review.engine.status import State, flag_shadowing, server_status

        verdicts: dict[int, Verdict] = {}
        defs = []
        for i, t in enumerate(tools):
            try:
                defs.append((i, ToolDef.from_wire(t, source=f"tools/list of {self.server}")))
            except InputError as e:
                verdicts[i] = Verdict(False, "invalid", e.detail)
        snap = ServerSnapshot(
            name=self.server, principal=self.principal, tools=[d for _, d in defs]
        )
        _, statuses = server_status(
            snap, self._pins, calls=self._calls, default_tier=self.default_tier, witnesses=False
        )
        # Look-alike names within this server, and names another server's approved pins hold
        # (compute_status does this for a fleet; the proxy sees one server, and not what the
        # others run): ``shadows`` keeps a tool from being held, while what is relayed or
        # withheld otherwise stays as the tier decides (the policies are put back).
        policies = [st.policy for st in statuses]
        flag_shadowing(
            statuses,
            elsewhere=[k for k, p in self._pins.pins.items() if p.approved and k[0] != self.server],
        )
        for st, policy in zip(statuses, policies, strict=True):
            st.policy = policy
        if self.client_profile is not None:
            # The connected client's host: its regressions are named, and held.
            from mcp_review.engine.hosts import Targets
            from mcp_review.engine.status import StatusReport, judge_hosts

            judge_hosts(StatusReport(tools=statuses), Targets((self.client_profile,)))
        by_name = {s.tool: s for s in statuses if s.state is not State.REMOVED}
        from mcp_review.engine.compare import watcher

        for i, d in defs:
            bad = self._pins.unverified.get((self.server, self.principal, d.name))
            if bad is not None:
                verdicts[i] = Verdict(
                    False,
                    "unverified pin",
                    f"its pin does not verify: {bad[1]}",
                    enforcement="withheld",
                    row="unverified-pin",
                )
                continue
            st = by_name[d.name]
            v = verdicts[i] = verdict_for(st, hold=self.hold)
            self._watch.pop(d.name, None)
            if v.allowed and v.status != "pinned" and st.comparison is not None:
                self._watch[d.name] = (v, watcher(st.comparison))
        return [verdicts[i] for i in range(len(tools))]


def verdict_for(s: ToolStatus, *, hold: bool = True) -> Verdict:
    """What the enforcing proxy does with one tool, from its engine status (``s``: a
    ToolStatus): the engine's precedence list (engine/enforcement.py) decides withheld, held
    or served; a held tool gets its :class:`Hold` (services/proxy/hold.py), or is withheld
    when none can be built. ``hold=False``: ``--withhold-changed``, nothing held."""
    from mcp_review.engine.enforcement import Enforcement, rule
    from mcp_review.engine.status import State
    from mcp_review.services.proxy.hold import hold_for

    r = rule(s, hold=hold)
    if r.enforcement is Enforcement.SERVED:
        return Verdict(True, str(s.state), r.reason, enforcement="served", row=r.row)
    if r.row == "denied":
        return Verdict(False, "denied", r.reason, enforcement="withheld", row=r.row)
    status = str(s.state) if s.state is State.PINNED else f"{s.state}, {s.policy.outcome}"
    why = "; ".join(s.policy.reasons)
    if r.row == "withhold-changed":
        return Verdict(False, status, why, enforcement="withheld", row=r.row)
    if r.enforcement is Enforcement.WITHHELD:
        why = f"{why}; not held: {r.reason}" if why else f"not held: {r.reason}"
        return Verdict(False, status, why, enforcement="withheld", cue_kinds=r.cue_kinds, row=r.row)
    h = hold_for(s)
    if isinstance(h, str):
        why = f"{why}; not held: {h}" if why else f"not held: {h}"
        return Verdict(False, status, why, enforcement="withheld")
    return Verdict(
        True,
        HELD,
        f"{status}: {r.reason}; the approved definition ({h.pinned_digest}) is served while "
        f"{h.live_digest} waits for review",
        hold=h,
        enforcement="held",
        row=r.row,
    )
