"""Review by kind: one decision for many alike changes, the suspicious tools alone.

A change's **kind** is what it does with the text, names and values abstracted away: its rule,
class and direction and its pointer with property names and array indices replaced by ``*``
(:func:`kind_of`). For the annotation rules only the direction of the claim counts ("annotations
claim less power" whatever the hints). A change that needs a decision only for the text it
brings in, and every text change, is of one text kind per set of cues its text introduces
("text added or reworded, no cue"): the cue reading (engine/cues.py) is what judges text, and
each member's own old → new text is shown beside it.

:func:`group_report` takes the tools that need a decision (``review`` or ``block``) and puts
each either in the groups of its pending kinds (a **group** is every pending change of one kind
across tools and servers) or **alone** (:class:`AloneReason`: decided on that tool alone). A
tool is approved when every one of its pending kinds is approved, denied as soon as one is
(``services/decisions.decide_group``). Kinds approved on a tool that still has others
undecided are kept in the pin file bound to the tool's live digest (``PinFile.kinds``) and
read back into :attr:`ToolStatus.approved_kinds`; they stop counting the moment the tool
changes again.

A group's id (:func:`group_id`) is derived from its kind and every member's (server,
principal, tool, live digest): the same drift gives the same id, and the id goes stale when
any member changes, so an approval never covers a definition nobody saw.

Engine layer: no textual, rich or mcp.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from mcp_review.engine.cues import needs_attention
from mcp_review.engine.kind_text import SHOWN_WHOLE, AddedText, added_texts
from mcp_review.engine.model import (
    CONTRACT_FIELDS,
    ChangeClass,
    ToolDef,
    pointer_join,
    pointer_tokens,
)
from mcp_review.engine.policy import Concern, Outcome, class_outcome, severity_rank
from mcp_review.engine.rules.catalog import RULES, rule_of
from mcp_review.engine.rules.meta import SPEC_KEYS as META_SPEC_KEYS
from mcp_review.engine.rules.outside import HOST_RULES
from mcp_review.engine.rules.registry import Claim
from mcp_review.engine.surface_kinds import (
    SURFACE_NEW,
    SURFACE_TEXT,
    SurfaceAlone,
    SurfaceCandidate,
    SurfaceReason,
    set_apart,
    surface_review,
)

if TYPE_CHECKING:
    from mcp_review.engine.cues import Cue
    from mcp_review.engine.model import Change
    from mcp_review.engine.status import StatusReport, ToolStatus
    from mcp_review.engine.surfaces import SurfaceStatus

__all__ = [
    "Alone",
    "AloneReason",
    "Group",
    "Grouping",
    "Kind",
    "Member",
    "SurfaceAlone",
    "decision_json",
    "group_id",
    "group_report",
    "kind_of",
    "new_tool_contradictions",
    "pending_kinds",
    "visit_rank",
]

# Rules ------------------------------------------------------------------------------------------

RULE_NEW_TOOL = "tool-new"
"""The kind of a tool seen for the first time (no rule of the registry: no change fired)."""
RULE_REMOVED = "tool-removed"
"""The kind of an approved tool no longer served."""
TEXT_RULE = "text"
"""The kind rule of every text change (see the module docstring)."""
REVERSED = "reversed"
"""The detail of the claims of less power that reverse an explicit pinned claim: a kind apart, which
blocks (one confirmation and one typed reason for the group)."""

TEXT_RULES = frozenset(r.id for r in RULES.values() if r.text)
"""Rules whose change is a piece of server-written text, new or reworded (``Rule.text``)."""

_CLAIM_LABELS = {
    Claim.ANNOTATION_LESS: "annotations claim less power",
    Claim.ANNOTATION_MORE: "annotations claim more power",
    Claim.ANNOTATION_OTHER: "other annotation changed",
}
"""The label of a kind whose rule is an annotation claim (``Rule.claim``)."""

_CLAIM_KIND_DIRECTIONS = {
    Claim.ANNOTATION_LESS: "less-power",
    Claim.ANNOTATION_MORE: "more-power",
}
"""Annotation claims of less / more power are one kind each, wherever they were made."""

_NAME_MAPS = frozenset(
    {
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
        "dependencies",
        "dependentRequired",
    }
)
"""Keywords whose keys are names the server chose: abstracted to ``*`` in a kind's pointer."""

