"""The team's gate settings from ``mcp-review.toml``: ``[rules]`` classes and ``[[ignore]]`` waivers.

::

    [rules]
    "format-added" = "compatible"      # this rule's class, in every report that reads the config

    [[ignore]]                         # one known change, with a reason and an expiry
    server = "bar"
    tool = "run_query"
    rule = "enum-narrowed"
    reason = "no client sends csv"
    until = "2027-01-31"               # inclusive, UTC
    digest = "sha256:…"                # the served definition the waiver is for (required to
                                       # honour it; a report without it prints the one to add)

Both govern the **gate** (``check``, ``status``, ``diff``, the app); they are applied to a
computed :class:`~mcp_review.engine.status.StatusReport` by :func:`govern`. The proxy never
applies them: it judges with the engine's classes and the tiers only, so neither changes what
reaches a client.

- A rule's class replaces the engine's wherever the rule fires (both polarities), and the tiers
  judge the new class; the change says so (``note``: "class set by [rules] (engine: …)").
- A waiver covers the changes of one rule on one tool while the tool is served with exactly the
  definition it names (``digest``) and until its date (inclusive, UTC). A waived change is still
  listed, marked waived with its reason; a tool whose every change needing review is waived gets
  the outcome ``waived``: it does not fail the gate and is never auto-approved (re-pinning would
  make a temporary waiver permanent). After ``until`` the change fails again and the reasons say
  the waiver expired; once the definition changes again (another digest) the waiver no longer
  applies and the reasons say review was re-opened. A recorded call that breaks is never
  waived (it is evidence against the waiver's reason).
- Neither can touch the trust axis: a ``[rules]`` entry or a waiver naming a rule about text,
  hidden characters or annotations (:data:`TRUST_AXIS_RULES`), or ``[rules]`` setting any rule
  to ``trust``, is a config error (exit 2, FILE:LINE). A change that brings in text the model
  reads is on the trust axis whatever its rule, so a waiver never covers it either; blocks
  (annotations, hidden characters, shadowing) stay blocks. ``[rules]`` cannot set a class for
  what the engine could not read (``engine-error``, ``schema-too-deep``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.model import CLASS_ORDER, Change, ChangeClass
from mcp_review.engine.policy import Outcome, PolicyResult, decide, facts_for
from mcp_review.engine.rules import RULES
from mcp_review.engine.rules.outside import HOST_RULES
from mcp_review.engine.waivers import Waiver as Waiver
from mcp_review.engine.waivers import WaiverUse as WaiverUse

TRUST_AXIS_RULES: frozenset[str] = frozenset(
    {r.id for r in RULES.values() if r.cls is ChangeClass.TRUST or r.trust_axis}
)
"""Rules about server-written text, hidden characters and annotations: no config changes them."""

UNJUDGED_RULES: frozenset[str] = frozenset(r.id for r in RULES.values() if r.unjudged)
"""The engine could not read that part of the definition: no class can be declared for it."""

SETTABLE_CLASSES: tuple[str, ...] = tuple(str(c) for c in ChangeClass if c is not ChangeClass.TRUST)


class RulesConfigError(ValueError):
    """A ``[rules]`` or ``[[ignore]]`` entry that cannot be accepted (the caller adds FILE:LINE)."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True, slots=True)
class RulesConfig:
    rules: Mapping[str, ChangeClass] = field(default_factory=dict)
    waivers: tuple[Waiver, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rules or self.waivers)


# Parsing (the config loader adds the file and line) -----------------------------------------


def parse_rules(raw: Any) -> dict[str, ChangeClass]:
    if not isinstance(raw, dict):
        raise RulesConfigError('[rules] must be a table of "rule-id" = "class"')
    out: dict[str, ChangeClass] = {}
    for rule, cls in raw.items():
        _known_rule(rule, rule)
        if rule in TRUST_AXIS_RULES:
            raise RulesConfigError(
                f"rule {rule!r} is on the trust axis (text, hidden characters, annotations): "
                "its class cannot be changed by configuration",
                rule,
            )
        if rule in UNJUDGED_RULES:
            raise RulesConfigError(
                f"rule {rule!r} means the engine could not read that part "
                "of the definition: no class can be declared for it",
                rule,
            )
        if cls == "trust":
            raise RulesConfigError(
                f"rule {rule!r}: the trust axis cannot be set by "
                "configuration; choose one of " + ", ".join(SETTABLE_CLASSES),
                rule,
            )
        if cls not in SETTABLE_CLASSES:
            raise RulesConfigError(
                f"rule {rule!r}: class must be one of {', '.join(SETTABLE_CLASSES)}, got {cls!r}",
                rule,
            )
        out[rule] = ChangeClass(cls)
    return out


