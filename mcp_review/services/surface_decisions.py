"""``approve``/``deny`` ``SERVER --prompt NAME`` / ``--resource URI`` /
``--resource-template NAME``: decide exactly the prompt, resource or template the
server serves now (or served in the snapshot), as ``--instructions`` decides instructions
(services/decisions.py ``decide_instructions``): a blocked one (a blocking cue, hidden
characters) needs ``--yes`` to approve; deny works on the pinned definition when it is no
longer served."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine.clock import current_user, now_utc
from mcp_review.engine.surfaces import (
    make_surface_pin,
    surface_key,
    surface_status,
)
from mcp_review.services.decisions import (
    DecisionRequest,
    InstructionsDecision,
    audit_why,
    decide_subject,
    decide_surface_pin,
    refuse_unserved,
    served_and_principal,
)

if TYPE_CHECKING:
    from mcp_review.engine.pins import PinFile
    from mcp_review.engine.snapshot import Snapshot
    from mcp_review.engine.status import ServerStatus
    from mcp_review.engine.surfaces import SurfaceStatus
    from mcp_review.services.inputs import Inputs


# The command-line options naming a prompt, resource or template (add_surface_options,
# surface_target) live with the other target checks in mcp_review/cli_args.py.
@dataclass(slots=True)
class SurfaceDecision(InstructionsDecision):
    """The outcome of deciding a prompt, resource or template: the fields of an
    instructions decision, the label naming the surface."""


def decide_surface(
    req: DecisionRequest, inp: Inputs, snap: Snapshot, decision: str, target: tuple[str, str]
) -> SurfaceDecision:
    from mcp_review.engine.hidden import safe_text

    kind, name = target
    pins = inp.pins
    srv, principal = served_and_principal(req, inp, snap)
    key = (req.server, principal, kind, name)
    old = pins.surfaces.get(key)
    live = None
    if srv is not None:
        live = next((w for w in srv.surfaces.get(kind, []) if surface_key(kind, w) == name), None)
    out = SurfaceDecision(
        f'{safe_text(req.server)}/{safe_text(principal)} {kind} "{safe_text(name)}"', decision
    )
    if live is None:
        from mcp_review.engine.names import shown

        served = {surface_key(kind, w) for w in (srv.surfaces.get(kind, []) if srv else [])}
        pinned = {k[3] for k in pins.surfaces if k[:3] == (req.server, principal, kind)}
        names = {n for n in served if n is not None}
        names |= pinned if decision != "approved" else set()
        refuse_unserved(
            req,
            inp,
            decision,
            old,
            f"serves no {kind} {shown(name)}",
            "none is pinned",
            known=(name, sorted(names), f"{kind}s"),
        )
        assert old is not None  # refuse_unserved raised: nothing served, nothing pinned
        wire = old.wire
    else:
        wire = live
    st = surface_status(req.server, principal, kind, name, wire, old, pins.tier_for(req.server))

    def make_pin() -> Any:
        return make_surface_pin(
            req.server,
            kind,
            wire,
            decision,
            principal=principal,
            by=req.by or current_user(),
            at=now_utc(),
            note=req.note,
            server_version=srv.server_version if srv is not None else None,
        )

    def store(pin: Any, why: str, source: str) -> None:
        decide_surface_pin(pins, pin, why=why, source=source)

    return decide_subject(req, inp, out, old, st, kind, make_pin, store)


def baseline_surfaces(
    s: ServerStatus,
    pins: PinFile,
    held: list[dict[str, str]],
    *,
    yes: bool,
    force: bool,
    by: str | None,
    note: str,
    candidate: bool = False,
) -> None:
    """``pin``: a server's prompts, resources and templates in the baseline, as its
    instructions (commands/pin.py): new ones are pinned unless a cue blocks them, changed
    ones are held back until ``--yes`` (``yes``), denied ones until ``--force`` (``force``);
    a candidate's wait for the switch. ``by`` and ``note`` are recorded with each pin."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.policy import approval_allowed, blocked_approval

    for x in s.surfaces:
        if x.state in ("pinned", "unlisted"):
            continue
        key = f"{safe_text(s.name)}/{safe_text(s.principal)}/({x.kind}) {safe_text(x.name)}"
        why = ""
        klass = "trust" if x.state == "changed" else x.state
        if candidate:
            why = f"a candidate's {x.kind}s are pinned after the switch"
        elif x.state == "removed":
            if x.pin is not None and x.pin.approved:
                why = f"approved {x.kind} no longer served (deny it to acknowledge)"
            else:
                continue
        elif (x.state == "denied" or x.previously_denied) and not force:
            why = "denied (use --force to approve)"
        elif not approval_allowed("approved", x.policy.outcome, yes) or (
            x.state == "changed" and not yes
        ):
            why = "; ".join(x.policy.reasons)
            if x.breaking:
                klass = "breaking"
        if why:
            held.append({"tool": key, "class": klass, "why": why})
            continue
        assert x.live is not None
        confirmed = x.state == "changed" or blocked_approval("approved", x.policy.outcome)
        spin = make_surface_pin(
            s.name,
            x.kind,
            x.live,
            "approved",
            principal=s.principal,
            by=by or current_user(),
            at=now_utc(),
            note=note,
            server_version=s.server_version,
        )
        decide_surface_pin(
            pins,
            spin,
            seen=x,
            why=audit_why(
                "approved",
                f"baseline, {x.state} {x.kind}",
                note=note,
                blocked=(x.policy.reasons or ("changed",)) if confirmed else (),
                confirmed="with --yes",
            ),
            source="pin",
        )