_KNOWN_TOKENS = frozenset(
    {
        # tool fields: the hashed ones, ``_meta`` and ``execution``'s own
        *CONTRACT_FIELDS,
        "taskSupport",
        "_meta",
        # JSON Schema keywords
        "$schema",
        "$id",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$comment",
        "$vocabulary",
        "type",
        "enum",
        "const",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "items",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
        "minItems",
        "maxItems",
        "uniqueItems",
        "required",
        "additionalProperties",
        "unevaluatedProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "x-mcp-header",
        *_NAME_MAPS,
        *META_SPEC_KEYS,
    }
)
"""Pointer tokens kept as they are in a kind's pointer; any other token (a name, an index, a
keyword the server made up) becomes ``*``: a kind never carries server-chosen words."""


def abstract_pointer(pointer: str) -> str:
    """``pointer`` with property names, array indices and unknown tokens replaced by ``*``:
    ``/inputSchema/properties/path/description`` → ``/inputSchema/properties/*/description``."""
    out = ""
    prev = ""
    for tok in pointer_tokens(pointer):
        shown = "*" if prev in _NAME_MAPS or tok not in _KNOWN_TOKENS else tok
        out = pointer_join(out, shown)
        prev = "" if prev in _NAME_MAPS else tok
    return out


# Kind -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """What a change does, with text, names and values abstracted away (see the module
    docstring). Two changes of one kind are decided together."""

    rule: str
    """The rule id (``tool-new``, ``tool-removed``, ``text`` for the text kinds)."""
    cls: ChangeClass
    direction: str
    """``input`` / ``output`` / ``tool``; for the annotation claims ``more-power`` or
    ``less-power``."""
    pointer: str
    """The change's pointer with names and indices as ``*`` (``""`` for the annotation claims,
    the text kinds and the whole-tool kinds)."""
    detail: str = ""
    """What the kind adds to its rule: ``schema-less`` (required arguments declared on a tool
    whose input schema declared none), ``reversed`` (a claim of less power reversing the
    pinned definition's explicit opposite)."""
    cues: tuple[str, ...] = ()
    """The cue kinds the change's text introduces (sorted; engine/cues.py), for any change
    that brings text and a new tool: "no cue" is a kind apart from "cues: url"."""

    @property
    def key(self) -> str:
        """A stable string for this kind (stored in the pin file, hashed into group ids)."""
        parts = [self.rule, str(self.cls), self.direction, self.pointer or "-"]
        if self.detail:
            parts.append(self.detail)
        if self.cues:
            parts.append("cues=" + ",".join(self.cues))
        return " ".join(parts)

    @property
    def label(self) -> str:
        """One human line: "annotations claim less power", "new tool, no cue", ..."""
        cue = "no cue" if not self.cues else "cues: " + ", ".join(self.cues)
        if self.rule == SURFACE_NEW:
            return f"new {self.direction}, {cue}"
        if self.rule == SURFACE_TEXT:
            return f"{self.direction} text added or reworded, {cue}"
        rule = rule_of(self.rule)
        if rule.claim is Claim.ANNOTATION_LESS and self.detail == REVERSED:
            return "annotations claim less power, explicit pinned claim reversed"
        if rule.claim in _CLAIM_LABELS:
            return _CLAIM_LABELS[rule.claim]
        if self.rule == RULE_NEW_TOOL:
            return f"new tool, {cue}"
        if self.rule == RULE_REMOVED:
            return "approved tool no longer served"
        if self.rule == TEXT_RULE:
            return f"text added or reworded, {cue}"
        with_cue = f", {cue}" if self.cues else ""
        if self.rule in HOST_RULES:
            what = "refused" if self.cls is ChangeClass.BREAKING else "degraded"
            return f"host regression: {what} by {self.detail}"
        if self.detail == "schema-less":
            return f"required arguments declared on a schema-less tool{with_cue}"
        if rule.kind_label:
            return f"{rule.kind_label}{with_cue}"
        what = rule.purpose or self.rule.replace("-", " ")
        return f"{what}, at {self.pointer or 'the tool'} ({self.cls}){with_cue}"


def kind_of(change: Change, old: ToolDef | None = None, cues: Iterable[str] = ()) -> Kind:
    """The kind of ``change``. ``old``: the pinned definition (tells a schema-less tool gaining
    required arguments); ``cues``: the cue kinds the change's text introduces."""
    rule = change.rule
    taxonomy = rule_of(rule)
    if taxonomy.claim in _CLAIM_KIND_DIRECTIONS:
        return Kind(rule, change.cls, _CLAIM_KIND_DIRECTIONS[taxonomy.claim], "")
    if rule in HOST_RULES:
        # Host regressions are grouped by (profile, rule): the host rule id names both.
        return Kind(rule, change.cls, "tool", "", dict(change.params).get("host_rule", ""))
    cue_kinds = tuple(sorted(set(cues)))
    text_only = change.cls in (ChangeClass.COMPATIBLE, ChangeClass.COSMETIC) and change.new_text
    if taxonomy.text or text_only:
        return Kind(TEXT_RULE, ChangeClass.TRUST, "tool", "", cues=cue_kinds)
    detail = ""
    if taxonomy.adds_required and old is not None and schema_less(old.input_schema):
        detail = "schema-less"
    # The cues of any text it brings in count here too: text with a cue never rides with text
    # without one, whatever carried it.
    return Kind(
        rule,
        change.cls,
        str(change.direction),
        abstract_pointer(change.pointer),
        detail,
        cues=cue_kinds,
    )


def schema_less(schema: Any) -> bool:
    """An input schema that declares no argument: ``{}``, ``true``, or an object schema with no
    properties, pattern properties, composition or reference (any object validates)."""
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    shape = (
        "properties",
        "patternProperties",
        "additionalProperties",
        "required",
        "allOf",
        "anyOf",
        "oneOf",
        "$ref",
        "not",
        "if",
    )
    return not any(schema.get(k) for k in shape)


# What a tool needs decided --------------------------------------------------------------------


def change_outcome(tier: str, change: Change) -> Outcome:
    """What the policy does with this one change under ``tier`` (the tier table, row by row):
    a change needs a decision when this is ``review`` or ``block``."""
    claim = rule_of(change.rule).claim
    if claim is not None:
        # more power blocks in every tier; less power and an unknown annotation are reviewed
        return Outcome.BLOCK if claim.more_power else Outcome.REVIEW
    out = class_outcome(tier, change.cls)
    if change.new_text:
        trust = class_outcome(tier, ChangeClass.TRUST)
        out = max(out, trust, key=severity_rank)
    return out


def _needs_decision(o: Outcome) -> bool:
    return o in (Outcome.REVIEW, Outcome.BLOCK)


def _change_cues(change: Change, cues: Sequence[Cue]) -> list[str]:
    """The kinds of the (non-blocking) cues found in this change's text: at or under its
    pointer, or at one of the pointers of the text it brings in."""
    at = {change.pointer, *(t.pointer for t in change.new_text)}
    out = []
    for c in cues:
        p = c.pointer
        if p in at or (change.pointer and p.startswith(change.pointer + "/")):
            out.append(str(c.kind))
    return out


def pending_kinds(t: ToolStatus) -> dict[Kind, list[Change]]:
    """The kinds ``t`` needs decided, each with the tool's changes of that kind (the kinds
    already approved on this live definition, :attr:`ToolStatus.approved_kinds`, left out;
    changes an ``[[ignore]]`` waiver covers left out). Empty for a tool that needs nothing
    decided, and for one whose changes name no kind (it stands alone)."""
    from mcp_review.engine.status import State

    out: dict[Kind, list[Change]] = {}
    tier = t.policy.tier or "tiered"
    if t.state is State.NEW:
        k = Kind(RULE_NEW_TOOL, ChangeClass.TRUST, "tool", "", cues=_cue_kinds(t.cues))
        out[k] = []
    elif t.state is State.REMOVED:
        out[Kind(RULE_REMOVED, ChangeClass.BREAKING, "tool", "")] = []
    elif t.comparison is not None:
        # The pinned definition is parsed only when a rule needs it (schema-less or not).
        needs_old = any(rule_of(c.rule).adds_required for c in t.comparison.changes)
        old = t.pin.tool_def() if t.pin is not None and needs_old else None
        waived = t.waived or {}
        for c in t.comparison.changes:
            if (c.rule, c.pointer) in waived:
                continue
            if not _needs_decision(change_outcome(tier, c)):
                continue
            k = kind_of(c, old, _change_cues(c, t.cues))
            if rule_of(k.rule).claim is Claim.ANNOTATION_LESS and _reverses(t, c):
                k = Kind(k.rule, k.cls, k.direction, k.pointer, REVERSED)
            out.setdefault(k, []).append(c)
    approved = t.approved_kinds
    return {k: v for k, v in out.items() if k.key not in approved}


def _reverses(t: ToolStatus, c: Change) -> bool:
    """Whether ``c`` (a claim of less power) reverses the pinned definition's explicit claim on
    a tool whose only contradictions are such reversals (:attr:`Concern.CLAIM_REVERSED`)."""
    if Concern.CLAIM_REVERSED not in t.policy.concerns:
        return False
    hint = pointer_tokens(c.pointer)[-1] if c.pointer else ""
    return any(f"against the pinned definition's explicit {hint}:" in r for r in t.policy.reasons)


def _cue_kinds(cues: Iterable[Cue]) -> tuple[str, ...]:
    return tuple(sorted({str(c.kind) for c in cues}))


# Standing alone ---------------------------------------------------------------------------------


class AloneReason(StrEnum):
    """Why a tool is decided on its own (docs/design.md, Review by kind)."""

    BLOCKING_CUE = "blocking cue"
    HIDDEN = "hidden characters"
    LOOKALIKE = "look-alike or shadowing name"
    BROKEN_CALL = "a recorded call breaks"
    CONTRADICTION = "annotation claim contradicted"
    DENIED = "denied before"
    SEVERAL = "several definitions under one name"
    NOT_COMPARED = "not compared yet"
    UNCLASSIFIED = "digest changed, no change named"
    NEW_CLAIM = "new tool's claim of less power contradicted"
    """A new tool whose annotations claim less power than the protocol defaults against its
    own name or description (:func:`new_tool_contradictions`): no pinned claim to flip, so the
    tier waits for review, but it is read alone, never approved with the other new tools."""
    ATTENTION = "a cue that needs attention"
    """Its text introduces a cue at level ``attention`` (a word mixing scripts, an encoded
    blob, text the reader could not normalise; docs/cues.md "Levels"): read alone, never
    grouped, approved with no typed reason."""
    LONG_TEXT = "added text too long to show whole"
    """A text change adds more than :data:`SHOWN_WHOLE` characters: a group's screens show
    each member's added text in full, so a member whose text cannot be shown whole is read
    alone."""
    UNSHARED = "a kind no other tool shares"
    """A pending kind of the tool is shared with no other tool that needs a decision: the
    tool is read and decided whole (one decision, where a group per such kind would ask
    more; the groups keep two members or more)."""
    NO_KIND = "no kind to group"
    META_MORE_POWER = "_meta claims more power"
    """``_meta`` makes the tool callable by the model, or widens what its UI may reach
    (engine/rules/meta.py): read and decided on the tool itself."""


def alone_reasons(t: ToolStatus) -> tuple[AloneReason, ...]:
    """Why ``t`` stands alone (empty: its kinds are decided in groups)."""
    concerns = t.policy.concerns
    out = []
    if Concern.CUE in concerns:
        out.append(AloneReason.BLOCKING_CUE)
    if Concern.HIDDEN_CHARACTERS in concerns:
        out.append(AloneReason.HIDDEN)
    if any(needs_attention(c) for c in t.cues):
        out.append(AloneReason.ATTENTION)
    if t.shadows:
        out.append(AloneReason.LOOKALIKE)
    if t.comparison is not None and t.comparison.broken_calls:
        out.append(AloneReason.BROKEN_CALL)
    if Concern.ANNOTATION_GATES_LESS in concerns:
        out.append(AloneReason.CONTRADICTION)
    if Concern.META_MORE_POWER in concerns:
        out.append(AloneReason.META_MORE_POWER)
    if new_tool_contradictions(t):
        out.append(AloneReason.NEW_CLAIM)
    if t.previously_denied:
        out.append(AloneReason.DENIED)
    if t.definitions > 1:
        out.append(AloneReason.SEVERAL)
    if t.pending:
        out.append(AloneReason.NOT_COMPARED)
    elif t.comparison is not None and not t.comparison.changes:
        out.append(AloneReason.UNCLASSIFIED)
    return tuple(out)


def new_tool_contradictions(t: ToolStatus) -> tuple[str, ...]:
    """For a new tool, its claims of less power (annotations beside the protocol defaults)
    that contradict its own name or description, worded as
    :func:`~mcp_review.engine.policy.claim_contradictions` words them; empty otherwise."""
    from mcp_review.engine.policy import claim_contradictions
    from mcp_review.engine.status import State

    if t.state is not State.NEW or t.live is None or not t.live.annotations:
        return ()
    bare = ToolDef.from_wire({"name": t.live.name, "inputSchema": {"type": "object"}})
    return claim_contradictions(bare, t.live)


# Groups -----------------------------------------------------------------------------------------


def _text_kind(k: Kind, changes: Sequence[Change]) -> bool:
    return k.rule == TEXT_RULE or any(c.new_text or c.new_text_more for c in changes)


@dataclass(frozen=True, slots=True)
class Member:
    """One tool in a group, with its own changes of the group's kind (old → new values, hints,
    witnesses: a screen shows each member's own)."""

    server: str
    principal: str
    tool: str
    digest: str
    """The live digest (the pinned one for a removed tool) the decision binds to."""
    changes: tuple[Change, ...] = ()
    outcome: Outcome = Outcome.REVIEW
    """What the policy does with this member's changes of the kind."""
    added: tuple[AddedText, ...] = ()
    """The text its changes of the kind add, whole (:func:`added_texts`): what approving the
    group approves, shown in full on every group screen."""
    status: ToolStatus | SurfaceStatus | None = field(default=None, compare=False, repr=False)
    """The member's :class:`~mcp_review.engine.status.ToolStatus` (a
    :class:`~mcp_review.engine.surfaces.SurfaceStatus` for a prompt, resource or template)."""
    subject: str = "tool"
    """``tool``, or the kind of surface (``prompt`` | ``resource`` | ``resource-template``)
    whose name (or URI) :attr:`tool` holds. A group's members are all of one subject."""
    candidate: Any = field(default=None, compare=False, repr=False)
    """For a surface: its :class:`~mcp_review.engine.surface_kinds.SurfaceCandidate` (which
    text changed and how, for the group's label)."""

    @property
    def surface(self) -> bool:
        return self.subject != "tool"

    @property
    def key(self) -> tuple[str, ...]:
        """(server, principal, tool) for a tool; (server, principal, kind, name) for a
        surface, as ``SurfaceStatus.key`` (never equal to a tool's)."""
        if self.surface:
            return (self.server, self.principal, self.subject, self.tool)
        return (self.server, self.principal, self.tool)

    @property
    def name(self) -> str:
        """``server/tool`` (how ``--except`` names a member)."""
        return f"{self.server}/{self.tool}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "server": self.server,
            "principal": self.principal,
            "tool": self.tool,
            "digest": self.digest,
        }
        if self.surface:
            out["subject"] = self.subject
        if self.added:
            out["added_text"] = [a.to_json() for a in self.added]
        return out