_WAIVER_KEYS = ("server", "principal", "tool", "rule", "reason", "until", "digest")


def parse_waiver(raw: Any, *, line: int | None = None) -> Waiver:
    if not isinstance(raw, dict):
        raise RulesConfigError("each [[ignore]] must be a table")
    for k in raw:
        if k not in _WAIVER_KEYS:
            raise RulesConfigError(
                f"[[ignore]]: unknown key {k!r} (expected: {', '.join(_WAIVER_KEYS)})", k
            )
    vals: dict[str, str] = {}
    for k in ("server", "tool", "rule", "reason", "digest"):
        v = raw.get(k)
        if k == "digest" and v is None:
            continue  # reported as unbound, with the served digest to add (honours nothing)
        if not isinstance(v, str) or not v.strip():
            hint = ""
            if k == "digest":
                hint = (
                    ": the served definition the waiver is for (`mcp-review diff SERVER "
                    "TOOL` prints it as `live:`), so that another change re-opens review"
                )
            elif k == "reason":
                hint = ": say why the change is accepted"
            raise RulesConfigError(f"[[ignore]]: {k!r} must be a non-empty string{hint}", k)
        vals[k] = v
    principal = raw.get("principal")
    if principal is not None and (not isinstance(principal, str) or not principal.strip()):
        raise RulesConfigError("[[ignore]]: 'principal' must be a non-empty string", "principal")
    _known_rule(vals["rule"], "rule")
    if vals["rule"] in TRUST_AXIS_RULES:
        raise RulesConfigError(
            f"[[ignore]]: rule {vals['rule']!r} is on the trust axis (text, hidden characters, "
            "annotations): it cannot be waived; review the change and approve it instead",
            "rule",
        )
    digest = vals.get("digest")
    if digest is not None and not (
        digest.startswith("sha256:")
        and len(digest) == 71
        and all(c in "0123456789abcdef" for c in digest[7:])
    ):
        raise RulesConfigError(
            "[[ignore]]: 'digest' must be a full \"sha256:<64 hex>\" digest", "digest"
        )
    return Waiver(
        server=vals["server"],
        tool=vals["tool"],
        rule=vals["rule"],
        reason=vals["reason"],
        until=_date(raw.get("until")),
        digest=digest,
        principal=principal,
        line=line,
    )


def _known_rule(rule: Any, key: str) -> None:
    if rule in HOST_RULES:
        # What a host refuses is not the operator's to re-class or waive per change;
        # which hosts count is ([hosts] targets, docs/hosts.md).
        raise RulesConfigError(
            f"rule {rule!r} is judged per target host: its class cannot be changed nor waived; "
            "choose the hosts that count with [hosts] targets (docs/hosts.md)",
            key,
        )
    if not isinstance(rule, str) or rule not in RULES:
        raise RulesConfigError(
            f"unknown rule id {rule!r} (the rule ids are in README 'How changes are judged')", key
        )


def _date(v: Any) -> dt.date:
    # TOML writes a date bare (2027-01-31) or quoted; both mean that day, inclusive, UTC.
    if isinstance(v, dt.datetime):
        raise RulesConfigError(
            "[[ignore]]: 'until' is a date (YYYY-MM-DD), not a date-time", "until"
        )
    if isinstance(v, dt.date):
        return v
    if isinstance(v, str):
        try:
            return dt.date.fromisoformat(v.strip())
        except ValueError:
            pass
    raise RulesConfigError(
        "[[ignore]]: 'until' must be a date, YYYY-MM-DD (inclusive, UTC)", "until"
    )


# Applying ------------------------------------------------------------------------------------


