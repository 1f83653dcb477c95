"""Status of each live tool against the pin file: pinned, new, changed, broken, removed, denied.

The one function everyone calls (the `status` command, `check`, the app)::

    report = compute_status(snapshot, load_pins(path), calls={"github": load_call_log(p)})  # store.readers
    for t in report.tools: t.state, t.policy.outcome, t.comparison
    # re-pinning what the tiers allow is services/decisions.py ``apply_auto_approvals``

Identity is (server local name, principal, tool name): a tool renamed upstream is one
``removed`` plus one ``new`` and never inherits the old approval; a definition whose digest
matches a pin under another name counts for nothing. Digests are compared first and
:func:`~mcp_review.engine.compare.compare` runs only when they differ, so an unchanged
1,000-tool server costs one hash per tool.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine.candidate import AWAITING_UPGRADE, awaiting_upgrade
from mcp_review.engine.cues import Cue, KnownNames, tool_cues
from mcp_review.engine.instructions import InstructionsStatus, instructions_status, live_text
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.pins import Pin, PinFile, kinds_approved_on
from mcp_review.engine.policy import Outcome, PolicyResult, decide, facts_for
from mcp_review.engine.protocol import duplicate_findings, tool_findings
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot

# The call logs and their streamed replay live in status_calls; re-exported for the importers.
from mcp_review.engine.status_calls import CallLog as CallLog
from mcp_review.engine.status_calls import CallReader as CallReader
from mcp_review.engine.status_calls import call_log_of as call_log_of
from mcp_review.engine.status_calls import replay_streamed, stream_replay

# A tool's status lives in status_tool; re-exported for the importers.
from mcp_review.engine.status_tool import Awaiting as Awaiting
from mcp_review.engine.status_tool import State as State
from mcp_review.engine.status_tool import ToolStatus as ToolStatus
from mcp_review.engine.status_tool import awaiting as awaiting
from mcp_review.engine.surfaces import SurfaceStatus, surface_statuses
from mcp_review.engine.ui_resource import PIN_KEY as UI_PIN_KEY
from mcp_review.engine.ui_resource import differs as ui_differs
from mcp_review.engine.ui_resource import from_toml as ui_from_toml

if TYPE_CHECKING:  # types only: engine.hosts is imported when a host is judged
    from mcp_review.engine.hosts import Targets
    from mcp_review.engine.waivers import WaiverUse

PENDING_REASON = "changed since it was pinned: comparing…"
"""The reason of a ``pending`` tool (see :attr:`ToolStatus.pending`)."""

AUTO_WHO = "mcp-review (policy {tier})"
"""``decided_by`` of an auto-approval (also its ``who`` in the audit log)."""


@dataclass(frozen=True, slots=True)
class Gate:
    """What a report fails on under one ``fail_on``, decided once (:meth:`StatusReport.gate`):
    formats, commands and the app show these answers and never judge again."""

    fail_on: str
    failing: tuple[ToolStatus, ...]
    """The tools that fail, in report order."""
    drifted_instructions: tuple[InstructionsStatus, ...]
    """Every server's instructions that are not simply pinned, in report order."""
    failing_instructions: tuple[InstructionsStatus, ...]
    """Those of :attr:`drifted_instructions` that fail."""
    exit_code: int
    """1 when anything fails; else 3 when a server could not be read; else 0."""
    _tools: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    _instructions: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    drifted_surfaces: tuple[SurfaceStatus, ...] = ()
    """Every prompt, resource and template that is not simply pinned, in report order."""
    failing_surfaces: tuple[SurfaceStatus, ...] = ()
    """Those of :attr:`drifted_surfaces` that fail."""
    _surfaces: frozenset[int] = field(default=frozenset(), repr=False, compare=False)

    def surface_fails(self, s: SurfaceStatus) -> bool:
        """Whether the prompt, resource or template ``s`` (of this report) fails."""
        return id(s) in self._surfaces

    def fails(self, t: ToolStatus) -> bool:
        """Whether the tool ``t`` (of this report) fails."""
        return id(t) in self._tools

    def instructions_fail(self, i: InstructionsStatus) -> bool:
        """Whether the instructions ``i`` (of this report) fail."""
        return id(i) in self._instructions

    @property
    def n_failing(self) -> int:
        """Tools, server instructions, prompts, resources and templates that fail."""
        return len(self.failing) + len(self.failing_instructions) + len(self.failing_surfaces)


@dataclass(slots=True)
class ServerStatus:
    name: str
    principal: str
    tier: str
    error: dict[str, str] | None = None
    server_version: str | None = None
    protocol_version: str | None = None
    calls: CallLog | None = None
    notes: list[str] = field(default_factory=list)
    """What the operator may want to read beside the tools (e.g. a bare version bump)."""
    instructions: InstructionsStatus | None = None
    """The server's instructions against their pin (None: none sent, none decided, or the
    server could not be read)."""
    surfaces: list[SurfaceStatus] = field(default_factory=list)
    """Its prompts, resources and resource templates against their pins (engine/surfaces.py;
    the kinds fetched)."""
    candidate: bool = False
    """The server's ``[servers.NAME.candidate]`` was reviewed in its place (an upgrade
    preview, ``--candidate``): the report is not about the running version."""


