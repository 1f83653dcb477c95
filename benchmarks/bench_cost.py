"""Cost of one hostile tool (issue 25 item 5): a huge enum, required list, properties map or
anyOf/oneOf list losing (or gaining) one entry, classified (``compare``) and judged against a
pin (``compute_status``), from 1,000 to 200,000 entries. Prints CPU time per size (this
process's: on a shared machine wall time measures the neighbours) and the
witness search's counted work (validator calls, units: a call costs 1 + the largest
collection it reads); the time should grow linearly with the size, the work stay bounded.

    python benchmarks/bench_cost.py [--sizes 1000,10000,50000,200000] [--kinds enum,required]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "engine"))

from test_cost_bounds import KINDS, hostile_pair, tool

from mcp_review.engine import compare as compare_mod
from mcp_review.engine import witness
from mcp_review.engine.pins import PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status


def measure(kind: str, n: int) -> tuple[float, float, witness.Tally, str]:
    tallies: list[witness.Tally] = []
    real = witness.attach_witnesses

    def counted(*a, **kw):  # type: ignore[no-untyped-def]
        kw["tally"] = t = witness.Tally()
        tallies.append(t)
        return real(*a, **kw)

    compare_mod.attach_witnesses = counted  # type: ignore[assignment]
    try:
        old, new = hostile_pair(kind, n)
        t0 = time.process_time()
        cmp = compare_mod.compare(tool(old), tool(new))
        t1 = time.process_time()
        pins = PinFile()
        pins.decide(make_pin("srv", tool(old), "approved", by="bench"))
        snap = Snapshot(
            servers={"srv": ServerSnapshot(name="srv", principal="default", tools=[tool(new)])}
        )
        report = compute_status(snap, pins)
        t2 = time.process_time()
    finally:
        compare_mod.attach_witnesses = real
    first = cmp.changes[0]
    what = f"{first.rule} {first.cls}{' +witness' if first.has_witness else ''}"
    what += f", status {report.tools[0].state}"
    return t1 - t0, t2 - t1, tallies[0], what


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,50000,200000")
    ap.add_argument("--kinds", default=",".join(KINDS))
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for kind in args.kinds.split(","):
        for n in map(int, args.sizes.split(",")):
            tc, ts, tally, what = measure(kind, n)
            print(
                f"{kind:10} {n:>7}: classify {tc:6.2f} s CPU ({tc / n * 1e6:5.1f} µs/entry), "
                f"status {ts:6.2f} s CPU; search {tally.calls} calls, {tally.units} units; {what}",
                flush=True,
            )


if __name__ == "__main__":
    main()
