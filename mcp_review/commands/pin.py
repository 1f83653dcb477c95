"""`mcp-review pin --snapshot FILE`: baseline — approve everything the snapshot serves.

Unchanged pins are left as they are (no churn in the file). Denied tools stay denied unless
``--force``. Tools the tiers would block (an annotation relaxed, hidden characters) are skipped
unless ``--yes``: a baseline must not launder a rug pull. Pins of approved tools a server no
longer serves are dropped (the baseline is what is served now; a returning tool is new and
is reviewed). Exit 0 when everything served is pinned (or kept denied), 1 when something was
skipped as blocked, 3 when a server in the snapshot could not be read, 2 on input errors.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review import exitcodes
from mcp_review.commands import _pinning


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--snapshot", required=True, metavar="FILE",
                   help="saved tool lists (the `snapshot` command's JSON)")
    _pinning.add_pins_option(p)
    p.add_argument("--server", action="append", default=[], metavar="NAME",
                   help="only this server (repeatable; default: every server in the snapshot)")
    p.add_argument("--note", default="", help="note stored with each new decision")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    p.add_argument("--yes", action="store_true",
                   help="also approve tools the policy blocks (annotation relaxed, hidden "
                        "characters)")
    p.add_argument("--force", action="store_true", help="also approve tools that were denied")
    _pinning.add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from mcp_review.core.errors import InputError
    from mcp_review.core.hidden import safe_text
    from mcp_review.core.pins import Decision, make_pin, save_pins
    from mcp_review.core.policy import Outcome
    from mcp_review.core.status import State, compute_status

    snap, pins = _pinning.load_inputs(args)
    for name in args.server:
        if name not in snap.servers:
            raise InputError(f"server {name!r} is not in the snapshot", source=args.snapshot)
    if args.server:
        snap.servers = {n: s for n, s in snap.servers.items() if n in args.server}
    report = compute_status(snap, pins, witnesses=False)
    servers = {s.name: s for s in report.servers}
    skipped: list[dict[str, str]] = []
    for t in report.tools:
        key = "/".join(safe_text(k) for k in t.key)
        if t.state is State.REMOVED:
            if t.pin is not None and t.pin.approved:
                pins.forget(t.server, t.principal, t.tool, who=args.by,
                            why=args.note or "baseline: no longer served", source="pin")
            continue
        if t.state in (State.PINNED,) or t.live is None:
            continue
        denied = t.state is State.DENIED or t.previously_denied
        if denied and not args.force:
            skipped.append({"tool": key, "why": "denied (use --force to approve)"})
            continue
        if t.policy.outcome is Outcome.BLOCK and not args.yes:
            skipped.append({"tool": key, "why": "blocked: " + "; ".join(t.policy.reasons)
                            + " (use --yes after reviewing it)"})
            continue
        srv = servers[t.server]
        pins.decide(
            make_pin(t.server, t.live, Decision.APPROVED, principal=t.principal, by=args.by,
                     note=args.note, server_version=srv.server_version,
                     protocol_version=srv.protocol_version),
            why=args.note or f"baseline ({t.state})", source="pin",
        )
    records = []
    if pins.pending:
        result = save_pins(pins, args.pins)
        _pinning.report_save(result, args.pins)
        records = result.audit_records
    for s in report.unreachable:
        print(f"mcp-review: warning: server {safe_text(s.name)} could not be read "
              f"({safe_text(str(s.error))}); its pins were left as they are", file=sys.stderr)
    _pinning.print_records(records, args.format, {"skipped": skipped})
    if args.format == "text":
        for s in skipped:
            print(f"skipped {s['tool']}: {safe_text(s['why'])}")
        print(f"{len(records)} decision(s) written to {args.pins}")
    if any(s["why"].startswith("blocked") for s in skipped):
        return exitcodes.FAIL
    if report.unreachable:
        return exitcodes.UNREACHABLE
    return exitcodes.PASS
