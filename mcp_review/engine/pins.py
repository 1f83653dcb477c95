"""Operator decisions in memory: the pin file's model (``mcp-pins.toml``) and its tables.
The TOML text is :mod:`mcp_review.engine.pintoml`'s, reading the tables back into this model
:mod:`mcp_review.engine.pinread`'s (:func:`~mcp_review.engine.pinread.parse_pins`); on disk
(lock, atomic write, merge, audit) in :mod:`mcp_review.store.pinfile`.

Layout (``version`` first; every table sorted by key, so one decision is a small git diff)::

    version = 2

    [servers."github"]
    policy = "tiered"                       # optional: strict | tiered | compatible

    [servers."github".tool_policies]        # optional per-tool overrides of the server tier
    "delete_repo" = "strict"

    [servers."github".principals."default".tools."create_issue"]
    decision = "approved"                   # approved | denied
    digest = "sha256:…"                     # digest of `definition` under digest_scheme
    digest_scheme = 3                       # 3: the whole tool as served
    hashed_fields = ["*"]                   # 1 and 2 list the fields they hashed
    decided_at = "2026-11-29T22:00:00Z"     # UTC
    decided_by = "alice"
    note = "…"                              # optional
    server_version = "1.2.0"                # optional (as reported when decided)
    protocol_version = "2025-11-25"         # optional
    definition = '''
    {
      "description": "Create an issue",
      "inputSchema": {
        …
      },
      "name": "create_issue"
    }'''                                    # the decided definition: sorted, indented JSON,
                                            # ASCII-escaped, one line per key (see toml_multiline)

    [servers."github".principals."default".instructions]   # the server's instructions
    decision = "approved"                   # (engine/instructions.py): digest, decided_at,
    digest = "sha256:…"                     # decided_by, note, server_version, and the
    text = '''…'''                           # text as a multi-line string

    [servers."github".principals."default".prompts."summarise"]   # (engine/surfaces.py):
    decision = "approved"                   # also .resources."URI" and
    digest = "sha256:…"                     # .resource_templates."NAME"; the object as
    definition = '''…'''                     # served, laid out as a tool's definition

The key is (server local name from the config, principal, tool name); nothing the server says
about itself. No config values (commands, env, headers, URLs) are ever stored.

Safety (:mod:`mcp_review.store.pinfile`): writes are atomic (temp file in the same folder, fsync, ``os.replace``, fsync of the
folder) and happen under an exclusive ``flock`` on ``<pin file>.lock``. A save re-reads the file
under the lock and replays this session's decisions onto what is on disk now, so concurrent
writers lose nothing (last writer wins per tool). A file that does not parse, or that has a newer
``version``, is refused with an :class:`InputError` and never overwritten. Every decision is also
appended to the JSONL audit log (see :mod:`mcp_review.store.audit`).

Every pin is verified on load: its digest is recomputed from its stored definition under its
own ``digest_scheme`` and ``hashed_fields`` (:meth:`Pin.integrity_problem`); a pin that does not
verify is an InputError naming the tool, or (``allow_unverified``, the app and the proxy) kept
aside in ``PinFile.unverified``, never trusted. A pin file may be a symbolic link only to a
file that parses as a pin file (:func:`check_link_target`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from mcp_review.engine.candidate import ALSO_KEY
from mcp_review.engine.clock import current_user, now_utc
from mcp_review.engine.errors import InputError
from mcp_review.engine.instructions import SUBJECT, InstructionsPin, instructions_digest
from mcp_review.engine.model import (
    DIGEST_SCHEME,
    DIGEST_SCHEMES,
    HASHED_FIELDS,
    ToolDef,
    digest_of,
    digest_under,
)
from mcp_review.engine.pintoml import layout, q, render, table_path, utf8_ok
from mcp_review.engine.policy import TIERS
from mcp_review.engine.surfaces import TABLE as SURFACE_TABLE
from mcp_review.engine.surfaces import SurfaceKey, SurfacePin
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


def _instructions_toml(ip: InstructionsPin) -> dict[str, Any]:
    d: dict[str, Any] = {
        "decision": ip.decision,
        "digest": ip.digest,
        "decided_at": ip.decided_at,
        "decided_by": ip.decided_by,
        "note": ip.note or None,
        "server_version": ip.server_version,
        "text": ip.text,
    }
    out = {k: v for k, v in d.items() if v is not None}
    for k in sorted(ip.extra):
        out.setdefault(k, ip.extra[k])
    return out


def _principal_table(t: dict[str, Any]) -> dict[str, Any]:
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


def _surface_toml(sp: SurfacePin) -> dict[str, Any]:
    d: dict[str, Any] = {
        "decision": sp.decision,
        "digest": sp.digest,
        "decided_at": sp.decided_at,
        "decided_by": sp.decided_by,
        "note": sp.note or None,
        "server_version": sp.server_version,
        "definition": sp.definition,
    }
    out = {k: v for k, v in d.items() if v is not None}
    for k in sorted(sp.extra):
        out.setdefault(k, sp.extra[k])
    return out


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


# The in-memory file -------------------------------------------------------------------------


ANY: Any = type("Any", (), {"__repr__": lambda self: "ANY", "__slots__": ()})()
"""An op's ``expect`` when it holds whatever is on disk (no compare-and-set)."""


