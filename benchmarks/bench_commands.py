"""The headless commands as a user runs them (one subprocess each), on 100,000 recorded calls,
beside the raw loop in the same run; and `check --from-snapshot` on a 10,000-tool fleet.

Raw loop (issue 15): ``json.loads`` of every line + jsonschema-rs ``is_valid`` under the old and
the new schema, over the same file, timed in-process. A command's time is its wall time minus
the same command on a 1-call log (start-up: interpreter, imports, reading the definitions), and
"× raw" is raw ÷ that (≥ 0.5 is the target: at most twice the raw loop's time).

Each command runs ``--repeat`` times, interleaved with the raw loop; a run's ratio is to the
raw loop runs just before and just after it (their mean), in wall time and in CPU time (printed
side by side: a user waits for wall time), start-up subtracted as the median of the 1-call runs (two after each run); the
table gives the median run (the best in brackets), the whole process's median CPU and wall
(what a user waits for, start-up included), the start-up's, and the load average over the
row's runs; each run's ratios are printed after it. With ``--against``, the other build's
runs alternate with this one's in the same minutes. This machine is shared: read each wall
figure with its load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema_rs

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_replay import OLD, SCENARIOS, make_calls  # noqa: E402

from mcp_review.engine.model import ToolDef  # noqa: E402
from mcp_review.engine.pins import Decision, PinFile, make_pin  # noqa: E402
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot  # noqa: E402
from mcp_review.store.pinfile import save_pins  # noqa: E402

NEW = SCENARIOS["typical"]  # dry_run fixed to true: ~10 % of the calls break


def _tool(schema: dict) -> dict:
    return {"name": "run_query", "description": "Run a read-only SQL query.", "inputSchema": schema}


def write_workspace(d: Path, n: int) -> dict[str, dict[str, str]]:
    """Files for n calls and for 1 call: {"n"|"1": {name: path}}."""
    (d / "old.json").write_text(json.dumps(_tool(OLD)))
    (d / "new.json").write_text(json.dumps(_tool(NEW)))
    snap = Snapshot(
        servers={
            "db": ServerSnapshot(
                name="db",
                server_info={"name": "db", "version": "1"},
                tools=[ToolDef.from_wire(_tool(NEW))],
            )
        }
    )
    (d / "snap.json").write_text(snap.dumps())
    pins = PinFile()
    pins.decide(make_pin("db", ToolDef.from_wire(_tool(OLD)), Decision.APPROVED, by="bench"))
    save_pins(pins, str(d / "pins.toml"), audit_path=str(d / "audit.jsonl"))
    calls = make_calls(n)
    out: dict[str, dict[str, str]] = {}
    for label, sub in (("n", calls), ("1", calls[:1])):
        bare, log = d / f"calls-{label}.jsonl", d / f"server-{label}.jsonl"
        with open(bare, "w") as f:
            f.writelines(json.dumps(c) + "\n" for c in sub)
        with open(log, "w") as f:
            f.writelines(json.dumps({"tool": "run_query", "arguments": c}) + "\n" for c in sub)
        out[label] = {"bare": str(bare), "log": str(log)}
    return out


def raw_loop(path: str) -> tuple[float, float]:
    """The floor the issue names: json.loads + is_valid under old and new, in-process.
    (wall, CPU) seconds."""
    t, cpu = time.perf_counter(), time.process_time()
    vo, vn = jsonschema_rs.validator_for(OLD), jsonschema_rs.validator_for(NEW)
    with open(path, "rb") as f:
        for line in f:
            c = json.loads(line)
            vo.is_valid(c)
            vn.is_valid(c)
    return time.perf_counter() - t, time.process_time() - cpu


def run_cmd(
    argv: list[str], src: str | None = None, digest: list[str] | None = None, cwd: str | None = None
) -> tuple[float, int, int, float]:
    """(wall seconds, bytes on stdout, peak RSS in KB, CPU seconds) of one command as a user
    runs it. ``src``: run the build whose ``mcp_review`` package is in that directory instead
    (put first on PYTHONPATH; run it from a ``cwd`` that holds no ``mcp_review``, since
    ``python -m`` puts the working directory before PYTHONPATH); ``digest``: append the
    sha256 of stdout to it."""
    env = None
    if src is not None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")])),
        }
    t = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "mcp_review", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    size = 0
    h = hashlib.sha256()
    assert p.stdout is not None
    while chunk := p.stdout.read(1 << 20):  # a reader as quick as `> file`: few wake-ups
        size += len(chunk)
        h.update(chunk)
    _, status, usage = os.wait4(p.pid, 0)
    if digest is not None:
        digest.append(h.hexdigest())
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{argv}: exit {code}")
    return wall, size, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def commands(d: Path, files: dict[str, str]) -> dict[str, list[str]]:
    gate = ["gate", str(d / "old.json"), str(d / "new.json"), files["bare"]]
    status = [
        "status",
        "--snapshot",
        str(d / "snap.json"),
        "--pins",
        str(d / "pins.toml"),
        "--calls",
        f"db={files['log']}",
    ]
    check = [
        "check",
        "--from-snapshot",
        str(d / "snap.json"),
        "--pins",
        str(d / "pins.toml"),
        "--calls",
        f"db={files['log']}",
    ]
    out = {}
    for name, argv in (
        ("gate", gate),
        ("check --from-snapshot", check),
        ("status --snapshot", status),
    ):
        out[f"{name} (text)"] = argv
        out[f"{name} --format json"] = [*argv, "--format", "json"]
    return out


def replay_rows(
    n: int,
    repeat: int,
    all_calls: bool = False,
    only: str | None = None,
    against: str | None = None,
) -> None:
    """``against``: also run each command with the build in that source tree, interleaved
    (rows marked "against"); the outputs of both builds must be byte-identical."""
    builds: list[tuple[str, str | None]] = [("", None)]
    if against is not None:
        builds.insert(0, (" (against)", against))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = write_workspace(d, n)
        big, one = commands(d, files["n"]), commands(d, files["1"])
        if only is not None:
            big = {k: v for k, v in big.items() if k.startswith(only)}
        if all_calls:
            big = {f"{k} --all-calls": [*v, "--all-calls"] for k, v in big.items()}
            one = {f"{k} --all-calls": [*v, "--all-calls"] for k, v in one.items()}
        first = [raw_loop(files["n"]["bare"]) for _ in range(2)]
        raw, raw_cpu = min(w for w, _ in first), min(c for _, c in first)
        print(
            f"{n:,} calls, {os.path.getsize(files['n']['bare']) / 1e6:.1f} MB; median of {repeat} "
            f"(load {_load()})"
        )
        rows = []
        raws: list[tuple[float, float]] = list(first)
        for name in big:
            runs: dict[str, list[tuple[float, float, float, float]]] = {b: [] for b, _ in builds}
            size = rss = 0
            digests: list[str] = []
            starts: dict[str, list[tuple[float, float]]] = {b: [] for b, _ in builds}
            bigs: dict[str, list[tuple[float, float, float, float]]] = {b: [] for b, _ in builds}
            gross: dict[str, tuple[float, float, float, float]] = {}
            loads = [os.getloadavg()[0]]
            before = raw_loop(files["n"]["bare"])
            raws.append(before)
            for _ in range(repeat):
                for b, src in builds:
                    w, size, rss, c = run_cmd(big[name], src, digests, cwd=tmp)
                    # The raw loop just before and just after the run, averaged: the load
                    # drifts within seconds here, and one side alone carried that drift.
                    after = raw_loop(files["n"]["bare"])
                    raws.append(after)
                    rw, rc = (before[0] + after[0]) / 2, (before[1] + after[1]) / 2
                    before = after
                    bigs[b].append((w, c, rw, rc))
                    # Two 1-call runs per run: the start-up subtracted is the median of
                    # 2 x repeat, since its spread is the net figure's (see the README).
                    for _ in range(2):
                        w1, _, _, c1 = run_cmd(one[name], src, cwd=tmp)
                        starts[b].append((w1, c1))
                loads.append(os.getloadavg()[0])
            raw = min(raw, *(w for w, _ in raws))
            raw_cpu = min(raw_cpu, *(c for _, c in raws))
            for b, _ in builds:
                # Start-up is the median of the 1-call runs (one such run swings by a second
                # at load 10+); each run's ratio is to the raw loop runs around it.
                w1 = statistics.median(x for x, _ in starts[b])
                c1 = statistics.median(x for _, x in starts[b])
                runs[b] = [(w - w1, c - c1, rw, rc) for w, c, rw, rc in bigs[b]]
                gross[b] = (
                    statistics.median(w for w, _, _, _ in bigs[b]),
                    statistics.median(c for _, c, _, _ in bigs[b]),
                    w1,
                    c1,
                )
            if len(set(digests)) != 1:
                raise SystemExit(f"{name}: the builds' outputs differ")
            for b, _ in builds:
                rows.append((name + b, runs[b], size, rss, gross[b], (min(loads), max(loads))))
        print(
            f"raw loop, best of every run: {raw:.2f} s wall, {raw_cpu:.2f} s CPU "
            f"= {n / raw / 1000:.0f} k calls/s (load {_load()})"
        )
        print(
            "Each run: the command, the median of its 1-call runs subtracted (start-up), against "
            "the raw loop runs just before and after it. Median of the runs (best in brackets)."
        )
        print(
            "| command | net CPU | × raw (CPU) | net wall | × raw (wall) | whole process "
            "CPU / wall | start-up CPU / wall | load | stdout | peak RSS |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name, rs, size, rss, (gw, gc_, sw, sc), (lo, hi) in rows:
            wall_x = [rw / max(w, 1e-9) for w, _, rw, _ in rs]
            cpu_x = [rc / max(c, 1e-9) for _, c, _, rc in rs]
            print(
                f"| `{name}` | {statistics.median(c for _, c, _, _ in rs):.2f} s | "
                f"**{statistics.median(cpu_x):.2f}×** ({max(cpu_x):.2f}×) | "
                f"{statistics.median(w for w, _, _, _ in rs):.2f} s | "
                f"**{statistics.median(wall_x):.2f}×** ({max(wall_x):.2f}×) | "
                f"{gc_:.2f} / {gw:.2f} s | {sc:.2f} / {sw:.2f} s | {lo:.1f}-{hi:.1f} | "
                f"{size / 1024:,.0f} KB | {rss / 1024:.0f} MB |"
            )
        print("Each run (net CPU × raw, net wall × raw):")
        for name, rs, *_ in rows:
            print(
                f"  {name}: "
                + " | ".join(
                    f"{rc / max(c, 1e-9):.2f}× {rw / max(w, 1e-9):.2f}×" for w, c, rw, rc in rs
                )
            )


def _load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def fleet_rows(servers: int, per_server: int, repeat: int, against: str | None = None) -> None:
    """check --from-snapshot on a fleet: servers × per_server tools, every 10th changed.
    ``against``: a source tree of another build (``git archive main mcp_review | tar -x -C
    DIR``), run interleaved with this one; their reports must be byte-identical."""
    from bench_tui import write_fleet

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        write_fleet(d, servers, per_server)
        argv = ["check", "--from-snapshot", str(d / "snap.json"), "--pins", str(d / "pins.toml")]
        builds: list[tuple[str, str | None]] = [("this", None)]
        if against is not None:
            builds.insert(0, (f"against {against}", against))
        for label, extra in (("text", []), ("json", ["--format", "json"])):
            runs: dict[str, list[tuple[float, int, int, float]]] = {b: [] for b, _ in builds}
            digests: dict[str, list[str]] = {b: [] for b, _ in builds}
            load = os.getloadavg()[0]
            for _ in range(repeat):
                for b, src in builds:
                    runs[b].append(run_cmd([*argv, *extra], src, digests[b], cwd=tmp))
            load = max(load, os.getloadavg()[0])
            same = len({d for ds in digests.values() for d in ds}) == 1
            for b, _ in builds:
                rs = runs[b]
                print(
                    f"fleet {servers} servers x {per_server} tools: `check --from-snapshot` "
                    f"({label}, {b}) best {min(r[0] for r in rs):.2f} s wall, "
                    f"{min(r[3] for r in rs):.2f} s CPU, whole process (target <= 2 s); "
                    f"every run: " + " | ".join(f"{r[0]:.2f} s wall {r[3]:.2f} s CPU" for r in rs)
                )
            print(
                f"  load average up to {load:.1f}; reports "
                + ("byte-identical across every run" if same else "DIFFER")
            )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("-n", "--calls", type=int, default=100_000)
    ap.add_argument("-r", "--repeat", type=int, default=3)
    ap.add_argument("--skip-fleet", action="store_true")
    ap.add_argument(
        "--against",
        metavar="SRC",
        help="also run every command with the mcp_review package in SRC (another build, "
        "e.g. main: git archive main mcp_review | tar -x -C SRC), interleaved, and check the "
        "reports are byte-identical",
    )
    ap.add_argument("--skip-replay", action="store_true")
    ap.add_argument(
        "--only", metavar="COMMAND", help="replay rows of this command only (e.g. gate)"
    )
    ap.add_argument(
        "--all-calls", action="store_true", help="also run every replay command with --all-calls"
    )
    args = ap.parse_args()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not args.skip_replay:
        replay_rows(args.calls, args.repeat, only=args.only, against=args.against)
        if args.all_calls:
            replay_rows(args.calls, args.repeat, True, args.only, args.against)
    if not args.skip_fleet:
        fleet_rows(50, 200, args.repeat, args.against)


if __name__ == "__main__":
    main()
