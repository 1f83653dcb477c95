"""What the enforcing proxy does with one tool: withheld, held or served.

One precedence list, :data:`PRECEDENCE`, owned here and documented once (docs/proxy.md,
"`--enforce`: withheld, held or served"); ``services/proxy/enforce.py`` asks :func:`rule` and
builds the hold. The first row that matches decides, top to bottom: what shows hostile intent
or cannot be vouched for is **withheld** (not listed, calls refused), a blocking cue anywhere
in the new definition (``_meta`` included) among it, so the server's calls do not run either;
what is approved or auto-approved is **served**; every other change is **held** (the approved
definition served, calls checked against it), or withheld under ``--withhold-changed``.

Pure: reads an engine ``ToolStatus``; no file, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from mcp_review.engine.candidate import ALSO_KEY, PREVIEW_KEY
from mcp_review.engine.cues import Cue
from mcp_review.engine.hosts import held_for_host
from mcp_review.engine.model import ChangeClass, Direction
from mcp_review.engine.policy import Concern, Outcome
from mcp_review.engine.rules.catalog import rule_of
from mcp_review.engine.rules.outside import HOST_REGRESSION, HOST_RULES
from mcp_review.engine.rules.registry import Claim
from mcp_review.engine.status import State, ToolStatus


class Enforcement(StrEnum):
    WITHHELD = "withheld"
    """Not listed; every call refused."""
    HELD = "held"
    """The approved definition listed in place of the server's; calls checked against it."""
    SERVED = "served"
    """Listed and called as the server serves it (its approved ``_meta`` in place of one that
    differs: services/proxy/enforce.py)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the precedence list."""

    id: str
    enforcement: Enforcement
    words: str
    """How docs/proxy.md names the row (a test holds the two equal)."""


PRECEDENCE: tuple[Row, ...] = (
    Row("denied", Enforcement.WITHHELD, "denied by the operator"),
    Row("new", Enforcement.WITHHELD, "new: never approved"),
    Row("unverified-pin", Enforcement.WITHHELD, "its pin does not verify"),
    Row("approved", Enforcement.SERVED, "approved and unchanged"),
    Row("hidden-characters", Enforcement.WITHHELD, "hidden characters appeared"),
    Row(
        "blocking-cue",
        Enforcement.WITHHELD,
        "a blocking cue anywhere in the new definition (`_meta` included)",
    ),
    Row(
        "more-power",
        Enforcement.WITHHELD,
        "an annotation, or `_meta`, claims more power",
    ),
    Row(
        "auto-approved",
        Enforcement.SERVED,
        "a drift the tier auto-approves (never one of the rows above; `compatible` re-pins a "
        "potentially-breaking change)",
    ),
    Row(
        "breaking-input",
        Enforcement.WITHHELD,
        "a breaking or potentially-breaking input (or tool) change",
    ),
    Row("output-widens", Enforcement.WITHHELD, "the output widens (or may break)"),
    Row("broken-calls", Enforcement.WITHHELD, "a recorded call broken"),
    Row(
        "look-alike",
        Enforcement.WITHHELD,
        "a look-alike or shadowing name (a drift the tier re-pins is served: an approved name "
        "two servers share is common)",
    ),
    Row("unclassified", Enforcement.WITHHELD, "a change the engine cannot name"),
    Row("candidate-approval", Enforcement.WITHHELD, "a pin carrying a candidate's approval"),
    Row(
        "withhold-changed",
        Enforcement.WITHHELD,
        "any other change, under `--withhold-changed`",
    ),
    Row(
        HOST_REGRESSION,  # the row is named after the rule it serves
        Enforcement.HELD,
        "a host regression for the connected client's host (its `clientInfo`), the approved "
        "definition accepted there: served as approved, so the host keeps working",
    ),
    Row(
        "held",
        Enforcement.HELD,
        "any other change: text with no blocking cue, a claim of less power, icons, `_meta` "
        "claiming no more power, a compatible input change with the output unchanged or "
        "narrowed",
    ),
)
"""The one precedence list: the first row that matches decides."""

_ROWS = {r.id: r for r in PRECEDENCE}


@dataclass(frozen=True, slots=True)
class Ruling:
    """What :func:`rule` decided for one tool, and why."""

    enforcement: Enforcement
    row: str
    """The id of the :data:`PRECEDENCE` row that decided."""
    reason: str
    cue_kinds: tuple[str, ...] = ()
    """For a blocking cue: its kinds (``instruction``, ``exfiltration``, …), most severe
    first, each once."""


