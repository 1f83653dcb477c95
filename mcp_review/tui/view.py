"""The app's view model: one frozen row per server and per tool, built from a status report.

Rows are data the screens read and never change: a decision, an undo or a fetch makes a new
status report and new rows (:func:`server_entries`). Everything here is derived from
``engine.status`` (states, policy outcomes, structured policy concerns); nothing is parsed
back out of words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mcp_review.engine.compare import Comparison
from mcp_review.engine.cues import Cue, most_severe, severity
from mcp_review.engine.hidden import has_hidden
from mcp_review.engine.hosts import cuts
from mcp_review.engine.instructions import InstructionsStatus
from mcp_review.engine.model import ChangeClass, Direction, ToolDef
from mcp_review.engine.pins import ANY
from mcp_review.engine.pins import Pin as CorePin
from mcp_review.engine.policy import Concern, Outcome
from mcp_review.engine.rules.catalog import rule_of
from mcp_review.engine.rules.cues import CUE_RULES
from mcp_review.engine.rules.outside import HOST_REGRESSION
from mcp_review.engine.status import (
    Awaiting,
    State,
    StatusReport,
    ToolStatus,
    accepted,
    awaiting,
)
from mcp_review.engine.surfaces import SurfaceStatus

"""A tool's standing against the pin file: the core's states, under the app's name."""


STATUS_ORDER = [
    State.BROKEN,
    State.CHANGED,
    State.NEW,
    State.REMOVED,
    State.DENIED,
    State.PINNED,
]


class Flag(StrEnum):
    """A trust flag on a tool's row: its value is the word the list's flags column shows and
    the `flag:` filter matches (one word for both)."""

    MORE_POWER = "more-power"
    """An annotation hint now claims more power (readOnlyHint true→false, …)."""
    LESS_POWER = "less-power"
    """An annotation hint now claims less power, so clients gate the tool less."""
    HIDDEN = "hidden"
    TEXT = "text"
    CUE = "cue"
    """The live text asks the model for something (engine/cues.py): the column shows the most
    severe kind (:func:`cue_word`)."""

    @property
    def label(self) -> str:
        """The flag in words (the review screen's summary)."""
        return FLAG_LABELS[self]

    @property
    def short(self) -> str:
        """The flag in the main list's narrow column."""
        return FLAG_SHORT[self]


FLAG_LABELS = {
    Flag.TEXT: "text changed",
    # the direction the claim moves, in the policy's words (engine.policy.Concern)
    Flag.MORE_POWER: "annotation claims more power",
    Flag.LESS_POWER: "annotation claims less power",
    Flag.HIDDEN: "hidden chars",
    Flag.CUE: "cues in the text",
}
FLAG_SHORT = {f: f.value for f in Flag}

_CONCERN_FLAG = {
    Concern.ANNOTATION_RELAXED: Flag.MORE_POWER,
    Concern.META_MORE_POWER: Flag.MORE_POWER,
    Concern.ANNOTATION_GATES_LESS: Flag.LESS_POWER,
    Concern.CLAIM_REVERSED: Flag.LESS_POWER,
    Concern.HIDDEN_CHARACTERS: Flag.HIDDEN,
    Concern.CUE: Flag.CUE,
}


def _schema_text(rule_id: str) -> bool:
    """A text rule inside a schema (``Rule.text`` off the tool's own side): the tool's title
    and description are flagged by comparing them above; an annotation's title is no flag."""
    rule = rule_of(rule_id)
    return rule.text and rule.direction is not Direction.TOOL


class Connection(StrEnum):
    """A server's connection state while the app fetches."""

    WAITING = "waiting"
    CONNECTING = "connecting"
    OK = "ok"
    FAILED = "failed"