def group_id(kind: Kind, members: Iterable[Member]) -> str:
    """The id of the group of ``kind`` with ``members``: a short sha256 over the kind's key
    and each member's (server, principal, tool, live digest), sorted."""
    h = hashlib.sha256(kind.key.encode("utf-8", "surrogatepass"))
    for m in sorted(members, key=lambda m: m.key):
        for part in (*m.key, m.digest, *_ui_parts(m)):
            h.update(b"\x00" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:12]


def _ui_parts(m: Member) -> tuple[str, ...]:
    """The member's served UI resources, outside its digest but approved
    with it: bound into the group id, so a UI changed between ``status --groups`` and
    ``approve --group`` leaves the group stale. Nothing for a tool without any (ids as
    before)."""
    ui = getattr(getattr(m.status, "live", None), "ui", None)
    if not ui:
        return ()
    return tuple(f"ui {r.uri} {r.digest} {r.mime_type} {r.meta} {r.error is not None}" for r in ui)


def _strictest(outcomes: Iterable[Outcome]) -> Outcome:
    return max(outcomes, key=severity_rank, default=Outcome.REVIEW)


@dataclass(frozen=True, slots=True)
class Group:
    """Every pending change of one kind, across tools and servers."""

    id: str
    kind: Kind
    outcome: Outcome
    """The strictest of its members' outcomes."""
    members: tuple[Member, ...]

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def subject(self) -> str:
        """What its members are: ``tool``, ``prompt``, ``resource`` or
        ``resource-template`` (one subject a group)."""
        return self.members[0].subject if self.members else "tool"

    @property
    def counted(self) -> str:
        """Its size in words: ``3 tools``, ``2 prompts``, ``1 resource template``."""
        word = self.subject.replace("-", " ")
        return f"{self.size} {word}{'s' if self.size != 1 else ''}"

    @property
    def label(self) -> str:
        """The kind's line, said more exactly where the members allow it: a text group whose
        changes are all of titles ("title added, no cue") or all rewordings."""
        k = self.kind
        if k.rule == SURFACE_TEXT:
            return _surface_text_label(self)
        if k.rule != TEXT_RULE:
            return k.label
        fields: set[str] = set()
        hows: set[str] = set()
        for m in self.members:
            for c in m.changes:
                f, how = _text_shape(c)
                fields.add(f)
                hows.add(how)
        what = " and ".join(sorted(fields)) if fields and len(fields) <= 2 else "text"
        how = hows.pop() if len(hows) == 1 else "added or reworded"
        cue = "no cue" if not k.cues else "cues: " + ", ".join(k.cues)
        return f"{what} {how}, {cue}"

    def member(self, server: str, tool: str) -> Member | None:
        return next((m for m in self.members if m.server == server and m.tool == tool), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.label,
            "kind_key": self.kind.key,
            "outcome": str(self.outcome),
            "members": [m.to_json() for m in self.members],
        }


