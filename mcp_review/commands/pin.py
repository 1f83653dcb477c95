"""`mcp-review pin [--snapshot FILE]`: baseline — pin what is served now, holding back what needs eyes.

The configured live servers by default (like `check`), or a saved snapshot. A baseline is not
a blanket approval:

- new tools and unchanged ones are pinned; a new tool the policy blocks (hidden characters, a
  look-alike name) is held back;
- a pinned tool whose definition changed is re-pinned only when the change is compatible or
  cosmetic (or potentially breaking with no broken call); a breaking or trust change, a broken
  recorded call, or a change the engine could not name is held back and listed with its class;
- ``--yes`` (after reviewing them) pins the held-back tools too; denied tools stay denied
  unless ``--force``.

Unchanged pins are left as they are (no churn). Pins of approved tools a server no longer
serves are dropped (the baseline is what is served now; a returning tool is new and reviewed),
and so are the running version's definitions an upgrade preview kept approved once the running
version no longer serves them (engine/candidate.py).

``--candidate`` baselines each server's ``[servers.NAME.candidate]`` under the server's name:
approvals keep the running version's beside them, nothing is dropped for a tool the candidate
does not serve (the running version may still serve it), and the candidate's server
instructions are held back (the running version's stay approved until the switch).
Every approval is printed with its class. Exit 0 when everything served is pinned (or kept
denied), 1 when something was held back, 3 when a server could not be read, 2 on input errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp_review.cli_args import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_format_option,
    add_pins_option,
    add_sign_option,
    input_options,
)
from mcp_review.engine import exitcodes
from mcp_review.engine.verdict import needs_confirmation
from mcp_review.formats import decisions as show
from mcp_review.services import decisions
from mcp_review.services.surface_decisions import baseline_surfaces


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_candidate_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="saved tool lists (the `snapshot` command's JSON) instead of fetching "
        "the configured servers",
    )
    add_pins_option(p)
    add_sign_option(p)
    add_calls_option(p)
    p.add_argument("--note", default="", help="note stored with each new decision")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    p.add_argument(
        "--yes",
        action="store_true",
        help="also pin what is held back (breaking or trust changes, tools the "
        "policy blocks), after reviewing it",
    )
    p.add_argument("--force", action="store_true", help="also approve tools that were denied")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.status import State
    from mcp_review.services.inputs import resolve

    inp = resolve(input_options(args))
    inp.print_notes()
    # Witnesses decide whether a potentially-breaking change is breaking: the same answer as check.
    # --server: only the servers named start; the others are judged by their pinned names.
    report = inp.status(inp.snapshot(), pinned_elsewhere=bool(inp.only))
    pins = inp.pins
    servers = {s.name: s for s in report.servers}
    held: list[dict[str, str]] = []
    classes: dict[Any, str] = {}
    candidates = set(inp.candidates)
    pruned_keys: set[tuple[str, str, str]] = set()
    findings: dict[Any, Any] = {}  # an approval's protocol findings, shown beside it
    for t in report.tools:
        key = "/".join(safe_text(k) for k in t.key)
        if t.pin is not None and t.server not in candidates:
            _prune_unserved(t, pins, args, pruned_keys)
        if t.state is State.REMOVED:
            if t.server not in candidates:  # else the running version may still serve it
                _forget_removed(t, pins, args)
            continue
        if t.state is State.PINNED or t.live is None:
            continue
        cls = show.change_class(t)
        hold = _hold_back(t, args, key, cls)
        if hold is not None:
            held.append(hold)
            continue
        classes[t.key] = cls
        if t.protocol:
            findings[t.key] = t.protocol
        _approve_tool(t, servers[t.server], pins, args, cls, candidate=t.server in candidates)
    for s in report.servers:
        _baseline_instructions(s, pins, args, held, classes, candidate=s.name in candidates)
        baseline_surfaces(
            s,
            pins,
            held,
            yes=args.yes,
            force=args.force,
            by=args.by,
            note=args.note,
            candidate=s.name in candidates,
        )
    records = []
    if pins.pending:
        result = decisions.save(pins, inp.pins_path)
        show.report_save(result, inp.pins_path)
        records = show.with_class(
            result.audit_records, classes, pruned=pruned_keys, protocol=findings
        )
    _warn_unreachable(report)
    show.print_records(records, args.format, {"skipped": held})
    if args.format == "text":
        _print_summary(held, records, inp.pins_path)
    if any(not h["why"].startswith("denied") for h in held):
        return exitcodes.FAIL
    if report.unreachable:
        return exitcodes.UNREACHABLE
    return exitcodes.PASS


def _prune_unserved(
    t: Any, pins: Any, args: argparse.Namespace, pruned_keys: set[tuple[str, str, str]]
) -> None:
    """What the running version no longer serves is no longer approved beside the pin."""
    from mcp_review.engine.candidate import prune
    from mcp_review.engine.status import State

    pruned = prune(t.pin, {t.live_digest} if t.live_digest else set())
    if pruned is not None and t.state is not State.REMOVED:
        pruned_keys.add(t.key)
        decisions.record_pin(
            pins,
            pruned,
            why=args.note
            or "baseline: an earlier approved definition "
            "is no longer served by the running version",
            source="pin",
        )


def _forget_removed(t: Any, pins: Any, args: argparse.Namespace) -> None:
    """A tool the running version no longer serves leaves the baseline, unless it is denied
    or its approval waits for an upgrade."""
    from mcp_review.engine.candidate import awaiting_upgrade

    if t.pin is not None and t.pin.approved and not awaiting_upgrade(t.pin):
        decisions.forget_tool(
            pins,
            t.key,
            by=args.by,
            why=args.note or "baseline: no longer served",
            source="pin",
        )


def _hold_back(t: Any, args: argparse.Namespace, key: str, cls: str) -> dict[str, str] | None:
    """Why a served tool is not approved into the baseline (denied without ``--force``,
    blocked or needing confirmation without ``--yes``), else None."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.policy import approval_allowed
    from mcp_review.engine.status import State

    denied = t.state is State.DENIED or t.previously_denied
    if denied and not args.force:
        return {"tool": key, "class": cls, "why": "denied (use --force to approve)"}
    if not args.yes:
        if not approval_allowed(Decision.APPROVED, t.policy.outcome, args.yes):
            return {"tool": key, "class": cls, "why": "blocked: " + "; ".join(t.policy.reasons)}
        if needs_confirmation(t):
            return {"tool": key, "class": cls, "why": "; ".join(t.policy.reasons) or cls}
    return None