def _strings(v: Any) -> Iterator[str]:
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


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One tool's row on the main screen (and what the review screen shows)."""

    server: str
    principal: str
    name: str
    status: State
    current: ToolDef | None = None
    flags: frozenset[Flag] = frozenset()
    note: str = ""
    policy: Outcome = Outcome.REVIEW
    """The policy outcome (engine.policy)."""
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
    pinned_def: ToolDef | None = field(default=None, repr=False, compare=False)
    """The decided definition when known up front (the comparison's old side), else the
    memo of :attr:`pin` parsed."""
    cues: tuple[Cue, ...] = ()
    """What the live definition asks of the model that the pin did not (engine.status
    ToolStatus.cues; a new tool's first-sight cues), most severe first."""
    shown: Any = field(default=ANY, repr=False, compare=False)
    """The pin this row was computed against (None: none), which a decision on it expects
    on disk (compare-and-set, ``services.decisions``); ``ANY``: a row made by hand, no check."""
    accepted: str = ""
    """What a decision on this row is made on, in the audit log's words
    (``engine.status.accepted``: ``changed: trust``); empty for a row made by hand."""
    held_by_proxy: bool = False
    """An enforcing proxy serves the approved definition while this change waits (its state
    file, engine.status ToolStatus.held_by_proxy): the status cell says so."""
    hosts: tuple[str, ...] = ()
    """The target hosts (engine/hosts.py) that refuse the live definition: the hosts column."""
    host_regression: bool = False
    """This change made a target host refuse it (a ``host-regression`` change)."""
    cuts: tuple[Any, ...] = ()
    """Where a target host cuts the description the model reads (``engine.hosts.Cut``):
    the review screen draws it."""

    @property
    def pinned(self) -> ToolDef | None:
        """The decided definition (the engine's old side for a changed tool)."""
        if self.pinned_def is None and self.pin is not None:
            # A memo of a pure function of `pin` (parsed once, on first use), not a change
            # of the row: the frozen row otherwise stays as built.
            object.__setattr__(self, "pinned_def", self.pin.tool_def())
        return self.pinned_def

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.server, self.principal, self.name)

    @property
    def awaiting(self) -> Awaiting | None:
        """Whether this tool waits for a decision, and how: the engine's answer
        (``engine.status.awaiting``), shown, never decided here."""
        return awaiting(self.status, self.policy)

    @property
    def needs_review(self) -> bool:
        """Waiting for a decision (:attr:`awaiting`)."""
        return self.awaiting is not None

    @property
    def blocked(self) -> bool:
        return self.policy is Outcome.BLOCK

    @property
    def blocking_cue(self) -> bool:
        """Whether one of :attr:`cues` is of a kind that blocks (engine.cues.is_blocking)."""
        return any(c.blocking for c in self.cues)

    @property
    def cue_rank(self) -> int | None:
        """The severity of the most severe cue (0: hidden), None without cues."""
        top = most_severe(self.cues)
        return severity(top) if top is not None else None


DECISION_WORDS = ("block", "held", "review", "auto", "waived")
"""The decision column's words, most pressing first."""


def decision_word(e: ToolEntry) -> str:
    """What the tool's row waits for, in the list's decision column: ``block`` (a human must
    approve with a confirmation), ``held`` (a human must decide; an enforcing proxy serves the
    approved definition meanwhile), ``review`` (a human must decide), ``auto`` (the policy
    would re-pin it: ``P``), ``waived`` (an ``[[ignore]]`` waiver covers it); empty when
    nothing waits. The engine's answer (``engine.status.awaiting``), shown."""
    waiting = e.awaiting
    if waiting is Awaiting.REVIEW:
        if e.blocked:
            return "block"
        return "held" if e.held_by_proxy else "review"
    if waiting is Awaiting.AUTO:
        return "auto"
    if waiting is Awaiting.WAIVED:
        return "waived"
    return ""


def cue_word(c: Cue) -> str:
    """A cue's kind in words, a secret location apart from a plain path (the severity order's
    own distinction)."""
    return "secret path" if CUE_RULES[c.rule].secret_location else str(c.kind)


def cue_kinds(cues: Iterable[Cue]) -> str:
    """The kinds of ``cues`` in words, most severe first, each with its count past one
    (``hidden, exfiltration ×2, secret path, url``)."""
    counts: dict[str, int] = {}
    for c in sorted(cues, key=severity):
        w = cue_word(c)
        counts[w] = counts.get(w, 0) + 1
    return ", ".join(w if n == 1 else f"{w} ×{n}" for w, n in counts.items())