@dataclass(slots=True)
class StatusReport:
    servers: list[ServerStatus] = field(default_factory=list)
    tools: list[ToolStatus] = field(default_factory=list)
    waivers: list[WaiverUse] = field(default_factory=list)
    """Every configured waiver and what it did (engine.rulesconfig.govern); empty without a config."""
    hosts: Targets | None = None
    """The target hosts this report was judged for (an ``engine.hosts.Targets``), or None."""
    candidates: list[str] = field(default_factory=list)
    """The servers whose candidate was reviewed in their place (see
    :attr:`ServerStatus.candidate`), sorted; every format says so first."""

    def mark_candidates(self, names: Collection[str]) -> None:
        """Mark the servers of ``names`` as candidates previewed (``--candidate``)."""
        for s in self.servers:
            s.candidate = s.name in names
        self.candidates = sorted({s.name for s in self.servers if s.candidate})

    def counts(self) -> dict[str, int]:
        out = {str(s): 0 for s in State} | {str(o): 0 for o in Outcome if o is not Outcome.NONE}
        for t in self.tools:
            out[str(t.state)] += 1
            if t.policy.outcome is not Outcome.NONE:
                out[str(t.policy.outcome)] += 1
        return out

    @property
    def attention(self) -> list[ToolStatus]:
        return [t for t in self.tools if t.needs_attention]

    @property
    def instructions_attention(self) -> list[InstructionsStatus]:
        """Server instructions that fail the gate (new, changed, removed: never auto-approved)."""
        return [
            s.instructions
            for s in self.servers
            if s.instructions is not None and s.instructions.needs_attention
        ]

    @property
    def unreachable(self) -> list[ServerStatus]:
        return [s for s in self.servers if s.error]

    @property
    def auto_approvals(self) -> list[ToolStatus]:
        return [t for t in self.tools if t.policy.outcome is Outcome.AUTO_APPROVE]

    def gate(self, fail_on: str = "review") -> Gate:
        """What fails under ``fail_on``, decided once for this report as it stands (a waiver
        or a shadowing finding applied later is seen by the next call)."""
        from mcp_review.engine import exitcodes

        failing = tuple(t for t in self.tools if t.fails_gate(fail_on))
        drifted = tuple(
            s.instructions
            for s in self.servers
            if s.instructions is not None and s.instructions.state != "pinned"
        )
        bad = tuple(i for i in drifted if i.fails_gate(fail_on))
        s_drifted = tuple(x for s in self.servers for x in s.surfaces if x.state != "pinned")
        s_bad = tuple(x for x in s_drifted if x.fails_gate(fail_on))
        if failing or bad or s_bad:
            code = exitcodes.FAIL
        elif self.unreachable:
            code = exitcodes.UNREACHABLE
        else:
            code = exitcodes.PASS
        return Gate(
            fail_on,
            failing,
            drifted,
            bad,
            code,
            frozenset(map(id, failing)),
            frozenset(map(id, bad)),
            drifted_surfaces=s_drifted,
            failing_surfaces=s_bad,
            _surfaces=frozenset(map(id, s_bad)),
        )

    def exit_code(self) -> int:
        """0 all pinned/denied/auto-approvable · 1 anything to review, blocked or broken ·
        3 nothing to review but a server could not be read (:meth:`gate` under ``review``)."""
        return self.gate("review").exit_code


