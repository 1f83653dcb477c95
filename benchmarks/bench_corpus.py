#!/usr/bin/env python3
"""The engine on the real-server corpus: verdicts against the oracle, crashes, classify time.

``python benchmarks/bench_corpus.py [--repeat N] [--list]``. Reads tests/corpus/ (captures from
scripts/corpus/capture.py, oracle labels from scripts/corpus/sweep.py) and prints the figures
of benchmarks/README.md, "Corpus"; ``--list`` also prints every unit behind a missed goal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))

import corpus_data as cd  # noqa: E402
import evaluate as ev  # noqa: E402


def _time_pairs(units: list[cd.Unit], repeat: int) -> tuple[list[float], list[float], str]:
    from mcp_review.engine.compare import compare
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.schema_diff import diff_tools

    seen, full, diff_only, slowest = set(), [], [], (0.0, "")
    for u in units:
        pk = (u.server, u.old_version, u.new_version, u.tool)
        if pk in seen:
            continue
        seen.add(pk)
        try:
            a, b = ToolDef.from_wire(u.old_tool), ToolDef.from_wire(u.new_tool)
            best_full = best_diff = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                diff_tools(a, b)
                t1 = time.perf_counter()
                compare(a, b)
                t2 = time.perf_counter()
                best_diff, best_full = min(best_diff, t1 - t0), min(best_full, t2 - t1)
        except Exception:
            continue  # counted as a crash by the verdict pass
        full.append(best_full)
        diff_only.append(best_diff)
        slowest = max(slowest, (best_full, " ".join(pk)))
    return full, diff_only, slowest[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="timing runs per tool pair (best)")
    ap.add_argument("--list", action="store_true", help="print the units behind each figure")
    a = ap.parse_args(argv)
    units = list(cd.units())
    labels = ev.load_labels()
    f = ev.figures(ev.engine_verdicts(units), labels)
    text = ev.text_only_verdicts()
    full, diff_only, slowest = _time_pairs(units, a.repeat)
    servers = cd.servers()
    n_versions = sum(len(v) for v in servers.values())
    print(
        f"corpus: {len(servers)} servers, {n_versions} versions, "
        f"{len({(u.server, u.old_version, u.new_version, u.tool) for u in units})} changed "
        f"tool pairs with schema changes, {len(text)} text-only tool changes"
    )
    print(
        f"oracle (K={labels['oracle']['K']}): {f['judged']} schema changes: "
        f"{f['oracle_breaking']} breaking, {f['oracle_compatible']} compatible, "
        f"{f['oracle_unsupported']} not judged"
    )
    print(
        f"engine: {f['engine_breaking']} breaking, {f['engine_no_answer']} "
        f"potentially-breaking, {f['engine_compatible']} compatible, "
        f"{len(f['crash'])} tracebacks (+{sum(v == ev.CRASH for _, v in text)} on text-only)"
    )
    print(
        f"goals: breaking called compatible {len(f['missed_breaking'])} (goal 0) · "
        f"compatible called breaking {len(f['cry_wolf'])}/{f['oracle_compatible']} = "
        f"{f['cry_wolf_rate']:.1%} (goal <= 1 %) · no answer {len(f['no_answer'])}/"
        f"{f['judged']} = {f['no_answer_rate']:.1%} (goal <= 5 %; a removed declared "
        f"property apart: {len(f['removed_declared'])}) · breaking without "
        f"witness or reason {len(f['breaking_without_witness'])} · oracle-breaking left "
        f"potentially-breaking {len(f['breaking_left_open'])}"
    )
    print(
        f"witnesses: {f['breaking_with_witness']} of {f['breaking_changes']} breaking changes "
        f"carry one ({f['witness_share']:.1%})"
    )
    if full:
        print(
            f"compare() per changed tool pair incl. witnesses: median "
            f"{statistics.median(full) * 1e3:.2f} ms, max {max(full) * 1e3:.1f} ms ({slowest}); "
            f"diff_tools alone: median {statistics.median(diff_only) * 1e3:.2f} ms "
            f"({len(full)} pairs, best of {a.repeat})"
        )
    if a.list:
        for name in (
            "crash",
            "missed_breaking",
            "cry_wolf",
            "no_answer",
            "removed_declared",
            "breaking_left_open",
            "breaking_without_witness",
            "unlabelled",
        ):
            if f[name]:
                print(f"\n{name}:")
                for item in f[name]:
                    print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