def _surface_text_label(g: Group) -> str:
    """``prompt description reworded, no cue``: the subject, which text and how."""
    fields: set[str] = set()
    hows: set[str] = set()
    for m in g.members:
        c = m.candidate
        if isinstance(c, SurfaceCandidate):
            fields |= c.fields
            hows |= c.hows
    k = g.kind
    what = " and ".join(sorted(fields)) if fields and len(fields) <= 2 else "text"
    how = next(iter(hows)) if len(hows) == 1 else "changed"
    cue = "no cue" if not k.cues else "cues: " + ", ".join(k.cues)
    return f"{k.direction} {what} {how}, {cue}"


def _text_shape(c: Change) -> tuple[str, str]:
    """(which text: ``title``/``description``/``text``, ``added``/``reworded``)."""
    params = dict(c.params)
    rule = rule_of(c.rule)
    if rule.text:
        f = params.get("field") or ("title" if rule.title else "description")
        if f not in ("title", "description"):
            f = "text"
        delta = params.get("delta", "")
        how = "added" if delta.startswith("(none) ->") or rule.text_added else ("reworded")
        return f, how
    fields = {t.field for t in c.new_text}
    f = fields.pop() if len(fields) == 1 else "text"
    return (f if f in ("title", "description") else "text"), "added"


