"""`mcp-review status [--snapshot FILE]`: each tool against the pin file, with the tiers.

The configured live servers by default (like `check`), or a saved snapshot. The text is one
line per decision (a group of alike changes, or a tool alone) in the engine's visiting order
(formats/status_brief.py); ``--verbose`` lists each tool with every change, reason and cue,
``--groups`` each decision with its members' own values; ``--format json`` has everything. Exit 0 when every
tool is pinned, denied or auto-approvable; 1 when anything needs review, is blocked or broken;
2 on an input error; 3 when nothing needs review but a server could not be read. Read-only
unless ``--apply``, which re-pins auto-approved tools and logs each in the audit log.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review.cli_args import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_format_option,
    add_hosts_option,
    add_pins_option,
    add_report_options,
    add_sign_option,
    input_options,
)
from mcp_review.formats import decisions as show


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
    add_format_option(p)
    p.add_argument(
        "--apply",
        action="store_true",
        help="write the auto-approvals the policy tiers allow (logged)",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text: each tool with every change, policy reason, cue and replayed call (by "
        "default one line per decision; the JSON always has everything)",
    )
    p.add_argument(
        "--all",
        action="store_true",
        dest="show_all",
        help="text: as --verbose, and list pinned, unchanged tools too",
    )
    p.add_argument(
        "--groups",
        action="store_true",
        help="the decisions the drift needs, by kind of change: each group (one decision "
        "for every tool with that kind of change, `approve --group ID`) and each tool that "
        "stands alone, in the order to visit them (JSON: 'groups' and 'alone' beside the "
        "usual fields)",
    )
    add_report_options(p)
    add_hosts_option(p)


def run(args: argparse.Namespace) -> int:
    from mcp_review.formats import status as fmt
    from mcp_review.services.decisions import apply_auto_approvals
    from mcp_review.services.inputs import resolve
    from mcp_review.store.pinfile import save_pins

    inp = resolve(input_options(args), stream_calls=True)
    inp.print_notes()
    report = inp.status(
        inp.snapshot(),
        witnesses=not args.no_witness,
        version_bumps=args.flag_version_bumps,
        keep_valid_calls=args.all_calls,
    )
    applied = []
    if args.apply and report.auto_approvals:
        applied = apply_auto_approvals(report, inp.pins, candidates=inp.candidates)
        show.report_save(save_pins(inp.pins, inp.pins_path), inp.pins_path)
    grouping = None
    if args.groups:
        from mcp_review.engine.kinds import group_report

        grouping = group_report(report)
    if args.format == "json":
        sys.stdout.writelines(
            fmt.iter_json(report, applied=applied, all_calls=args.all_calls, grouping=grouping)
        )
    elif grouping is not None:
        sys.stdout.write(fmt.groups_text(report, grouping, applied=applied))
    elif args.verbose or args.show_all:
        sys.stdout.write(
            fmt.to_text(report, applied=applied, verbose=args.show_all, all_calls=args.all_calls)
        )
    else:
        from mcp_review.engine.kinds import group_report
        from mcp_review.formats.status_brief import brief_text

        sys.stdout.write(brief_text(report, group_report(report), applied=applied))
    return report.exit_code()
