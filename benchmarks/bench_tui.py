"""Review app: first frame with 1,000 tools across 20 servers after the fetch, and key-to-frame
latency moving through the list (targets: < 1 s and < 50 ms). Prints figures."""

from __future__ import annotations

import asyncio
import copy
import statistics
import sys
import time
from pathlib import Path

from textual import events

from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.source import ReviewSource

SERVERS, PER_SERVER, CHANGED_EVERY = 20, 50, 10
VARIED = [False]
"""``--varied`` (issue 46 item 8): every tool its own schema (property names, bounds, an enum
and a nested object of its own), so no two tools share a schema pair the engine's memo could
answer from an earlier one; the default fleet repeats 20 pairs."""


def _tool(s: int, i: int, changed: bool) -> dict:
    props: dict = {
        "q": {"type": "string", "description": f"query for tool {i}"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100 if not changed else 50},
    }
    if VARIED[0]:
        k = s * 1000 + i
        props = {
            f"q_{k}": {"type": "string", "description": f"query for tool {k}", "maxLength": k + 8},
            f"limit_{k}": {
                "type": "integer",
                "minimum": k % 7,
                "maximum": 100 + k if not changed else 50 + k,
            },
            f"mode_{k}": {"enum": [f"m{k}_{j}" for j in range(2 + k % 5)]},
            f"opts_{k}": {
                "type": "object",
                "properties": {f"o{j}_{k}": {"type": "boolean"} for j in range(1 + k % 4)},
            },
        }
        return {
            "name": f"tool_{s:02d}_{i:03d}",
            "description": f"Tool {i} of server {s}.",
            "inputSchema": {"type": "object", "properties": props, "required": [f"q_{k}"]},
        }
    return {
        "name": f"tool_{s:02d}_{i:03d}",
        "description": f"Tool {i} of server {s}.",
        "inputSchema": {"type": "object", "properties": props, "required": ["q"]},
    }


def _snap(changed: bool, servers: int = SERVERS, per_server: int = PER_SERVER) -> Snapshot:
    return Snapshot(
        servers={
            f"server-{s:02d}": ServerSnapshot(
                name=f"server-{s:02d}",
                server_info={"name": "s", "version": "1"},
                tools=[
                    ToolDef.from_wire(
                        copy.deepcopy(_tool(s, i, changed and i % CHANGED_EVERY == 0))
                    )
                    for i in range(per_server)
                ],
            )
            for s in range(servers)
        }
    )


def fleet_snapshots(servers: int, per_server: int) -> tuple[Snapshot, Snapshot]:
    """(pinned, current): every 10th tool changed (its maximum lowered: breaking)."""
    return _snap(False, servers, per_server), _snap(True, servers, per_server)


def write_fleet(d: Path, servers: int, per_server: int) -> None:
    """``d/pins.toml`` approving the pinned fleet (a real pin file, with its audit log) and
    ``d/snap.json``, the fleet as served now: what the commands and the app read."""
    from mcp_review.engine.pins import Decision, PinFile, make_pin
    from mcp_review.store.pinfile import save_pins

    pinned, current = fleet_snapshots(servers, per_server)
    pins = PinFile()
    for s in pinned.servers.values():
        for t in s.tools:
            pins.decide(make_pin(s.name, t, Decision.APPROVED, by="bench"))
    save_pins(pins, str(d / "pins.toml"), audit_path=str(d / "audit.jsonl"))
    (d / "snap.json").write_text(current.dumps())


