#!/usr/bin/env python3
"""Introduced cues on hostile long texts (issue 27): CPU time of ``text_cues`` on each of
tests/engine/test_cues.py's adversarial shapes repeated to each size, and the ratio of each size's time
to the smallest's (linear: about the ratio of the sizes; a pattern that backtracks: its square).

    python benchmarks/bench_cues_hostile.py [--sizes 100000,1000000] [--shapes "one word,tags"]

The suite (``test_hostile_long_texts_take_linear_time``) checks 50 KB against 500 KB of every
shape; this script runs the sizes the issue named (100 KB and 1 MB) and beyond. Figures in
benchmarks/README.md. CPU time of this process (wall time on a shared machine measures the
neighbours).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "engine"))

from test_cues import SHAPES, _cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--shapes", default=",".join(sorted(SHAPES)))
    a = ap.parse_args(argv)
    sizes = [int(n) for n in a.sizes.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f}")
    worst = 0.0
    for shape in a.shapes.split(","):
        unit = SHAPES[shape]
        times = [_cpu(unit * (n // len(unit))) for n in sizes]
        ratios = [t / max(times[0], 0.01) for t in times]
        worst = max(worst, *ratios[1:]) if len(ratios) > 1 else worst
        cells = "  ".join(
            f"{n:>9,}: {t:6.3f} s (x{r:5.1f})" for n, t, r in zip(sizes, times, ratios, strict=True)
        )
        print(f"{shape:15} {cells}", flush=True)
    print(f"largest ratio {worst:.1f} for sizes {sizes[-1] / sizes[0]:.0f} times apart")
    return 0


if __name__ == "__main__":
    sys.exit(main())
