"""The pin records: one decision each (:class:`Pin` for a tool, :class:`KindsPin` for a
tool's approved kinds, plus the instructions and surface tables' rows), how a decision is made
(:func:`make_pin`, :func:`make_instructions_pin`, :func:`with_decision`) and how it is written to
the audit log (:func:`audit_record`). The file of them in memory is :mod:`mcp_review.engine.pins`
(which re-exports these names); the layout of the file is described there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from mcp_review.engine.candidate import ALSO_KEY
from mcp_review.engine.clock import current_user, now_utc
from mcp_review.engine.errors import InputError
from mcp_review.engine.instructions import InstructionsPin, instructions_digest
from mcp_review.engine.model import (
    DIGEST_SCHEME,
    DIGEST_SCHEMES,
    HASHED_FIELDS,
    ToolDef,
    digest_of,
    digest_under,
)
from mcp_review.engine.pintoml import layout, q, table_path
from mcp_review.engine.surfaces import TABLE as SURFACE_TABLE
from mcp_review.engine.surfaces import SurfacePin
from mcp_review.engine.ui_resource import PIN_KEY as UI_PIN_KEY
from mcp_review.engine.ui_resource import from_toml as ui_from_toml
from mcp_review.engine.ui_resource import toml_problem as ui_toml_problem

VERSION = 2
"""Pin-file format version written by this mcp-review. Newer files are refused.

Version 2 stores each ``definition`` as indented, key-sorted JSON in a TOML multi-line string
(one JSON line per TOML line, so a re-pin diffs as the changed lines); version 1 stored it as
one line of compact JSON. Both are read; a version 1 file is rewritten as version 2 on the next
save (:attr:`SaveResult.upgraded_from`). mcp-review releases that only know version 1 refuse a
version 2 file (their loader refuses any newer ``version``) and leave it unchanged."""

DEFAULT_PATH = "mcp-pins.toml"
DEFAULT_PRINCIPAL = "default"


class Decision(StrEnum):
    APPROVED = "approved"
    DENIED = "denied"


PinKey = tuple[str, str, str]
"""(server local name, principal, tool name)."""


def _with_ui(tool: ToolDef, pin: Pin) -> ToolDef:
    """``tool`` carrying the UI resources approved with ``pin`` (none kept: as it is)."""
    records = ui_from_toml(pin.extra.get(UI_PIN_KEY))
    return tool if records is None else replace(tool, ui=records)


def definition_text(tool: ToolDef) -> str:
    """Lossless JSON text of a definition: sorted keys, indented by two spaces, ASCII-escaped.

    One key or array item per line, so a changed definition diffs (in git, in a pull request)
    as the lines that changed. Not number-normalised (``1.0`` stays ``1.0``) so the text is
    exactly what was approved; ASCII escaping keeps hidden characters visible as ``\\u202e``
    in the file and in git diffs, carries lone surrogates that TOML (UTF-8) could not hold, and
    keeps every newline or control character of a string inside its JSON escape (so each
    string stays on its line).
    """
    return layout(tool.wire)


@dataclass(frozen=True, slots=True)
class Pin:
    """One decision about one tool under one (server, principal)."""

    server: str
    principal: str
    tool: str
    decision: Decision
    digest: str
    definition: str
    """JSON text of the decided definition (see :func:`definition_text`)."""
    decided_at: str
    decided_by: str
    digest_scheme: int = DIGEST_SCHEME
    hashed_fields: tuple[str, ...] = HASHED_FIELDS
    note: str = ""
    server_version: str | None = None
    protocol_version: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Keys this version does not know, kept so a write never drops them."""

    @property
    def key(self) -> PinKey:
        return (self.server, self.principal, self.tool)

    @property
    def approved(self) -> bool:
        return self.decision is Decision.APPROVED

    def tool_def(self) -> ToolDef:
        """The decided definition, parsed (only needed when the live digest differs)."""
        from mcp_review.engine.canonical import loads

        try:
            return _with_ui(
                ToolDef.from_wire(loads(self.definition, source="pin"), source="pin"), self
            )
        except InputError:
            pass
        # Only for the error: the table's path is worded (three quoted names) and the same
        # parse fails again, naming it.
        where = f"pin {table_path(self.key)}"
        data = loads(self.definition, source=where)
        return ToolDef.from_wire(data, source=where)

    def integrity_problem(self) -> str | None:
        """Why this pin cannot be trusted, or None when its digest is the digest of its stored
        definition under the pin's own scheme and hashed fields, and the definition is the
        definition of the tool it is filed under.

        This catches a hand-edited ``digest`` or ``definition`` and corruption; it cannot catch
        someone who rewrites both consistently (docs/security.md).
        """
        from mcp_review.engine.canonical import loads

        try:
            data = loads(self.definition, source="definition")
        except InputError as e:
            return f"its stored definition is not valid JSON ({e.detail})"
        if not isinstance(data, dict):
            return "its stored definition is not a JSON object"
        if data.get("name") != self.tool:
            return "its stored definition is of another tool (" + q(str(data.get("name"))) + ")"
        if type(self.digest_scheme) is not int or self.digest_scheme not in DIGEST_SCHEMES:
            try:
                digest_under({}, self.digest_scheme, ())  # the scheme first: its own message
            except ValueError as e:
                return f"{e}; it cannot be verified (upgrade mcp-review)"
        try:
            actual = digest_under(data, self.digest_scheme, self.hashed_fields)
        except (ValueError, TypeError) as e:
            return f"its stored definition cannot be hashed ({e})"
        if actual != self.digest:
            return (
                "its digest is not the digest of its stored definition (the file was edited "
                "by hand or is corrupted)"
            )
        if UI_PIN_KEY in self.extra:
            return ui_toml_problem(self.extra[UI_PIN_KEY])
        return None

    def current_digest(self) -> str:
        """The digest under this mcp-review's scheme: the stored one when the scheme and hashed
        fields match, else recomputed from the stored definition (a scheme change migrates
        instead of re-quarantining every tool)."""
        if self.digest_scheme == DIGEST_SCHEME and tuple(self.hashed_fields) == HASHED_FIELDS:
            return self.digest
        return digest_of(self.tool_def().wire)

    def to_toml(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "decision": str(self.decision),
            "digest": self.digest,
            "digest_scheme": self.digest_scheme,
            "hashed_fields": list(self.hashed_fields),
            "decided_at": self.decided_at,
            "decided_by": self.decided_by,
            "note": self.note or None,
            "server_version": self.server_version,
            "protocol_version": self.protocol_version,
            "definition": self.definition,
        }
        out = {k: v for k, v in d.items() if v is not None}
        for k in sorted(self.extra):
            out.setdefault(k, self.extra[k])
        return out