@dataclass(frozen=True, slots=True)
class Alone:
    """A tool decided on its own: every change of it, with why it stands alone."""

    server: str
    principal: str
    tool: str
    outcome: Outcome
    cues: tuple[Cue, ...]
    reasons: tuple[AloneReason, ...]
    status: ToolStatus | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.server, self.principal, self.tool)

    @property
    def blocking_cue(self) -> bool:
        return AloneReason.BLOCKING_CUE in self.reasons

    @property
    def flagged(self) -> bool:
        """Visited with the tools alone for review with cues: it has cues, or is a new tool
        whose claim of less power its own words contradict."""
        return bool(self.cues) or AloneReason.NEW_CLAIM in self.reasons

    def to_json(self) -> dict[str, Any]:
        from mcp_review.engine.cues import cues_json

        return {
            "server": self.server,
            "principal": self.principal,
            "tool": self.tool,
            "outcome": str(self.outcome),
            "cues": cues_json(self.cues),
            "reasons": [str(r) for r in self.reasons],
        }


Item = Group | Alone | SurfaceAlone


@dataclass(frozen=True, slots=True)
class Grouping:
    """The decisions a drift needs: groups by kind, and the tools alone, in visiting order
    (:meth:`ordered`)."""

    groups: tuple[Group, ...] = ()
    """In visiting order (:func:`visit_rank`): blocked first, then largest first."""
    alone: tuple[Alone, ...] = ()
    """In visiting order: blocked (blocking cues first), for review with cues, the rest."""
    surfaces: tuple[SurfaceAlone, ...] = ()
    """The prompts, resources and templates waiting for a decision that are decided on their
    own (in visiting order); the others are members of :attr:`groups` (one subject a
    group)."""

    @property
    def decisions(self) -> int:
        """Kinds, alone tools and surfaces needing a human."""
        return len(self.groups) + len(self.alone) + len(self.surfaces)

    def ordered(self) -> list[Item]:
        """The visiting order (:func:`visit_rank`), the one every screen and report reads:
        blocked first, by most severe cue; then the tools alone that need attention; then the
        groups by size (largest first); then the rest of the alone tools."""
        return sorted([*self.alone, *self.surfaces, *self.groups], key=visit_rank)

    def find(self, gid: str) -> Group | None:
        return next((g for g in self.groups if g.id == gid), None)

    def groups_of(self, key: tuple[str, ...]) -> list[Group]:
        """The groups a tool (server, principal, tool) or a surface (server, principal, kind,
        name) is a member of."""
        return [g for g in self.groups if any(m.key == key for m in g.members)]

    def alone_of(self, key: tuple[str, str, str]) -> Alone | None:
        return next((a for a in self.alone if a.key == key), None)

    def surface_of(self, key: tuple[str, str, str, str]) -> SurfaceAlone | None:
        """The decision of the surface ``key`` (server, principal, kind, name), if it waits."""
        return next((a for a in self.surfaces if a.key == key), None)

    def to_json(self) -> dict[str, Any]:
        """``decisions``: every decision in visiting order, a group by its id, a tool alone by
        its name (``check`` and ``status --groups`` in JSON give the same list); ``groups`` and
        ``alone``: each in full, in that order too."""
        order = self.ordered()
        out = {
            "decisions": [decision_json(i) for i in order],
            "groups": [i.to_json() for i in order if isinstance(i, Group)],
            "alone": [i.to_json() for i in order if isinstance(i, Alone)],
        }
        if self.surfaces:  # only then: reports without prompts or resources stay as before
            out["surfaces_alone"] = [i.to_json() for i in order if isinstance(i, SurfaceAlone)]
        return out

    def ordered_alone(self) -> list[Alone]:
        return [a for a in self.ordered() if isinstance(a, Alone)]


