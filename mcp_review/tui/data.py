"""The app's data adapter: what the screens read (servers, tool rows) and the actions they ask for.

Screens never touch the pin file, the network or the engine directly: they call a
``ReviewSource``. It combines a *fetcher* (current tool lists, with per-server progress) and a
*pin file* (engine.pins: what was approved, decisions, undo). Fetchers are a small protocol so the same screens
run on a snapshot file, in-process test servers, or live servers through ``services``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from mcp_review.engine.hidden import has_hidden
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.pins import Pin as CorePin
from mcp_review.engine.snapshot import Snapshot
from mcp_review.engine.status import CallLog, State, StatusReport, ToolStatus

Status = State
"""A tool's standing against the pin file: the core's states, under the app's name."""


NEEDS_REVIEW = frozenset({Status.NEW, Status.CHANGED, Status.BROKEN, Status.REMOVED})
STATUS_ORDER = [
    Status.BROKEN,
    Status.CHANGED,
    Status.NEW,
    Status.REMOVED,
    Status.DENIED,
    Status.PINNED,
]

FLAG_TEXT = "text"
FLAG_ANNOTATIONS = "annotations"
FLAG_HIDDEN = "hidden"
FLAG_LABELS = {
    FLAG_TEXT: "text changed",
    FLAG_ANNOTATIONS: "annotation relaxed",
    FLAG_HIDDEN: "hidden chars",
}
FLAG_SHORT = {FLAG_TEXT: "text", FLAG_ANNOTATIONS: "relaxed", FLAG_HIDDEN: "hidden"}
_TEXT_RULES = frozenset(
    {
        "schema-description-changed",
        "schema-title-changed",
        "schema-comment-changed",
        "schema-examples-changed",
        "schema-text-added",
    }
)


def _strings(v: Any) -> Iterable[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield str(k)
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def tool_has_hidden(t: ToolDef | None) -> bool:
    return t is not None and any(has_hidden(s) for s in _strings(t.wire))


@dataclass(slots=True)
class ToolEntry:
    """One row of the main screen."""

    server: str
    principal: str
    name: str
    status: Status
    _pinned: ToolDef | None = None
    current: ToolDef | None = None
    flags: frozenset[str] = frozenset()
    note: str = ""
    policy: str = "review"
    """Policy outcome (engine.policy): none | auto-approve | review | block."""
    summary: str = ""
    reasons: tuple[str, ...] = ()
    """Why the policy gave its outcome (engine.policy)."""
    notes: tuple[str, ...] = ()
    """What the status engine noticed beyond the diff (engine.status: shadowing, duplicates)."""
    shadows: tuple[str, ...] = ()
    """``server/tool`` names this tool's name imitates (homoglyph or hidden-character twin)."""
    pending: bool = False
    """Changed, not compared yet (the first frame of a big fleet): nothing may be decided on
    it until the comparison is shown (``engine.status`` ToolStatus.pending)."""
    pin: CorePin | None = None
    """The pin whose definition :attr:`pinned` parses on first use (a 10,000-tool fleet
    would otherwise parse every unchanged tool's pinned definition to draw the list)."""

    @property
    def pinned(self) -> ToolDef | None:
        """The decided definition (the engine's old side for a changed tool)."""
        if self._pinned is None and self.pin is not None:
            self._pinned = self.pin.tool_def()
        return self._pinned

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.server, self.principal, self.name)

    @property
    def needs_review(self) -> bool:
        return self.status in NEEDS_REVIEW

    @property
    def blocked(self) -> bool:
        return self.policy == "block"


@dataclass(slots=True)
class ServerEntry:
    """One server: its connection state and its tools."""

    name: str
    principal: str = "default"
    state: str = "waiting"  # waiting | connecting | ok | failed
    detail: str = ""
    error: str | None = None
    tools: list[ToolEntry] = field(default_factory=list)
    policy: str = "tiered"
    server_version: str | None = None
    instructions: Any = None
    """The server's instructions against their pin (``engine.instructions.InstructionsStatus``;
    None: none sent and none decided). Shown on the server's row, decided from it."""


