"""`mcp-review check`: fetch live tool lists (or read a snapshot), compare with the pins, gate."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_review.engine.status import StatusReport
    from mcp_review.services.inputs import Inputs

from mcp_review.cli_args import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_hosts_option,
    add_pins_option,
    add_report_options,
    add_require_options,
    add_sign_option,
    input_options,
)
from mcp_review.engine.verdict import FAIL_ON, exit_code, verdict_word, with_rerun
from mcp_review.formats.output import CHECK, OutputFormat, choices


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_candidate_option(p)
    add_pins_option(p)
    add_sign_option(p)
    add_require_options(p)
    p.add_argument(
        "--from-snapshot",
        metavar="FILE",
        help="review a saved snapshot offline instead of connecting (the config is "
        "still discovered for calls and policy tiers)",
    )
    p.add_argument("--format", choices=choices(CHECK), default=OutputFormat.TEXT.value)
    p.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="review",
        help="what fails the gate (exit 1): only breaking changes and blocked tools; "
        "anything needing review (default); or any drift at all",
    )
    add_calls_option(p)
    p.add_argument(
        "--apply",
        action="store_true",
        help="re-pin what the policy tiers auto-approve (logged in the audit log)",
    )
    add_report_options(p)
    add_hosts_option(p)
    p.add_argument(
        "--save-snapshot",
        metavar="FILE",
        help="also write the fetched tool lists (as `snapshot --out`)",
    )
    p.add_argument(
        "--rerun",
        action="store_true",
        help="also re-send recorded read-only calls of each server and add the "
        "outcomes to the gate (a changed result needs review; docs/rerun.md)",
    )
    p.add_argument(
        "--yes",
        action="store_true",
        help="with --rerun: send without asking (needed when not in a terminal)",
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.formats import check as fmt
    from mcp_review.services.config import server_lines
    from mcp_review.services.decisions import apply_auto_approvals
    from mcp_review.services.inputs import resolve

    if args.rerun and args.from_snapshot:
        from mcp_review.engine.errors import InputError

        raise InputError("--rerun needs the live servers, not --from-snapshot")
    if args.rerun and args.format == "sarif":
        from mcp_review.engine.errors import InputError

        raise InputError("--rerun outcomes have no SARIF form: use --format text, json or markdown")
    if args.rerun and not args.yes and not sys.stdin.isatty():
        from mcp_review.engine.errors import InputError

        raise InputError(
            "--rerun sends calls to the servers: pass --yes (or run it in a "
            "terminal to confirm each server's plan)"
        )
    inp = resolve(input_options(args, snapshot_attr="from_snapshot"), stream_calls=True)
    inp.print_notes()
    snap = inp.snapshot()
    if inp.live and args.save_snapshot:
        with open(args.save_snapshot, "w", encoding="utf-8") as f:
            f.write(snap.dumps())
    report = inp.status(
        snap,
        witnesses=not args.no_witness,
        version_bumps=args.flag_version_bumps,
        keep_valid_calls=args.all_calls,
    )
    if args.apply and report.auto_approvals:
        from mcp_review.formats import decisions as show
        from mcp_review.store.pinfile import save_pins

        done = apply_auto_approvals(report, inp.pins, candidates=inp.candidates)
        show.report_save(save_pins(inp.pins, inp.pins_path), inp.pins_path)
        print(
            f"mcp-review: re-pinned {len(done)} auto-approved tool(s) in {inp.pins_path}",
            file=sys.stderr,
        )
    cfg = inp.config
    signed_rc = 0
    if args.require_signed:  # Every decision's signatures, on stderr
        from mcp_review.services.signing import require_signed

        signed_rc = require_signed(
            inp,
            lambda m: None if args.quiet else print(m, file=sys.stderr),
            signing_policy=args.signing_policy,
            base_rev=args.base,
        )
    if args.rerun:
        return max(_with_rerun(args, inp, report), signed_rc)
    sys.stdout.writelines(
        fmt.iter_render(
            report,
            args.format,
            args.fail_on,
            config_path=cfg.source if cfg is not None else None,
            all_calls=args.all_calls,
            config_lines=server_lines(cfg) if cfg is not None and args.format == "sarif" else None,
        )
    )
    rc = exit_code(report, args.fail_on)
    # Unsigned decisions fail the gate (1); an unreachable server (3) still says so.
    return rc if rc != 0 else signed_rc


def _with_rerun(args: argparse.Namespace, inp: Inputs, report: StatusReport) -> int:
    """check's report plus each server's rerun; the gate fails (under ``--fail-on review`` or
    ``any``) on a changed / shape-drift / now-error result, as on a change needing review."""
    from mcp_review.engine.hidden import json_dumps_safe, safe_text
    from mcp_review.formats import check as fmt
    from mcp_review.formats import rerun as rfmt
    from mcp_review.formats.jsonstream import plain
    from mcp_review.services.rerun import RerunUnreachable, Settings, call_log_for, run_server
    from mcp_review.store.calllog import DEFAULT_REDACT

    cfg = inp.config
    assert cfg is not None  # --rerun is live (run() refuses a snapshot): resolve required a config
    runs: list[dict] = []
    reports = []
    unreachable = False
    for srv in inp.servers:
        path = call_log_for(srv, cfg.state_dir)
        if not os.path.exists(path):
            runs.append({"server": srv.name, "error": None, "note": "no call log"})
            continue
        try:
            r = run_server(
                srv,
                inp.pins,
                path,
                Settings(redact=DEFAULT_REDACT),
                lambda p: rfmt.ask(p, yes=args.yes, quiet=args.quiet)[0],
            )
        except RerunUnreachable as e:
            unreachable = True
            runs.append({"server": srv.name, "error": str(e)})
            continue
        reports.append(r)
        runs.append({**r.to_json(), "error": None})
    rc = with_rerun(
        exit_code(report, args.fail_on),
        args.fail_on,
        rerun_failed=any(r.exit_code() for r in reports),
        unreachable=unreachable,
    )
    verdict = verdict_word(rc)
    if args.format == "json":
        doc = plain(
            fmt.report_doc(
                report,
                args.fail_on,
                all_calls=args.all_calls,
            )
        )
        doc["verdict"], doc["exit_code"], doc["rerun"] = verdict, rc, runs
        sys.stdout.write(json_dumps_safe(doc, indent=2) + "\n")
        return rc
    sys.stdout.writelines(
        fmt.iter_render(
            report,
            args.format,
            args.fail_on,
            config_path=cfg.source,
            all_calls=args.all_calls,
        )
    )
    out = ["", "## Rerun" if args.format == "markdown" else "Rerun of recorded read-only calls:"]
    for run in runs:
        if run.get("error"):
            out.append(
                f"  {safe_text(run['server'])}: could not be reached: {safe_text(run['error'])}"
            )
        elif run.get("note"):
            out.append(f"  {safe_text(run['server'])}: {run['note']}")
    body = "".join(rfmt.to_text(r) for r in reports)
    if args.format == "markdown":
        # An indented code block: every line is ours and indented, so no server text can
        # close it (line breaks inside server text are already tokens).
        body = "".join("    " + ln + "\n" for ln in body.splitlines())
    sys.stdout.write("\n".join(out) + "\n" + body + f"gate with rerun: {verdict} (exit {rc})\n")
    return rc