def decision_json(item: Item) -> dict[str, Any]:
    """One entry of the ``decisions`` list: ``{"group": id, "kind", "outcome", "size"}``,
    ``{"alone": "server/tool", "server", "principal", "tool", "outcome"}``, or for a prompt,
    resource or template ``{"surface": "server/(kind) name", "subject", "server", "principal",
    "name", "outcome"}``."""
    if isinstance(item, SurfaceAlone):
        return {
            "surface": f"{item.server}/({item.kind}) {item.name}",
            "subject": item.kind,
            "server": item.server,
            "principal": item.principal,
            "name": item.name,
            "outcome": str(item.outcome),
        }
    if isinstance(item, Group):
        return {
            "group": item.id,
            "kind": item.label,
            "outcome": str(item.outcome),
            "size": item.size,
        }
    return {
        "alone": f"{item.server}/{item.tool}",
        "server": item.server,
        "principal": item.principal,
        "tool": item.tool,
        "outcome": str(item.outcome),
    }


_NO_CUE = 1000


def _cue_rank(kinds: Iterable[str]) -> int:
    from mcp_review.engine.rules.cues import SEVERITY

    return min((SEVERITY.index(k) for k in kinds if k in SEVERITY), default=_NO_CUE)


def visit_rank(item: Item) -> tuple[int, int, int, int, str, str, str]:
    """The engine's one visiting order, which the app's rows, ``n``, ``G``,
    ``status``, ``status --groups`` and ``check`` in every format all read:

    0. blocked (tools alone, prompts, resources and templates, and blocked groups), the most
       severe cue first (engine/cues.py's order; a blocking cue before an annotation alone), a
       tool before a surface before a group at one rank;
    1. needing attention: tools alone for review with a cue at level attention
       (:attr:`AloneReason.ATTENTION`), then the others that carry cues or whose claim its own
       words contradict (:attr:`Alone.flagged`), the most severe cue first;
    2. the groups that wait for review, largest first;
    3. the other tools alone, then the other prompts, resources and templates.

    Ties go by name (server, principal, tool) or by label and id."""
    if isinstance(item, Group):
        band = 0 if item.outcome is Outcome.BLOCK else 2
        cue = _cue_rank(item.kind.cues) if band == 0 else 0
        return (band, cue, 1, -item.size, item.label, item.id, "")
    if item.outcome is Outcome.BLOCK:
        band = 0
    elif item.flagged:
        band = 1
    else:
        band = 3
    if band == 3:
        cue = 0
    else:
        from mcp_review.engine.cues import severity

        cue = min((severity(c) for c in item.cues), default=_NO_CUE)
        if band == 0 and item.blocking_cue:
            cue = min(cue, _NO_CUE - 1)
        attention = (
            item.attention
            if isinstance(item, SurfaceAlone)
            else AloneReason.ATTENTION in item.reasons
        )
        if band == 1 and not attention:
            cue += 2 * _NO_CUE  # a cue at level attention before other cues
    if isinstance(item, SurfaceAlone):
        # After a tool at the same rank (the tools are what the model calls), before a group.
        return (band, cue, 0, 1, item.server, item.principal, f"({item.kind}) {item.name}")
    return (band, cue, 0, 0, item.server, item.principal, item.tool)