ProgressFn = Callable[[str, str, str], None]
"""``(server, state, detail)``: state is waiting | connecting | ok | failed."""


class Fetcher(Protocol):
    """Where current tool lists come from."""

    names: list[str]

    def fetch(self, progress: ProgressFn) -> Awaitable[Snapshot]: ...


class SnapshotFetcher:
    """A fixed snapshot (a file saved by `mcp-review snapshot`, or built by a test)."""

    def __init__(self, snapshot: Snapshot, *, delay: float = 0.0) -> None:
        self.snapshot = snapshot
        self.names = sorted(snapshot.servers)
        self.delay = delay

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        import asyncio

        for name in self.names:
            progress(name, "connecting", "")
            if self.delay:
                await asyncio.sleep(self.delay)
            s = self.snapshot.servers[name]
            if s.error:
                progress(name, "failed", str(s.error.get("message", s.error)))
            else:
                progress(name, "ok", f"{len(s.tools)} tools")
        return self.snapshot


class LiveFetcher:
    """Live servers from a config, fetched concurrently through ``services.fetch``."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.names = [c.name for c in config.servers]

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        from pathlib import Path

        from mcp_review.services.fetch import fetch_all

        states = {
            "queued": "waiting",
            "connecting": "connecting",
            "listing": "connecting",
            "done": "ok",
            "failed": "failed",
        }

        def on_progress(p: Any) -> None:
            detail = p.detail
            if p.state == "listing":
                detail = f"listing… {p.tools} tools" if p.tools else "listing…"
            elif p.state == "failed" and p.snapshot is not None and p.snapshot.error:
                detail = str(p.snapshot.error.get("message") or p.snapshot.error.get("kind"))
            progress(p.server, states.get(p.state, p.state), detail)

        cfg = self.config
        log_dir = Path(cfg.state_dir) / "logs" if cfg.state_dir else None
        return await fetch_all(
            cfg.servers,
            concurrency=cfg.concurrency,
            log_dir=log_dir,
            max_tools=cfg.max_tools,
            max_pages=cfg.max_pages,
            on_progress=on_progress,
        )


@dataclass(slots=True)
class Computed:
    """One status computation (:meth:`ReviewSource.compute`): the report and its entries."""

    report: StatusReport
    servers: list[ServerEntry]


class ReviewSource:
    """Fetcher + pin file + recorded calls: everything the screens need.

    Status and policy come from ``engine.status`` (the same function `status` and `check` call);
    decisions go into a ``engine.pins.PinFile`` and, when ``pins_path`` is set, are saved at once
    (atomic, merged with concurrent writers, audit line first). Without ``pins_path`` decisions
    stay in memory (demos, previews).
    """

    def __init__(
        self,
        fetcher: Fetcher,
        pins: PinFile | None = None,
        *,
        pins_path: str | None = None,
        audit_path: str | None = None,
        calls: Mapping[str, CallLog] | None = None,
        tiers: Mapping[str, str] | None = None,
        origins: Mapping[str, str] | None = None,
        gate: Any = None,
    ) -> None:
        self.fetcher = fetcher
        self.gate = gate
        """The config's ``[rules]`` and ``[[ignore]]`` (engine.gate.GateConfig), as `check`."""
        self.origins = dict(origins or {})
        self.pins = pins if pins is not None else PinFile(path=pins_path)
        self.pins_path = pins_path
        self.audit_path = audit_path
        self.save_notes: list[str] = []
        """Notes from saves for the app to show once (a pin file rewritten in a newer version)."""
        self.calls = dict(calls or {})
        self.tiers = dict(tiers or {})
        self.candidates: list[str] = []
        """Servers shown through their ``[servers.NAME.candidate]`` (``--candidate``)."""
        self.snapshot: Snapshot | None = None
        self._status: dict[tuple[str, str, str], ToolStatus] = {}
        self._report = StatusReport()
        self._history: list[tuple[tuple[str, str, str | None], Any, str]] = []
        """(key, the pin it replaced, decision); a key whose tool is None is a decision about
        the server's instructions (the pin then an InstructionsPin)."""

    @classmethod
    def open(cls, fetcher: Fetcher, pins_path: str, **kw: Any) -> ReviewSource:
        """A source over the pin file at ``pins_path`` (created on the first decision)."""
        from mcp_review.store.pinfile import load_pins

        # A pin whose digest does not verify is not trusted (its tool reads as unpinned) but
        # the app still opens, shows it (``unverified_pins``) and lets the operator re-decide.
        return cls(fetcher, load_pins(pins_path, allow_unverified=True), pins_path=pins_path, **kw)

    @classmethod
    def from_inputs(cls, inp: Any) -> ReviewSource:
        """The source for resolved inputs (``services.inputs.resolve``): the same config, call
        logs, tiers and pin file every headless command uses, so the app and `check` agree."""
        if inp.live:
            cfg = inp.config
            if inp.only:
                cfg.servers = inp.servers
            fetcher: Fetcher = LiveFetcher(cfg)
        else:
            fetcher = SnapshotFetcher(inp.snapshot())
        src = cls(
            fetcher,
            inp.pins,
            pins_path=inp.pins_path,
            calls=inp.calls,
            tiers=inp.tiers,
            origins=inp.origins,
            gate=inp.config.gate if inp.config is not None else None,
        )
        src.candidates = list(getattr(inp, "candidates", []))
        return src

    @classmethod
    def baseline(
        cls, fetcher: Fetcher, pinned: Snapshot, *, pins_path: str | None = None, **kw: Any
    ) -> ReviewSource:
        """Everything in ``pinned`` approved (and saved to ``pins_path`` if given): the
        baseline a later fetch is reviewed against."""
        from mcp_review.store.pinfile import save_pins

        pf = PinFile(path=pins_path)
        for name, s in pinned.servers.items():
            for t in s.tools:
                pf.decide(
                    make_pin(
                        name,
                        t,
                        Decision.APPROVED,
                        principal=s.principal,
                        by="baseline",
                        at="2026-01-01T00:00:00Z",
                        server_version=s.server_version,
                    ),
                    source="baseline",
                )
        if pins_path is not None:
            save_pins(pf, pins_path, audit_path=kw.get("audit_path"))
        return cls(fetcher, pf, pins_path=pins_path, **kw)

    def unverified_pins(self) -> str:
        """What is wrong with pins that do not verify (empty when every pin does)."""
        from mcp_review.engine.pins import unverified_message

        return unverified_message(self.pins) if self.pins.unverified else ""

    @property
    def server_names(self) -> list[str]:
        return list(self.fetcher.names)

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        self.snapshot = await self.fetcher.fetch(progress)
        return self.snapshot

    # Reading ------------------------------------------------------------------------------------
    def status(self, entry: ToolEntry) -> ToolStatus | None:
        return self._status.get(entry.key)

    def comparison(self, entry: ToolEntry) -> Any:
        """The engine's Comparison (pinned → live) for a changed tool, else None."""
        st = self._status.get(entry.key)
        return st.comparison if st is not None else None

    def recorded_calls(self, entry: ToolEntry) -> list[Any] | None:
        """The recorded calls of ``entry``'s tool (``engine.replay.Call``); None when its server
        has no call log."""
        log = self.calls.get(entry.server)
        return list(log.for_tool(entry.name)) if log is not None else None

    def policy(self, server: str, tool: str | None) -> str:
        return self.pins.tier_for(server, tool, default=self.tiers.get(server))

    def entries(self) -> list[ServerEntry]:
        """Every server with its tools, status and policy computed by ``engine.status``
        (:meth:`compute` then :meth:`apply`, in the caller's thread)."""
        return self.apply(self.compute())

    def pins_view(self) -> PinFile:
        """A copy of the pin state a worker thread can read while the UI thread records
        decisions in :attr:`pins` (the dicts are copied; pins themselves are never mutated,
        only replaced)."""
        import copy
        import dataclasses

        view = copy.copy(self.pins)
        for f in dataclasses.fields(view):  # pins, policies, instructions, unverified, ...
            value = getattr(view, f.name)
            if isinstance(value, (dict, list)):
                setattr(view, f.name, copy.copy(value))
        return view

    def compute(
        self, pins: PinFile | None = None, snapshot: Snapshot | None = None, *, compare: bool = True
    ) -> Computed:
        """Status and entries for ``snapshot`` (default: the last fetched) against ``pins``
        (default: :meth:`pins_view` taken now). Changes nothing on the source, so it can run
        in a worker thread; :meth:`apply` makes the result current (on the UI thread)."""
        from mcp_review.engine.status import compute_status

        snap = snapshot if snapshot is not None else (self.snapshot or Snapshot())
        pins = pins if pins is not None else self.pins_view()
        report = compute_status(
            snap, pins, calls=self.calls, tiers=self.tiers, origins=self.origins, compare=compare
        )
        if self.gate:
            from mcp_review.engine.gate import govern

            govern(report, self.gate)
        servers = {s.name: s for s in report.servers}
        by_server: dict[str, list[ToolEntry]] = {}
        for t in report.tools:
            by_server.setdefault(t.server, []).append(self._entry(t))
        out: list[ServerEntry] = []
        for name in dict.fromkeys([*self.fetcher.names, *sorted(snap.servers)]):
            st = servers.get(name)
            se = ServerEntry(name, policy=pins.tier_for(name, None, default=self.tiers.get(name)))
            if st is None:
                se.state = "waiting"
            else:
                se.principal = st.principal
                se.server_version = st.server_version
                if st.error:
                    se.state = "failed"
                    se.error = str(st.error.get("message") or st.error.get("kind") or st.error)
                else:
                    se.state = "ok"
                    se.tools = by_server.get(name, [])
                    se.instructions = st.instructions
            out.append(se)
        return Computed(report, out)

    def apply(self, computed: Computed) -> list[ServerEntry]:
        """Make a :meth:`compute` result the current status (what decisions and the review
        screen read); returns its entries."""
        self._report = computed.report
        self._status = {t.key: t for t in computed.report.tools}
        return computed.servers

    def _entry(self, t: ToolStatus) -> ToolEntry:
        cmp = t.comparison
        pinned = cmp.old if cmp is not None else None
        if (
            pinned is None
            and t.pin is not None
            and t.live is not None
            and not t.pending
            and t.pin.current_digest() != t.live_digest
        ):
            # pinned under another digest yet not compared (the running version kept beside
            # an approved candidate): parsed now, so its text difference is flagged
            pinned = t.pin.tool_def()
        e = ToolEntry(
            t.server,
            t.principal,
            t.tool,
            t.state,
            pinned,
            t.live,
            note=t.pin.note if t.pin is not None else "",
            policy=str(t.policy.outcome),
            # unchanged or removed: what was decided, parsed when first shown
            pin=t.pin if pinned is None else None,
        )
        flags: set[str] = set()
        for r in t.policy.reasons:
            if r.startswith(("annotation relaxed", "annotation claims less")):
                flags.add(FLAG_ANNOTATIONS)
            elif r.startswith("hidden characters"):
                flags.add(FLAG_HIDDEN)
        if (
            pinned is not None
            and t.live is not None
            and (pinned.description != t.live.description or pinned.title != t.live.title)
        ):
            flags.add(FLAG_TEXT)  # (an unparsed pin has the live digest: same text)
        if cmp is not None and any(c.new_text or c.rule in _TEXT_RULES for c in cmp.changes):
            flags.add(FLAG_TEXT)  # text the model reads, anywhere in the definition
        if e.status is Status.NEW and tool_has_hidden(t.live):
            flags.add(FLAG_HIDDEN)
        e.flags = frozenset(flags)
        e.reasons = tuple(t.policy.reasons)
        e.notes = tuple(t.notes) + tuple(f.line() for f in t.protocol)
        e.shadows = tuple(t.shadows)
        if cmp is not None:
            e.summary = _summary(cmp)
        elif t.pending:
            e.pending = True
            e.summary = "comparing…"
        elif e.status is Status.NEW:
            e.summary = "new tool"
        elif e.status is Status.REMOVED:
            e.summary = "; ".join(t.policy.reasons)
        if e.shadows:
            # The twin is the finding: it leads, ahead of "new tool" or the change counts.
            shadow = "shadows " + ", ".join(e.shadows)
            e.summary = shadow if e.status is Status.NEW else f"{shadow}; {e.summary}"
        return e

    def compatible_only(self, e: ToolEntry) -> bool:
        """Changed, every change compatible or cosmetic and none bringing in text the model
        reads, no broken call, no trust flag."""
        cmp = self.comparison(e)
        if e.status is not Status.CHANGED or cmp is None or e.flags:
            return False
        ok = {ChangeClass.COMPATIBLE, ChangeClass.COSMETIC}
        return (
            bool(cmp.changes)
            and cmp.classes() <= ok
            and not cmp.broken_calls
            and not any(c.new_text for c in cmp.changes)
        )

    def same_changes(self, e: ToolEntry, tools: Iterable[ToolEntry]) -> list[ToolEntry]:
        """The changed ``tools`` of ``e``'s server (and principal) that differ from their pins in
        exactly the way ``e`` does: the same set of changes (engine/groups.py), none of them
        with a witness, no broken recorded call. ``e`` first; empty when ``e`` has no such
        change set."""
        from mcp_review.engine.groups import signature

        def sig(x: ToolEntry) -> Any:
            cmp = self.comparison(x)
            if (
                x.status not in (Status.CHANGED, Status.BROKEN)
                or x.current is None
                or cmp is None
                or cmp.broken_calls
            ):
                return None
            return signature(cmp.changes)

        mine = sig(e)
        if mine is None:
            return []
        others = [
            x
            for x in tools
            if x.server == e.server
            and x.principal == e.principal
            and x.key != e.key
            and sig(x) == mine
        ]
        return [e, *others]

    # Writing ------------------------------------------------------------------------------------
    def _save(self) -> None:
        if self.pins_path is not None:
            from mcp_review.store.pinfile import save_pins, upgrade_note

            note = upgrade_note(
                save_pins(self.pins, self.pins_path, audit_path=self.audit_path), self.pins_path
            )
            if note:
                self.save_notes.append(note)

    def last_decision(self) -> str | None:
        """What :meth:`undo` would undo, in words (None when nothing)."""
        if not self._history:
            return None
        key, _, decision = self._history[-1]
        return f"{decision} of {key[0]} › {key[2] if key[2] is not None else 'instructions'}"

    def decide(self, entry: ToolEntry, decision: str, note: str = "", *, why: str = "") -> None:
        """Record ``decision`` (approved | denied) for exactly the definition shown, and save.
        ``why``: the operator's reason for approving a blocked change (the audit log's why)."""
        from mcp_review.engine.pins import with_decision

        key = entry.key
        before = self.pins.get(*key)
        srv = self.snapshot.servers.get(entry.server) if self.snapshot else None
        if entry.current is not None:
            pin = make_pin(
                entry.server,
                entry.current,
                Decision(decision),
                principal=entry.principal,
                note=note,
                server_version=srv.server_version if srv else None,
                protocol_version=srv.protocol_version if srv else None,
            )
            audit_why = note
            if why:
                blocked = "; ".join(entry.reasons)
                audit_why = f"approved a blocked change: {why}" + (
                    f" [blocked: {blocked}]" if blocked else ""
                )
            from mcp_review.engine.candidate import keep_running

            # Previewing a candidate: the running version's approval stays beside it.
            pin = keep_running(pin, before, candidate=entry.server in self.candidates)
            self.pins.decide(pin, why=audit_why, source="review app")
        elif decision == "approved":
            # Approving a removal acknowledges it: the pin goes.
            self.pins.forget(*key, why=note or "removal acknowledged", source="review app")
        elif before is not None:
            self.pins.decide(with_decision(before, Decision.DENIED, note=note), source="review app")
        said = (
            "removal acknowledged" if entry.current is None and decision == "approved" else decision
        )  # the words of the audit log, for undo
        self._history.append((key, before, said))
        self._save()

    def decide_instructions(self, server: ServerEntry, decision: str, *, why: str = "") -> None:
        """Record ``decision`` for exactly the instructions shown on ``server``'s row (denying
        instructions the server no longer sends denies the pinned text), and save."""
        from mcp_review.engine.pins import make_instructions_pin

        st = server.instructions
        if st is None:
            raise ValueError("this server sends no instructions and has none pinned")
        text = st.live if st.live is not None else (st.pin.text if st.pin else None)
        if text is None or (decision == "approved" and st.live is None):
            raise ValueError("the server sends no instructions now: nothing to approve")
        ipin = make_instructions_pin(
            server.name,
            text,
            decision,
            principal=st.principal,
            server_version=server.server_version,
        )
        audit_why = why or f"{decision} ({st.state} server instructions)"
        before = self.pins.instructions.get((server.name, st.principal))
        self.pins.decide_instructions(ipin, why=audit_why, source="review app")
        # Undone like a tool decision; the key's third part None marks instructions.
        self._history.append(((server.name, st.principal, None), before, decision))
        self._save()

    def apply_auto_approvals(self, entries: Iterable[ToolEntry]) -> list[ToolEntry]:
        """Re-pin ``entries`` as their policy tier allows, through
        ``engine.status.apply_auto_approvals`` (decided_by ``mcp-review (policy <tier>)``, logged
        in the audit log), and save. Only a tool still auto-approved for exactly the definition
        in its entry is re-pinned; each one is undone on its own by :meth:`undo`. Returns the
        entries re-pinned."""
        from mcp_review.engine.policy import Outcome
        from mcp_review.engine.status import apply_auto_approvals

        wanted = {e.key: e for e in entries}
        picked = [
            t
            for t in self._report.tools
            if t.key in wanted
            and t.policy.outcome is Outcome.AUTO_APPROVE
            and t.live is not None
            and t.live is wanted[t.key].current
        ]
        if not picked:
            return []
        before = {t.key: self.pins.get(*t.key) for t in picked}
        done = apply_auto_approvals(
            StatusReport(servers=self._report.servers, tools=picked),
            self.pins,
            self.snapshot,
            candidates=self.candidates,
        )
        for t in done:
            self._history.append((t.key, before[t.key], "auto-approval"))
        self._save()
        return [wanted[t.key] for t in done]

    def undo(self) -> str | None:
        """Restore the pin the last decision replaced (itself a logged, saved change)."""
        if not self._history:
            return None
        key, before, decision = self._history.pop()
        if key[2] is None:  # a decision about the server's instructions
            if before is None:
                self.pins.forget_instructions(
                    key[0], key[1], why=f"undo {decision}", source="review app undo"
                )
            else:
                self.pins.decide_instructions(
                    before, why=f"undo {decision}", source="review app undo"
                )
            self._save()
            return f"undid {decision} of the instructions of {key[0]}"
        server, principal, tool = key
        assert tool is not None  # the instructions' undo returned above
        if before is None:
            self.pins.forget(
                server, principal, tool, why=f"undo {decision}", source="review app undo"
            )
        else:
            self.pins.decide(before, why=f"undo {decision}", source="review app undo")
        self._save()
        return f"undid {decision} of {key[2]}"

    def set_policy(self, server: str, tool: str | None, tier: str) -> None:
        self.pins.set_policy(server, tier, tool=tool, source="review app")
        self._save()


def _summary(cmp: Any) -> str:
    parts = [f"{len(cmp.of_class(k))} {k}" for k in ChangeClass if cmp.of_class(k)]
    if cmp.replay is not None and cmp.replay.broken:
        parts.append(f"{cmp.replay.broken}/{cmp.replay.total} calls break")
    return ", ".join(parts)