def compute_status(
    snapshot: Snapshot,
    pins: PinFile,
    *,
    calls: Mapping[str, CallLog] | None = None,
    tiers: Mapping[str, str] | None = None,
    witnesses: bool = True,
    version_bumps: bool = False,
    origins: Mapping[str, str] | None = None,
    keep_valid_calls: bool = True,
    compare: bool = True,
    memo: bool | CompareMemo = True,
    elsewhere: Collection[tuple[str, str, str]] = (),
    hosts: Targets | None = None,
) -> StatusReport:
    """Status of every served tool (and every pinned tool no longer served) in ``snapshot``.

    ``calls``: per server local name, its recorded calls. ``tiers``: per server, the tier
    from the config, used when the pin file sets none (pin file > config > ``tiered``).
    ``version_bumps``: also note a server whose reported version changed while none of its
    tools did (seed 003's discipline, on request: it never changes a verdict). ``origins``:
    per server, what it runs (see :func:`flag_shadowing`).
    ``keep_valid_calls=False``: replays count the calls valid under old and new without
    keeping them (a report that lists only broken calls and bad recordings).
    ``compare=False``: digests only, for a first look at a big fleet (the app's first frame):
    a tool whose digest changed is ``pending`` (see :attr:`ToolStatus.pending`).
    ``memo=False``: compare every changed tool from scratch instead of reusing the answers for
    a pair of schema documents already compared in this run (engine/memo.py; the same report);
    a :class:`CompareMemo` given is used (and can be read after).
    ``elsewhere``: (server, principal, tool) of the approved pins of servers not in
    ``snapshot`` (a deciding command fetches only the server it names): look-alikes and
    cross-server shadowing are judged against those pinned names too (:func:`flag_shadowing`).
    ``hosts``: the target hosts (an ``engine.hosts.Targets``): a change a target refuses is a
    ``host-regression`` (:func:`judge_hosts`).
    """
    report = StatusReport()
    run_memo = memo if isinstance(memo, CompareMemo) else CompareMemo() if memo else None
    # The pins grouped once (PinFile.for_server scans every pin: 50 servers x 10,000 pins).
    grouped: dict[tuple[str, str], dict[str, Pin]] = {}
    for (server, principal, tool), pin in pins.pins.items():
        grouped.setdefault((server, principal), {})[tool] = pin
    # The names a server's text may refer to (cues: a tool of another configured server, or
    # the server itself): every server in the snapshot, and the pinned ones not fetched.
    fleet: dict[str, set[str]] = {}
    for srv_snap in snapshot.servers.values():
        fleet.setdefault(srv_snap.name, set()).update(t.name for t in srv_snap.tools)
    for server, _principal, tool in elsewhere or ():
        fleet.setdefault(server, set()).add(tool)
    names = KnownNames.of(fleet)
    for name in sorted(snapshot.servers):
        srv_snap = snapshot.servers[name]
        srv, tools = server_status(
            srv_snap,
            pins,
            names=names,
            calls=(calls or {}).get(name),
            default_tier=(tiers or {}).get(name),
            witnesses=witnesses,
            keep_valid_calls=keep_valid_calls,
            pinned=grouped.get((srv_snap.name, srv_snap.principal), {}),
            compare=compare,
            memo=run_memo,
        )
        report.servers.append(srv)
        report.tools.extend(tools)
        if version_bumps:
            _note_bare_version_bump(srv, tools, pins)
    if hosts is not None:
        judge_hosts(report, hosts)
    flag_shadowing(report.tools, origins, elsewhere=elsewhere)
    flag_renames(report.tools)
    return report


def judge_hosts(report: StatusReport, targets: Targets) -> None:
    """Judge every served tool on the target hosts (``engine.hosts``).

    Each tool gets the findings of its live definition (:attr:`ToolStatus.hosts`). A changed
    tool that a target accepted and now refuses gets a ``host-regression`` change (breaking:
    state broken, review in every tier, never approved automatically); a new degrade or cut a
    ``host-degrade`` (potentially breaking). A new tool's findings are said once, at first
    sight, as notes; a pinned tool the hosts already refused is no change. Fleet rules compare
    the approved fleet with the live one: a tool cap passed by this upgrade falls on its new
    tools."""
    from mcp_review.engine import hosts as host_rules

    report.hosts = targets
    if not targets.names:
        return
    served = sorted(
        (t for t in report.tools if t.live is not None and t.state is not State.DENIED),
        key=lambda t: (t.server, t.tool),
    )
    approved = sorted(
        (
            t
            for t in report.tools
            if t.pin is not None and t.pin.approved and t.state is not State.NEW
        ),
        key=lambda t: (t.server, t.tool),
    )
    new = {(t.server, t.tool) for t in served if t.state is State.NEW}
    after: dict[tuple[str, str], list[Any]] = {}
    before: dict[tuple[str, str], list[Any]] = {}
    profiles = [targets.profile(n) for n in targets.names]
    for p in profiles:
        live_fleet = [
            host_rules.FleetTool(t.server, t.tool) for t in served if host_rules.given(p, t.server)
        ]
        old_fleet = [
            host_rules.FleetTool(t.server, t.tool)
            for t in approved
            if host_rules.given(p, t.server)
        ]
        for k, fs in host_rules.fleet_findings(
            p, live_fleet, blame=new, before=len(old_fleet)
        ).items():
            after.setdefault(k, []).extend(fs)
        for k, fs in host_rules.fleet_findings(p, old_fleet).items():
            before.setdefault(k, []).extend(fs)
    for t in served:
        live = t.live
        assert live is not None
        mine = [p for p in profiles if host_rules.given(p, t.server)]
        now = [f for p in mine for f in host_rules.tool_findings(p, live.wire, t.server)]
        now += after.get((t.server, t.tool), [])
        t.hosts = tuple(now)
        if t.state is State.NEW:
            for f in now:
                t.notes.append(
                    f"{host_rules.effect_words(targets.profile(f.profile), f.effect)} "
                    f"({f.rule}, {f.confidence}): {f.message}"
                )
            continue
        cmp = t.comparison
        if cmp is None or t.pin is None:
            continue  # unchanged: refused before as now, not a change (the hosts matrix shows it)
        was = [f for p in mine for f in host_rules.tool_findings(p, cmp.old.wire, t.server)]
        was += before.get((t.server, t.tool), [])
        verdict = host_rules.regressions(was, now)
        if not verdict.regressions and not verdict.degrades:
            continue
        from mcp_review.engine.model import CLASS_ORDER

        added = [
            host_rules.change_for(f, targets.profile(f.profile))
            for f in (*verdict.regressions, *verdict.degrades)
        ]
        cmp.changes = sorted(
            [*cmp.changes, *added], key=lambda c: (CLASS_ORDER[c.cls], c.pointer, c.rule)
        )
        if verdict.regressions:
            t.state = State.BROKEN
        policy = t.policy
        if policy.outcome is not Outcome.BLOCK:
            # Judged again with the host changes among the others, as if the walk had named
            # them (a digest that changed with no change named is now explained).
            facts = facts_for(
                cmp.old,
                live,
                cmp.changes,
                broken_calls=cmp.broken_calls,
                previously_denied=t.previously_denied,
                cues=t.cues,
            )
            policy = decide(policy.tier, facts)
        t.policy = _with_host_steps(policy, verdict, targets)