def today_utc() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def _reclass(c: Change, rules: Mapping[str, ChangeClass]) -> Change:
    cls = rules.get(c.rule)
    if cls is None or cls is c.cls:
        return c
    note = f"class set by [rules] (engine: {c.cls})"
    return dataclasses.replace(c, cls=cls, note=f"{c.note}; {note}" if c.note else note)


def govern(report: Any, gate: RulesConfig, *, today: dt.date | None = None) -> list[WaiverUse]:
    """Apply ``gate`` to ``report`` (a engine.status.StatusReport) in place: re-class the changes
    ``[rules]`` names, then judge each tool again with its waived changes set aside. Sets each
    tool's ``waivers`` and the report's ``waivers``; returns the latter (one per waiver)."""
    from mcp_review.engine.status import State

    today = today or today_utc()
    uses = [WaiverUse(w) for w in gate.waivers]
    report.waivers = uses
    if not gate:
        return uses
    for t in report.tools:
        cmp = t.comparison
        mine = [
            u
            for u in uses
            if u.waiver.server == t.server
            and u.waiver.tool == t.tool
            and u.waiver.principal in (None, t.principal)
        ]
        if cmp is None or t.live is None or t.pin is None:
            continue
        changes = [_reclass(c, gate.rules) for c in cmp.changes]
        reclassed = any(a is not b for a, b in zip(changes, cmp.changes, strict=True))
        waived: dict[int, WaiverUse] = {}
        for u in mine:
            hits = [i for i, c in enumerate(changes) if c.rule == u.waiver.rule]
            if not hits:
                continue
            u.live_digest = t.live_digest
            u.pointers = [changes[i].pointer for i in hits]
            if u.waiver.digest is None:
                u.state = "unbound"
            elif u.waiver.digest != t.live_digest:
                u.state = "reopened"
            elif today > u.waiver.until:
                u.state = "expired"
            elif any(changes[i].trust for i in hits):
                u.state = "trust"
            else:
                u.state = "honoured"
                for i in hits:
                    waived.setdefault(i, u)
        touched = [u for u in mine if u.pointers]
        t.waivers = touched
        if not reclassed and not touched:
            continue
        order = sorted(
            range(len(changes)),
            key=lambda i: (CLASS_ORDER[changes[i].cls], changes[i].pointer, changes[i].rule),
        )
        cmp.changes = [changes[i] for i in order]
        t.waived = {(changes[i].rule, changes[i].pointer): u for i, u in waived.items()}
        if t.state in (State.CHANGED, State.BROKEN):
            t.state = State.BROKEN if (cmp.breaking or cmp.broken_calls) else State.CHANGED
        if t.policy.outcome is Outcome.BLOCK:
            # Blocks are the trust axis (annotations, hidden characters, shadowing, several
            # definitions under one name): no configuration lifts them.
            extra = tuple(u.message for u in touched if u.state != "honoured")
            t.policy = PolicyResult(
                t.policy.tier, Outcome.BLOCK, (*t.policy.reasons, *extra), t.policy.concerns
            )
            continue
        active = [c for c in cmp.changes if (c.rule, c.pointer) not in t.waived]
        facts = facts_for(
            t.pin.tool_def(),
            t.live,
            active,
            broken_calls=cmp.broken_calls,
            previously_denied=t.previously_denied,
            cues=t.cues,
        )
        if t.waived and not active:
            facts = dataclasses.replace(facts, unclassified=False)
        res = decide(t.policy.tier, facts)
        not_applied = tuple(u.message for u in touched if u.state != "honoured")
        honoured = tuple(f"{u.waiver.rule} {u.message}" for u in touched if u.state == "honoured")
        if honoured and res.outcome in (Outcome.NONE, Outcome.AUTO_APPROVE):
            res = PolicyResult(res.tier, Outcome.WAIVED, (*honoured, *not_applied))
        else:
            res = PolicyResult(res.tier, res.outcome, (*res.reasons, *not_applied), res.concerns)
        t.policy = res
    return uses


def waiver_for(t: Any, c: Change) -> WaiverUse | None:
    """The honoured waiver that covers change ``c`` of tool ``t`` (after :func:`govern`)."""
    use: WaiverUse | None = t.waived.get((c.rule, c.pointer))
    return use
