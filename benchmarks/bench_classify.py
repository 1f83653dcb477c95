"""Benchmark: classify a typical tool pair, and a 1,000-tool server's full diff.

Targets (issue 2): classify a typical pair ≤ 1 ms median; a 1,000-tool server's full diff < 1 s.
Run: ``python benchmarks/bench_classify.py`` (figures go to benchmarks/README.md by hand).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from mcp_review.engine.compare import compare
from mcp_review.engine.model import ToolDef
from mcp_review.engine.schema_diff import diff_tools

TYPICAL_OLD = {
    "name": "run_query",
    "description": "Run a read-only SQL query against the analytics warehouse.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "sql": {"type": "string", "description": "The SQL text", "maxLength": 10000},
            "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 100},
            "format": {"type": "string", "enum": ["json", "csv"]},
            "dry_run": {"type": "boolean"},
            "timeout_ms": {"type": "integer", "minimum": 0},
            "params": {
                "type": "array",
                "items": {"anyOf": [{"type": "string"}, {"type": "number"}]},
            },
        },
        "required": ["sql"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False},
}


def typical_new() -> dict:
    new = copy.deepcopy(TYPICAL_OLD)
    p = new["inputSchema"]["properties"]
    p["format"]["enum"] = ["json"]
    p["limit"]["maximum"] = 1000
    p["cache"] = {"type": "boolean"}
    del p["timeout_ms"]
    new["description"] = "Run a read-only SQL query. Results are cached."
    return new


def bench(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--tools", type=int, default=1000)
    a = ap.parse_args()
    old, new = ToolDef.from_wire(TYPICAL_OLD), ToolDef.from_wire(typical_new())
    t = bench(lambda: diff_tools(old, new), a.repeat)
    print(
        f"diff_tools, typical pair: median {statistics.median(t) * 1e3:.3f} ms, "
        f"p95 {sorted(t)[int(len(t) * 0.95)] * 1e3:.3f} ms ({len(diff_tools(old, new))} changes)"
    )
    t = bench(lambda: compare(old, new), max(50, a.repeat // 20))
    print(f"compare incl. witnesses, typical pair: median {statistics.median(t) * 1e3:.3f} ms")

    # A 1,000-tool server: every tool changed a little (the worst case for a full diff).
    olds, news = [], []
    for i in range(a.tools):
        o = copy.deepcopy(TYPICAL_OLD)
        o["name"] = f"tool_{i}"
        n = typical_new()
        n["name"] = f"tool_{i}"
        olds.append(ToolDef.from_wire(o))
        news.append(ToolDef.from_wire(n))

    def full():
        for o, n in zip(olds, news, strict=True):
            if o.digest != n.digest:
                compare(o, n)

    t = bench(full, 3)
    print(
        f"{a.tools}-tool server, every tool changed, digests + full compare: "
        f"median {statistics.median(t):.3f} s"
    )

    # A big change: a tool that adds N required properties (issue 11: 2,000 took 21 s and
    # 4,000 took 132 s when each witness re-compiled the schema). Linear now.
    for n in (1000, 2000, 4000):
        o = {
            "name": "big",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        }
        props = {"q": {"type": "string"}, **{f"p{i}": {"type": "string"} for i in range(n)}}
        nw = {
            "name": "big",
            "inputSchema": {
                "type": "object",
                "properties": props,
                "required": [f"p{i}" for i in range(n)],
            },
        }
        bo, bn = ToolDef.from_wire(o), ToolDef.from_wire(nw)
        t = bench(lambda bo=bo, bn=bn: compare(bo, bn), 1)
        print(f"{n} required properties added, compare incl. witnesses: {t[0]:.2f} s")

    def unchanged():
        for o in olds:
            _ = o.digest == o.digest

    t = bench(unchanged, 3)
    print(
        f"{a.tools}-tool server, nothing changed (digests only): "
        f"median {statistics.median(t) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