def _with_host_steps(policy: PolicyResult, verdict: Any, targets: Any) -> PolicyResult:
    """``policy`` with the host findings' outcomes merged as :func:`decide` merges steps (the
    most severe outcome wins and keeps its reasons): a regression waits for review in every
    tier; a degrade is potentially breaking (the tier table's row)."""
    from mcp_review.engine import hosts as host_rules
    from mcp_review.engine.policy import class_outcome, severity_rank

    steps: list[tuple[Outcome, str]] = []
    for f in verdict.regressions:
        steps.append(
            (
                Outcome.REVIEW,
                f"host regression ({f.rule}): "
                f"{host_rules.effect_words(targets.profile(f.profile), f.effect)}; "
                "never approved automatically",
            )
        )
    for f in verdict.degrades:
        steps.append(
            (
                class_outcome(policy.tier, ChangeClass.POTENTIALLY_BREAKING),
                f"host degrade ({f.rule}): "
                f"{host_rules.effect_words(targets.profile(f.profile), f.effect)}",
            )
        )
    worst = max([policy.outcome, *(o for o, _ in steps)], key=severity_rank)
    reasons = policy.reasons if policy.outcome is worst else ()
    reasons += tuple(r for o, r in steps if o is worst)
    return PolicyResult(policy.tier, worst, reasons, policy.concerns)


def _note_bare_version_bump(srv: ServerStatus, tools: list[ToolStatus], pins: PinFile) -> None:
    if srv.error or not srv.server_version:
        return
    if any(t.state not in (State.PINNED, State.DENIED) for t in tools):
        return  # the contract changed: the bump is announcing something
    was = sorted(
        {
            p.server_version
            for p in pins.for_server(srv.name, srv.principal).values()
            if p.server_version
        }
    )
    if was and srv.server_version not in was:
        srv.notes.append(
            f"version bumped {' / '.join(was)} -> {srv.server_version} with no "
            "change to any tool's contract (a behaviour change the schema cannot "
            "show?)"
        )