def flag_words(e: ToolEntry) -> list[str]:
    """The flags column's words: the cue flag as the most severe kind it stands for, once
    (a hidden cue beside the hidden flag says it once)."""
    top = most_severe(e.cues)
    words = [
        cue_word(top) if f is Flag.CUE and top is not None else FLAG_SHORT[f]
        for f in sorted(e.flags)
    ]
    return list(dict.fromkeys(words))


@dataclass(frozen=True, slots=True)
class ServerEntry:
    """One server's row: its connection state and its tools."""

    name: str
    principal: str = "default"
    state: Connection = Connection.WAITING
    detail: str = ""
    error: str | None = None
    tools: tuple[ToolEntry, ...] = ()
    policy: str = "tiered"
    server_version: str | None = None
    instructions: InstructionsStatus | None = None
    """The server's instructions against their pin (None: none sent and none decided).
    Shown on the server's row, decided from it."""
    surfaces: tuple[SurfaceEntry, ...] = ()
    """Its prompts, resources and resource templates that are not simply pinned (new,
    changed, removed, denied): a row each under its tools."""
    surfaces_pinned: int = 0
    """How many of its prompts, resources and templates are pinned as served (counted on
    the server's row, not listed)."""


SURFACE_WORD = {"prompt": "prompt", "resource": "resource", "resource-template": "template"}
"""The kind of a surface as its row names it (before the name)."""


@dataclass(frozen=True, slots=True)
class SurfaceEntry:
    """One prompt, resource or resource template's row (engine/surfaces.py): what the list
    shows and the surface screen reads; decided through ``services.surface_decisions``."""

    server: str
    principal: str
    kind: str
    """``prompt`` | ``resource`` | ``resource-template``."""
    name: str
    """The prompt's or template's name, or the resource's URI (server text)."""
    state: str
    """new / changed / removed / denied (engine/surfaces.py ``SurfaceStatus.state``)."""
    policy: Outcome
    reasons: tuple[str, ...] = ()
    cues: tuple[Cue, ...] = ()
    status: SurfaceStatus | None = field(default=None, repr=False, compare=False)
    """The engine's status this row was built from (its diff, changes and witnesses)."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.server, self.principal, self.kind, self.name)

    @property
    def blocked(self) -> bool:
        return self.policy is Outcome.BLOCK

    @property
    def needs_review(self) -> bool:
        return self.policy in (Outcome.REVIEW, Outcome.BLOCK)

    @property
    def flags(self) -> frozenset[Flag]:
        """For the blocked-approval dialog (``modals.ask_reason``): the cue flag when it has
        cues."""
        return frozenset({Flag.CUE}) if self.cues else frozenset()

    @property
    def label(self) -> str:
        """``prompt review_change`` (raw: render it through ``render.name_line``)."""
        return f"{SURFACE_WORD[self.kind]} {self.name}"

    @property
    def summary(self) -> str:
        """The classes of its changes (``1 breaking, 2 trust``), or what it is."""
        st = self.status
        if st is not None and st.changes:
            counts: dict[str, int] = {}
            for c in st.changes:
                counts[c.klass] = counts.get(c.klass, 0) + 1
            return ", ".join(f"{n} {k}" for k, n in counts.items())
        if self.state == "new":
            return f"new {self.kind}"
        return "; ".join(self.reasons)


def surface_entry(x: SurfaceStatus) -> SurfaceEntry:
    """The row of one prompt, resource or template's status."""
    return SurfaceEntry(
        x.server,
        x.principal,
        x.kind,
        x.name,
        x.state,
        x.policy.outcome,
        tuple(x.policy.reasons),
        tuple(sorted(x.cues, key=lambda c: (severity(c), c.pointer))),
        x,
    )


def surface_flag_words(e: SurfaceEntry) -> list[str]:
    """The flags cell of a surface row: the kinds of its cues, most severe first, each once."""
    return list(dict.fromkeys(cue_word(c) for c in e.cues))


@dataclass(frozen=True, slots=True)
class Computed:
    """One status computation (``ReviewSource.compute``): the report and its rows."""

    report: StatusReport
    servers: list[ServerEntry]


