"""`mcp-review demo [--headless] [--keep DIR] [--format text|json]`: review bundled servers that change under you.

In a fresh workspace (a temporary folder, or ``--keep DIR``): start the bundled servers at v1
(``warehouse`` over stdio, ``devtools`` over Streamable HTTP on 127.0.0.1), fetch them live and
approve every tool in ``mcp-pins.toml``, switch the servers to v2, then open the review app on
the workspace — or, with ``--headless``, fetch again and print `check`'s report (same engine,
same formats) on stdout. Servers are stopped and the temporary workspace removed on exit;
nothing is written anywhere else.

Exit code: 0 when the demo ran (the report's own ``verdict``/``exit_code`` say what `check`
would return: FAIL/1, since v2 drifted), 3 when a bundled server could not be read, 2 on
usage errors (``--keep`` naming a folder that is not empty).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp_review.engine import exitcodes
from mcp_review.engine.hidden import json_dumps_safe
from mcp_review.formats.output import REPORT, OutputFormat, choices

FAIL_ON = "review"  # check's default gate


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--headless",
        action="store_true",
        help="print the findings (as `check` would) instead of opening the app",
    )
    p.add_argument(
        "--keep",
        metavar="DIR",
        help="build the workspace in DIR (new or empty) and keep it: config, pin "
        "file, audit log, call logs",
    )
    p.add_argument(
        "--format",
        choices=choices(REPORT),
        default=OutputFormat.TEXT.value,
        help="report format with --headless (json: check's format plus a 'demo' key)",
    )
    p.add_argument("--theme", default=None, help="Textual theme for the app")


@contextlib.contextmanager
def _root(keep: str | None) -> Iterator[Path]:
    from mcp_review.engine.errors import InputError

    if keep is None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="mcp-review-demo-") as tmp:
            yield Path(tmp)
        return
    root = Path(keep)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise InputError(
            "--keep needs a new or empty folder (the demo writes a config and a pin file there)",
            source=keep,
        )
    root.mkdir(parents=True, exist_ok=True)
    yield root
    print(f"mcp-review demo: workspace kept in {root}", file=sys.stderr)


def _say(msg: str) -> None:
    # Progress goes to stderr: stdout carries the report only.
    print(f"mcp-review demo: {msg}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from mcp_review.demo.workspace import Unreachable, drifted

    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "mcp-review demo: the app needs a terminal; use --headless for plain output",
            file=sys.stderr,
        )
        return exitcodes.INPUT_ERROR
    _unwind_on_hangup()
    with _root(args.keep) as root:
        try:
            with drifted(root, say=_say) as (ws, urls):
                if args.headless:
                    return _headless(ws, urls, args, keep=args.keep is not None)
                make_app(ws, theme=args.theme).run()
                return exitcodes.PASS
        except Unreachable as e:
            print(f"mcp-review demo: a bundled server could not be read: {e}", file=sys.stderr)
            return exitcodes.UNREACHABLE


def _unwind_on_hangup() -> None:
    """Closing the terminal (SIGHUP) or `kill` (SIGTERM) unwinds like Ctrl+C, so the servers
    stop and the temporary workspace is removed instead of being left in $TMPDIR."""
    import signal

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
            signal.signal(sig, interrupt)


def _headless(ws: Any, urls: dict[str, str], args: argparse.Namespace, *, keep: bool) -> int:
    from mcp_review.demo import definitions
    from mcp_review.formats import check as fmt
    from mcp_review.services.inputs import resolve_paths

    # Exactly what `check` does with this config: the same input resolution.
    inp = resolve_paths(config=str(ws.config_path), pins=str(ws.pins_path))
    report = inp.status(inp.snapshot())
    rerun = _rerun_devtools(ws, inp)
    from mcp_review.demo.hold import proxy_verdicts, through_the_proxy

    verdicts = proxy_verdicts(report)
    held = through_the_proxy(ws)
    servers = [
        {"server": name, "transport": definitions.TRANSPORTS[name], "url": urls.get(name)}
        for name in definitions.SERVERS
    ]
    if args.format == "json":
        doc = fmt.report_json(report, FAIL_ON)
        doc["demo"] = {
            "pinned": "v1",
            "serving": ws.version,
            "workspace": str(ws.root) if keep else None,
            "servers": servers,
        }
        # As `check --rerun` reports it: the behaviour change behind an unchanged schema.
        doc["rerun"] = [{**rerun.to_json(), "error": None}]
        # What `proxy --enforce` does with each drifted tool, and a real client
        # through it on the stdio server.
        doc["proxy"] = {"tools": verdicts, "warehouse": held}
        sys.stdout.write(json_dumps_safe(doc, indent=2) + "\n")
    else:
        out = sys.stdout
        out.write(
            "mcp-review demo: the pin file approved v1 of two bundled servers; they now serve v2.\n"
        )
        for s in servers:
            out.write(f"  {s['server']:10} {s['transport']:6} {s['url'] or 'started per fetch'}\n")
        out.write("\n" + fmt.to_text(report, FAIL_ON))
        from mcp_review.formats import rerun as rfmt

        out.write(
            "\nBehind an unchanged schema: devtools/read_file is pinned and unchanged, but "
            "`mcp-review rerun devtools --yes` re-sent a recorded read-only call:\n"
        )
        out.write(rfmt.to_text(rerun))
        out.write(_proxy_text(verdicts, held))
        if keep:
            out.write(
                f"\nSame report: mcp-review check --config {ws.config_path} "
                f"--pins {ws.pins_path}  (while devtools runs; its port changes per run)\n"
            )
        else:
            out.write(
                "\nThe app walks through each finding: run `mcp-review demo` in a terminal.\n"
            )
    return exitcodes.UNREACHABLE if report.unreachable else exitcodes.PASS


def _proxy_text(verdicts: list[dict[str, str]], held: dict[str, Any]) -> str:
    """What `mcp-review proxy --enforce` does with the drift, in words."""
    from mcp_review.engine.hidden import mark_lookalikes, safe_text

    lines = [
        "",
        "Through `mcp-review proxy --enforce` (nothing unapproved reaches the agent):",
    ]
    for v in verdicts:
        name = safe_text(mark_lookalikes(f"{v['server']}/{v['tool']}"))
        lines.append(f"  {v['proxy']:9} {name}: {safe_text(v['why'])}")
    refused = held["call_with_new_parameter"]
    lines.append(
        f"  A real client through the proxy on warehouse (stdio): {held['tool']} is listed "
        + ("exactly as approved" if held["served_as_approved"] else "NOT as approved")
        + f"; a call valid under it {held['call']}; a call with the new `cache` parameter was "
        + (
            f"refused ({safe_text(refused['reason'] or '')})"
            if refused["refused"]
            else "NOT refused"
        )
        + "."
    )
    return "\n".join(lines) + "\n"


def _rerun_devtools(ws: Any, inp: Any) -> Any:
    """`mcp-review rerun devtools --yes` on the demo workspace (the bundled server is ours, so
    the demo answers yes): the recorded read_file call comes back changed."""
    from mcp_review.services.rerun import Settings, call_log_for, run_server
    from mcp_review.store.calllog import DEFAULT_REDACT

    cfg = inp.config
    srv = cfg.by_name("devtools")
    return run_server(
        srv,
        inp.pins,
        call_log_for(srv, cfg.state_dir),
        Settings(redact=DEFAULT_REDACT),
        lambda planned: True,
    )


def make_app(ws: Any, *, theme: str | None = None) -> Any:
    """The review app on the demo workspace (Textual imported here, not at start-up)."""
    from mcp_review.services.inputs import resolve_paths

    # The same inputs `mcp-review review --config … --pins …` resolves: live fetch of the
    # workspace config, decisions saved to the workspace pin file.
    inp = resolve_paths(config=str(ws.config_path), pins=str(ws.pins_path))
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.source import ReviewSource

    source = ReviewSource.from_inputs(inp)

    return ReviewApp(source, subtitle=f"demo · pinned v1, serving v2 · {ws.pins_path}", theme=theme)
