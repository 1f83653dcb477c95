"""A tool's status (:class:`ToolStatus`, its :class:`State` and what it awaits), split from
engine/status.py, which re-exports these names."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from mcp_review.engine.candidate import awaiting_upgrade
from mcp_review.engine.cues import Cue
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Pin
from mcp_review.engine.policy import Outcome, PolicyResult
from mcp_review.engine.protocol import ProtocolFinding

if TYPE_CHECKING:  # types only: the status is built before a comparison or a host is judged
    from mcp_review.engine.compare import Comparison
    from mcp_review.engine.hosts import Finding
    from mcp_review.engine.waivers import WaiverUse


class State(StrEnum):
    PINNED = "pinned"
    """Approved, and the live digest equals the pinned one."""
    NEW = "new"
    """Served, never decided under this (server, principal)."""
    CHANGED = "changed"
    """Digest differs from the pin (``previously_denied`` tells a denied one)."""
    BROKEN = "broken"
    """Changed, with a breaking change or a broken recorded call."""
    REMOVED = "removed"
    """Pinned but no longer served."""
    DENIED = "denied"
    """Denied, and the live digest equals the denied one."""


@dataclass(slots=True)
class ToolStatus:
    server: str
    principal: str
    tool: str
    state: State
    policy: PolicyResult
    pin: Pin | None = None
    live: ToolDef | None = None
    live_digest: str | None = None
    comparison: Comparison | None = None
    """A :class:`~mcp_review.engine.compare.Comparison` (pinned definition → live) when the
    digest changed; None for pinned, new, removed and unchanged denied tools."""
    previously_denied: bool = False
    calls_recorded: int = 0
    notes: list[str] = field(default_factory=list)
    shadows: list[str] = field(default_factory=list)
    """``server/tool`` names this tool's name imitates through homoglyphs or hidden
    characters (``rеad_file`` with a Cyrillic е beside ``read_file``)."""
    protocol: list[ProtocolFinding] = field(default_factory=list)
    """Where the live definition breaks the MCP schema of the server's protocol version
    (engine/protocol.py): informs, never changes the verdict."""
    waivers: list[WaiverUse] = field(default_factory=list)
    """The ``[[ignore]]`` waivers that name one of this tool's changes (engine.rulesconfig.WaiverUse)."""
    waived: dict[tuple[str, str], WaiverUse] = field(default_factory=dict)
    """(rule, pointer) of each change an honoured waiver covers → its WaiverUse (engine.rulesconfig)."""
    cues: tuple[Cue, ...] = ()
    """What the live definition asks of the model that the pinned one did not (engine/cues.py,
    ``tool_cues``): every cue of a new tool (first sight), the introduced ones of a changed
    tool; none for a pinned, removed, unchanged denied or not yet compared tool."""
    held_by_proxy: dict[str, Any] | None = None
    """An enforcing proxy serves this tool's approved definition while the change waits for
    review (docs/proxy.md, "Hold"): its pinned and live digests, since when, the proxy's pid
    and last update, from the proxy's state file (``store.calllog.mark_held``). None
    otherwise. Informs; never changes the state, the outcome or the exit code."""
    approved_kinds: frozenset[str] = frozenset()
    """Keys of the kinds (engine/kinds.py) already approved on exactly this live definition
    while others wait (``PinFile.kinds``, bound to the live digest): left out of its groups."""
    definitions: int = 1
    """How many different definitions the server lists under this name (more than one: which
    a client would use is undefined, so it blocks and the tool stands alone)."""
    hosts: tuple[Finding, ...] | None = None
    """What the target hosts (engine/hosts.py) refuse, drop, degrade or cut in the live
    definition (``hosts.Finding``s, fleet rules included); None when no host was judged."""
    pending: bool = False
    """Changed, not compared yet (``compute_status(..., compare=False)``): the state and the
    policy are placeholders (changed, review) until the comparison runs; nothing may be
    decided on it."""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.server, self.principal, self.tool)

    @property
    def needs_attention(self) -> bool:
        """True when this tool fails the gate (review or block)."""
        return self.policy.outcome in (Outcome.REVIEW, Outcome.BLOCK)

    @property
    def awaiting(self) -> Awaiting | None:
        """Whether this tool waits for a decision, and how (:func:`awaiting`)."""
        return awaiting(self.state, self.policy.outcome)

    def fails_gate(self, fail_on: str) -> bool:
        """Whether this tool fails the gate under ``fail_on`` (``check --fail-on``: breaking,
        review, any). The one place it is decided: :meth:`StatusReport.gate` asks it once per
        tool, and every format, command and the app read the answer."""
        outcome = self.policy.outcome
        if self.state is State.REMOVED and awaiting_upgrade(self.pin):
            return False  # approved in a candidate preview; the running version never served it
        if fail_on == "any":
            return self.state not in (State.PINNED, State.DENIED) and outcome is not Outcome.WAIVED
        if fail_on == "review":
            return self.needs_attention
        if outcome is Outcome.BLOCK:
            return True
        if outcome is Outcome.WAIVED:
            return False  # every change that fails it is waived (engine/rulesconfig.py)
        if self.state is State.BROKEN:
            return True
        return self.state is State.REMOVED and self.pin is not None and self.pin.approved


class Awaiting(StrEnum):
    """How a tool waiting for a decision stands at the gate (``check --fail-on review``)."""

    REVIEW = "review"
    """Fails the gate (review or block): the counts line's "to review"."""
    AUTO = "auto"
    """The policy would approve it: it waits for ``P`` or a decision, and passes the gate."""
    WAIVED = "waived"
    """Every change that fails it is waived: it passes the gate."""


_UNDECIDED = frozenset({State.NEW, State.CHANGED, State.BROKEN})


def awaiting(state: State, outcome: Outcome) -> Awaiting | None:
    """Whether a tool in ``state`` with policy ``outcome`` waits for a decision (None: nothing
    to decide), the one definition the status, ``check`` and the app's rows and counts read.

    New, changed and broken tools wait. A removed tool waits only when the gate fails on it
    (an approved tool no longer served); a denied one no longer served, or one approved while
    previewing a candidate the running version never served, has nothing to decide (outcome
    none), as ``check`` says."""
    if state is State.REMOVED:
        if outcome is Outcome.NONE:
            return None
    elif state not in _UNDECIDED:
        return None
    if outcome is Outcome.AUTO_APPROVE:
        return Awaiting.AUTO
    if outcome is Outcome.WAIVED:
        return Awaiting.WAIVED
    return Awaiting.REVIEW
