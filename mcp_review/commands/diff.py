"""`mcp-review diff SERVER TOOL [--snapshot FILE]`: one tool's pinned definition against the one
served now (live, like `check`, or from a saved snapshot), as a unified diff of the JSON with
every change classified and the recorded calls replayed.

``--candidate`` diffs the server's ``[servers.NAME.candidate]`` (run in its place) against the
server's pin, as ``check --candidate`` judges it; the output says so first.

Read-only. The same inputs and the same status computation as `status` (services/inputs.py), so
the diff of a tool says what `status` says about it. Exit 0 when the diff was shown (whatever
it shows), 2 when the server or the tool is unknown (neither served nor pinned) or on an input
error, 3 when the server could not be reached.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review.cli_args import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_hosts_option,
    add_pins_option,
    input_options,
)
from mcp_review.engine import exitcodes
from mcp_review.formats.output import REPORT, OutputFormat, choices


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("server", metavar="SERVER", help="the server's local name")
    p.add_argument(
        "tool",
        metavar="TOOL",
        nargs="?",
        default=None,
        help="the tool name (or name one prompt, resource or template with the options below)",
    )
    from mcp_review.cli_args import add_surface_options

    add_surface_options(p, "diff")
    add_config_args(p, server_option=False)
    add_candidate_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="saved tool lists (the `snapshot` command's JSON) instead of fetching "
        "the configured server",
    )
    add_pins_option(p)
    add_hosts_option(p)
    p.add_argument(
        "--principal", default=None, help="authorization context (default: the server's)"
    )
    add_calls_option(p)
    p.add_argument("--format", choices=choices(REPORT), default=OutputFormat.TEXT.value)


def run(args: argparse.Namespace) -> int:
    from mcp_review.cli_args import surface_target
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.names import find_name, not_found, shown
    from mcp_review.formats import diff as fmt
    from mcp_review.services.inputs import resolve

    target = surface_target(args)
    if (args.tool is None) == (target is None):
        raise InputError("name a TOOL, or one --prompt, --resource or --resource-template")
    inp = resolve(input_options(args), server_filter=False)
    inp.print_notes()
    source = inp.snapshot_path
    if source is None:
        cfg = inp.config
        assert cfg is not None  # live: resolve required a config
        known = [s.name for s in cfg.servers]
        if args.server not in known:
            raise InputError(
                f"no server {shown(args.server)} in the config"
                + not_found(args.server, known, "servers"),
                source=cfg.source,
            )
        inp.only = [args.server]  # the diff needs this server's definitions only
    snap = inp.snapshot()
    srv = snap.servers.get(args.server)
    if srv is None:
        raise InputError(
            f"server {shown(args.server)} is not in the snapshot"
            + not_found(args.server, snap.servers, "servers"),
            source=source,
        )
    if args.principal is not None and args.principal != srv.principal:
        raise InputError(
            f"server {args.server!r} is served under principal {srv.principal!r}, "
            f"not {args.principal!r}",
            source=source,
        )
    if srv.error:
        msg = (
            f"{safe_text(str(srv.error.get('kind') or 'error'))}: "
            f"{safe_text(str(srv.error.get('message') or 'no detail'))}"
        )
        if inp.live:
            print(
                f"mcp-review: server {safe_text(args.server)} could not be reached ({msg})",
                file=sys.stderr,
            )
            return exitcodes.UNREACHABLE
        raise InputError(
            f"server {args.server!r} could not be read when the snapshot was taken", source=source
        )
    snap.servers = {args.server: srv}
    report = inp.status(snap, witnesses=True)
    if target is not None:
        return _diff_surface(report, args, target)
    names = [t.tool for t in report.tools if t.server == args.server]
    digests = {
        t.tool: t.live_digest or (t.pin.digest if t.pin is not None else None)
        for t in report.tools
        if t.server == args.server
    }
    tool = find_name(args.tool, digests)  # an escaped form (r\u0435ad_file) names its tool
    st = next((t for t in report.tools if t.tool == tool and t.server == args.server), None)
    if st is None:
        where = "in the snapshot" if source else "now"
        raise InputError(
            f"tool {shown(args.tool)} is neither served by {shown(args.server)} {where} nor "
            f"pinned for it in {inp.pins_path}" + not_found(args.tool, names, "tools")
        )
    from mcp_review.formats.status import call_log_notes

    for served in report.servers:
        if served.name == args.server:  # a planted or torn line is named, as status names it
            for note in call_log_notes(served):
                print(f"mcp-review: note: {note}", file=sys.stderr)
    candidate = args.server in inp.candidates
    if getattr(args, "candidate", False) and not candidate:
        raise InputError(
            f"--candidate: server {args.server!r} names no candidate "
            "([servers.NAME.candidate] in the config)"
        )
    if args.format == "json":
        import json

        from mcp_review.engine.hidden import json_dumps_safe

        doc = json.loads(fmt.to_json(st, report.hosts))
        # Said before anything else, as in every report (docs/formats.md "Upgrade previews").
        head = {k: doc.pop(k) for k in ("format", "version")}
        doc = {**head, "candidate": candidate, **doc}
        sys.stdout.write(json_dumps_safe(doc, indent=2) + "\n")
    else:
        if candidate:
            from mcp_review.formats.status import candidate_line

            sys.stdout.write(candidate_line(report) + "\n")
        sys.stdout.write(fmt.to_text(st, report.hosts))
    return exitcodes.PASS


def _diff_surface(report: object, args: argparse.Namespace, target: tuple[str, str]) -> int:
    """``diff SERVER --prompt NAME``: the classified changes, cues, witnesses and
    the definition's diff of one prompt, resource or template."""
    from mcp_review.engine.errors import InputError
    from mcp_review.formats import surfaces as surf_fmt

    kind, name = target
    found = [
        x
        for s in getattr(report, "servers", [])
        if s.name == args.server
        for x in s.surfaces
        if x.kind == kind and x.name == name
    ]
    if not found:
        from mcp_review.engine.names import not_found, shown

        names = [
            x.name
            for s in getattr(report, "servers", [])
            if s.name == args.server
            for x in s.surfaces
            if x.kind == kind
        ]
        raise InputError(
            f"{kind} {shown(name)} is neither served by {shown(args.server)} nor pinned for it"
            + not_found(name, names, f"{kind}s")
        )
    x = found[0]
    if args.format == "json":
        from mcp_review.engine.hidden import json_dumps_safe

        doc = {**surf_fmt.json_entry(x), "diff": x.diff()}
        sys.stdout.write(json_dumps_safe(doc, indent=2) + "\n")
    else:
        lines = surf_fmt.text_lines(x, False, diff=False)
        lines += surf_fmt.diff_lines(x, indent="  ")
        sys.stdout.write("\n".join(lines) + "\n")
    return exitcodes.PASS