@dataclass(frozen=True, slots=True)
class KindApproval:
    """One kind (engine/kinds.py) approved on a tool that still has other kinds undecided."""

    kind: str
    """The kind's key (``Kind.key``)."""
    label: str
    """The kind in words, for a reader of the file."""
    group: str
    """The id of the group it was approved in."""
    decided_at: str
    decided_by: str
    note: str = ""

    def to_toml(self) -> dict[str, Any]:
        d = {
            "kind": self.kind,
            "label": self.label,
            "group": self.group,
            "decided_at": self.decided_at,
            "decided_by": self.decided_by,
        }
        if self.note:
            d["note"] = self.note
        return d


@dataclass(frozen=True, slots=True)
class KindsPin:
    """The kinds approved so far on one live definition of a tool (review by kind):
    bound to that definition's digest, so they stop counting the moment it changes. Written as
    ``[servers.S.principals.P.kinds."TOOL"]`` with ``digest`` and ``approved`` (one inline
    table per kind); dropped when the tool's own decision is recorded (its pin moves to the
    live definition, or it is denied or forgotten)."""

    server: str
    principal: str
    tool: str
    digest: str
    approved: tuple[KindApproval, ...] = ()

    @property
    def key(self) -> PinKey:
        return (self.server, self.principal, self.tool)

    @property
    def kind_keys(self) -> frozenset[str]:
        return frozenset(a.kind for a in self.approved)

    def with_kind(self, a: KindApproval) -> KindsPin:
        """This record with ``a`` added (replacing an approval of the same kind)."""
        kept = tuple(x for x in self.approved if x.kind != a.kind)
        return replace(self, approved=tuple(sorted((*kept, a), key=lambda x: x.kind)))

    def to_toml(self) -> dict[str, Any]:
        return {"digest": self.digest, "approved": [a.to_toml() for a in self.approved]}


def kinds_approved_on(kp: KindsPin | None, digest: str | None) -> frozenset[str]:
    """The kinds approved so far on the live definition ``digest`` (``kp``: the tool's
    record, if any): none when the record was made on another definition. The one reading of
    ``PinFile.kinds``: the status (``ToolStatus.approved_kinds``) and a group decision ask it."""
    if kp is None or kp.digest != digest:
        return frozenset()
    return kp.kind_keys


def make_instructions_pin(
    server: str,
    text: str,
    decision: Decision | str,
    *,
    principal: str = DEFAULT_PRINCIPAL,
    by: str | None = None,
    note: str = "",
    server_version: str | None = None,
    at: str | None = None,
) -> InstructionsPin:
    """A pin binding ``decision`` to exactly these instructions (digest + the text)."""
    return InstructionsPin(
        server=server,
        principal=principal,
        decision=str(Decision(decision)),
        digest=instructions_digest(text),
        text=text,
        decided_at=at or now_utc(),
        decided_by=by or current_user(),
        note=note,
        server_version=server_version,
    )