@dataclass(slots=True)
class ReviewedSurface:
    """What :func:`decide_reviewed_surface` recorded (the caller saves with
    ``services.decisions.save``)."""

    pin: Any = None
    """The decision recorded (a ``SurfacePin``), None when refused."""
    before: Any = None
    """The decision it replaced on the pin file (None: there was none)."""
    blocked: list[str] = field(default_factory=list)
    """Why a blocked approval was refused (no reason given): nothing recorded."""


def decide_reviewed_surface(
    pins: PinFile,
    shown: SurfaceStatus,
    decision: str,
    *,
    source: str,
    why: str = "",
    note: str = "",
    by: str | None = None,
    confirmed: str = "in the review app",
    server_version: str | None = None,
) -> ReviewedSurface:
    """The app's ``approve``/``deny`` of one prompt, resource or template: exactly the
    definition its screen showed (``shown``: the engine's ``SurfaceStatus`` the row was built
    from), judged again here against the pin file as it is now, recorded on ``pins`` with the
    audit wording every front end uses (``decisions.audit_why``), in the same
    ``[servers.S.principals.P.<kind>]`` table as ``approve SERVER --prompt NAME``.

    As :func:`decide_surface` (the CLI), a blocked approval (a blocking cue, hidden
    characters) needs a confirmation: here the operator's typed reason (``why``); without it
    nothing is recorded and :attr:`ReviewedSurface.blocked` says why. A deny of a surface no
    longer served denies the pinned definition. The decision is made against the pin the
    screen was computed with: ``ChangedMeanwhile`` on save when another writer decided since
    (compare-and-set)."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.policy import approval_allowed, blocked_approval

    if decision not in ("approved", "denied"):
        raise ValueError(f"unknown decision {decision!r}")
    old = shown.pin
    wire = shown.live if shown.live is not None else (old.wire if old is not None else None)
    if wire is None or (decision == "approved" and shown.live is None):
        raise ValueError(
            f'{shown.kind} "{safe_text(shown.name)}" is not served: nothing to approve'
            if decision == "approved"
            else f'{shown.kind} "{safe_text(shown.name)}" is neither served nor pinned'
        )
    # Judged again from what is decided (never the caller's word for it).
    st = surface_status(
        shown.server,
        shown.principal,
        shown.kind,
        shown.name,
        wire,
        old,
        pins.tier_for(shown.server),
    )
    out = ReviewedSurface(before=pins.surfaces.get(shown.key))
    # The one judgement of a blocked approval (engine.policy): here the typed reason confirms.
    blocked = blocked_approval(decision, st.policy.outcome)
    if not approval_allowed(decision, st.policy.outcome, why):
        out.blocked = list(st.policy.reasons)
        return out
    accepted = f"{st.state} {shown.kind}" if shown.live is not None else f"removed {shown.kind}"
    reason = audit_why(
        decision,
        accepted,
        note="; ".join(w for w in (why, note) if w),
        blocked=st.policy.reasons if blocked else (),
        confirmed=confirmed,
    )
    pin = make_surface_pin(
        shown.server,
        shown.kind,
        wire,
        decision,
        principal=shown.principal,
        by=by or current_user(),
        at=now_utc(),
        note=note,
        server_version=server_version,
    )
    decide_surface_pin(pins, pin, why=reason, source=source, expect=old, seen=st)
    out.pin = pin
    return out