def group_report(report: StatusReport | Iterable[ToolStatus]) -> Grouping:
    """Group the tools of ``report`` that need a decision (``review`` or ``block``) by kind;
    the ones that stand alone apart. Tools needing nothing (pinned, denied, auto-approved,
    waived) are in neither. The prompts, resources and templates of a report's servers that
    wait for a decision are grouped by kind by the same rules, in groups of their own subject
    (a group of prompts, of resources, of templates), or decided alone
    (:attr:`Grouping.surfaces`)."""
    from mcp_review.engine.status import Awaiting

    tools = report.tools if hasattr(report, "tools") else list(report)
    alone: list[Alone] = []
    pending: list[tuple[ToolStatus, dict[Kind, list[Change]]]] = []

    def set_apart(t: ToolStatus, reasons: tuple[AloneReason, ...]) -> None:
        alone.append(
            Alone(t.server, t.principal, t.tool, t.policy.outcome, tuple(t.cues), reasons, t)
        )

    for t in tools:
        if t.awaiting is not Awaiting.REVIEW:
            continue
        reasons = alone_reasons(t)
        kinds = {} if reasons else pending_kinds(t)
        if kinds and _too_long(t, kinds):
            reasons = (AloneReason.LONG_TEXT,)
            kinds = {}
        if not reasons and not kinds:
            # Nothing to group (every kind approved but the pin not moved, say): decided
            # alone, as a plain approve does.
            reasons = (AloneReason.NO_KIND,)
        if reasons:
            set_apart(t, reasons)
        else:
            pending.append((t, kinds))
    # A tool with a kind no other tool shares is decided whole; others may then be left with
    # a kind nobody shares: repeat until every kind left has two members or more.
    while True:
        count: dict[Kind, int] = {}
        for _, kinds in pending:
            for k in kinds:
                count[k] = count.get(k, 0) + 1
        keep = []
        for t, kinds in pending:
            if any(count[k] < 2 for k in kinds):
                set_apart(t, (AloneReason.UNSHARED,))
            else:
                keep.append((t, kinds))
        if len(keep) == len(pending):
            break
        pending = keep
    by_kind: dict[Kind, list[Member]] = {}
    for t, kinds in pending:
        tier = t.policy.tier or "tiered"
        digest = t.live_digest or (t.pin.digest if t.pin is not None else "")
        for k, changes in kinds.items():
            outcome = (
                Outcome.REVIEW
                if not changes
                else _strictest(change_outcome(tier, c) for c in changes)
            )
            if k.detail == REVERSED:
                outcome = Outcome.BLOCK
            added = (added_texts(t, changes) or ()) if _text_kind(k, changes) else ()
            by_kind.setdefault(k, []).append(
                Member(
                    t.server, t.principal, t.tool, digest, tuple(changes), outcome, added, status=t
                )
            )
    surfaces = _surface_members(report, by_kind)
    groups = []
    for k, members in by_kind.items():
        ms = tuple(sorted(members, key=lambda m: m.key))
        groups.append(Group(group_id(k, ms), k, _strictest(m.outcome for m in ms), ms))
    groups.sort(key=visit_rank)
    alone.sort(key=visit_rank)
    return Grouping(tuple(groups), tuple(alone), tuple(sorted(surfaces, key=visit_rank)))