def _approve_tool(
    t: Any, srv: Any, pins: Any, args: argparse.Namespace, cls: str, *, candidate: bool
) -> None:
    """Approve a served tool's definition into the baseline, the audit saying what a
    ``--yes`` confirmed."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.policy import blocked_approval
    from mcp_review.engine.status import accepted

    confirmed = blocked_approval(Decision.APPROVED, t.policy.outcome) or needs_confirmation(t)
    decisions.decide_tool(
        pins,
        t.key,
        Decision.APPROVED,
        live=t.live,
        by=args.by,
        note=args.note,
        why=decisions.audit_why(
            Decision.APPROVED,
            f"baseline, {accepted(t)}",
            note=args.note,
            blocked=(t.policy.reasons or (cls,)) if confirmed else (),
            confirmed="with --yes",
        ),
        source="pin",
        server_version=srv.server_version,
        protocol_version=srv.protocol_version,
        candidate=candidate,
        before=t.pin,
    )


def _warn_unreachable(report: Any) -> None:
    """Warn on stderr about each server that could not be read: its pins were left alone."""
    from mcp_review.engine.hidden import safe_text

    for s in report.unreachable:
        err = s.error or {}
        print(
            f"mcp-review: warning: server {safe_text(s.name)} could not be read "
            f"({safe_text(str(err.get('kind') or 'error'))}: "
            f"{safe_text(str(err.get('message') or 'no detail'))}); "
            "its pins were left as they are",
            file=sys.stderr,
        )


def _print_summary(held: list[dict[str, str]], records: list[Any], pins_path: Any) -> None:
    """The text format's closing lines: what was held back, how many decisions were written,
    and what to do about the held ones."""
    from mcp_review.engine.hidden import safe_text

    for h in held:
        print(f"held back ({safe_text(h['class'])}): {h['tool']}: {safe_text(h['why'])}")
    print(f"{len(records)} decision(s) written to {pins_path}")
    if any(not h["why"].startswith("denied") for h in held):
        print(
            "review them (mcp-review status, or the app), then approve each one, or "
            "rerun pin with --yes"
        )


def _baseline_instructions(
    s: Any,
    pins: Any,
    args: argparse.Namespace,
    held: list[dict[str, str]],
    classes: dict[Any, str],
    *,
    candidate: bool = False,
) -> None:
    """A server's instructions in the baseline, like a tool's description: new ones are pinned
    (unless hidden characters block them), changed ones are held back (text the model reads:
    a trust change) until ``--yes``, denied ones until ``--force``."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.pins import make_instructions_pin
    from mcp_review.engine.policy import approval_allowed, blocked_approval

    i = s.instructions
    if i is None or i.state == "pinned":
        return
    key = f"{safe_text(s.name)}/{safe_text(s.principal)}/(instructions)"
    if candidate:
        # One approved text per server: pinning the candidate's would withhold the running
        # version's from its clients (the proxy passes approved instructions only).
        if i.state != "removed":
            held.append(
                {
                    "tool": key,
                    "class": "instructions",
                    "why": "a candidate's server instructions are pinned after the "
                    "switch (the running version's stay approved until then)",
                }
            )
        return
    if i.state == "removed":
        if i.pin is not None and i.pin.approved:
            held.append(
                {
                    "tool": key,
                    "class": "removed",
                    "why": "approved instructions no longer sent (deny them with "
                    "`mcp-review deny SERVER --instructions` to acknowledge)",
                }
            )
        return
    if (i.state == "denied" or i.previously_denied) and not args.force:
        held.append(
            {"tool": key, "class": "instructions", "why": "denied (use --force to approve)"}
        )
        return
    if not approval_allowed("approved", i.policy.outcome, args.yes) or (
        i.state == "changed" and not args.yes
    ):
        held.append(
            {
                "tool": key,
                "class": "trust" if i.state == "changed" else "new",
                "why": "; ".join(i.policy.reasons),
            }
        )
        return
    assert i.live is not None
    confirmed = i.state == "changed" or blocked_approval("approved", i.policy.outcome)
    classes[(s.name, s.principal, None)] = f"{i.state} server instructions"
    decisions.decide_instructions_pin(
        pins,
        make_instructions_pin(
            s.name,
            i.live,
            "approved",
            principal=s.principal,
            by=args.by,
            note=args.note,
            server_version=s.server_version,
        ),
        why=decisions.audit_why(
            "approved",
            f"baseline, {i.state} server instructions",
            note=args.note,
            blocked=(i.policy.reasons or ("changed text",)) if confirmed else (),
            confirmed="with --yes",
        ),
        source="pin",
    )
