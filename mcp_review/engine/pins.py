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
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.candidate import ALSO_KEY
from mcp_review.engine.clock import current_user
from mcp_review.engine.errors import InputError
from mcp_review.engine.instructions import SUBJECT, InstructionsPin
from mcp_review.engine.pinrecord import (
    DEFAULT_PATH,
    DEFAULT_PRINCIPAL,
    VERSION,
    Decision,
    KindApproval,
    KindsPin,
    Pin,
    PinKey,
    audit_record,
    definition_text,
    instructions_toml,
    kinds_approved_on,
    make_instructions_pin,
    make_pin,
    principal_table,
    surface_toml,
    with_decision,
)
from mcp_review.engine.pintoml import layout, render, utf8_ok
from mcp_review.engine.policy import TIERS
from mcp_review.engine.surfaces import TABLE as SURFACE_TABLE
from mcp_review.engine.surfaces import SurfaceKey, SurfacePin

# The records (Pin, make_pin, ...) live in engine/pinrecord.py; re-exported here, where
# callers import them.
__all__ = [
    "ANY",
    "DEFAULT_PATH",
    "DEFAULT_PRINCIPAL",
    "VERSION",
    "ChangedMeanwhile",
    "Conflict",
    "Decision",
    "KindApproval",
    "KindsPin",
    "Pin",
    "PinFile",
    "PinKey",
    "audit_record",
    "definition_text",
    "describe",
    "kinds_approved_on",
    "make_instructions_pin",
    "make_pin",
    "same_decision",
    "with_decision",
]


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
        self,
        spin: SurfacePin,
        *,
        why: str = "",
        source: str = "",
        expect: Any = ANY,
        group: str | None = None,
    ) -> None:
        """Record a decision about a prompt, resource or resource template (replaces any for
        the same key); ``group``: as :meth:`decide`."""
        op = _Op(
            "surface", spin=spin, who=spin.decided_by, why=why or spin.note, source=source,
            expect=expect, more={"group": group} if group else {},
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
        """Apply one mutation to this state; return its audit record (one method per kind of
        mutation, each small enough to check against the audit fields it writes)."""
        if op.kind in ("surface", "forget-surface"):
            return self._apply_surface(op)
        if op.kind == "forget-instructions":
            return self._apply_forget_instructions(op)
        if op.kind == "instructions":
            return self._apply_instructions(op)
        if op.kind == "kinds":
            return self._apply_kinds(op)
        if op.kind == "decide":
            return self._apply_decide(op)
        if op.kind == "forget":
            return self._apply_forget(op)
        return self._apply_policy(op)

    def _apply_surface(self, op: _Op) -> dict[str, Any]:
        """A prompt, resource or template decided or forgotten: one method since both
        replace the same entry and record what it was."""
        sk = op.spin.key if op.spin is not None else op.skey
        assert sk is not None
        old_s = self.surfaces.pop(sk, None)
        bad_s = self.unverified_surfaces.pop(sk, None)
        if old_s is None and bad_s is not None:
            old_s = bad_s[0]
        if op.spin is not None:
            self.surfaces[sk] = op.spin
        return audit_record(
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
            **op.more,
            why=op.why,
            source=op.source,
        )

    def _apply_forget_instructions(self, op: _Op) -> dict[str, Any]:
        """The server's instructions forgotten: the pin dropped (or its unverified copy)
        and the decision it held recorded as the old one."""
        assert op.key is not None
        ikey = (op.key[0], op.key[1])
        old_f = self.instructions.pop(ikey, None)
        bad_f = self.unverified_instructions.pop(ikey, None)
        if old_f is None and bad_f is not None:
            old_f = bad_f[0]
        return audit_record(
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

    def _apply_instructions(self, op: _Op) -> dict[str, Any]:
        """The server's instructions decided: the pin replaced, the unverified copy it
        supersedes dropped."""
        assert op.ipin is not None
        ip = op.ipin
        old_i = self.instructions.get(ip.key)
        bad_i = self.unverified_instructions.pop(ip.key, None)
        if old_i is None and bad_i is not None:
            old_i = bad_i[0]
        self.instructions[ip.key] = ip
        return audit_record(
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

    def _apply_kinds(self, op: _Op) -> dict[str, Any]:
        """A kind of change approved on a tool, merged onto the record on the file when it is
        of the same definition."""
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
        return audit_record(
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

    def _apply_decide(self, op: _Op) -> dict[str, Any]:
        """A tool decided: its pin replaced, and the kinds approved on the old definition
        dropped since they were approvals of that definition."""
        assert op.pin is not None
        self.kinds.pop(op.pin.key, None)
        old = self.pins.get(op.pin.key)
        bad = self.unverified.pop(op.pin.key, None)
        if old is None and bad is not None:
            old = bad[0]
        self.pins[op.pin.key] = op.pin
        return audit_record(
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

    def _apply_forget(self, op: _Op) -> dict[str, Any]:
        """A tool's pin forgotten, with the kinds approved on it."""
        assert op.key is not None
        self.kinds.pop(op.key, None)
        old = self.pins.pop(op.key, None)
        bad = self.unverified.pop(op.key, None)
        if old is None and bad is not None:
            old = bad[0]
        return audit_record(
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

    def _apply_policy(self, op: _Op) -> dict[str, Any]:
        """A server's or a tool's tier set or cleared."""
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
        return audit_record(
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
                irow = instructions_toml(every_i[ik])
                if definition is not None:
                    irow["text"] = definition((*ik, ""), irow["text"])
                principals.setdefault(ik[1], {})["instructions"] = irow
            for sk in sorted(sk for sk in every_s if sk[0] == s):
                srow = surface_toml(every_s[sk])
                if definition is not None:
                    srow["definition"] = definition((sk[0], sk[1], sk[3]), srow["definition"])
                principals.setdefault(sk[1], {}).setdefault(SURFACE_TABLE[sk[2]], {})[sk[3]] = srow
            for kk in sorted(kk for kk in self.kinds if kk[0] == s):
                principals.setdefault(kk[1], {}).setdefault("kinds", {})[kk[2]] = self.kinds[
                    kk
                ].to_toml()
            principals = {p: principal_table(principals[p]) for p in sorted(principals)}
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