def server_entries(
    report: StatusReport, names: Iterable[str], tier: Callable[[str], str]
) -> list[ServerEntry]:
    """A row for each of ``names`` (in that order) with its tools' rows; ``tier(server)`` is
    the server's policy tier. A server the report does not have yet is waiting."""
    servers = {s.name: s for s in report.servers}
    by_server: dict[str, list[ToolEntry]] = {}
    for t in report.tools:
        by_server.setdefault(t.server, []).append(tool_entry(t))
    out: list[ServerEntry] = []
    for name in names:
        st = servers.get(name)
        policy = tier(name)
        if st is None:
            out.append(ServerEntry(name, policy=policy))
        elif st.error:
            out.append(
                ServerEntry(
                    name,
                    st.principal,
                    Connection.FAILED,
                    error=str(st.error.get("message") or st.error.get("kind") or st.error),
                    policy=policy,
                    server_version=st.server_version,
                )
            )
        else:
            out.append(
                ServerEntry(
                    name,
                    st.principal,
                    Connection.OK,
                    tools=tuple(by_server.get(name, ())),
                    policy=policy,
                    server_version=st.server_version,
                    instructions=st.instructions,
                    surfaces=tuple(
                        surface_entry(x)
                        for x in st.surfaces
                        if x.state not in ("pinned", "unlisted")
                    ),
                    surfaces_pinned=sum(1 for x in st.surfaces if x.state == "pinned"),
                )
            )
    return out


def tool_entry(t: ToolStatus) -> ToolEntry:
    """The row of one tool's status."""
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
    flags = {_CONCERN_FLAG[c] for c in t.policy.concerns}
    if (
        pinned is not None
        and t.live is not None
        and (pinned.description != t.live.description or pinned.title != t.live.title)
    ):
        flags.add(Flag.TEXT)  # (an unparsed pin has the live digest: same text)
    if cmp is not None and any(c.new_text or _schema_text(c.rule) for c in cmp.changes):
        flags.add(Flag.TEXT)  # text the model reads, anywhere in the definition
    if t.state is State.NEW and tool_has_hidden(t.live):
        flags.add(Flag.HIDDEN)
    if t.cues:
        flags.add(Flag.CUE)
    shadows = tuple(t.shadows)
    pending = False
    summary = ""
    if cmp is not None:
        summary = _summary(cmp)
    elif t.pending:
        pending = True
        summary = "comparing…"
    elif t.state is State.NEW:
        summary = "new tool"
    elif t.state is State.REMOVED:
        summary = "; ".join(t.policy.reasons)
    if shadows:
        # The twin is the finding: it leads, ahead of "new tool" or the change counts.
        shadow = "shadows " + ", ".join(shadows)
        summary = shadow if t.state is State.NEW else f"{shadow}; {summary}"
    return ToolEntry(
        t.server,
        t.principal,
        t.tool,
        t.state,
        t.live,
        frozenset(flags),
        note=t.pin.note if t.pin is not None else "",
        policy=t.policy.outcome,
        summary=summary,
        reasons=tuple(t.policy.reasons),
        notes=tuple(t.notes) + tuple(f.line() for f in t.protocol),
        shadows=shadows,
        pending=pending,
        # unchanged or removed: what was decided, parsed when first shown
        pin=t.pin if pinned is None else None,
        pinned_def=pinned,
        cues=tuple(sorted(t.cues, key=lambda c: (severity(c), c.pointer))),
        shown=t.pin,
        accepted=accepted(t),
        held_by_proxy=t.held_by_proxy is not None,
        hosts=tuple(dict.fromkeys(f.profile for f in t.hosts or () if f.refuses)),
        host_regression=t.comparison is not None
        and any(c.rule == HOST_REGRESSION for c in t.comparison.changes),
        cuts=tuple(cuts(t.hosts, t.live.wire)) if t.hosts and t.live is not None else (),
    )


def _summary(cmp: Comparison) -> str:
    parts = [f"{len(cmp.of_class(k))} {k}" for k in ChangeClass if cmp.of_class(k)]
    if cmp.replay is not None and cmp.replay.broken:
        parts.append(f"{cmp.replay.broken}/{cmp.replay.total} calls break")
    return ", ".join(parts)