def _decided_toml(p: InstructionsPin | SurfacePin, field: str, value: Any) -> dict[str, Any]:
    """A decided record's table (instructions or a surface): the decision's fields in a fixed
    order, then ``field`` (what was decided on), then the keys this version does not know."""
    d: dict[str, Any] = {
        "decision": p.decision,
        "digest": p.digest,
        "decided_at": p.decided_at,
        "decided_by": p.decided_by,
        "note": p.note or None,
        "server_version": p.server_version,
        field: value,
    }
    out = {k: v for k, v in d.items() if v is not None}
    for k in sorted(p.extra):
        out.setdefault(k, p.extra[k])
    return out


def instructions_toml(ip: InstructionsPin) -> dict[str, Any]:
    return _decided_toml(ip, "text", ip.text)


def principal_table(t: dict[str, Any]) -> dict[str, Any]:
    """A principal's table: its instructions first, then its tools (a fixed order)."""
    out: dict[str, Any] = {}
    if "instructions" in t:
        out["instructions"] = t["instructions"]
    if t.get("tools"):
        out["tools"] = t["tools"]
    if t.get("kinds"):
        out["kinds"] = t["kinds"]
    for table in SURFACE_TABLE.values():
        if t.get(table):
            out[table] = t[table]
    return out


def surface_toml(sp: SurfacePin) -> dict[str, Any]:
    return _decided_toml(sp, "definition", sp.definition)


def make_pin(
    server: str,
    tool: ToolDef,
    decision: Decision | str,
    *,
    principal: str = DEFAULT_PRINCIPAL,
    by: str | None = None,
    note: str = "",
    server_version: str | None = None,
    protocol_version: str | None = None,
    at: str | None = None,
) -> Pin:
    """A pin binding ``decision`` to exactly this definition (digest + lossless JSON), and
    to the UI resources read with it (``tool.ui``, engine/ui_resource.py)."""
    return Pin(
        extra={} if tool.ui is None else {UI_PIN_KEY: [r.to_toml() for r in tool.ui]},
        server=server,
        principal=principal,
        tool=tool.name,
        decision=Decision(decision),
        digest=tool.digest,
        definition=definition_text(tool),
        decided_at=at or now_utc(),
        decided_by=by or current_user(),
        note=note,
        server_version=server_version,
        protocol_version=protocol_version,
    )


def audit_record(
    *,
    who: str,
    server: str,
    principal: str | None,
    tool: str | None,
    event: str,
    decision: str | None,
    ts: str | None = None,
    why: str = "",
    source: str = "",
    **more: Any,
) -> dict[str, Any]:
    """One audit log record (key order fixed so the log reads the same everywhere);
    :mod:`mcp_review.store.audit` appends it beside the pin file."""
    rec: dict[str, Any] = {
        "ts": ts or now_utc(),
        "who": who,
        "event": event,
        "server": server,
        "principal": principal,
        "tool": tool,
    }
    if decision is not None:
        rec["decision"] = decision
    rec.update(more)
    rec["why"] = why
    rec["source"] = source
    return rec


def with_decision(
    pin: Pin, decision: Decision, *, by: str | None = None, note: str = "", at: str | None = None
) -> Pin:
    """The same definition under a new decision (deny a pinned tool that is not being served).

    A new decision: who, when and ``note`` are this decision's own. The old decision's note is
    never carried over (it explained the old decision, and would become the new one's audit
    ``why``)."""
    # A new decision: the old one's signatures (engine/signed.py) never carry over.
    extra = {k: v for k, v in pin.extra.items() if k not in ("previous", "seen", "signatures")}
    if pin.digest_scheme != DIGEST_SCHEME or tuple(pin.hashed_fields) != HASHED_FIELDS:
        # A decision moves the pin to the current digest scheme (the same definition, its
        # digest recomputed): a pin of an older scheme is rewritten when its tool is decided.
        pin = replace(
            pin,
            digest=pin.current_digest(),
            digest_scheme=DIGEST_SCHEME,
            hashed_fields=HASHED_FIELDS,
        )
    if decision is Decision.DENIED and ALSO_KEY in extra:
        # A denial denies the tool: no definition kept from an upgrade preview
        # (engine/candidate.py) stays approved beside it.
        extra = {k: v for k, v in extra.items() if k != ALSO_KEY}
    return replace(
        pin,
        decision=decision,
        decided_by=by or current_user(),
        decided_at=at or now_utc(),
        note=note,
        extra=extra,
    )
