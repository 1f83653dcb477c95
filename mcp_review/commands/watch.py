"""`mcp-review watch`: stay connected, re-check on tools/list_changed and ttlMs, print each drift."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from mcp_review.cli_args import add_calls_option, add_config_args, add_pins_option, input_options
from mcp_review.engine import exitcodes
from mcp_review.engine.hidden import json_dumps_safe
from mcp_review.formats.output import REPORT, OutputFormat, choices


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_pins_option(p)
    p.add_argument(
        "--format",
        choices=choices(REPORT),
        default=OutputFormat.TEXT.value,
        help="json: one JSON object per line per event",
    )
    p.add_argument(
        "--interval",
        type=float,
        metavar="SECONDS",
        help="also re-list every SECONDS (for servers that announce nothing)",
    )
    p.add_argument(
        "--duration",
        type=float,
        metavar="SECONDS",
        help="stop after SECONDS (default: run until interrupted)",
    )
    p.add_argument(
        "--fail-on",
        choices=("breaking", "review", "any"),
        default="review",
        help="with --duration: exit 1 if drift of this level was seen",
    )
    add_calls_option(p)
    p.add_argument(
        "--no-witness",
        action="store_true",
        help="do not generate witness calls for breaking changes",
    )


def iso_time(at: float) -> str:
    """An epoch time as the ISO 8601 UTC text every other output uses (``…T…Z``)."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def how_it_notices(interval: float | None) -> str:
    """What ``watch`` says at start: how it will notice a change."""
    head = (
        "re-lists a server when it announces a change (the subscriptions/listen stream on "
        "2026-07-28, notifications/tools/list_changed on older servers), when its list's "
        "ttlMs expires"
    )
    if interval:
        return f"{head}, and every {interval:g} s (--interval)"
    return (
        f"{head}; no --interval, so a server that announces nothing and sets no ttlMs is "
        "read once (add --interval SECONDS to poll it)"
    )


