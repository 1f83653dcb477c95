"""`mcp-review check`: fetch live tool lists (or read a snapshot), compare with the pins, gate."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mcp_review.commands.snapshot import add_config_args, fetch, load


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    p.add_argument("--pins", default="mcp-pins.toml", metavar="FILE",
                   help="the pin file (default: ./mcp-pins.toml)")
    p.add_argument("--from-snapshot", metavar="FILE",
                   help="review a saved snapshot offline instead of connecting")
    p.add_argument("--format", choices=("text", "json", "markdown", "sarif"), default="text")
    p.add_argument("--fail-on", choices=("breaking", "review", "any"), default="review",
                   help="what fails the gate (exit 1): only breaking changes and blocked tools; "
                        "anything needing review (default); or any drift at all")
    p.add_argument("--calls", action="append", default=[], metavar="SERVER=PATH",
                   help="a server's recorded calls (JSONL), in addition to `calls` in the config")
    p.add_argument("--apply", action="store_true",
                   help="re-pin what the policy tiers auto-approve (logged in the audit log)")
    p.add_argument("--flag-version-bumps", action="store_true",
                   help="also note a server whose version changed while no tool did")
    p.add_argument("--no-witness", action="store_true",
                   help="do not generate witness calls for breaking changes")
    p.add_argument("--save-snapshot", metavar="FILE",
                   help="also write the fetched tool lists (as `snapshot --out`)")


def _calls(cfg: Any, specs: list[str]) -> dict[str, Any]:
    from mcp_review.commands._pinning import parse_calls
    from mcp_review.core.status import load_call_log

    out: dict[str, Any] = {}
    if cfg is not None:
        for s in cfg.servers:
            if s.calls:
                if os.path.exists(s.calls):
                    out[s.name] = load_call_log(s.calls)
                else:  # a proxy that has not recorded yet is not an error
                    print(f"mcp-review: note: no call log yet at {s.calls} (server {s.name!r})",
                          file=sys.stderr)
    out.update(parse_calls(specs))  # the same SERVER=PATH rule as status/approve
    return out


def run(args: argparse.Namespace) -> int:
    from mcp_review.core.pins import load_pins
    from mcp_review.core.snapshot import load_snapshot
    from mcp_review.core.status import apply_auto_approvals, compute_status
    from mcp_review.formats import check as fmt

    pins = load_pins(args.pins)  # fail early on a bad pin file, before connecting anywhere
    cfg = None
    if args.from_snapshot:
        snap = load_snapshot(args.from_snapshot)
        if args.config:
            cfg = load(args)
        if args.server:
            snap.servers = {n: s for n, s in snap.servers.items() if n in args.server}
    else:
        cfg = load(args)
        snap = fetch(args)
        if args.save_snapshot:
            with open(args.save_snapshot, "w", encoding="utf-8") as f:
                f.write(snap.dumps())
    tiers = {s.name: s.policy for s in cfg.servers if s.policy} if cfg is not None else {}
    report = compute_status(snap, pins, calls=_calls(cfg, args.calls), tiers=tiers,
                            witnesses=not args.no_witness,
                            version_bumps=args.flag_version_bumps)
    if args.apply and report.auto_approvals:
        from mcp_review.core.pins import save_pins

        done = apply_auto_approvals(report, pins)
        save_pins(pins, args.pins)
        print(f"mcp-review: re-pinned {len(done)} auto-approved tool(s) in {args.pins}",
              file=sys.stderr)
    sys.stdout.write(fmt.render(report, args.format, args.fail_on,
                                config_path=cfg.source if cfg is not None else None))
    return fmt.exit_code(report, args.fail_on)
