"""`mcp-review hosts`: what each host makes of the tools pinned now (a tool x host matrix), or
the host profiles themselves (``--profiles``: rules, effects, confidence, as_of, sources).

Reads the pin file (approved tools) and the config's ``[hosts]`` overrides; connects nowhere.
Exit 0, or 1 when a target host refuses a pinned tool (``--fail`` ; targets from ``--hosts``,
``[hosts] targets`` or the client configs), 2 on an input error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mcp_review.cli_args import input_options
from mcp_review.formats.output import REPORT, OutputFormat, choices

EXAMPLE = "mcp-review hosts --hosts claude-code,cursor --format json"

_CELL = {
    "session": "SESSION",
    "server": "SERVER",
    "tool": "DROPPED",
    "degrade": "degraded",
    "truncate": "cut",
}


def register(p: argparse.ArgumentParser) -> None:
    from mcp_review.cli_args import add_config_args, add_hosts_option, add_pins_option

    add_config_args(p, server_option=True)
    add_pins_option(p)
    add_hosts_option(p)
    p.add_argument("--format", choices=choices(REPORT), default=OutputFormat.TEXT.value)
    p.add_argument(
        "--profiles",
        action="store_true",
        help="list the host profiles (rules, effects, confidence, as_of, sources) and exit",
    )
    p.add_argument(
        "--all-hosts",
        action="store_true",
        help="one column per known profile, not only the targets",
    )
    p.add_argument(
        "--fail",
        action="store_true",
        help="exit 1 when a target host refuses (session, server, tool) a pinned tool",
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine import exitcodes
    from mcp_review.engine import hosts as H
    from mcp_review.engine.hidden import json_dumps_safe, safe_text
    from mcp_review.services.hosts import parse_hosts_option, resolve_targets, targets_note
    from mcp_review.services.inputs import load_config_for
    from mcp_review.store.pinfile import load_pins

    if args.list_configs:
        from mcp_review.services.discover import list_sources, list_text

        sys.stdout.write(list_text(list_sources()))
        return exitcodes.PASS
    cfg = load_config_for(input_options(args), required=False)
    given = getattr(args, "hosts", None)
    targets = resolve_targets(cfg, parse_hosts_option(given) if given else None)
    profiles_map = (
        cfg.hosts.profiles if cfg is not None and cfg.hosts is not None else dict(H.PROFILES)
    )
    if args.profiles:
        shown = [profiles_map[n] for n in (targets.names if targets and given else profiles_map)]
        if args.format == "json":
            sys.stdout.write(json_dumps_safe([p.to_json() for p in shown], indent=2) + "\n")
        else:
            sys.stdout.write(_profiles_text(shown))
        return exitcodes.PASS
    note = targets_note(targets)
    if note and not args.quiet:
        print(f"mcp-review: note: {note}", file=sys.stderr)
    names = list(profiles_map) if args.all_hosts or targets is None else list(targets.names)
    profiles = [profiles_map[n] for n in names]
    pins_path = args.pins or (cfg.pins if cfg is not None else None) or "mcp-pins.toml"
    pins = load_pins(pins_path)
    only = set(args.server or ())
    tools = [
        (s, p, pin.tool_def().wire)
        for (s, p, _t), pin in sorted(pins.pins.items())
        if pin.approved and (not only or s in only)
    ]
    rows = H.matrix(tools, profiles)
    target_names = set(targets.names) if targets else set()
    refused = [r for r in rows if any(f.refuses for n in target_names for f in r.cells.get(n, ()))]
    if args.format == "json":
        doc: dict[str, Any] = {
            "format": "mcp-review-hosts",
            "version": 1,
            "pins": pins_path,
            "targets": targets.to_json() if targets else None,
            "profiles": {p.name: {"as_of": p.as_of, "label": p.label} for p in profiles},
            "tools": [r.to_json() for r in rows],
            "refused_on_targets": len(refused),
        }
        sys.stdout.write(json_dumps_safe(doc, indent=2) + "\n")
    else:
        sys.stdout.write(_matrix_text(rows, profiles, target_names, safe_text))
    return exitcodes.FAIL if args.fail and refused else exitcodes.PASS


def _matrix_text(rows: list[Any], profiles: list[Any], targets: set[str], safe: Any) -> str:
    from mcp_review.engine import hosts as H

    if not rows:
        return "no approved tools in the pin file\n"
    names = [f"{safe(r.server)}/{safe(r.tool)}" for r in rows]
    width = min(max(len(n) for n in names), 48)
    heads = [p.name + ("*" if p.name in targets else "") for p in profiles]
    cols = [max(len(h), 8) for h in heads]
    out = [
        "tool".ljust(width) + "  " + "  ".join(h.ljust(c) for h, c in zip(heads, cols, strict=True))
    ]
    details: list[str] = []
    for name, r in zip(names, rows, strict=True):
        shown = name if len(name) <= width else name[: width - 1] + "…"
        cells = []
        for p, c in zip(profiles, cols, strict=True):
            fs = r.cells[p.name]
            w = H.worst(fs)
            cells.append((_CELL[str(w)] if w else "ok").ljust(c))
            for f in fs:
                details.append(f"  {name}: {f.rule} ({f.effect}, {f.confidence}): {f.message}")
        out.append(shown.ljust(width) + "  " + "  ".join(cells))
    legend = (
        "SESSION: the request is refused, every tool lost · SERVER: the server's tools lost · "
        "DROPPED: the tool dropped · degraded: another contract · cut: a prefix"
    )
    tail = ["", legend]
    if targets:
        tail.append("* a target host")
    return "\n".join(out + tail + (["", *details] if details else [])) + "\n"


def _profiles_text(profiles: list[Any]) -> str:
    out = []
    for p in profiles:
        nums = ", ".join(f"{k} = {json.dumps(v)}" for k, v in p.numbers.items() if k != "formats")
        out.append(f"{p.name}: {p.label} (as of {p.as_of})" + (f"; {nums}" if nums else ""))
        if p.note:
            out.append(f"  note: {p.note}")
        for r in p.rules:
            out.append(f"  {p.rule_id(r)}: {r.effect}, {r.scope}, {r.confidence}: {r.message}")
            for s in r.sources or p.sources:
                out.append(f"      {s}")
        out.append("")
    return "\n".join(out)