def flag_renames(tools: list[ToolStatus]) -> None:
    """Note a removed tool and a new one on the same server that look like one tool renamed
    upstream. Only a note: the new name never inherits the old approval.

    - the same input schema (first);
    - else the same name but for case and separators (``getTinyImage`` -> ``get-tiny-image``),
      one removed and one new;
    - else the only removed and the only new tool that take the same arguments once words
      (descriptions, titles, defaults, examples), ``$schema`` and ``additionalProperties``
      are set aside (``add`` -> ``get-sum``: server-everything 2025.9.25 -> 2026.8.31).
    """
    from mcp_review.engine.canonical import canonical_json

    def key(t: ToolStatus, schema: Any) -> tuple[str, str, str]:
        return (t.server, t.principal, canonical_json(schema))

    removed: dict[tuple[str, str, str], list[ToolStatus]] = {}
    gone = [t for t in tools if t.state is State.REMOVED and t.pin is not None and t.pin.approved]
    new = [t for t in tools if t.state is State.NEW and t.live is not None]
    for t in gone:
        removed.setdefault(key(t, t.pin.tool_def().input_schema), []).append(t)  # type: ignore[union-attr]
    matched: set[int] = set()
    for t in new:
        for old in removed.get(key(t, t.live.input_schema), []):  # type: ignore[union-attr]
            matched.update((id(t), id(old)))
            t.notes.append(
                f"same input schema as the removed {_visible(old.tool)}: "
                "renamed upstream? (a new name never inherits an approval)"
            )
            old.notes.append(
                f"{_visible(t.tool)} is new with the same input schema: renamed upstream?"
            )
    gone = [t for t in gone if id(t) not in matched]
    new = [t for t in new if id(t) not in matched]
    if not gone or not new:
        return

    def old_arguments(t: ToolStatus) -> tuple[str, str, str] | None:
        return _arguments_key(t, t.pin.tool_def().input_schema) if t.pin else None

    def new_arguments(t: ToolStatus) -> tuple[str, str, str] | None:
        return _arguments_key(t, t.live.input_schema) if t.live else None

    Key = Callable[[ToolStatus], "tuple[str, str, str] | None"]
    passes: list[tuple[str, Key, Key]] = [
        ("the same name but for case and separators", _name_key, _name_key),
        ("the same arguments", old_arguments, new_arguments),
    ]
    for how, old_key, new_key in passes:
        olds: dict[Any, list[ToolStatus]] = {}
        news: dict[Any, list[ToolStatus]] = {}
        for t in gone:
            olds.setdefault(old_key(t), []).append(t)
        for t in new:
            news.setdefault(new_key(t), []).append(t)
        for k, pair in olds.items():
            if k is None or len(pair) != 1 or len(news.get(k, ())) != 1:
                continue  # one removed and one new, or it is only a guess among several
            (old,), (t,) = pair, news[k]
            matched.update((id(t), id(old)))
            t.notes.append(
                f"{how} as the removed {_visible(old.tool)}: renamed upstream? "
                "(a new name never inherits an approval)"
            )
            old.notes.append(f"{_visible(t.tool)} is new with {how}: renamed upstream?")
        gone = [t for t in gone if id(t) not in matched]
        new = [t for t in new if id(t) not in matched]


def _name_key(t: ToolStatus) -> tuple[str, str, str] | None:
    """The tool's name without case or separators; None when nothing is left."""
    import re

    folded = re.sub(r"[^0-9a-z]", "", t.tool.casefold())
    return (t.server, t.principal, folded) if folded else None


_WORDS = frozenset(
    {"description", "title", "$schema", "$comment", "examples", "default", "additionalProperties"}
)
_NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def _without_words(s: Any, named: bool = False) -> Any:
    """A schema without its words (a module function: a recursive closure would be a
    reference cycle, and a status computation makes none, tests/tui/test_tui_fleet.py)."""
    if isinstance(s, list):
        return [_without_words(v) for v in s]
    if not isinstance(s, dict):
        return s
    if named:  # property names, not keywords: every one kept
        return {n: _without_words(v) for n, v in s.items()}
    return {k: _without_words(v, k in _NAMED) for k, v in s.items() if k not in _WORDS}


def _arguments_key(t: ToolStatus, schema: Any) -> tuple[str, str, str] | None:
    """What a call takes: the input schema without its words, ``$schema`` and
    ``additionalProperties`` (None for a schema too deep to walk, or one that takes nothing:
    every argument-less tool would look alike)."""
    from mcp_review.engine.canonical import canonical_json, too_deep

    if too_deep(schema):
        return None
    core = _without_words(schema)
    if not isinstance(core, dict) or not core.get("properties"):
        return None
    return (t.server, t.principal, canonical_json(core))


