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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.pins import ANY, ChangedMeanwhile

__all__ = ["ANY", "ChangedMeanwhile"]  # the compare-and-set's "no check" and its refusal

if TYPE_CHECKING:
    from mcp_review.engine.instructions import InstructionsPin
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, Pin, PinFile, PinKey
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
    (None when a pin went, or nothing was recorded)."""
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
        forget_tool(pins, key, by=by, why=why, source=source, expect=expect)
        return None
    elif before is not None:
        pin = with_decision(before, Decision.DENIED, by=by, note=note)
    else:
        return None
    pins.decide(pin, why=why, source=source, expect=expect)
    return pin


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
) -> None:
    """Drop the tool's pin (an approved tool no longer served, acknowledged)."""
    pins.forget(*key, who=by, why=why, source=source, expect=expect)


def decide_instructions_pin(
    pins: PinFile, ipin: InstructionsPin, *, why: str = "", source: str, expect: Any = ANY
) -> None:
    """Record a decision about a server's instructions (``ipin``: the text decided)."""
    pins.decide_instructions(ipin, why=why, source=source, expect=expect)


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
    result: Any = None
    """The save (``engine.pins.SaveResult``) when something was written."""


def decide_instructions(args: Any, inp: Any, snap: Any, decision: str) -> InstructionsDecision:
    """``approve``/``deny`` ``SERVER --instructions``: decide exactly the instructions the
    server sends now (or sent in the snapshot). Instructions are on the trust axis: a blocked
    change (hidden characters appeared) needs ``--yes`` to approve. Deny works on the pinned
    text when the server is not served. An InputError (exit 2) when there is nothing to
    decide."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.instructions import instructions_status, live_text
    from mcp_review.engine.pins import make_instructions_pin
    from mcp_review.engine.policy import Outcome

    source = inp.snapshot_path or "live"
    pins = inp.pins
    srv = None
    if snap is not None and args.server in snap.servers and not snap.servers[args.server].error:
        srv = served_server(snap, args.server, args.principal, source)
    principal = srv.principal if srv is not None else (args.principal or "default")
    key = (args.server, principal)
    old = pins.instructions.get(key)
    live = live_text(srv.instructions) if srv is not None else None
    out = InstructionsDecision(
        f"{safe_text(args.server)}/{safe_text(principal)} instructions", decision
    )
    if live is None:
        if decision == "approved" or old is None:
            where = "in the snapshot" if inp.snapshot_path else "now"
            raise InputError(
                f"server {args.server!r} sends no instructions {where}"
                + ("" if decision == "approved" else " and none are pinned")
                + f"; nothing to {'approve' if decision == 'approved' else 'deny'}"
            )
        text = old.text
    else:
        text = live
    st = instructions_status(args.server, principal, text, old, pins.tier_for(args.server))
    assert st is not None
    if old is not None and old.decision == decision and st.state in ("pinned", "denied"):
        out.unchanged = True
        return out
    blocked = decision == "approved" and st.policy.outcome is Outcome.BLOCK
    if blocked and not getattr(args, "yes", False):
        out.blocked = list(st.policy.reasons)
        return out
    why = audit_why(
        decision,
        f"{st.state} server instructions",
        note=args.note,
        blocked=st.policy.reasons if blocked else (),
        confirmed="with --yes",
    )
    ipin = make_instructions_pin(
        args.server,
        text,
        decision,
        principal=principal,
        by=args.by,
        note=args.note,
        server_version=srv.server_version if srv is not None else None,
    )
    decide_instructions_pin(
        pins, ipin, why=why, source="approve" if decision == "approved" else "deny"
    )
    out.result = save(pins, inp.pins_path)
    return out


def served_server(snap: Any, server: str, principal: str | None, source: str) -> Any:
    """The snapshot's entry for the server an approve/deny names, checking the principal."""
    where = "in the snapshot" if source != "live" else "among the configured servers"
    srv = snap.servers.get(server)
    if srv is None:
        from mcp_review.engine.names import did_you_mean

        raise InputError(
            f"server {server!r} is not {where}." + did_you_mean(server, snap.servers),
            source=source if source != "live" else None,
        )
    if principal is not None and principal != srv.principal:
        raise InputError(
            f"server {server!r} is served under principal {srv.principal!r}, not {principal!r}",
            source=source if source != "live" else None,
        )
    return srv


def check_configured(inp: Any, server: str) -> None:
    """Before fetching anything: a live approve/deny naming a server the config does not
    have is an input error, with the closest names."""
    if not inp.live or inp.config is None:
        return
    known = [s.name for s in inp.config.servers]
    if server not in known:
        from mcp_review.engine.names import did_you_mean

        raise InputError(
            f"no server {server!r} in the config." + did_you_mean(server, known),
            source=inp.config.source,
        )
