"""Decisions per upgrade, before and after review by kind (issue 28), on the real corpus.

``python benchmarks/bench_kinds.py [--tier tiered] [--list] [--json FILE]``

For every server in ``tests/corpus`` (captures from scripts/corpus/capture.py, versions ordered
as scripts/corpus/corpus_data.py orders them), every upgrade between two consecutive captured
versions and from the oldest to the newest: every tool of the old version is pinned as
approved (the server's instructions are left out: they are decided on their own), the new
version is reviewed under the tier, and two numbers are taken:

- **before**: the tools that need a human (``review`` or ``block``), one decision each, as the
  app and ``approve`` took them before review by kind;
- **after**: the decisions review by kind asks for (``engine.kinds.group_report``): one per
  kind of change across the tools, plus one per tool that stands alone.

Prints one line per upgrade and the median and maximum of both over every upgrade (and over
the upgrades where anything needs a human), the figures ``benchmarks/README.md`` gives.
Offline, deterministic; no timing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))

import corpus_data as cd  # noqa: E402

from mcp_review.engine.kinds import Alone, group_report  # noqa: E402
from mcp_review.engine.model import ToolDef  # noqa: E402
from mcp_review.engine.pins import Decision, PinFile, make_pin  # noqa: E402
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot  # noqa: E402
from mcp_review.engine.status import compute_status  # noqa: E402


def _defs(cap: cd.Capture) -> list[ToolDef]:
    return [ToolDef.from_wire(w) for w in cap.tools.values()]


def upgrade(old: cd.Capture, new: cd.Capture, tier: str) -> dict[str, Any]:
    """The decisions one upgrade needs, before and after review by kind."""
    pins = PinFile()
    for t in _defs(old):
        pins.decide(make_pin(old.server, t, Decision.APPROVED, by="bench"))
    if tier != "tiered":
        pins.set_policy(old.server, tier)
    snap = Snapshot()
    snap.servers[new.server] = ServerSnapshot(name=new.server, tools=_defs(new))
    report = compute_status(snap, pins, witnesses=True)
    before = sum(1 for t in report.tools if t.needs_attention)
    g = group_report(report)
    alone = [i for i in g.ordered() if isinstance(i, Alone)]
    return {
        "server": old.server,
        "old": old.version,
        "new": new.version,
        "tools": len(new.tools),
        "before": before,
        "after": g.decisions,
        "kinds": len(g.groups),
        "alone": len(alone),
        "alone_reasons": sorted({str(r) for a in alone for r in a.reasons}),
        "largest_group": max((x.size for x in g.groups), default=0),
    }


def upgrades(tier: str) -> list[dict[str, Any]]:
    out = []
    for caps in cd.servers().values():
        pairs = list(itertools.pairwise(caps))
        if len(caps) > 2:
            pairs.append((caps[0], caps[-1]))  # oldest -> newest, beside the consecutive ones
        for old, new in pairs:
            row = upgrade(old, new, tier)
            row["span"] = (
                "oldest->newest"
                if (old, new) == (caps[0], caps[-1]) and len(caps) > 2
                else "consecutive"
            )
            out.append(row)
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def stats(key: str, of: list[dict[str, Any]]) -> dict[str, float]:
        vals = [r[key] for r in of]
        return {"median": statistics.median(vals), "max": max(vals)} if vals else {}

    needing = [r for r in rows if r["before"]]
    return {
        "upgrades": len(rows),
        "upgrades_needing_a_human": len(needing),
        "all": {"before": stats("before", rows), "after": stats("after", rows)},
        "needing_a_human": {"before": stats("before", needing), "after": stats("after", needing)},
        "by_span": {
            span: {
                "upgrades": len(sub),
                "before": stats("before", sub),
                "after": stats("after", sub),
            }
            for span in ("consecutive", "oldest->newest")
            if (sub := [r for r in rows if r["span"] == span])
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", default="tiered", choices=("strict", "tiered", "compatible"))
    ap.add_argument("--list", action="store_true", help="one line per upgrade")
    ap.add_argument("--json", metavar="FILE", help="write every row and the summary as JSON")
    args = ap.parse_args(argv)
    rows = upgrades(args.tier)
    if args.list:
        for r in rows:
            print(
                f"{r['server']:28} {r['old']:>11} -> {r['new']:<11} {r['span']:15} "
                f"tools {r['tools']:3}  before {r['before']:3}  after {r['after']:3} "
                f"({r['kinds']} kinds, {r['alone']} alone{': ' if r['alone_reasons'] else ''}"
                f"{', '.join(r['alone_reasons'])})"
            )
    s = summary(rows)
    print(
        f"tier {args.tier}: {s['upgrades']} upgrades, {s['upgrades_needing_a_human']} need a human"
    )
    for name, part in (("every upgrade", s["all"]), ("needing a human", s["needing_a_human"])):
        b, a = part["before"], part["after"]
        print(
            f"  {name:16} before: median {b['median']:g}, max {b['max']:g}   "
            f"after: median {a['median']:g}, max {a['max']:g}"
        )
    for span, part in s["by_span"].items():
        b, a = part["before"], part["after"]
        print(
            f"  {span:16} ({part['upgrades']}) before: median {b['median']:g}, max {b['max']:g}   "
            f"after: median {a['median']:g}, max {a['max']:g}"
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"tier": args.tier, "rows": rows, "summary": s}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