def flag_shadowing(
    tools: list[ToolStatus],
    origins: Mapping[str, str] | None = None,
    *,
    elsewhere: Collection[tuple[str, str, str]] = (),
) -> None:
    """Flag tools whose names look alike (Unicode confusable skeletons, UTS #39) or are the same
    on two servers.

    A homoglyph twin (``rеad_file`` beside ``read_file``, ``read_text_fiIe`` beside
    ``read_text_file``) or the same name served by a second server lets that server capture
    calls the model meant for another tool. Every side is flagged: a not-yet-trusted side (new,
    changed, broken) is blocked with the evidence; an already pinned or denied side keeps its
    state and gets a note. ``origins``: per server, what it runs (command and arguments, or
    URL); two servers with the same origin are one server configured twice (say for two
    clients), so the same name on both is not shadowing. ``elsewhere``: (server, principal,
    tool) pinned as approved on servers not fetched this run: judged by those pinned names
    (they are never flagged themselves), and the finding says so.
    """
    from mcp_review.engine.hidden import lookalike_keys

    served = [t for t in tools if t.live is not None]
    fetched = {t.server for t in tools}
    stand_ins = [
        ToolStatus(server=s, principal=p, tool=n, state=State.PINNED, policy=_NO_POLICY)
        for s, p, n in elsewhere
        if s not in fetched
    ]
    pinned_only = {id(t) for t in stand_ins}
    by_key: dict[tuple[int, str], list[ToolStatus]] = {}
    for t in [*served, *stand_ins]:
        for i, k in enumerate(lookalike_keys(t.tool)):
            by_key.setdefault((i, k), []).append(t)
    # Each tool with every other it meets on either key (skeleton, or skeleton after casefold).
    alike: dict[int, dict[int, ToolStatus]] = {}
    for g in by_key.values():
        if len(g) > 1:
            for t in g:
                alike.setdefault(id(t), {}).update((id(o), o) for o in g if o is not t)

    def same_entry(a: ToolStatus, b: ToolStatus) -> bool:
        if a.tool != b.tool:
            return False  # a look-alike is flagged even inside one server
        if a.server == b.server:
            return True  # the same tool under another principal
        oa = (origins or {}).get(a.server)
        return oa is not None and oa == (origins or {}).get(b.server)

    for t in served:
        if id(t) not in alike:
            continue
        others = [o for o in alike[id(t)].values() if not same_entry(o, t)]
        if not others:
            continue
        names = sorted({f"{o.server}/{o.tool}" for o in others})
        shown = ", ".join(_visible(o) for o in names)
        pinned = sorted({f"{o.server}/{o.tool}" for o in others if id(o) in pinned_only})
        # Servers not fetched this run are judged by their pinned names: said so.
        by_pin = (
            f" ({', '.join(_visible(o) for o in pinned)}: pinned name"
            f"{'s' if len(pinned) > 1 else ''} of a server not fetched this run)"
            if pinned
            else ""
        )
        if all(o.tool == t.tool for o in others):
            note = f"the same name is served by {shown}{by_pin}: cross-server shadowing"
            reason = f"name also served by {shown}{by_pin} (cross-server shadowing)"
        else:
            note = (
                f"name looks like {shown}{by_pin}: possible shadowing through a homoglyph "
                "or hidden character"
            )
            reason = f"name is confusable with {shown}{by_pin}"
        t.notes.append(note)
        if t.state in (State.PINNED, State.DENIED):
            continue  # decided before: keeps its standing, the note says what appeared
        t.shadows = names
        t.policy = PolicyResult(
            t.policy.tier, Outcome.BLOCK, (*t.policy.reasons, reason), t.policy.concerns
        )


_NO_POLICY = PolicyResult("", Outcome.NONE)
"""The policy of a stand-in for a pinned name (:func:`flag_shadowing`'s ``elsewhere``)."""


def change_class(t: ToolStatus) -> str:
    """What a decision on ``t`` accepts, in one word or a few: ``new``, ``unchanged``, or the
    classes of its changes, most severe first (``breaking+trust``), with broken recorded calls
    and "unclassified" (digest changed, no change named) said. The words every front end
    (the commands' output, the audit log of the CLI and the app) uses."""
    from mcp_review.engine.model import CLASS_ORDER

    if t.state is State.NEW:
        return "new"
    if t.state is State.REMOVED:
        return "removed"
    if t.state is State.DENIED:
        return "denied"
    cmp = t.comparison
    if cmp is None:
        return "unchanged"
    classes = sorted({c.cls for c in cmp.changes}, key=CLASS_ORDER.__getitem__)
    out = "+".join(str(c) for c in classes) or "unclassified"
    if cmp.broken_calls:
        out += f", {cmp.broken_calls} broken call(s)"
    return out


def accepted(t: ToolStatus) -> str:
    """The state and class a decision on ``t`` is made on, for the audit log:
    ``new``, ``changed: trust``, ``broken: breaking, 2 broken call(s), previously denied``."""
    cls = change_class(t)
    out = str(t.state) if cls == str(t.state) else f"{t.state}: {cls}"
    return out + (", previously denied" if t.previously_denied else "")


def _visible(s: str) -> str:
    from mcp_review.engine.hidden import visible

    return repr(visible(s))


def _server_surfaces(srv: ServerStatus, server: ServerSnapshot, pins: PinFile) -> None:
    """The server's instructions and its prompts, resources and templates against their pins,
    set on ``srv``: decided apart from its tools, each by its own pin."""
    # Instructions pinned per (server, principal); a pin that does not verify is not in
    # pins.instructions, so they read as new (never trusted).
    srv.instructions = instructions_status(
        server.name,
        server.principal,
        live_text(server.instructions),
        pins.instructions.get((server.name, server.principal)),
        srv.tier,
    )
    # Prompts, resources and templates: the kinds fetched, against their pins.
    srv.surfaces = surface_statuses(
        server.name,
        server.principal,
        server.surfaces,
        pins.surfaces,
        srv.tier,
        truncated=server.surfaces_listed,
    )


