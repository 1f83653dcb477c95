"""`mcp-review check`: fetch live tool lists (or read a snapshot), compare with the pins, gate."""

from __future__ import annotations

import argparse
import sys

from mcp_review.services.inputs import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_pins_option,
)


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_candidate_option(p)
    add_pins_option(p)
    p.add_argument("--from-snapshot", metavar="FILE",
                   help="review a saved snapshot offline instead of connecting (the config is "
                        "still discovered for calls and policy tiers)")
    p.add_argument("--format", choices=("text", "json", "markdown", "sarif"), default="text")
    p.add_argument("--fail-on", choices=("breaking", "review", "any"), default="review",
                   help="what fails the gate (exit 1): only breaking changes and blocked tools; "
                        "anything needing review (default); or any drift at all")
    add_calls_option(p)
    p.add_argument("--apply", action="store_true",
                   help="re-pin what the policy tiers auto-approve (logged in the audit log)")
    p.add_argument("--flag-version-bumps", action="store_true",
                   help="also note a server whose version changed while no tool did")
    p.add_argument("--all-calls", action="store_true",
                   help="list every replayed call (default: broken calls and bad recordings, "
                        "the first 20 of each in text, counts for the rest)")
    p.add_argument("--no-witness", action="store_true",
                   help="do not generate witness calls for breaking changes")
    p.add_argument("--save-snapshot", metavar="FILE",
                   help="also write the fetched tool lists (as `snapshot --out`)")


def run(args: argparse.Namespace) -> int:
    from mcp_review.core.status import apply_auto_approvals
    from mcp_review.formats import check as fmt
    from mcp_review.services.inputs import resolve

    inp = resolve(args, snapshot_attr="from_snapshot")
    inp.print_notes()
    snap = inp.snapshot()
    if inp.live and args.save_snapshot:
        with open(args.save_snapshot, "w", encoding="utf-8") as f:
            f.write(snap.dumps())
    report = inp.status(snap, witnesses=not args.no_witness,
                        version_bumps=args.flag_version_bumps,
                        keep_valid_calls=args.all_calls)
    if args.apply and report.auto_approvals:
        from mcp_review.commands import _pinning
        from mcp_review.core.pins import save_pins

        done = apply_auto_approvals(report, inp.pins, candidates=inp.candidates)
        _pinning.report_save(save_pins(inp.pins, inp.pins_path), inp.pins_path)
        print(f"mcp-review: re-pinned {len(done)} auto-approved tool(s) in {inp.pins_path}",
              file=sys.stderr)
    cfg = inp.config
    sys.stdout.writelines(fmt.iter_render(report, args.format, args.fail_on,
                                          config_path=cfg.source if cfg is not None else None,
                                          all_calls=args.all_calls))
    return fmt.exit_code(report, args.fail_on)