def same_decision(
    a: Pin | InstructionsPin | SurfacePin | None, b: Pin | InstructionsPin | SurfacePin | None
) -> bool:
    """Whether ``a`` and ``b`` are the same decision: the same decision about the same digest,
    by the same decider at the same time (or both no decision)."""
    if a is None or b is None:
        return a is b
    return (str(a.decision), a.digest, a.decided_by, a.decided_at) == (
        str(b.decision),
        b.digest,
        b.decided_by,
        b.decided_at,
    )


def describe(pin: Pin | InstructionsPin | SurfacePin | None) -> str:
    """A decision in words: ``approved by alice at 2026-…Z (note)``; ``not pinned``."""
    if pin is None:
        return "not pinned"
    note = f" ({pin.note})" if pin.note else ""
    return f"{pin.decision} by {pin.decided_by} at {pin.decided_at}{note}"


class ChangedMeanwhile(Exception):
    """A compare-and-set refused under the pin file's lock: the decision (or pin) a mutation
    was made against is no longer the one on disk. Nothing was written."""

    def __init__(
        self,
        key: PinKey,
        expected: Pin | InstructionsPin | SurfacePin | None,
        current: Pin | InstructionsPin | SurfacePin | None,
        by: str | None = None,
        at: str | None = None,
    ) -> None:
        self.key = key
        self.expected = expected
        self.current = current
        self.by = by if by is not None else (current.decided_by if current else None)
        """Who made the decision on disk (for a pin dropped: the audit log's ``who``)."""
        self.at = at if at is not None else (current.decided_at if current else None)
        self.doing = ""
        """What was refused, in words (``cannot undo denied of read_graph``), set by the
        caller; empty: a decision."""
        super().__init__(key)

    @property
    def subject(self) -> str:
        s, p, t = self.key
        return f"{s}/{p}/{t}" if t else f"{s}/{p} instructions"

    @property
    def now(self) -> str:
        """What the pin file holds now, in words (who decided it, when, why)."""
        now = describe(self.current)
        if self.current is None and self.by:
            now += f" (dropped by {self.by}" + (f" at {self.at})" if self.at else ")")
        return now

    def __str__(self) -> str:
        from mcp_review.engine.hidden import safe_text

        now = self.now
        said = (
            f"{self.doing}: {self.subject} was changed since by {self.by or 'another writer'}"
            if self.doing
            else f"{self.subject} changed on disk since this screen was computed"
        )
        return safe_text(f"{said}; now {now}; nothing written")