def _same_name(
    st: ToolStatus, defs: list[ToolDef], tier: str, protocol_version: str | None
) -> None:
    """A name the server lists more than once: the protocol finding, and when the definitions
    differ, ``st`` blocked and changed, since which of them a client would use is undefined."""
    if len(defs) > 1:
        st.protocol.append(duplicate_findings(len(defs), protocol_version))
    digests = {d.digest for d in defs}
    if len(digests) > 1:
        # Which of them a client would use is undefined: never let one pass unseen.
        st.notes.append(f"the server lists {len(defs)} different definitions under this name")
        st.definitions = len(digests)
        # Blocked whatever the first one's result; its own blocking findings (and their
        # concerns, the app's flags) are kept beside the reason, not replaced by it.
        first = st.policy
        st.policy = PolicyResult(
            tier,
            Outcome.BLOCK,
            (
                f"{len(defs)} different definitions share this name",
                *(first.reasons if first.outcome is Outcome.BLOCK else ()),
            ),
            first.concerns,
        )
        if st.state in (State.PINNED, State.DENIED):
            st.state = State.CHANGED


def _removed(
    server: ServerSnapshot, name: str, pin: Pin, calls: CallLog | None, tier: str
) -> ToolStatus:
    """A pinned tool the server no longer serves: to review when it was approved (its
    recorded calls would fail), nothing to do when denied or awaiting the pin file's upgrade."""
    n = calls.count(name) if calls else 0
    if awaiting_upgrade(pin):
        policy = PolicyResult(tier, Outcome.NONE, (AWAITING_UPGRADE,))
    elif pin.approved:
        why = "approved tool no longer served"
        if n:
            why += f": {n} recorded call(s) would fail"
        policy = PolicyResult(tier, Outcome.REVIEW, (why,))
    else:
        policy = PolicyResult(tier, Outcome.NONE, ("denied tool no longer served",))
    return ToolStatus(
        server.name,
        server.principal,
        name,
        State.REMOVED,
        policy,
        pin=pin,
        calls_recorded=n,
    )


def server_status(
    server: ServerSnapshot,
    pins: PinFile,
    *,
    calls: CallLog | None = None,
    default_tier: str | None = None,
    witnesses: bool = True,
    keep_valid_calls: bool = True,
    pinned: Mapping[str, Pin] | None = None,
    compare: bool = True,
    memo: CompareMemo | None = None,
    names: KnownNames | None = None,
) -> tuple[ServerStatus, list[ToolStatus]]:
    """One server's status (``check`` calls this per server as fetches complete).
    ``pinned``: this server's pins by tool name, when the caller grouped them already.
    ``memo``: comparisons already made in this run, reused (engine/memo.py)."""
    srv = ServerStatus(
        name=server.name,
        principal=server.principal,
        tier=pins.tier_for(server.name, default=default_tier),
        error=server.error,
        server_version=server.server_version,
        protocol_version=server.protocol_version,
        calls=calls,
        notes=list(server.notes),
    )
    if server.error:
        # An unreachable server says nothing about its tools: none are reported removed.
        if calls is not None and calls.streamed:
            stream_replay(calls, {})  # its log's counts, as a loaded log has them
        return srv, []
    _server_surfaces(srv, server, pins)
    if pinned is None:
        pinned = pins.for_server(server.name, server.principal)
    by_name: dict[str, list[ToolDef]] = {}
    for t in server.tools:
        by_name.setdefault(t.name, []).append(t)
    replayed = None
    if calls is not None and calls.streamed:
        replayed = replay_streamed(
            calls, by_name, pinned if compare else {}, keep_valid_calls, memo
        )
    out: list[ToolStatus] = []
    for name in sorted(by_name):
        defs = by_name[name]
        tier = pins.tier_for(server.name, name, default=default_tier)
        st = _with_ui_notes(
            server,
            name,
            defs[0],
            pinned.get(name),
            tier,
            calls,
            witnesses,
            keep_valid_calls,
            replayed,
            compare,
            memo,
            names,
        )
        st.protocol = tool_findings(defs[0].wire, server.protocol_version)
        st.approved_kinds = kinds_approved_on(
            pins.kinds.get((server.name, server.principal, name)), st.live_digest
        )
        _same_name(st, defs, tier, server.protocol_version)
        out.append(st)
    for name in sorted(set(pinned) - set(by_name)):
        tier = pins.tier_for(server.name, name, default=default_tier)
        out.append(_removed(server, name, pinned[name], calls, tier))
    return srv, out


def ui_changed(pin: Pin, live: ToolDef) -> bool:
    """Whether ``live``'s UI resources differ from the ones approved with ``pin`` (a pin that
    holds none differs from nothing: engine/ui_resource.py). Parses only a pin that has some."""
    if live.ui is None or UI_PIN_KEY not in pin.extra:
        return False
    return ui_differs(ui_from_toml(pin.extra[UI_PIN_KEY]), live.ui)