class DriftPrinter:
    """Turns each fresh list into the lines that changed since the last one.

    The status is computed over the latest list of every server watched, with the same calls,
    tiers and witnesses as ``check`` (``engine.status.compute_status``), so a look-alike of a tool
    on another server is blocked here as ``check`` blocks it, and a drift reads the same here as
    in every other command.
    """

    def __init__(
        self,
        pins: Any,
        tiers: dict[str, str],
        fmt: str,
        fail_on: str,
        out: Any,
        *,
        calls: dict[str, Any] | None = None,
        witnesses: bool = True,
        origins: dict[str, str] | None = None,
        gate: Any = None,
    ):
        self.pins = pins
        self.gate = gate  # [rules] and [[ignore]] (engine/rulesconfig.py), as check applies them
        self.tiers = tiers
        self.calls = calls or {}
        self.witnesses = witnesses
        self.origins = origins or {}
        self.fmt = fmt
        self.fail_on = fail_on
        self.out = out
        self.latest: dict[str, Any] = {}
        self.seen: dict[str, dict[str, tuple[str, str | None, str]]] = {}
        self.seen_surfaces: dict[str, dict[tuple[str, str], tuple[str, str | None, str]]] = {}
        self.failed = False

    def report(self) -> Any:
        """The status over the latest list of every server (what `check` would say now)."""
        from mcp_review.engine.snapshot import Snapshot
        from mcp_review.engine.status import compute_status

        report = compute_status(
            Snapshot(servers=dict(self.latest)),
            self.pins,
            calls=self.calls,
            tiers=self.tiers,
            witnesses=self.witnesses,
            origins=self.origins,
        )
        if self.gate:
            from mcp_review.engine.rulesconfig import govern

            govern(report, self.gate)
        return report

    def exit_code(self) -> int:
        """1 when drift that fails the gate was seen; else as `check` on the last lists."""
        from mcp_review.engine.verdict import exit_code

        return exitcodes.FAIL if self.failed else exit_code(self.report(), self.fail_on)

    def __call__(self, u: Any) -> None:
        from mcp_review.engine.hidden import mark_lookalikes, safe_text
        from mcp_review.engine.names import with_escape
        from mcp_review.engine.policy import Outcome
        from mcp_review.engine.status import State

        stamp = time.strftime("%H:%M:%S", time.localtime(u.at))
        at = iso_time(u.at)
        name = safe_text(u.server)
        if u.snapshot.error:
            self._emit(
                {"at": at, "server": u.server, "event": u.reason, "error": u.snapshot.error},
                f"{stamp} {name}: {safe_text(u.snapshot.error['kind'])}: "
                f"{safe_text(u.snapshot.error['message'])} (retrying)",
            )
            return
        self.latest[u.server] = u.snapshot
        report = self.report()
        decided = report.gate(self.fail_on)  # decided once for this report
        if u.reason == "connected":
            self._emit(
                {
                    "at": at,
                    "server": u.server,
                    "event": u.reason,
                    "tools": len(u.snapshot.tools),
                    "protocol_version": u.snapshot.protocol_version,
                },
                f"{stamp} {name}: {u.reason}, {len(u.snapshot.tools)} tools "
                f"({safe_text(u.snapshot.protocol_version)})",
            )
        self._surfaces(report, decided, u, stamp, at)
        by_server: dict[str, list[Any]] = {}
        for t in report.tools:
            by_server.setdefault(t.server, []).append(t)
        # The updated server first; another server's tool can change standing too (a twin of
        # it appeared here).
        for srv in [u.server, *sorted(n for n in by_server if n != u.server)]:
            tools = by_server.get(srv, [])
            now = {t.tool: (str(t.state), t.live_digest, str(t.policy.outcome)) for t in tools}
            before = self.seen.get(srv)
            self.seen[srv] = now
            if before is None:
                if srv != u.server:
                    continue
                # First sight: what already differs from the pins is reported once, here.
                before = {k: v for k, v in now.items() if v[0] == str(State.PINNED)}
            for t in tools:
                if before.get(t.tool) == now[t.tool]:
                    continue
                fails = decided.fails(t)
                self.failed |= fails
                why = "; ".join(safe_text(r) for r in t.policy.reasons)
                replay = t.comparison.replay if t.comparison is not None else None
                obj = {
                    "at": at,
                    "server": t.server,
                    "event": u.reason,
                    "tool": t.tool,
                    "status": str(t.state),
                    "policy": t.policy.to_json(),
                    "live_digest": t.live_digest,
                    "fails_gate": fails,
                    "calls_recorded": t.calls_recorded,
                    "replay": (
                        {"total": replay.total, "broken": replay.broken}
                        if replay is not None
                        else None
                    ),
                    "shadows": list(t.shadows),
                }
                calls = (
                    f" ({replay.broken}/{replay.total} calls break)"
                    if replay is not None and replay.broken
                    else ""
                )
                # An outcome of "none" (pinned again, removed) is no outcome: not printed.
                outcome = f"  [{t.policy.outcome}]" if t.policy.outcome is not Outcome.NONE else ""
                self._emit(
                    obj,
                    f"{stamp} {safe_text(t.server)}: {u.reason}: "
                    f"{str(t.state).upper()} "
                    f"{with_escape(safe_text(mark_lookalikes(t.tool)), t.tool)}"
                    f"{calls}{outcome} {why}".rstrip(),
                )

    def _surfaces(self, report: Any, decided: Any, u: Any, stamp: str, at: str) -> None:
        """Each prompt, resource or template whose standing changed since the last list
        at first sight, those that differ from their pins."""
        from mcp_review.engine.hidden import safe_text
        from mcp_review.formats import surfaces as surf_fmt

        for s in report.servers:
            now = {
                (x.kind, x.name): (x.state, x.live_digest, str(x.policy.outcome))
                for x in s.surfaces
            }
            before = self.seen_surfaces.get(s.name)
            self.seen_surfaces[s.name] = now
            if before is None and s.name != u.server:
                continue
            for x in s.surfaces:
                if before is None and x.state == "pinned":
                    continue
                if before is not None and before.get((x.kind, x.name)) == now[(x.kind, x.name)]:
                    continue
                fails = decided.surface_fails(x)
                self.failed |= fails
                obj = {
                    "at": at,
                    "server": x.server,
                    "event": u.reason,
                    **surf_fmt.json_entry(x, fails_gate=fails),
                }
                line = surf_fmt.text_lines(x, fails, diff=False)[0].strip()
                self._emit(obj, f"{stamp} {safe_text(x.server)}: {u.reason}: {line}")

    def _emit(self, obj: dict[str, Any], text: str) -> None:
        if self.fmt == "json":
            self.out.write(json_dumps_safe(obj) + "\n")
        else:
            self.out.write(text + "\n")
        self.out.flush()


def run(args: argparse.Namespace) -> int:
    import anyio

    from mcp_review.engine.errors import InputError
    from mcp_review.services.inputs import resolve
    from mcp_review.services.watch import watch_all

    if args.interval is not None and args.interval <= 0:
        raise InputError("--interval must be positive")
    inp = resolve(input_options(args))
    inp.print_notes()
    cfg = inp.config
    assert cfg is not None  # watch is live (no snapshot option): resolve required a config
    servers = inp.servers
    printer = DriftPrinter(
        inp.pins,
        inp.tiers,
        args.format,
        args.fail_on,
        sys.stdout,
        calls=inp.calls,
        witnesses=not args.no_witness,
        origins=inp.origins,
        gate=cfg.gate,
    )
    log_dir = f"{cfg.state_dir}/logs" if cfg.state_dir else None
    if not args.quiet:
        print(
            f"watching {len(servers)} server(s) from {cfg.source}; Ctrl-C to stop", file=sys.stderr
        )
        print(f"watch: {how_it_notices(args.interval)}", file=sys.stderr)

    async def main() -> None:
        with anyio.move_on_after(args.duration if args.duration else float("inf")):
            await watch_all(
                servers,
                printer,
                log_dir=log_dir,
                interval=args.interval,
                max_tools=cfg.max_tools,
                max_pages=cfg.max_pages,
            )

    anyio.run(main)
    return printer.exit_code()
