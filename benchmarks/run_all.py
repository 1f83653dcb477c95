"""Run every benchmark in sequence, the machine's load printed before and after each, and keep
what each printed: the one command that re-measures benchmarks/README.md.

    python benchmarks/run_all.py             # the figures as README.md reports them
    python benchmarks/run_all.py --quick     # small sizes: every script completes (minutes)
    python benchmarks/run_all.py --only bench_proxy,bench_commands --out /tmp/bench

Each script runs as its own process (``sys.executable``, from the repository root), with a
timeout; its output goes to ``OUT/<script>.txt`` and a line per script to ``OUT/summary.md``
and ``OUT/summary.json``: the arguments, the load average (1, 5, 15 min) before and after, wall
and CPU seconds, the exit code. ``OUT`` defaults to ``benchmarks/results/run-<UTC time>``. A
script that fails or times out is reported and the run goes on; the exit code is 1 if any did.
Run it on a quiet machine: every wall-time figure moves with the load printed beside it.
``bench_corpus_agreement.py`` runs with ``--dry-run`` (it would rewrite its committed results)
and ``corpus_app.py`` with ``--check``; ``bench_cues.py`` and ``bench_cues_eval.py`` never write
unless asked.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# (script, arguments for the README's figures, arguments for --quick)
PLAN: list[tuple[str, list[str], list[str]]] = [
    ("bench_classify", [], ["--repeat", "3", "--tools", "200"]),
    ("bench_cost", [], ["--sizes", "1000,4000", "--kinds", "enum,required"]),
    ("bench_replay", [], ["-n", "20000", "-r", "1", "-s", "typical"]),
    ("bench_commands", [], ["-n", "20000", "-r", "1", "--skip-fleet"]),
    ("bench_proxy", ["-n", "2000"], ["-n", "300", "--held-log", "0,1000"]),
    ("bench_proxy_large", [], ["--quick"]),
    ("bench_exact_ints", [], ["--repeat", "3"]),
    ("bench_fetch", [], ["--kinds", "raw,inproc", "--sizes", "1,10", "--repeat", "1"]),
    ("bench_tui", [], ["--servers", "5", "--per-server", "20"]),
    ("bench_tui", ["--servers", "50", "--per-server", "200", "--varied"], None),
    ("bench_bigtext", [], ["--sizes", "20000"]),
    ("bench_cues", ["--timing", "--tools", "2000"], []),
    ("bench_cues_eval", ["--set", "both"], ["--set", "dev"]),
    ("bench_cues_hostile", [], ["--sizes", "50000"]),
    ("bench_corpus", [], ["--repeat", "1"]),
    ("bench_corpus_agreement", ["--dry-run", "--outside-suite"], None),
    ("bench_kinds", [], ["--tier", "strict"]),
    ("bench_hosts", [], []),
    ("bench_signed", [], ["--decisions", "100", "--repeat", "1", "--ssh-sample", "2"]),
    ("corpus_app", ["--check"], None),
]
"""``None`` for --quick: skipped there (minutes of work whatever the size)."""


def _load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="small sizes: every script completes")
    ap.add_argument("--only", help="comma list of script names (bench_proxy,bench_tui...)")
    ap.add_argument("--out", type=Path, help="where the outputs go")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per script")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = a.out or HERE / "results" / f"run-{stamp}{'-quick' if a.quick else ''}"
    out.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    rows = []
    seen: dict[str, int] = {}
    print(f"head {head or '?'}, {os.cpu_count()} cores, outputs in {out}", flush=True)
    for script, full, quick in PLAN:
        if only is not None and script not in only:
            continue
        args = quick if a.quick else full
        if args is None:
            print(f"-- {script} {' '.join(full)}: skipped with --quick", flush=True)
            continue
        seen[script] = seen.get(script, 0) + 1
        name = script if seen[script] == 1 else f"{script}-{seen[script]}"
        cmd = [sys.executable, str(HERE / f"{script}.py"), *args]
        before = _load()
        print(f"== {name} {' '.join(args)}   (load before {before})", flush=True)
        cpu0, t0 = _children_cpu(), time.perf_counter()
        with open(out / f"{name}.txt", "w") as log:
            log.write(f"$ {' '.join(cmd[1:])}\n# head {head}, load before {before}\n")
            log.flush()
            try:
                code = subprocess.run(
                    cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, timeout=a.timeout
                ).returncode
            except subprocess.TimeoutExpired:
                code = -1
            after = _load()
            log.write(f"# exit {code}, load after {after}\n")
        wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
        status = "ok" if code == 0 else ("TIMEOUT" if code == -1 else f"FAILED (exit {code})")
        print(f"   {status}: {wall:.1f} s wall, {cpu:.1f} s CPU, load after {after}", flush=True)
        rows.append(
            {
                "script": name,
                "args": args,
                "load_before": before,
                "load_after": after,
                "wall_s": round(wall, 2),
                "cpu_s": round(cpu, 2),
                "exit": code,
            }
        )
    (out / "summary.json").write_text(json.dumps({"head": head, "runs": rows}, indent=2) + "\n")
    lines = [
        f"# benchmarks at {head} ({stamp}{', quick' if a.quick else ''})",
        "",
        "| script | arguments | load before | load after | wall | CPU | exit |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['script']} | `{' '.join(r['args'])}` | {r['load_before']} | {r['load_after']} "
        f"| {r['wall_s']:.1f} s | {r['cpu_s']:.1f} s | {r['exit']} |"
        for r in rows
    ]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print(f"summary: {out / 'summary.md'}")
    return 0 if all(r["exit"] == 0 for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