def ui_cues(old: Any, new: Any) -> tuple[Cue, ...]:
    """The cues of the text a served UI resource adds over its approved one (the engine's
    reader, bounded: engine/ui_resource.CUE_CHARS)."""
    from mcp_review.engine.cues import text_cues
    from mcp_review.engine.ui_resource import added_text, record_of

    if old is None or new is None:
        return ()
    out: list[Cue] = []
    for r in new:
        text = added_text(record_of(old, r.uri), r)
        if text:
            out += text_cues(text, "/_meta/ui/resourceUri#content")
    return tuple(out)


def _with_ui_notes(
    server: ServerSnapshot, name: str, live: ToolDef, pin: Pin | None, *a: Any
) -> ToolStatus:
    """:func:`_tool_status`, and a note for each UI resource that could not be read, or whose
    content the pin does not hold yet (recorded at the tool's next decision)."""
    st = _tool_status(server, name, live, pin, *a)
    for r in live.ui or ():
        if r.error is not None:
            st.notes.append(f"its UI resource {r.uri} could not be read: {r.error}")
    if live.ui and pin is not None and UI_PIN_KEY not in pin.extra:
        st.notes.append(
            "its UI resource content is not pinned yet (the pin predates it): it is recorded "
            "at the tool's next decision"
        )
    return st


def _tool_status(
    server: ServerSnapshot,
    name: str,
    live: ToolDef,
    pin: Pin | None,
    tier: str,
    calls: CallLog | None,
    witnesses: bool,
    keep_valid_calls: bool = True,
    replayed: Mapping[str, Any] | None = None,
    compare: bool = True,
    memo: CompareMemo | None = None,
    names: KnownNames | None = None,
) -> ToolStatus:
    digest = live.digest
    known = names if names is not None else KnownNames()
    base = functools.partial(
        ToolStatus,
        server=server.name,
        principal=server.principal,
        tool=name,
        live=live,
        live_digest=digest,
        pin=pin,
        calls_recorded=calls.count(name) if calls else 0,
    )
    if pin is None:
        cues = tuple(tool_cues(None, live.wire, names=known, server=server.name))
        facts = facts_for(None, live, cues=cues)
        return base(state=State.NEW, policy=decide(tier, facts), cues=cues)
    if pin.current_digest() != digest and pin.extra.get("also_approved") is not None:
        from mcp_review.engine.candidate import also_digests

        if digest in also_digests(pin):
            # The running version's approval, kept when its candidate's was approved.
            st = base(state=State.PINNED, policy=PolicyResult(tier, Outcome.NONE))
            st.notes.append(
                (
                    "approved before the candidate's definition was"
                    if pin.approved
                    else "approved; the candidate's definition is denied"
                )
                + " (kept while the running version serves it)"
            )
            return st
    if pin.current_digest() == digest and not ui_changed(pin, live):
        if pin.approved:
            return base(state=State.PINNED, policy=PolicyResult(tier, Outcome.NONE))
        return base(
            state=State.DENIED, policy=PolicyResult(tier, Outcome.NONE, ("denied by the operator",))
        )
    if not compare:
        return base(
            state=State.CHANGED,
            policy=PolicyResult(tier, Outcome.REVIEW, (PENDING_REASON,)),
            previously_denied=not pin.approved,
            pending=True,
        )
    from mcp_review.engine.compare import compare as compare_tools

    if replayed is not None and name in replayed:
        pending, replayer = replayed[name]
        old = pending.old
        cmp = pending.finish(replayer.result(), witnesses=witnesses)
    else:
        old = pin.tool_def()
        cmp = compare_tools(
            old,
            live,
            calls.for_tool(name) if calls is not None else None,
            witnesses=witnesses,
            keep_valid=keep_valid_calls,
            memo=memo,
        )
    denied = not pin.approved
    cues = tuple(tool_cues(old.wire, live.wire, names=known, server=server.name))
    cues += ui_cues(old.ui, live.ui)
    facts = facts_for(
        old, live, cmp.changes, broken_calls=cmp.broken_calls, previously_denied=denied, cues=cues
    )
    broken = bool(cmp.breaking) or cmp.broken_calls > 0
    st = base(
        state=State.BROKEN if broken else State.CHANGED,
        policy=decide(tier, facts),
        comparison=cmp,
        previously_denied=denied,
        cues=cues,
    )
    # Versioning discipline (seed 003): a contract change the server did not announce with a
    # version bump is worth reading twice. It informs; it never changes the verdict.
    was, now = pin.server_version, server.server_version
    if was and now and was == now:
        st.notes.append(f"the contract changed while the server's version stayed {was!r}")
    return st


def worst_class(t: ToolStatus) -> ChangeClass | None:
    """The most severe change class of a changed tool (for one-word summaries)."""
    from mcp_review.engine.model import CLASS_ORDER

    if t.comparison is None or not t.comparison.changes:
        return None
    worst: ChangeClass = min((c.cls for c in t.comparison.changes), key=CLASS_ORDER.__getitem__)
    return worst