@dataclass(slots=True)
class _Op:
    kind: str  # "decide" | "forget" | "policy" | "instructions" | "forget-instructions" | "kinds"
    pin: Pin | None = None
    kpin: KindsPin | None = None
    """For ``kinds``: the record after this approval."""
    more: dict[str, Any] = field(default_factory=dict)
    """Audit fields of this op beyond the usual ones (``group``: the group it was decided in)."""
    ipin: InstructionsPin | None = None
    spin: SurfacePin | None = None
    """For ``surface``: the decision about a prompt, resource or template."""
    skey: SurfaceKey | None = None
    """For ``forget-surface``: the surface whose decision is dropped."""
    key: PinKey | None = None
    server: str | None = None
    tool: str | None = None
    tier: str | None = None
    who: str = ""
    why: str = ""
    source: str = ""
    expect: Any = ANY
    """The decision this mutation was made against (compare-and-set): the save refuses with
    :class:`ChangedMeanwhile` when another is on disk. :data:`ANY`: no check."""

    @property
    def target(self) -> PinKey:
        """The key this op decides (``(server, principal, "")`` for instructions)."""
        if self.pin is not None:
            return self.pin.key
        if self.ipin is not None:
            return (self.ipin.server, self.ipin.principal, "")
        if self.kpin is not None:
            return self.kpin.key
        sk = self.spin.key if self.spin is not None else self.skey
        if sk is not None:  # in words only (ChangedMeanwhile): PinFile.current_of looks it up
            return (sk[0], sk[1], f"{sk[2]} {sk[3]}")
        assert self.key is not None
        return self.key


@dataclass(slots=True)
class Conflict:
    """A decision this session replaced that another writer made after we read the file."""

    key: PinKey
    theirs: Pin | None
    ours: Pin | None


