"""`mcp-review watch`: stay connected, re-check on tools/list_changed and ttlMs, print each drift."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from mcp_review import exitcodes
from mcp_review.commands.snapshot import add_config_args, load
from mcp_review.core.hidden import json_dumps_safe


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    p.add_argument("--pins", default="mcp-pins.toml", metavar="FILE",
                   help="the pin file to compare with (default: ./mcp-pins.toml)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: one JSON object per line per event")
    p.add_argument("--interval", type=float, metavar="SECONDS",
                   help="also re-list every SECONDS (for servers that announce nothing)")
    p.add_argument("--duration", type=float, metavar="SECONDS",
                   help="stop after SECONDS (default: run until interrupted)")
    p.add_argument("--fail-on", choices=("breaking", "review", "any"), default="review",
                   help="with --duration: exit 1 if drift of this level was seen")


class DriftPrinter:
    """Turns each fresh list into the lines that changed since the last one for that server."""

    def __init__(self, pins: Any, tiers: dict[str, str], fmt: str, fail_on: str, out: Any):
        self.pins = pins
        self.tiers = tiers
        self.fmt = fmt
        self.fail_on = fail_on
        self.out = out
        self.seen: dict[str, dict[str, tuple[str, str | None]]] = {}
        self.failed = False

    def __call__(self, u: Any) -> None:
        from mcp_review.core.hidden import safe_text
        from mcp_review.core.status import State, server_status
        from mcp_review.formats.check import fails_gate

        stamp = time.strftime("%H:%M:%S", time.localtime(u.at))
        name = safe_text(u.server)
        if u.snapshot.error:
            self._emit({"at": u.at, "server": u.server, "event": u.reason,
                        "error": u.snapshot.error},
                       f"{stamp} {name}: {safe_text(u.snapshot.error['kind'])}: "
                       f"{safe_text(u.snapshot.error['message'])} (retrying)")
            return
        _, tools = server_status(u.snapshot, self.pins, default_tier=self.tiers.get(u.server),
                                 witnesses=False)
        now = {t.tool: (str(t.state), t.live_digest) for t in tools}
        before = self.seen.get(u.server)
        self.seen[u.server] = now
        if u.reason == "connected":
            self._emit({"at": u.at, "server": u.server, "event": u.reason,
                        "tools": len(u.snapshot.tools),
                        "protocol_version": u.snapshot.protocol_version},
                       f"{stamp} {name}: {u.reason}, {len(u.snapshot.tools)} tools "
                       f"({safe_text(u.snapshot.protocol_version)})")
        if before is None:
            # First sight: what already differs from the pins is reported once, here.
            before = {k: v for k, v in now.items() if v[0] == str(State.PINNED)}
        for t in tools:
            if before.get(t.tool) == now[t.tool]:
                continue
            fails = fails_gate(t, self.fail_on)
            self.failed |= fails
            why = "; ".join(safe_text(r) for r in t.policy.reasons)
            self._emit({"at": u.at, "server": u.server, "event": u.reason, "tool": t.tool,
                        "status": str(t.state), "policy": t.policy.to_json(),
                        "live_digest": t.live_digest, "fails_gate": fails},
                       f"{stamp} {name}: {u.reason}: {str(t.state).upper()} "
                       f"{safe_text(t.tool)}  [{t.policy.outcome}] {why}".rstrip())

    def _emit(self, obj: dict[str, Any], text: str) -> None:
        if self.fmt == "json":
            self.out.write(json_dumps_safe(obj) + "\n")
        else:
            self.out.write(text + "\n")
        self.out.flush()


def run(args: argparse.Namespace) -> int:
    import anyio

    from mcp_review.core.pins import load_pins
    from mcp_review.services.watch import watch_all

    cfg = load(args)
    servers = [s for s in cfg.servers if not args.server or s.name in args.server]
    pins = load_pins(args.pins)
    printer = DriftPrinter(pins, {s.name: s.policy for s in servers if s.policy},
                           args.format, args.fail_on, sys.stdout)
    log_dir = f"{cfg.state_dir}/logs" if cfg.state_dir else None
    if not args.quiet:
        print(f"watching {len(servers)} server(s) from {cfg.source}; Ctrl-C to stop",
              file=sys.stderr)

    async def main() -> None:
        with anyio.move_on_after(args.duration if args.duration else float("inf")):
            await watch_all(servers, printer, log_dir=log_dir, interval=args.interval,
                            max_tools=cfg.max_tools, max_pages=cfg.max_pages)

    anyio.run(main)
    return exitcodes.FAIL if printer.failed else exitcodes.PASS