def _cpu_of_tree(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and every process under it (Linux
    /proc; 0 where it cannot be read): the command's CPU, which a busy box does not inflate
    the way it inflates wall time."""
    import os

    total = 0.0
    todo = [pid]
    tick = os.sysconf("SC_CLK_TCK")
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError, IndexError):
            continue
    return total


def as_user(servers: int, per_server: int, repeat: int) -> None:
    """``mcp-review review --snapshot F --pins P`` in a tmux pane, as a person starts it: from
    the command to the pane's first frame (the header's "mcp-review": today the app says
    "loading…" while it reads the pin file and the snapshot), to the list (its first tool row
    and the counts line), then to every comparison shown (the counts line without
    "updating…"). Polls the pane every ~10 ms, so each figure is good to that; beside the first
    frame and the list, the CPU the command had used by then (:func:`_cpu_of_tree`). A PYTHONPATH
    set for the benchmark is passed on to the command (to time another checkout's code with
    the same installed packages: benchmarks/README.md)."""
    import os
    import shlex
    import shutil
    import subprocess
    import tempfile

    if shutil.which("tmux") is None:
        print("as a user: tmux not found, skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        write_fleet(d, servers, per_server)
        exe = str(Path(sys.executable).with_name("mcp-review"))
        env = (
            f"env PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])} "
            if os.environ.get("PYTHONPATH")
            else ""
        )
        cmd = f"cd {tmp} && {env}{exe} review --snapshot snap.json --pins pins.toml"
        first_row = f"tool_{0:02d}_{0:03d}"
        for _ in range(repeat):
            name = f"bench{os.getpid()}"
            t0 = time.perf_counter()
            subprocess.run(
                ["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "40", cmd],
                check=True,
            )
            frame = shown = full = None
            cpu_frame = cpu_shown = 0.0
            pane_pid = int(
                subprocess.run(
                    ["tmux", "list-panes", "-t", name, "-F", "#{pane_pid}"],
                    capture_output=True,
                    text=True,
                ).stdout.split()[0]
            )
            try:
                while full is None and time.perf_counter() - t0 < 60:
                    pane = subprocess.run(
                        ["tmux", "capture-pane", "-p", "-t", name],
                        capture_output=True,
                        text=True,
                    ).stdout
                    now = time.perf_counter() - t0
                    if frame is None and "mcp-review" in pane:
                        frame, cpu_frame = now, _cpu_of_tree(pane_pid)
                    if shown is None and first_row in pane and "to review" in pane:
                        shown, cpu_shown = now, _cpu_of_tree(pane_pid)
                    if shown is not None and "updating" not in pane:
                        full = now
                    time.sleep(0.01)
            finally:
                subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)

            def fig(x: float | None) -> str:
                return "never" if x is None else f"{x:.2f} s"

            print(
                f"as a user (tmux, `review --snapshot`, {servers * per_server:,} tools): first "
                f"frame {fig(frame)} ({cpu_frame:.2f} s CPU), list shown {fig(shown)} "
                f"({cpu_shown:.2f} s CPU) after the command, every comparison shown {fig(full)} "
                f"(load {os.getloadavg()[0]:.1f})",
                flush=True,
            )


_MAX_TURNS = 120_000
"""Event-loop turns (1 ms sleeps) a wait may take before the benchmark gives up and says so."""


async def _until(cond, what: str) -> None:  # type: ignore[no-untyped-def]
    """Wait for ``cond()``, at most :data:`_MAX_TURNS` turns; else stop and say what hung."""
    for _ in range(_MAX_TURNS):
        if cond():
            return
        await asyncio.sleep(0.001)
    raise SystemExit(f"bench_tui: gave up waiting for {what}")


async def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--servers", type=int, default=SERVERS)
    ap.add_argument("--per-server", type=int, default=PER_SERVER)
    ap.add_argument(
        "--as-user",
        type=int,
        metavar="N",
        default=0,
        help="also start `mcp-review review` N times in tmux and time the pane (see as_user)",
    )
    ap.add_argument("--as-user-only", action="store_true", help="only that (no in-process figures)")
    ap.add_argument(
        "--varied", action="store_true", help="a schema per tool (not 20 shared pairs): see VARIED"
    )
    args = ap.parse_args()
    VARIED[0] = args.varied
    servers, per_server = args.servers, args.per_server
    if args.as_user:
        as_user(servers, per_server, args.as_user)
        if args.as_user_only:
            return 0
    pinned, current = fleet_snapshots(servers, per_server)
    source = ReviewSource.baseline(SnapshotFetcher(current), pinned)
    app = ReviewApp(source)
    # "After the fetch": from the moment the fetcher hands over the snapshot (a live fetch
    # ends there too) to the frame showing the list. CPU is the process's (every thread).
    fetched: list[tuple[float, float]] = []
    fetch = source.fetcher.fetch

    async def timed_fetch(progress):  # type: ignore[no-untyped-def]
        snap = await fetch(progress)
        fetched.append((time.perf_counter(), time.process_time()))
        return snap

    source.fetcher.fetch = timed_fetch  # type: ignore[method-assign]
    # The first frame is the first one the compositor hands to the display once the list
    # holds the fetched rows (`loaded` is set in the same handler that fills the list, so no
    # frame can fall between them). `pilot.pause()` is no clock for it: it waits until the
    # process is idle, i.e. until the comparisons running after that frame are done too.
    first: list[tuple[float, float]] = []
    display = app._display

    def first_display(screen, renderable):  # type: ignore[no-untyped-def]
        if (
            not first
            and renderable is not None
            and app.main is not None
            and app.main.loaded
            and app.main.query_one("#tools").row_count
        ):
            first.append((time.perf_counter(), time.process_time()))
        return display(screen, renderable)

    app._display = first_display  # type: ignore[method-assign]
    t0, c0 = time.perf_counter(), time.process_time()
    async with app.run_test(size=(120, 40), notifications=False) as pilot:
        await _until(lambda: app.main is not None and app.main.loaded, "the list to load")
        t_loaded = time.perf_counter()
        await _until(lambda: bool(first), "the first frame")
        t_frame, c_frame = first[0]
        shown = app.main.query_one("#tools").row_count
        await pilot.pause()
        app._display = display  # type: ignore[method-assign]
        # A big fleet is shown by digests first (changed tools "comparing…"), then with every
        # comparison (issue 15 item 4): wait for that before timing keys.
        await _until(lambda: not app.main.computing, "the comparisons")
        await pilot.pause()
        t_full = time.perf_counter()
        rows = sum(len(s.tools) + 1 for s in app.main.servers)
        # Pilot.press waits ~80 ms on its own (measured on a 10-row table), so time the app
        # itself: post the key event as the driver would, and stop at the next frame the
        # compositor hands to the display.
        frames: list[float] = []

        def timed_display(screen, renderable):
            if renderable is not None:
                frames.append(time.perf_counter())
            return display(screen, renderable)

        app._display = timed_display  # type: ignore[method-assign]

        cpu: list[float] = []

        async def key_to_frame(key: str) -> float:
            await pilot.pause()
            frames.clear()
            k0, kc = time.perf_counter(), time.process_time()
            app.post_message(events.Key(key, None))
            # Bounded in loop turns, not seconds (issue 46 item 8: a key that draws nothing,
            # the cursor already at the end, used to spin here for ever).
            for _ in range(_MAX_TURNS):
                if frames:
                    break
                await asyncio.sleep(0.001)
            else:
                raise SystemExit(f"bench_tui: no frame after the key {key!r}")
            cpu.append((time.process_time() - kc) * 1000)
            return (frames[0] - k0) * 1000

        table = app.main.query_one("#tools")
        start = table.cursor_row
        lat = [await key_to_frame("down") for _ in range(100)]
        # every key really moved (from wherever the cursor started: the fleet's first rows
        # may be a header the cursor skips), unless the list is shorter than that
        moved = table.cursor_row - start
        if moved != min(100, table.row_count - 1 - start):
            raise SystemExit(f"bench_tui: 100 keys moved the cursor {moved} rows")
        cpu.clear()

        async def next_review() -> float | None:
            """``n``, timed to its frame; None when it drew none: review by kind (issue 28)
            visits a group once, so on a fleet whose changes are all one kind ``n`` wraps to
            the row it is on and nothing changes on screen (the benchmark waited for ever)."""
            await pilot.pause()
            frames.clear()
            k0, kc = time.perf_counter(), time.process_time()
            app.post_message(events.Key("n", None))
            await pilot.pause()
            if not frames:
                return None
            cpu.append((time.process_time() - kc) * 1000)
            return (frames[0] - k0) * 1000

        n_all = [await next_review() for _ in range(20)]
        nxt = [x for x in n_all if x is not None] or [0.0]
        n_cpu = list(cpu) or [0.0]
        # A filter applies on every keystroke (Input.Changed): "/" then "tool_07_1", each key
        # timed to its frame (the table redrawn for the narrowed query), then backspace x3
        # (widening back to 2,000 rows) and escape (the whole list again).
        await pilot.press("slash")
        cpu.clear()
        keys = [*"tool_07_1", "backspace", "backspace", "backspace"]
        filt = [await key_to_frame(k) for k in keys]
        filt_cpu = list(cpu)
        await pilot.press("enter")
        await pilot.press("escape")
        await pilot.pause()
        # A decision: the status of every tool is recomputed (issue 15 item 3: in a worker
        # thread above MainScreen.SYNC_TOOLS tools); keys timed while it runs.
        main = app.main
        changed = next(t for s in main.servers for t in s.tools if t.needs_review)
        k0 = time.perf_counter()
        app.decide(changed, "approved")
        t_decide = (time.perf_counter() - k0) * 1000
        during: list[float] = []
        for _ in range(_MAX_TURNS):
            if not main.computing:
                break
            during.append(await key_to_frame("down" if len(during) % 2 else "up"))
        t_recomputed = (time.perf_counter() - k0) * 1000
        k0 = time.perf_counter()
        await pilot.press("enter")
        await pilot.pause()
        t_review = (time.perf_counter() - k0) * 1000
    # The fetch of a snapshot is instant: t_frame is status (compare of 100 changed tools)
    # + building 1,020 table rows + the first layout.
    print(
        f"rows: {rows} ({servers} servers x {per_server} tools, "
        f"{servers * per_server // CHANGED_EVERY} changed); {shown} in the first frame's list"
    )
    tf, cf = fetched[0]
    print(
        f"first frame after fetch: {t_frame - tf:.3f} s wall, {c_frame - cf:.3f} s CPU "
        f"(target <= 1 s); from app start: {t_frame - t0:.3f} s wall, {c_frame - c0:.3f} s "
        f"CPU (data ready at {t_loaded - t0:.3f} s); every comparison shown and idle at "
        f"{t_full - tf:.3f} s after the fetch"
    )
    print(
        f"key-to-frame, down x100: median {statistics.median(lat):.1f} ms, "
        f"p95 {sorted(lat)[94]:.1f} ms, max {max(lat):.1f} ms (target < 50 ms)"
    )
    print(
        f"key-to-frame, n (next needing review) x20 ({n_all.count(None)} drew nothing: "
        "the same row again): "
        f"median {statistics.median(nxt):.1f} ms, "
        f"max {max(nxt):.1f} ms; CPU median {statistics.median(n_cpu):.1f} ms, "
        f"max {max(n_cpu):.1f} ms (target <= 50 ms)"
    )
    print(
        "filter keystrokes (/ then "
        + " ".join(k if len(k) == 1 else "⌫" for k in keys)
        + "): "
        + ", ".join(f"{w:.0f}" for w in filt)
        + " ms wall; CPU "
        + ", ".join(f"{c:.0f}" for c in filt_cpu)
        + f" ms (max {max(filt):.0f} ms wall, "
        f"{max(filt_cpu):.0f} ms CPU; target <= 100 ms)"
    )
    print(
        f"decision: back to the keys after {t_decide:.1f} ms; status recomputed in "
        f"{t_recomputed:.0f} ms ({'worker' if during else 'UI thread'}); "
        + (
            f"{len(during)} keys meanwhile: median {statistics.median(during):.1f} ms, "
            f"max {max(during):.1f} ms (target <= 50 ms)"
            if during
            else "no keys meanwhile"
        )
    )
    print(f"open the review screen: {t_review:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
