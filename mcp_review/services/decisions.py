"""Recording a decision, in one place, for every command that decides (``approve``, ``deny``,
``pin``) and for the app (``tui/session.py``): the pin each decision writes (bound to exactly
the definition judged, keeping the running version's approval beside a ``--candidate``'s),
recorded on the ``PinFile`` with its audit wording and source, and saved with its audit
records under the pin file's lock (``store.pinfile.save_pins``).

One wording of the audit log for all of them (:func:`audit_why`): the record's ``source`` says
who decided, the ``why`` reads the same whichever front end wrote it.

Also what ``approve`` and ``deny`` share before anything is shown: which served server a
decision names, and deciding a server's instructions (the command shows the outcome with
:mod:`mcp_review.formats.decisions`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from mcp_review.engine.errors import InputError
from mcp_review.engine.pins import ANY, ChangedMeanwhile

__all__ = ["ANY", "ChangedMeanwhile"]  # the compare-and-set's "no check" and its refusal

if TYPE_CHECKING:
    from mcp_review.engine.instructions import InstructionsPin
    from mcp_review.engine.kinds import Group, Grouping, Member
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, Pin, PinFile, PinKey
    from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
    from mcp_review.engine.status import StatusReport, ToolStatus
    from mcp_review.engine.surfaces import SurfaceKey, SurfacePin
    from mcp_review.services.inputs import InputOptions, Inputs
    from mcp_review.store.pinfile import SaveResult

_PINNED: Any = object()
"""``before`` not given: the pin on the PinFile now."""


def audit_why(
    decision: Any,
    accepted: str,
    *,
    note: str = "",
    blocked: Sequence[str] = (),
    confirmed: str = "",
) -> str:
    """The audit log's wording of a decision, one for every front end (``approve``, ``deny``,
    ``pin``, the app; the record's ``source`` says which)::

        approved (changed: trust) [blocked: annotation claims more power: …; confirmed with --yes]: note

    ``accepted``: what it is made on (``engine.status.accepted``, or ``changed server
    instructions``); ``blocked``: the policy's reasons when a blocked change was approved,
    ``confirmed``: how it was confirmed (``with --yes``, ``in the review app``); ``note``: the
    operator's words, after the machine's."""
    out = f"{decision} ({accepted})"
    if blocked:
        out += f" [blocked: {'; '.join(blocked)}" + (
            f"; confirmed {confirmed}]" if confirmed else "]"
        )
    return out + (f": {note}" if note else "")


def decide_tool(
    pins: PinFile,
    key: PinKey,
    decision: Decision,
    *,
    source: str,
    live: ToolDef | None = None,
    by: str | None = None,
    note: str = "",
    why: str = "",
    server_version: str | None = None,
    protocol_version: str | None = None,
    candidate: bool = False,
    before: Pin | None = _PINNED,
    expect: Any = ANY,
    group: str | None = None,
    seen: Any = None,
) -> Pin | None:
    """Record ``decision`` about the tool ``key`` on ``pins`` (:func:`save` writes it).

    With ``live``: exactly that definition, approved or denied; ``candidate`` (previewing a
    ``[servers.NAME.candidate]``) keeps ``before``'s approval beside it (engine/candidate.py;
    ``before`` defaults to the pin recorded now). Without ``live``: a denial denies the pinned
    definition (a tool denied while its server is down; nothing when none is pinned), and an
    approval acknowledges a removal (the pin goes). ``why`` is the audit log's wording
    (default: the note); ``source`` names who decides (``approve``, ``review app`` …).
    ``expect``: the decision this one is made against (the app: what its screen showed); the
    save refuses with :class:`ChangedMeanwhile`, writing nothing, when the pin file holds
    another by then (a compare-and-set under the pin file's lock). Returns the pin recorded
    (None when a pin went, or nothing was recorded). ``group``: the id of the group (review by
    kind) the decision was made in, written in its audit record. ``seen``: what the decider
    was shown (a ToolStatus or the app's row), carried in a signed decision's record
    (engine/signed.py) when ``pins`` signs."""
    from mcp_review.engine.candidate import keep_running
    from mcp_review.engine.pins import Decision, make_pin, with_decision

    server, principal, _ = key
    if before is _PINNED:
        before = pins.get(*key)
    if live is not None:
        pin = make_pin(
            server,
            live,
            decision,
            principal=principal,
            by=by,
            note=note,
            server_version=server_version,
            protocol_version=protocol_version,
        )
        pin = keep_running(pin, before, candidate=candidate)
    elif decision is Decision.APPROVED:
        forget_tool(pins, key, by=by, why=why, source=source, expect=expect, group=group)
        return None
    elif before is not None:
        pin = with_decision(before, Decision.DENIED, by=by, note=note)
    else:
        return None
    decided: Pin = _with_seen(pins, pin, seen)
    pins.decide(decided, why=why, source=source, expect=expect, group=group)
    return decided


def apply_auto_approvals(
    report: StatusReport,
    pins: PinFile,
    snapshot: Any = None,
    *,
    candidates: Collection[str] = (),
) -> list[ToolStatus]:
    """Re-pin every tool the tiers auto-approve (``report.auto_approvals``), each a decision
    recorded here as any other (:func:`decide_tool`), decided by ``mcp-review (policy TIER)``
    with the policy's reasons, source ``policy TIER``; the caller saves (which writes the audit
    records, and signs when a key is configured). Returns the tools re-pinned. Each pin is
    bound to exactly the live definition judged. ``candidates``: servers reviewed through their
    ``[servers.NAME.candidate]``, whose running version's approval is kept
    (engine/candidate.py). ``snapshot`` is not read (kept for the callers' calls)."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.status import AUTO_WHO

    done = []
    servers = {s.name: s for s in report.servers}
    for t in report.auto_approvals:
        if t.live is None:
            continue
        srv = servers.get(t.server)
        why = "; ".join(t.policy.reasons)
        decide_tool(
            pins,
            t.key,
            Decision.APPROVED,
            source=f"policy {t.policy.tier}",
            live=t.live,
            by=AUTO_WHO.format(tier=t.policy.tier),
            note=f"auto-approved: {why}",
            why=why,
            server_version=srv.server_version if srv else None,
            protocol_version=srv.protocol_version if srv else None,
            candidate=t.server in candidates,
            before=t.pin,
        )
        done.append(t)
    return done


def _with_seen(pins: PinFile, pin: Any, seen: Any) -> Any:
    """``pin`` carrying what the decider was shown (``seen``: a tool's, instructions' or
    surface's status, or the app's row), when ``pins`` signs (engine/signed.py)."""
    if pins.sign is None or seen is None:
        return pin
    from mcp_review.engine.signed import seen_of, with_seen

    return with_seen(pin, seen_of(seen))


@dataclass(slots=True)
class GroupDecision:
    """What :func:`decide_group` recorded (the caller saves with :func:`save`)."""

    group: Group
    decision: Decision
    decided: list[Member] = field(default_factory=list)
    """The members decided (every member but the ones left out)."""
    excepted: list[Member] = field(default_factory=list)
    """The members left out (``--except``, space in the app): nothing recorded for them."""
    whole: list[Member] = field(default_factory=list)
    """Members whose tool was decided as a whole: denied, or approved with this kind its
    last pending one (its pin moved to the live definition, as ``approve`` does)."""
    partial: list[Member] = field(default_factory=list)
    """Members with other kinds still undecided: this kind's approval is kept in the pin file,
    bound to the live digest (``PinFile.kinds``)."""
    blocked: list[str] = field(default_factory=list)
    """Why an approval of a blocked group was refused (not confirmed): nothing recorded."""


def decide_group(
    pins: PinFile,
    group: Group,
    decision: Decision | str,
    *,
    source: str,
    except_: Sequence[tuple[str, str]] = (),
    by: str | None = None,
    note: str = "",
    confirmed: str = "",
    servers: Sequence[Any] = (),
    candidates: Sequence[str] = (),
    expect_seen: bool = False,
) -> GroupDecision:
    """Approve or deny every member of ``group`` but the ``except_`` ones ((server, tool)
    pairs), recording one decision per member on ``pins`` with the group's id in its audit
    record (:func:`save` writes them).

    A tool is approved when every one of its pending kinds is approved: a member whose other
    kinds are approved already (on this live definition) or that has none is approved as
    ``approve`` approves it (its pin moves to the live definition, the same audit path); one
    with kinds still undecided gets this kind's approval recorded, bound to its live digest.
    A denial denies each member's tool at once (a tool is denied as soon as one kind is).
    Approving a group whose outcome is ``block`` needs ``confirmed`` (how it was confirmed:
    ``with --yes``, ``in the review app``); without it nothing is recorded and
    :attr:`GroupDecision.blocked` says why. ``servers``: the report's ServerStatus list (the
    server and protocol versions written in each pin); ``candidates``: servers previewed
    through their candidate (engine/candidate.py); ``expect_seen``: each member's decision is
    made against the pin its status was computed with (the app: what its screen showed), a
    compare-and-set the save checks (:class:`ChangedMeanwhile`, nothing written)."""
    from mcp_review.engine.clock import current_user
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.policy import approval_allowed, blocked_approval
    from mcp_review.engine.status import ToolStatus

    decision = Decision(decision)
    out = GroupDecision(group, decision)
    left_out = set(except_)
    for m in group.members:
        (out.excepted if (m.server, m.tool) in left_out else out.decided).append(m)
    blocked = blocked_approval(decision, group.outcome)
    reasons = _group_reasons(group) if blocked else ()
    if not approval_allowed(decision, group.outcome, confirmed):
        out.blocked = list(reasons)
        return out
    by = by or current_user()
    info = {getattr(s, "name", None): s for s in servers}
    label = group.label
    for m in out.decided:
        t = m.status
        if t is None:
            raise ValueError(f"group member {m.name!r} carries no tool status")
        srv = info.get(m.server)
        in_group = f"group {group.id}: {label}"
        if m.surface:
            _decide_surface_member(
                pins,
                m,
                decision,
                source=source,
                why_note=in_group + (f"; {note}" if note else ""),
                note=note,
                by=by,
                blocked=reasons if blocked and blocked_approval(decision, m.outcome) else (),
                confirmed=confirmed,
                server_version=getattr(srv, "server_version", None),
                expect_seen=expect_seen,
                group=group.id,
            )
            out.whole.append(m)
            continue
        if not isinstance(t, ToolStatus):
            raise ValueError(f"group member {m.name!r} carries no tool status")
        whole = _decide_tool_member(
            pins,
            group,
            m,
            t,
            decision,
            source=source,
            note=note,
            by=by,
            blocked=reasons if blocked and blocked_approval(decision, m.outcome) else (),
            confirmed=confirmed,
            srv=srv,
            candidate=m.server in candidates,
            expect_seen=expect_seen,
        )
        (out.whole if whole else out.partial).append(m)
    return out


def _decide_tool_member(
    pins: PinFile,
    group: Group,
    m: Member,
    t: ToolStatus,
    decision: Decision,
    *,
    source: str,
    note: str,
    by: str,
    blocked: Sequence[str],
    confirmed: str,
    srv: Any,
    candidate: bool,
    expect_seen: bool,
) -> bool:
    """Record one tool member's part of a group decision (:func:`decide_group`). Returns
    False when only this kind's approval was recorded (other kinds of the tool still wait),
    True when the tool itself was decided."""
    from mcp_review.engine.clock import now_utc
    from mcp_review.engine.kinds import pending_kinds
    from mcp_review.engine.pins import Decision, KindApproval, kinds_approved_on
    from mcp_review.engine.status import accepted

    label = group.label
    why = audit_why(
        decision,
        accepted(t),
        note=f"group {group.id}: {label}" + (f"; {note}" if note else ""),
        blocked=blocked,
        confirmed=confirmed,
    )
    key = (m.server, m.principal, m.tool)
    if decision is Decision.APPROVED:
        done = t.approved_kinds | kinds_approved_on(pins.kinds.get(key), m.digest)
        rest = [k for k in pending_kinds(t) if k.key not in done and k != group.kind]
        if rest:
            pins.approve_kind(
                key,
                m.digest,
                KindApproval(group.kind.key, label, group.id, now_utc(), by, note),
                why=why,
                source=source,
            )
            return False
    decide_tool(
        pins,
        key,
        decision,
        source=source,
        live=t.live,
        by=by,
        note=note,
        why=why,
        server_version=getattr(srv, "server_version", None),
        protocol_version=getattr(srv, "protocol_version", None),
        candidate=candidate,
        group=group.id,
        expect=t.pin if expect_seen else ANY,
        seen=t,
    )
    return True


def _decide_surface_member(
    pins: PinFile,
    m: Member,
    decision: Decision,
    *,
    source: str,
    why_note: str,
    note: str,
    by: str,
    blocked: Sequence[str],
    confirmed: str,
    server_version: str | None,
    expect_seen: bool,
    group: str,
) -> None:
    """A prompt, resource or template member of a group: exactly the object its status was
    computed from (``m.status``, what the group showed), recorded through
    :func:`decide_surface_pin` (the one path: signing, audit, compare-and-set)."""
    from mcp_review.engine.clock import now_utc
    from mcp_review.engine.surfaces import SurfaceStatus, make_surface_pin

    x = m.status
    if not isinstance(x, SurfaceStatus) or x.live is None:
        raise ValueError(f"group member {m.name!r} carries no served definition")
    spin = make_surface_pin(
        x.server,
        x.kind,
        x.live,
        str(decision),
        principal=x.principal,
        by=by,
        at=now_utc(),
        note=note,
        server_version=server_version,
    )
    why = audit_why(
        decision, f"{x.state} {x.kind}", note=why_note, blocked=blocked, confirmed=confirmed
    )
    decide_surface_pin(
        pins,
        spin,
        why=why,
        source=source,
        expect=x.pin if expect_seen else ANY,
        seen=x,
        group=group,
    )


def _group_reasons(group: Group) -> tuple[str, ...]:
    """The policy's reasons of the blocked members, each once."""
    out: dict[str, None] = {}
    for m in group.members:
        if m.status is not None and m.outcome.value == "block":
            for r in m.status.policy.reasons:
                out.setdefault(r)
    return tuple(out)


def record_pin(pins: PinFile, pin: Pin, *, why: str = "", source: str, expect: Any = ANY) -> None:
    """Record a pin made elsewhere (a re-pin without definitions no longer served, an undo's
    restored decision) as a decision of ``source`` (``expect``: as :func:`decide_tool`)."""
    pins.decide(pin, why=why, source=source, expect=expect)


def forget_tool(
    pins: PinFile,
    key: PinKey,
    *,
    by: str | None = None,
    why: str = "",
    source: str,
    expect: Any = ANY,
    group: str | None = None,
) -> None:
    """Drop the tool's pin (an approved tool no longer served, acknowledged)."""
    pins.forget(*key, who=by, why=why, source=source, expect=expect, group=group)


def decide_instructions_pin(
    pins: PinFile,
    ipin: InstructionsPin,
    *,
    why: str = "",
    source: str,
    expect: Any = ANY,
    seen: Any = None,
) -> None:
    """Record a decision about a server's instructions (``ipin``: the text decided;
    ``seen``: their status, carried in a signed decision's record when ``pins`` signs)."""
    pins.decide_instructions(_with_seen(pins, ipin, seen), why=why, source=source, expect=expect)


def decide_surface_pin(
    pins: PinFile,
    spin: SurfacePin,
    *,
    why: str = "",
    source: str,
    expect: Any = ANY,
    seen: Any = None,
    group: str | None = None,
) -> None:
    """Record a decision about a prompt, resource or resource template (``spin``: the object
    decided, as served; ``seen``: its ``SurfaceStatus``, carried in a signed decision's record
    when ``pins`` signs: the save signs it as it signs a tool's; ``group``: the id of the
    group it was decided in, written in its audit record)."""
    pins.decide_surface(
        _with_seen(pins, spin, seen), why=why, source=source, expect=expect, group=group
    )


def forget_surface(
    pins: PinFile, key: SurfaceKey, *, by: str | None = None, why: str = "", source: str
) -> None:
    """Drop the decision about a prompt, resource or template (it reads as new again)."""
    pins.forget_surface(key, who=by, why=why, source=source)


def forget_instructions(
    pins: PinFile, server: str, principal: str, *, why: str = "", source: str, expect: Any = ANY
) -> None:
    """Drop the decision about a server's instructions (they read as new again)."""
    pins.forget_instructions(server, principal, why=why, source=source, expect=expect)


def save(pins: PinFile, path: str, *, audit_path: str | None = None) -> SaveResult:
    """Write what was recorded on ``pins``: under the pin file's lock, merged with what other
    writers saved meanwhile, each decision's compare-and-set checked (:class:`ChangedMeanwhile`:
    nothing written, ``pins`` reset to the file on disk), the audit records stamped with the
    time they are written and appended (fsynced) before the file is replaced
    (``store.pinfile.save_pins``). ``replaced`` on the result: what each decision replaced on
    disk."""
    from mcp_review.store.pinfile import save_pins

    return save_pins(pins, path, audit_path=audit_path)


@dataclass(slots=True)
class InstructionsDecision:
    """The outcome of deciding a server's instructions."""

    label: str
    """``server/principal instructions``, already made safe for a terminal."""
    decision: str
    """``approved`` or ``denied``."""
    unchanged: bool = False
    """Already decided this way with this text: nothing was written."""
    blocked: list[str] = field(default_factory=list)
    """The reasons an approval was refused (blocked and not confirmed with ``--yes``)."""
    result: SaveResult | None = None
    """The save when something was written."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """What an ``approve``/``deny`` of one server's instructions, prompt, resource or template
    names: the server and principal, who decides and why, and whether a blocked approval is
    confirmed (``--yes``). The command builds it from its arguments."""

    server: str
    principal: str | None = None
    by: str | None = None
    note: str = ""
    yes: bool = False


def decide_instructions(
    req: DecisionRequest, inp: Inputs, snap: Snapshot, decision: str
) -> InstructionsDecision:
    """``approve``/``deny`` ``SERVER --instructions``: decide exactly the instructions the
    server sends now (or sent in the snapshot). Instructions are on the trust axis: a blocked
    change (hidden characters appeared) needs ``--yes`` to approve. Deny works on the pinned
    text when the server is not served. An InputError (exit 2) when there is nothing to
    decide."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.instructions import instructions_status, live_text
    from mcp_review.engine.pins import make_instructions_pin

    pins = inp.pins
    srv, principal = served_and_principal(req, inp, snap)
    key = (req.server, principal)
    old = pins.instructions.get(key)
    live = live_text(srv.instructions) if srv is not None else None
    out = InstructionsDecision(
        f"{safe_text(req.server)}/{safe_text(principal)} instructions", decision
    )
    if live is None:
        refuse_unserved(req, inp, decision, old, "sends no instructions", "none are pinned")
        assert old is not None  # refuse_unserved raised: nothing served, nothing pinned
        text = old.text
    else:
        text = live
    st = instructions_status(req.server, principal, text, old, pins.tier_for(req.server))
    assert st is not None

    def make_pin() -> Any:
        return make_instructions_pin(
            req.server,
            text,
            decision,
            principal=principal,
            by=req.by,
            note=req.note,
            server_version=srv.server_version if srv is not None else None,
        )

    def store(pin: Any, why: str, source: str) -> None:
        decide_instructions_pin(pins, pin, why=why, source=source)

    return decide_subject(req, inp, out, old, st, "server instructions", make_pin, store)


def served_and_principal(req: DecisionRequest, inp: Inputs, snap: Snapshot) -> tuple[Any, str]:
    """The served entry an ``--instructions`` / ``--prompt`` (...) decision names (None when
    the server is not served or errored) and the principal it is decided under."""
    srv = None
    if snap is not None and req.server in snap.servers and not snap.servers[req.server].error:
        srv = served_server(snap, req.server, req.principal, inp.snapshot_path or "live")
    return srv, (srv.principal if srv is not None else (req.principal or "default"))


def refuse_unserved(
    req: DecisionRequest,
    inp: Inputs,
    decision: str,
    old: Any,
    serves_none: str,
    none_pinned: str,
    known: tuple[str, Sequence[str], str] | None = None,
) -> None:
    """An InputError when the subject is not served and there is nothing pinned to deny
    (approving always needs the served object). ``known``: (the given name, the names it
    could have meant, their plural noun), listed in the error, the closest suggested."""
    from mcp_review.engine.names import not_found, shown

    if decision == "approved" or old is None:
        where = "in the snapshot" if inp.snapshot_path else "now"
        what = "approve" if decision == "approved" else "deny"
        raise InputError(
            f"server {shown(req.server)} {serves_none} {where}"
            + ("" if decision == "approved" else f" and {none_pinned}")
            + f"; nothing to {what}"
            + (not_found(*known) if known else "")
        )


_Decided = TypeVar("_Decided", bound=InstructionsDecision)


def decide_subject(
    req: DecisionRequest,
    inp: Inputs,
    out: _Decided,
    old: Any,
    st: Any,
    what: str,
    make_pin: Callable[[], Any],
    store: Callable[[Any, str, str], None],
) -> _Decided:
    """The shared tail of an instructions / prompt / resource decision: the "unchanged"
    short-cut, the refusal of a blocked approval without ``--yes``, the audit reason, then
    the pin (``make_pin``) recorded by ``store(pin, why, source)`` and saved."""
    from mcp_review.engine.policy import approval_allowed, blocked_approval

    decision = out.decision
    if old is not None and old.decision == decision and st.state in ("pinned", "denied"):
        out.unchanged = True
        return out
    blocked = blocked_approval(decision, st.policy.outcome)
    if not approval_allowed(decision, st.policy.outcome, req.yes):
        out.blocked = list(st.policy.reasons)
        return out
    why = audit_why(
        decision,
        f"{st.state} {what}",
        note=req.note,
        blocked=st.policy.reasons if blocked else (),
        confirmed="with --yes",
    )
    pin = _with_seen(inp.pins, make_pin(), st)
    store(pin, why, "approve" if decision == "approved" else "deny")
    out.result = save(inp.pins, inp.pins_path)
    return out


def served_server(
    snap: Snapshot, server: str, principal: str | None, source: str
) -> ServerSnapshot:
    """The snapshot's entry for the server an approve/deny names, checking the principal."""
    where = "in the snapshot" if source != "live" else "among the configured servers"
    srv = snap.servers.get(server)
    if srv is None:
        from mcp_review.engine.names import not_found, shown

        raise InputError(
            f"server {shown(server)} is not {where}" + not_found(server, snap.servers, "servers"),
            source=source if source != "live" else None,
        )
    if principal is not None and principal != srv.principal:
        raise InputError(
            f"server {server!r} is served under principal {srv.principal!r}, not {principal!r}",
            source=source if source != "live" else None,
        )
    return srv


def check_configured(inp: Inputs, server: str) -> None:
    """Before fetching anything: a live approve/deny naming a server the config does not
    have is an input error, with the closest names."""
    if not inp.live or inp.config is None:
        return
    known = [s.name for s in inp.config.servers]
    if server not in known:
        from mcp_review.engine.names import not_found, shown

        raise InputError(
            f"no server {shown(server)} in the config" + not_found(server, known, "servers"),
            source=inp.config.source,
        )


@dataclass(slots=True)
class GroupRun:
    """What ``approve --group`` / ``deny --group`` found before deciding anything."""

    report: StatusReport
    """The status the grouping was made from (engine.status.StatusReport)."""
    grouping: Grouping
    group: Group
    except_: list[tuple[str, str]]


def find_group(inp: Inputs, gid: str, excepts: Sequence[str]) -> GroupRun:
    """The group ``gid`` in the drift as it is now, computed from ``inp`` exactly as
    ``status --groups`` computes it (the same servers, call logs, tiers and waivers), and the
    ``--except SERVER/NAME`` members checked. An InputError (exit 2) for an id that names no
    group now: unknown, or stale (a member changed or was decided since, so the id the
    operator saw covers definitions no longer served), and for an ``--except`` that names no
    member."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.kinds import group_report, member_name
    from mcp_review.engine.names import did_you_mean, find_name, known_names, shown

    snap = inp.snapshot()
    report = inp.status(snap, witnesses=True)
    grouping = group_report(report)
    group = grouping.find(gid)
    if group is None:
        down = [s.name for s in report.servers if s.error]
        raise InputError(
            f"no group {shown(gid)} in the drift now: the id is unknown, or stale (a member "
            "changed or was decided since it was shown); run `mcp-review status --groups` "
            "for the current ids"
            + f" ({known_names([g.id for g in grouping.groups], 'groups')})"
            + (
                f" ({len(down)} server(s) could not be read: "
                + ", ".join(safe_text(n) for n in down)
                + ")"
                if down
                else ""
            )
            + "."
            + did_you_mean(gid, [g.id for g in grouping.groups])
        )
    out: list[tuple[str, str]] = []
    for text in excepts:
        try:
            server, tool = member_name(text)
        except ValueError as e:
            raise InputError(f"--except: {e}") from None
        # The escaped form a report shows beside a hostile name (``d\\u0435lete_all``) names
        # the member too, as it names a tool for ``approve``.
        named = find_name(tool, [m.tool for m in group.members if m.server == server])
        tool = named if named is not None else tool
        if group.member(server, tool) is None:
            raise InputError(
                f"--except {safe_text(text)!r}: not a member of group {gid} (members: "
                + ", ".join(safe_text(m.name) for m in group.members[:10])
                + (", …" if group.size > 10 else "")
                + ")."
                + did_you_mean(text, [m.name for m in group.members])
            )
        out.append((server, tool))
    if len(set(out)) == group.size:
        raise InputError(f"--except leaves no member of group {gid} to decide")
    return GroupRun(report, grouping, group, out)


@dataclass(frozen=True, slots=True)
class GroupRequest:
    """``approve --group ID`` / ``deny --group ID``: what the command line asks of
    :func:`decide_group_by_id` (built by ``mcp_review.cli_args.group_request``)."""

    group: str
    except_: tuple[str, ...] = ()
    """``--except SERVER/TOOL``: members left out."""
    by: str | None = None
    note: str = ""
    yes: bool = False
    """``--yes``: a blocked change was confirmed."""


def decide_group_by_id(
    opts: InputOptions, req: GroupRequest, decision: Decision, source: str
) -> tuple[GroupDecision, SaveResult | None, str]:
    """``approve --group ID`` / ``deny --group ID`` (``decision`` and ``source`` say which):
    resolve the inputs, find the group as ``status --groups`` shows it now, decide every member
    but the ``--except`` ones, and save unless the decision is blocked. Returns the decision,
    the save's result (None when blocked: nothing was written) and the pin file's path."""
    from mcp_review.services.inputs import resolve

    inp = resolve(opts, server_filter=False)
    inp.print_notes()
    run = find_group(inp, req.group, req.except_)
    d = decide_group(
        inp.pins,
        run.group,
        decision,
        source=source,
        except_=run.except_,
        by=req.by,
        note=req.note,
        confirmed="with --yes" if req.yes else "",
        servers=run.report.servers,
        candidates=inp.candidates,
    )
    if d.blocked:
        return d, None, inp.pins_path
    return d, save(inp.pins, inp.pins_path), inp.pins_path
