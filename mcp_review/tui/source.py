"""ReviewSource: what the app reads (status as rows) and where its decisions go, in one place.

Screens never touch the pin file, the network or the engine directly: the app asks a
``ReviewSource``. It combines a *fetcher* (``tui.fetchers``: current tool lists, with
per-server progress), the status engine (``engine.status``, made into rows by ``tui.view``)
and a *session* (``tui.session``: decide, undo, save, history over the pin file).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mcp_review.engine.calls import Call
from mcp_review.engine.compare import Comparison
from mcp_review.engine.model import ChangeClass
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import Snapshot
from mcp_review.engine.status import CallLog, State, StatusReport, ToolStatus
from mcp_review.tui.fetchers import Fetcher, LiveFetcher, ProgressFn, SnapshotFetcher
from mcp_review.tui.session import ReviewSession
from mcp_review.tui.view import Computed, ServerEntry, SurfaceEntry, ToolEntry, server_entries

if TYPE_CHECKING:
    from mcp_review.engine.kinds import Group, Grouping
    from mcp_review.engine.rulesconfig import RulesConfig
    from mcp_review.services.decisions import GroupDecision
    from mcp_review.services.inputs import Inputs


class ReviewSource:
    """Fetcher + status + session: everything the app needs.

    Status and policy come from ``engine.status`` (the same function `status` and `check` call);
    decisions go through :attr:`session` into an ``engine.pins.PinFile`` and, when
    ``pins_path`` is set, are saved at once. Without ``pins_path`` decisions stay in memory
    (demos, previews).
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
        gate: RulesConfig | None = None,
    ) -> None:
        self.fetcher = fetcher
        self.gate = gate
        """The config's ``[rules]`` and ``[[ignore]]`` (engine.rulesconfig.RulesConfig), as `check`."""
        self.origins = dict(origins or {})
        self.session = ReviewSession(
            pins if pins is not None else PinFile(path=pins_path),
            pins_path=pins_path,
            audit_path=audit_path,
        )
        self.calls = dict(calls or {})
        self.tiers = dict(tiers or {})
        self.snapshot: Snapshot | None = None
        self._status: dict[tuple[str, str, str], ToolStatus] = {}
        self._report = StatusReport()
        self._grouping: tuple[StatusReport, Grouping] | None = None
        """The grouping of :attr:`_report` (:meth:`grouping`), with the report it is of."""
        self._ready: tuple[Snapshot, PinFile, bool, Computed] | None = None
        """A status computed ahead (:meth:`compute_ahead`), used once by the :meth:`compute`
        call it answers."""
        self._ready_lock = threading.Lock()
        self.hosts: Any = None
        """The target hosts (engine.hosts.Targets) judged, or None (services/hosts.py)."""

    # The session's state, read where the app and tests always read it ------------------------
    @property
    def pins(self) -> PinFile:
        return self.session.pins

    @property
    def pins_path(self) -> str | None:
        return self.session.pins_path

    @property
    def audit_path(self) -> str | None:
        return self.session.audit_path

    @property
    def save_notes(self) -> list[str]:
        """Notes from saves for the app to show once (a pin file rewritten in a newer version)."""
        return self.session.save_notes

    @property
    def candidates(self) -> list[str]:
        """Servers shown through their ``[servers.NAME.candidate]`` (``--candidate``)."""
        return self.session.candidates

    @candidates.setter
    def candidates(self, names: Iterable[str]) -> None:
        self.session.candidates = list(names)

    def reread_pins(self) -> bool:
        """Pick up decisions made outside the app (``ReviewSession.reread``): True when the pin
        file changed on disk."""
        return self.session.reread()

    # Making one ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, fetcher: Fetcher, pins_path: str, **kw: Any) -> ReviewSource:
        """A source over the pin file at ``pins_path`` (created on the first decision)."""
        from mcp_review.store.pinfile import load_pins

        # A pin whose digest does not verify is not trusted (its tool reads as unpinned) but
        # the app still opens, shows it (``unverified_pins``) and lets the operator re-decide.
        return cls(fetcher, load_pins(pins_path, allow_unverified=True), pins_path=pins_path, **kw)

    @classmethod
    def from_inputs(cls, inp: Inputs) -> ReviewSource:
        """The source for resolved inputs (``services.inputs.resolve``): the same config, call
        logs, tiers and pin file every headless command uses, so the app and `check` agree."""
        fetcher: Fetcher
        if inp.live:
            cfg = inp.config
            assert cfg is not None  # a live fetch has a config
            if inp.only:
                cfg.servers = inp.servers
            fetcher = LiveFetcher(cfg)
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
        src.hosts = getattr(inp, "hosts", None)  # the target hosts, as `check` judges them
        return src

    @classmethod
    def baseline(
        cls, fetcher: Fetcher, pinned: Snapshot, *, pins_path: str | None = None, **kw: Any
    ) -> ReviewSource:
        """Everything in ``pinned`` approved (and saved to ``pins_path`` if given): the
        baseline a later fetch is reviewed against."""
        from mcp_review.services.decisions import decide_surface_pin, record_pin
        from mcp_review.store.pinfile import save_pins

        pf = PinFile(path=pins_path)
        for name, s in pinned.servers.items():
            for t in s.tools:
                record_pin(
                    pf,
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
            for kind, wires in sorted(s.surfaces.items()):  # its prompts and resources too
                from mcp_review.engine.surfaces import make_surface_pin

                for w in wires:
                    decide_surface_pin(
                        pf,
                        make_surface_pin(
                            name,
                            kind,
                            w,
                            "approved",
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
        from mcp_review.engine.pinread import unverified_message

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

    def comparison(self, entry: ToolEntry) -> Comparison | None:
        """The engine's Comparison (pinned → live) for a changed tool, else None."""
        st = self._status.get(entry.key)
        return st.comparison if st is not None else None

    def recorded_calls(self, entry: ToolEntry) -> list[Call] | None:
        """The recorded calls of ``entry``'s tool (``engine.calls.Call``); None when its server
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

    @property
    def snapshot_given(self) -> Snapshot | None:
        """The snapshot a snapshot source reviews (None for a live one: not fetched yet)."""
        return self.fetcher.snapshot if isinstance(self.fetcher, SnapshotFetcher) else None

    def compute_ahead(self, *, compare: bool) -> None:
        """Compute the status of a snapshot source now (in the caller's thread: the app's
        read of the files, while the UI is idle), for the first :meth:`compute` to return:
        that call gets it only for this very snapshot, pin state equal to the one it was
        computed with and the same ``compare``, else computes as always."""
        snap = self.snapshot_given
        if snap is not None:
            view = self.pins_view()
            self._ready = (snap, view, compare, self.compute(view, snap, compare=compare))

    def compute(
        self, pins: PinFile | None = None, snapshot: Snapshot | None = None, *, compare: bool = True
    ) -> Computed:
        """Status and rows for ``snapshot`` (default: the last fetched) against ``pins``
        (default: :meth:`pins_view` taken now). Changes nothing on the source, so it can run
        in a worker thread; :meth:`apply` makes the result current (on the UI thread)."""
        from mcp_review.engine.status import compute_status

        snap = snapshot if snapshot is not None else (self.snapshot or Snapshot())
        view = pins if pins is not None else self.pins_view()
        with self._ready_lock:  # used once, whichever thread asks first
            ready, self._ready = self._ready, None
        if ready is not None and ready[0] is snap and ready[2] == compare and ready[1] == view:
            return ready[3]
        report = compute_status(
            snap,
            view,
            calls=self.calls,
            tiers=self.tiers,
            origins=self.origins,
            compare=compare,
            hosts=self.hosts,
        )
        if self.gate:
            from mcp_review.engine.rulesconfig import govern

            govern(report, self.gate)
        from mcp_review.store.calllog import mark_held

        # "held by the proxy": the state file an enforcing proxy keeps beside each call log.
        mark_held(report, {n: c.path for n, c in self.calls.items() if c.path is not None})
        names = dict.fromkeys([*self.fetcher.names, *sorted(snap.servers)])
        return Computed(
            report,
            server_entries(
                report, names, lambda name: view.tier_for(name, None, default=self.tiers.get(name))
            ),
        )

    def apply(self, computed: Computed) -> list[ServerEntry]:
        """Make a :meth:`compute` result the current status (what decisions and the review
        screen read); returns its rows."""
        self._report = computed.report
        self._status = {t.key: t for t in computed.report.tools}
        return computed.servers

    def compatible_only(self, e: ToolEntry) -> bool:
        """Changed, every change compatible or cosmetic and none bringing in text the model
        reads, no broken call, no trust flag."""
        cmp = self.comparison(e)
        if e.status is not State.CHANGED or cmp is None or e.flags:
            return False
        ok = {ChangeClass.COMPATIBLE, ChangeClass.COSMETIC}
        return (
            bool(cmp.changes)
            and cmp.classes() <= ok
            and not cmp.broken_calls
            and not any(c.new_text for c in cmp.changes)
        )

    def grouping(self) -> Grouping:
        """The current status's decisions by kind (``engine.kinds.group_report``): the groups
        and the tools that stand alone, in visiting order. Computed once per status, when
        first asked (``g``, the groups view, ``n``), never for drawing the list."""
        report = self._report
        cached = self._grouping
        if cached is None or cached[0] is not report:
            from mcp_review.engine.kinds import group_report

            cached = self._grouping = (report, group_report(report))
        return cached[1]

    # Writing (the session's) --------------------------------------------------------------------
    def last_decision(self) -> str | None:
        """What :meth:`undo` would undo, in words (None when nothing)."""
        return self.session.last_decision()

    def decide(
        self, entry: ToolEntry, decision: Decision | str, note: str = "", *, why: str = ""
    ) -> None:
        """Record ``decision`` (approved | denied) for exactly the definition shown, and save.
        ``why``: the operator's reason for approving a blocked change (the audit log's why)."""
        srv = self.snapshot.servers.get(entry.server) if self.snapshot else None
        self.session.decide(entry, Decision(decision), note, why=why, server=srv)

    def decide_instructions(
        self, server: ServerEntry, decision: Decision | str, *, why: str = ""
    ) -> None:
        """Record ``decision`` for exactly the instructions shown on ``server``'s row, and
        save."""
        self.session.decide_instructions(server, Decision(decision), why=why)

    def decide_surface(
        self, entry: SurfaceEntry, decision: Decision | str, *, why: str = ""
    ) -> list[str]:
        """Record ``decision`` for exactly the prompt, resource or template shown, and save
        (the session's :meth:`~ReviewSession.decide_surface`): the policy's reasons when a
        blocked approval came without a reason (nothing written)."""
        srv = self.snapshot.servers.get(entry.server) if self.snapshot else None
        return self.session.decide_surface(entry, Decision(decision), why=why, server=srv)

    def decide_group(
        self,
        group: Group,
        decision: Decision | str,
        *,
        left_out: Iterable[tuple[str, ...]] = (),
        why: str = "",
    ) -> GroupDecision:
        """Approve or deny ``group`` but the members ``left_out`` (their keys), one decision
        per member with the group's id in its audit record, and save (the session's
        :meth:`~ReviewSession.decide_group`). ``why``: the reason typed for a blocked group."""
        servers = self._report.servers
        return self.session.decide_group(
            group, Decision(decision), left_out=left_out, why=why, servers=servers
        )

    def apply_auto_approvals(self, entries: Iterable[ToolEntry]) -> list[ToolEntry]:
        """Re-pin ``entries`` the current status still auto-approves (the session's
        :meth:`~ReviewSession.apply_auto_approvals`); returns the entries re-pinned."""
        return self.session.apply_auto_approvals(entries, self._report, self.snapshot)

    def undo(self) -> str | None:
        """Restore the pin the last decision replaced (itself a logged, saved change)."""
        return self.session.undo()

    def set_policy(self, server: str, tool: str | None, tier: str) -> None:
        self.session.set_policy(server, tool, tier)
