"""`mcp-review status --snapshot FILE`: each saved tool against the pin file, with the tiers.

Exit 0 when every tool is pinned, denied or auto-approvable; 1 when anything needs review, is
blocked or broken; 2 on an input error; 3 when nothing needs review but a server in the
snapshot could not be read. Read-only unless ``--apply``, which re-pins auto-approved tools
and logs each in the audit log.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review.commands import _pinning


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--snapshot", required=True, metavar="FILE",
                   help="saved tool lists (the `snapshot` command's JSON)")
    _pinning.add_pins_option(p)
    _pinning.add_calls_option(p)
    _pinning.add_format_option(p)
    p.add_argument("--apply", action="store_true",
                   help="write the auto-approvals the policy tiers allow (logged)")
    p.add_argument("--all", action="store_true", dest="show_all",
                   help="text: list pinned, unchanged tools too")
    p.add_argument("--flag-version-bumps", action="store_true",
                   help="also note a server whose version changed while no tool did")
    p.add_argument("--no-witness", action="store_true",
                   help="do not generate witness calls for breaking changes")


def run(args: argparse.Namespace) -> int:
    from mcp_review.core.pins import save_pins
    from mcp_review.core.status import apply_auto_approvals, compute_status
    from mcp_review.formats import status as fmt

    snap, pins = _pinning.load_inputs(args)
    calls = _pinning.parse_calls(args.calls)
    unknown = sorted(set(calls) - set(snap.servers))
    for name in unknown:
        print(f"mcp-review: warning: --calls names server {name!r}, which is not in the "
              "snapshot", file=sys.stderr)
    report = compute_status(snap, pins, calls=calls, witnesses=not args.no_witness,
                            version_bumps=args.flag_version_bumps)
    applied = []
    if args.apply and report.auto_approvals:
        applied = apply_auto_approvals(report, pins)
        _pinning.report_save(save_pins(pins, args.pins), args.pins)
    if args.format == "json":
        sys.stdout.write(fmt.to_json(report, applied=applied))
    else:
        sys.stdout.write(fmt.to_text(report, applied=applied, verbose=args.show_all))
    return report.exit_code()