@dataclass(slots=True)
class PinFile:
    """All decisions and policy settings of one pin file.

    Mutate with :meth:`decide`, :meth:`forget` and :meth:`set_policy`; persist with
    :func:`save_pins`, which replays exactly those mutations onto the file as it is on disk at
    save time (so nothing another process wrote meanwhile is lost).
    """

    path: str | None = None
    pins: dict[PinKey, Pin] = field(default_factory=dict)
    server_policy: dict[str, str] = field(default_factory=dict)
    tool_policy: dict[tuple[str, str], str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Top-level keys this version does not know (kept on write)."""
    instructions: dict[tuple[str, str], InstructionsPin] = field(default_factory=dict)
    """Decisions about server instructions, by (server, principal) (engine/instructions.py)."""
    unverified_instructions: dict[tuple[str, str], tuple[InstructionsPin, str]] = field(
        default_factory=dict
    )
    """Instructions pins whose digest does not verify: never trusted, written back as they
    were until a new decision replaces them."""
    unverified: dict[PinKey, tuple[Pin, str]] = field(default_factory=dict)
    """Pins whose digest does not verify against their stored definition, with the reason.
    They are not in :attr:`pins` (nothing trusts them: the tool reads as unpinned) but are
    written back as they were until a new decision or ``forget`` replaces them."""
    surfaces: dict[SurfaceKey, SurfacePin] = field(default_factory=dict)
    """Decisions about prompts, resources and resource templates (engine/surfaces.py), by
    (server, principal, kind, name or URI)."""
    unverified_surfaces: dict[SurfaceKey, tuple[SurfacePin, str]] = field(default_factory=dict)
    """Surface pins whose digest does not verify: never trusted, written back as they were."""
    kinds: dict[PinKey, KindsPin] = field(default_factory=dict)
    """Kinds approved on tools that still have others undecided (review by kind), by tool."""
    read_bytes: bytes | None = None
    """The bytes this state was parsed from (None: the file did not exist)."""
    version: int = VERSION
    """The format version of the file as read (an older one is rewritten as :data:`VERSION`
    on the next save)."""
    sign: Callable[[Any, Any], Any] | None = None
    """Signs each decision when it is saved (``services.signing.Signer.sign_pin``:
    given the pin and the decision it replaces on disk); None: decisions are not signed."""
    _ops: list[_Op] = field(default_factory=list)
    _base: dict[PinKey, Pin] = field(default_factory=dict)
    """The pins as read (to tell another writer's change from ours when merging)."""

    # Queries ------------------------------------------------------------------------------
    def get(self, server: str, principal: str, tool: str) -> Pin | None:
        return self.pins.get((server, principal, tool))

    def for_server(self, server: str, principal: str) -> dict[str, Pin]:
        """Pins of one (server, principal), by tool name."""
        return {k[2]: p for k, p in self.pins.items() if k[0] == server and k[1] == principal}

    def find_tool(self, server: str, tool: str) -> list[Pin]:
        """Pins of ``tool`` on ``server`` under any principal."""
        return [p for k, p in self.pins.items() if k[0] == server and k[2] == tool]

    def tier_for(self, server: str, tool: str | None = None, default: str | None = None) -> str:
        """Effective tier: per-tool override > server policy here > ``default`` > tiered."""
        if tool is not None and (server, tool) in self.tool_policy:
            return self.tool_policy[(server, tool)]
        return self.server_policy.get(server) or default or "tiered"

    @property
    def pending(self) -> int:
        """Mutations not yet saved."""
        return len(self._ops)

    # Mutations ----------------------------------------------------------------------------
    def current(self, key: PinKey) -> Pin | InstructionsPin | None:
        """The decision held for ``key`` (``(server, principal, "")``: the instructions')."""
        if key[2] == "":
            return self.instructions.get((key[0], key[1]))
        return self.pins.get(key)

    def current_of(self, op: _Op) -> Pin | InstructionsPin | SurfacePin | None:
        """The decision held for what ``op`` decides."""
        sk = op.spin.key if op.spin is not None else op.skey
        if sk is not None:
            return self.surfaces.get(sk)
        return self.current(op.target)

    def decide_surface(
        self, spin: SurfacePin, *, why: str = "", source: str = "", expect: Any = ANY
    ) -> None:
        """Record a decision about a prompt, resource or resource template (replaces any for
        the same key)."""
        op = _Op(
            "surface", spin=spin, who=spin.decided_by, why=why or spin.note, source=source,
            expect=expect,
        )  # fmt: skip
        self._apply(op)
        self._ops.append(op)

    def forget_surface(
        self, key: SurfaceKey, *, who: str | None = None, why: str = "", source: str = ""
    ) -> None:
        """Drop the decision about a prompt, resource or template (it reads as new again)."""
        op = _Op("forget-surface", skey=key, who=who or current_user(), why=why, source=source)
        self._apply(op)
        self._ops.append(op)

    def decide(
        self,
        pin: Pin,
        *,
        why: str = "",
        source: str = "",
        expect: Any = ANY,
        group: str | None = None,
    ) -> None:
        """Record a decision (replaces any pin with the same key, and drops the kinds approved
        on the tool so far). ``why`` goes to the audit log (defaults to the pin's note);
        ``source`` says which command or policy made it; ``expect``: the decision it replaces,
        checked when saved (compare-and-set); ``group``: the id of the group it was decided in
        (review by kind), written in the audit record."""
        op = _Op(
            "decide",
            pin=pin,
            who=pin.decided_by,
            why=why or pin.note,
            source=source,
            expect=expect,
            more={"group": group} if group else {},
        )
        self._apply(op)
        self._ops.append(op)

    def approve_kind(
        self,
        key: PinKey,
        digest: str,
        approval: KindApproval,
        *,
        why: str = "",
        source: str = "",
    ) -> None:
        """Record ``approval`` of one kind on the tool ``key`` whose live definition has
        ``digest`` (the tool keeps other kinds undecided). Approvals bound to another digest
        are dropped: they were made on a definition no longer served."""
        cur = self.kinds.get(key)
        if cur is None or cur.digest != digest:
            cur = KindsPin(*key, digest=digest)
        op = _Op(
            "kinds",
            kpin=cur.with_kind(approval),
            who=approval.decided_by,
            why=why or approval.note,
            source=source,
            more={"group": approval.group, "kind": approval.label, "kind_key": approval.kind},
        )
        self._apply(op)
        self._ops.append(op)

    def decide_instructions(
        self, ipin: InstructionsPin, *, why: str = "", source: str = "", expect: Any = ANY
    ) -> None:
        """Record a decision about a server's instructions (replaces any for the same
        (server, principal))."""
        op = _Op(
            "instructions",
            ipin=ipin,
            who=ipin.decided_by,
            why=why or ipin.note,
            source=source,
            expect=expect,
        )
        self._apply(op)
        self._ops.append(op)

    def forget_instructions(
        self,
        server: str,
        principal: str,
        *,
        who: str | None = None,
        why: str = "",
        source: str = "",
        expect: Any = ANY,
    ) -> None:
        """Drop the decision about a server's instructions (they read as new again)."""
        op = _Op(
            "forget-instructions",
            key=(server, principal, ""),
            who=who or current_user(),
            why=why,
            source=source,
            expect=expect,
        )
        self._apply(op)
        self._ops.append(op)

    def forget(
        self,
        server: str,
        principal: str,
        tool: str,
        *,
        who: str | None = None,
        why: str = "",
        source: str = "",
        expect: Any = ANY,
        group: str | None = None,
    ) -> None:
        """Drop a pin (for example, an approved tool the server no longer serves), and the
        kinds approved on it so far."""
        op = _Op(
            "forget",
            key=(server, principal, tool),
            who=who or current_user(),
            why=why,
            source=source,
            expect=expect,
            more={"group": group} if group else {},
        )
        self._apply(op)
        self._ops.append(op)

    def set_policy(
        self,
        server: str,
        tier: str | None,
        *,
        tool: str | None = None,
        who: str | None = None,
        why: str = "",
        source: str = "",
    ) -> None:
        """Set (or with ``tier=None`` clear) the tier of a server, or of one tool on it."""
        if tier is not None and tier not in TIERS:
            raise InputError(f"unknown policy tier {tier!r}; expected one of {', '.join(TIERS)}")
        op = _Op(
            "policy",
            server=server,
            tool=tool,
            tier=tier,
            who=who or current_user(),
            why=why,
            source=source,
        )
        self._apply(op)
        self._ops.append(op)

    def _apply(self, op: _Op) -> dict[str, Any]:
        """Apply one mutation to this state; return its audit record."""
        rec: dict[str, Any]
        if op.kind in ("surface", "forget-surface"):
            sk = op.spin.key if op.spin is not None else op.skey
            assert sk is not None
            old_s = self.surfaces.pop(sk, None)
            bad_s = self.unverified_surfaces.pop(sk, None)
            if old_s is None and bad_s is not None:
                old_s = bad_s[0]
            if op.spin is not None:
                self.surfaces[sk] = op.spin
            rec = audit_record(
                who=op.who,
                server=sk[0],
                principal=sk[1],
                tool=None,
                event="decision" if op.spin is not None else "forget",
                decision=op.spin.decision if op.spin is not None else None,
                subject=sk[2],
                name=sk[3],
                old_decision=old_s.decision if old_s else None,
                old_digest=old_s.digest if old_s else None,
                new_digest=op.spin.digest if op.spin is not None else None,
                why=op.why,
                source=op.source,
            )
        elif op.kind == "forget-instructions":
            assert op.key is not None
            ikey = (op.key[0], op.key[1])
            old_f = self.instructions.pop(ikey, None)
            bad_f = self.unverified_instructions.pop(ikey, None)
            if old_f is None and bad_f is not None:
                old_f = bad_f[0]
            rec = audit_record(
                who=op.who,
                server=ikey[0],
                principal=ikey[1],
                tool=None,
                event="forget",
                decision=None,
                subject=SUBJECT,
                old_decision=old_f.decision if old_f else None,
                old_digest=old_f.digest if old_f else None,
                new_digest=None,
                why=op.why,
                source=op.source,
            )
        elif op.kind == "instructions":
            assert op.ipin is not None
            ip = op.ipin
            old_i = self.instructions.get(ip.key)
            bad_i = self.unverified_instructions.pop(ip.key, None)
            if old_i is None and bad_i is not None:
                old_i = bad_i[0]
            self.instructions[ip.key] = ip
            rec = audit_record(
                who=op.who,
                server=ip.server,
                principal=ip.principal,
                tool=None,
                event="decision",
                decision=ip.decision,
                subject=SUBJECT,
                old_decision=old_i.decision if old_i else None,
                old_digest=old_i.digest if old_i else None,
                new_digest=ip.digest,
                decided_at=ip.decided_at,
                why=op.why,
                source=op.source,
            )
        elif op.kind == "kinds":
            assert op.kpin is not None
            kp = op.kpin
            was = self.kinds.get(kp.key)
            if was is not None and was.digest == kp.digest:
                # Merged onto the file as it is now: approvals another writer recorded on the
                # same definition meanwhile are kept.
                for a in kp.approved:
                    was = was.with_kind(a)
                kp = was
            self.kinds[kp.key] = kp
            rec = audit_record(
                who=op.who,
                server=kp.server,
                principal=kp.principal,
                tool=kp.tool,
                event="kind",
                decision="approved",
                digest=kp.digest,
                **op.more,
                why=op.why,
                source=op.source,
            )
        elif op.kind == "decide":
            assert op.pin is not None
            self.kinds.pop(op.pin.key, None)
            old = self.pins.get(op.pin.key)
            bad = self.unverified.pop(op.pin.key, None)
            if old is None and bad is not None:
                old = bad[0]
            self.pins[op.pin.key] = op.pin
            rec = audit_record(
                who=op.who,
                server=op.pin.server,
                principal=op.pin.principal,
                tool=op.pin.tool,
                event="decision",
                decision=str(op.pin.decision),
                old_decision=str(old.decision) if old else None,
                old_digest=old.digest if old else None,
                new_digest=op.pin.digest,
                decided_at=op.pin.decided_at,
                **op.more,
                why=op.why,
                source=op.source,
            )
        elif op.kind == "forget":
            assert op.key is not None
            self.kinds.pop(op.key, None)
            old = self.pins.pop(op.key, None)
            bad = self.unverified.pop(op.key, None)
            if old is None and bad is not None:
                old = bad[0]
            rec = audit_record(
                who=op.who,
                server=op.key[0],
                principal=op.key[1],
                tool=op.key[2],
                event="forget",
                decision=None,
                old_decision=str(old.decision) if old else None,
                old_digest=old.digest if old else None,
                new_digest=None,
                **op.more,
                why=op.why,
                source=op.source,
            )
        else:
            assert op.server is not None
            if op.tool is None:
                old_tier = self.server_policy.get(op.server)
                if op.tier is None:
                    self.server_policy.pop(op.server, None)
                else:
                    self.server_policy[op.server] = op.tier
            else:
                old_tier = self.tool_policy.get((op.server, op.tool))
                if op.tier is None:
                    self.tool_policy.pop((op.server, op.tool), None)
                else:
                    self.tool_policy[(op.server, op.tool)] = op.tier
            rec = audit_record(
                who=op.who,
                server=op.server,
                principal=None,
                tool=op.tool,
                event="policy",
                decision=None,
                old_policy=old_tier,
                policy=op.tier,
                why=op.why,
                source=op.source,
            )
        return rec

    # Serialisation ------------------------------------------------------------------------
    def to_toml_dict(
        self, *, definition: Callable[[PinKey, str | list[str]], Any] | None = None
    ) -> dict[str, Any]:
        """The file as a dict for tomli-w. ``definition`` maps each pin's definition text to the
        value written (:meth:`dumps` puts a placeholder there and writes the multi-line string
        itself)."""
        servers: dict[str, Any] = {}
        every = {**{k: p for k, (p, _) in self.unverified.items()}, **self.pins}
        every_i = {
            **{k: p for k, (p, _) in self.unverified_instructions.items()},
            **self.instructions,
        }
        every_s = {
            **{k: p for k, (p, _) in self.unverified_surfaces.items()},
            **self.surfaces,
        }
        names = (
            {k[0] for k in every}
            | {k[0] for k in every_i}
            | {k[0] for k in every_s}
            | {k[0] for k in self.kinds}
            | set(self.server_policy)
            | {s for s, _ in self.tool_policy}
        )
        for s in sorted(names):
            table: dict[str, Any] = {}
            if s in self.server_policy:
                table["policy"] = self.server_policy[s]
            overrides = {t: p for (srv, t), p in self.tool_policy.items() if srv == s}
            if overrides:
                table["tool_policies"] = {t: overrides[t] for t in sorted(overrides)}
            principals: dict[str, Any] = {}
            for k in sorted(k for k in every if k[0] == s):
                row = every[k].to_toml()
                if definition is not None:
                    row["definition"] = definition(k, row["definition"])
                    kept = row.get(ALSO_KEY)
                    if isinstance(kept, list) and kept and all(isinstance(t, str) for t in kept):
                        # Each kept definition in the layout of `definition`, not one escaped line;
                        # anything else there is written as read.
                        row[ALSO_KEY] = definition(k, [_laid_out(t) for t in kept])
                principals.setdefault(k[1], {}).setdefault("tools", {})[k[2]] = row
            for ik in sorted(ik for ik in every_i if ik[0] == s):
                irow = _instructions_toml(every_i[ik])
                if definition is not None:
                    irow["text"] = definition((*ik, ""), irow["text"])
                principals.setdefault(ik[1], {})["instructions"] = irow
            for sk in sorted(sk for sk in every_s if sk[0] == s):
                srow = _surface_toml(every_s[sk])
                if definition is not None:
                    srow["definition"] = definition((sk[0], sk[1], sk[3]), srow["definition"])
                principals.setdefault(sk[1], {}).setdefault(SURFACE_TABLE[sk[2]], {})[sk[3]] = srow
            for kk in sorted(kk for kk in self.kinds if kk[0] == s):
                principals.setdefault(kk[1], {}).setdefault("kinds", {})[kk[2]] = self.kinds[
                    kk
                ].to_toml()
            principals = {p: _principal_table(principals[p]) for p in sorted(principals)}
            if principals:
                table["principals"] = principals
            servers[s] = table
        out: dict[str, Any] = {"version": VERSION}
        for extra_key in sorted(self.extra):
            out[extra_key] = self.extra[extra_key]
        if servers:
            out["servers"] = servers
        return out

    def dumps(self) -> str:
        """The file's text (:func:`pintoml.render`): each ``definition`` as a multi-line
        string so a changed definition diffs line by line."""
        return render(lambda placeholder: self.to_toml_dict(definition=placeholder))

    def to_bytes(self) -> bytes:
        """The file's UTF-8 bytes. A lone surrogate in a server, principal or tool name cannot
        be written to TOML: refused naming the key (definitions carry them, ASCII-escaped)."""
        text = self.dumps()
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            bad = [k for k in self.pins if not all(utf8_ok(x) for x in k)]
            raise InputError(
                "cannot write a name holding a lone surrogate to the pin file: "
                + ", ".join(ascii(k) for k in bad[:3])
            ) from None


def _laid_out(text: str) -> str:
    """A kept definition's text in the version 2 layout when it parses (same JSON value, so
    the same digest); as it is otherwise (it approves nothing either way, and stays visible)."""
    from mcp_review.engine.canonical import loads

    try:
        return layout(loads(text, source=ALSO_KEY))
    except (InputError, ValueError, RecursionError):
        return text


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