def _ruling(row: str, reason: str = "", cue_kinds: tuple[str, ...] = ()) -> Ruling:
    r = _ROWS[row]
    return Ruling(r.enforcement, row, reason or r.words, cue_kinds)


def _kinds(cues: Sequence[Cue]) -> tuple[str, ...]:
    from mcp_review.engine.cues import severity

    seen: list[str] = []
    for c in sorted(cues, key=severity):
        if str(c.kind) not in seen:
            seen.append(str(c.kind))
    return tuple(seen)


def rule(
    t: ToolStatus,
    *,
    hold: bool = True,
    unverified: str | None = None,
) -> Ruling:
    """The precedence list applied to one tool's engine status.

    ``hold=False``: ``--withhold-changed`` (a change that would be held is withheld).
    ``unverified``: why the tool's pin does not verify (None: it does)."""
    pin = t.pin
    if t.state is State.DENIED or t.previously_denied or (pin is not None and not pin.approved):
        who = ""
        if pin is not None and not pin.approved:
            who = f"denied by {pin.decided_by[:80]!r} at {pin.decided_at[:40]}"
            if t.state is not State.DENIED:
                who += "; its definition changed since"
        return _ruling("denied", who or "denied by the operator")
    if t.state is State.NEW or pin is None:
        return _ruling("new")
    if unverified is not None:
        return _ruling("unverified-pin", f"its pin does not verify: {unverified}")
    if t.state is State.PINNED:  # the whole tool, _meta included, is the approved one
        return _ruling("approved")
    concerns = t.policy.concerns
    cmp = t.comparison
    changes = list(cmp.changes) if cmp is not None else []
    taxonomy = [rule_of(c.rule) for c in changes]
    claims = {r.claim for r in taxonomy}
    if Concern.HIDDEN_CHARACTERS in concerns or any(r.hidden for r in taxonomy):
        return _ruling("hidden-characters")
    cues = [c for c in t.cues if c.blocking]  # _meta included: the one text walk reads it
    if cues or Concern.CUE in concerns:
        kinds = _kinds(cues)
        what = ", ".join(kinds) if kinds else "a blocking cue"
        return _ruling(
            "blocking-cue",
            f"the new definition carries a blocking cue ({what}): the server has shown "
            "hostile intent, so its calls do not run",
            kinds,
        )
    if Concern.ANNOTATION_RELAXED in concerns or Claim.ANNOTATION_MORE in claims:
        return _ruling("more-power", "an annotation claims more power")
    if Concern.META_MORE_POWER in concerns or Claim.META_MORE in claims:
        said = [r for r in t.policy.reasons if r.startswith("_meta claims more power")]
        return _ruling("more-power", _bounded(said[0]) if said else "_meta claims more power")
    if t.policy.outcome is Outcome.AUTO_APPROVE:
        return _ruling("auto-approved", "; ".join(t.policy.reasons))
    host_held = held_for_host(t)
    for c in changes:
        if c.cls not in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING):
            continue
        if host_held and c.rule in HOST_RULES:
            continue  # the host-regression row below decides
        side = "output" if c.direction is Direction.OUTPUT else "input"
        if c.direction is Direction.TOOL:
            side = "tool"
        why = f"a {c.cls} {side} change: {_bounded(c.message)}"
        return _ruling("output-widens" if side == "output" else "breaking-input", why)
    if cmp is not None and cmp.broken_calls:
        return _ruling("broken-calls", f"{cmp.broken_calls} recorded call(s) broken")
    if t.shadows:
        return _ruling(
            "look-alike",
            "its name shadows another tool (" + ", ".join(map(repr, t.shadows))[:200] + ")",
        )
    if cmp is None or t.pending or not changes:
        return _ruling("unclassified")
    if ALSO_KEY in pin.extra or PREVIEW_KEY in pin.extra:
        return _ruling(
            "candidate-approval",
            "its pin carries an approval made while previewing a candidate: the stored "
            "definition may not be the running server's",
        )
    why = "; ".join(t.policy.reasons)
    if not hold:
        return _ruling("withhold-changed", why)
    if host_held:
        return _ruling(HOST_REGRESSION, why)
    return _ruling("held", why)


def _bounded(text: str, cap: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= cap else text[: cap - 1] + "…"