def _surface_members(report: Any, by_kind: dict[Kind, list[Member]]) -> list[SurfaceAlone]:
    """The prompts, resources and templates of ``report``'s servers that wait for a decision:
    each either a member of its kind's group (added to ``by_kind``: a kind names its subject,
    so a group holds one subject, never tools) or alone (returned), by the rules tools
    follow (engine/surface_kinds.py ``surface_review``): a kind only one of them has is
    decided alone."""
    alone: list[SurfaceAlone] = []
    pending: dict[Kind, list[SurfaceCandidate]] = {}
    for s in getattr(report, "servers", ()):
        for x in s.surfaces:
            if not x.needs_attention:
                continue
            r = surface_review(x)
            if isinstance(r, SurfaceAlone):
                alone.append(r)
                continue
            k = Kind(r.rule, ChangeClass.TRUST, x.kind, "", cues=r.cues)
            pending.setdefault(k, []).append(r)
    for k, cands in pending.items():
        if len(cands) < 2:
            alone += [set_apart(c.status, SurfaceReason.UNSHARED) for c in cands]
            continue
        by_kind[k] = [
            Member(
                c.status.server,
                c.status.principal,
                c.status.name,
                c.status.live_digest or "",
                (),
                c.status.policy.outcome,
                tuple(AddedText(p, t) for p, t in c.added),
                status=c.status,
                subject=c.status.kind,
                candidate=c,
            )
            for c in cands
        ]
    return alone


def _too_long(t: ToolStatus, kinds: dict[Kind, list[Change]]) -> bool:
    """Whether the text ``t``'s text kinds add is too long to show whole in a group (over
    :data:`SHOWN_WHOLE` characters, or more texts than the changes carry)."""
    total = 0
    for k, changes in kinds.items():
        if not _text_kind(k, changes):
            continue
        added = added_texts(t, changes)
        if added is None:
            return True
        total += sum(len(a.text) for a in added)
    return total > SHOWN_WHOLE


def member_name(text: str) -> tuple[str, str]:
    """``SERVER/TOOL`` (``--except``) split at the first ``/`` (a tool name may hold more)."""
    server, sep, tool = text.partition("/")
    if not sep or not server or not tool:
        raise ValueError(f"expected SERVER/TOOL, got {text!r}")
    return server, tool
