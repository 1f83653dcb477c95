#!/usr/bin/env python3
"""Introduced cues measured both ways (issue 27), and their speed at fleet size.

``python benchmarks/bench_cues.py [--write] [--list] [--timing]``

(a) Every description change in the real-server corpus (tests/corpus: consecutive versions,
    each changed text of each tool, at every level the model reads) is a benign rewrite: the
    share of changed texts that introduce a blocking cue is the false-flag rate (target <= 5 %).
(b) The poisoned set (benchmarks/cues/poisoned.json), each text planted into its real corpus
    description: the share with at least one introduced blocking cue (target >= 95 %), the
    frozen third (never tuned on: the honest figure) and the tool-preference class (expected
    unblocked) reported apart; the honest hard negatives likewise.

``--write`` rewrites benchmarks/cues/results.json (the figures and every miss and false flag,
which ``tests/engine/test_cues_bench.py`` re-checks); ``--timing`` adds first-sight and changed-tool
timings over 10,000 tools (not written: machine-dependent).
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CUES_DIR = ROOT / "benchmarks" / "cues"
RESULTS = CUES_DIR / "results.json"
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(CUES_DIR))
sys.path.insert(0, str(ROOT))

import corpus_data as cd  # noqa: E402
from build_set import plant  # noqa: E402

from mcp_review.engine.cues import Cue, KnownNames, tool_cues, tool_texts  # noqa: E402
from mcp_review.engine.policy import first_sight_blocking as blocks_at_first_sight  # noqa: E402

FALSE_FLAG_MAX = 0.05
CATCH_MIN = 0.95


def fleet_names(servers: dict[str, list[cd.Capture]]) -> dict[str, set[str]]:
    """Every server of the corpus as one configured fleet: its tools in any captured version."""
    return {s: {n for c in caps for n in c.tools} for s, caps in servers.items()}


def _get(doc: Any, pointer: str) -> Any:
    node = doc
    for part in pointer.split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _set(doc: Any, pointer: str, value: str) -> None:
    parts = pointer.split("/")[1:]
    node = _get(doc, "/" + "/".join(parts[:-1])) if len(parts) > 1 else doc
    node[parts[-1].replace("~1", "/").replace("~0", "~")] = value


def corpus_changes(names: KnownNames) -> dict[str, Any]:
    """(a): each changed text of each tool between consecutive captured versions."""
    changed = 0
    flagged: list[dict[str, Any]] = []
    shown = Counter[str]()
    first_sight_tools = 0
    first_sight_blocking: list[dict[str, Any]] = []
    for old, new in cd.pairs():
        for name in sorted(new.tools):
            b = new.tools[name]
            a = old.tools.get(name)
            if a is None:
                first_sight_tools += 1
                cues = tool_cues(None, b, names=names, server=new.server)
                # First sight blocks on a cue at level block (policy.first_sight_blocking: after
                # the corroboration step, engine/cue_corroborate.py) and on hidden characters.
                strong = [c for c in cues if blocks_at_first_sight(c) or c.kind == "hidden"]
                if strong:
                    first_sight_blocking.append(_row(new, old, name, strong))
                continue
            before = dict(tool_texts(a))
            texts = [(p, t) for p, t in tool_texts(b) if before.get(p) != t]
            if not texts:
                continue
            cues = tool_cues(a, b, names=names, server=new.server)
            by_ptr: dict[str, list[Cue]] = {}
            for c in cues:
                by_ptr.setdefault(c.pointer, []).append(c)
            for ptr, _t in texts:
                changed += 1
                here = by_ptr.get(ptr, [])
                shown.update(str(c.kind) for c in here)
                blocking = [c for c in here if c.blocking]
                if blocking:
                    flagged.append(_row(new, old, name, blocking, ptr))
    return {
        "changed_texts": changed,
        "flagged": len(flagged),
        "false_flag_rate": round(len(flagged) / changed, 4) if changed else 0.0,
        "false_flags_by_kind": dict(
            sorted(Counter(k for f in flagged for k in {c["kind"] for c in f["cues"]}).items())
        ),
        "cues_shown_by_kind": dict(sorted(shown.items())),
        "false_flags": flagged,
        "first_sight_tools": first_sight_tools,
        "first_sight_blocked": len(first_sight_blocking),
        "first_sight_blocked_list": first_sight_blocking,
    }


def _row(
    new: cd.Capture, old: cd.Capture, name: str, cues: list[Cue], ptr: str = ""
) -> dict[str, Any]:
    return {
        "where": f"{new.server} {old.version}->{new.version} {name} {ptr}".rstrip(),
        "cues": [c.to_json() for c in cues],
    }


def planted(entry: dict[str, Any], servers: dict[str, list[cd.Capture]]) -> tuple[Any, Any]:
    t = entry["plant"]
    cap = next(c for c in servers[t["server"]] if c.version == t["version"])
    old = cap.tools[t["tool"]]
    new = copy.deepcopy(old)
    _set(new, t["pointer"], plant(_get(old, t["pointer"]), entry["text"], t["position"]))
    return old, new


def poisoned_set(names: KnownNames, servers: dict[str, list[cd.Capture]]) -> dict[str, Any]:
    """(b): the planted poisoned texts and hard negatives."""
    entries = json.loads((CUES_DIR / "poisoned.json").read_text(encoding="utf-8"))
    frozen = set(json.loads((CUES_DIR / "frozen.json").read_text(encoding="utf-8"))["ids"])
    negatives = json.loads((CUES_DIR / "hard_negatives.json").read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    for e in [*entries, *negatives]:
        old, new = planted(e, servers)
        cues = tool_cues(old, new, names=names, server=e["plant"]["server"])
        blocking = sorted({str(c.kind) for c in cues if c.blocking})
        rows.append(
            {
                "id": e["id"],
                "class": e.get("class", "hard-negative"),
                "frozen": e["id"] in frozen,
                "expected_blocking": e["blocking"],
                "blocked": bool(blocking),
                "blocking_kinds": blocking,
                "kinds": sorted({str(c.kind) for c in cues}),
            }
        )

    def share(sel: list[dict[str, Any]]) -> dict[str, Any]:
        hit = sum(r["blocked"] for r in sel)
        return {"n": len(sel), "blocked": hit, "rate": round(hit / len(sel), 4) if sel else 0.0}

    attacks = [r for r in rows if r["expected_blocking"]]
    by_class = {
        cls: share([r for r in rows if r["class"] == cls])
        for cls in dict.fromkeys(r["class"] for r in rows)
    }
    return {
        "attacks": share(attacks),
        "attacks_tuned": share([r for r in attacks if not r["frozen"]]),
        "attacks_frozen": share([r for r in attacks if r["frozen"]]),
        "tool_preference": share([r for r in rows if r["class"] == "tool-preference"]),
        "hard_negatives": share([r for r in rows if r["class"] == "hard-negative"]),
        "by_class": by_class,
        "misses": [
            {"id": r["id"], "frozen": r["frozen"], "kinds": r["kinds"]}
            for r in attacks
            if not r["blocked"]
        ],
        "false_blocks": [
            {"id": r["id"], "blocking_kinds": r["blocking_kinds"]}
            for r in rows
            if r["blocked"] and not r["expected_blocking"]
        ],
        "caught_by_kind": dict(
            sorted(Counter(k for r in attacks for k in r["blocking_kinds"]).items())
        ),
    }


def measure() -> dict[str, Any]:
    servers = cd.servers()
    names = KnownNames.of(fleet_names(servers))
    return {"corpus": corpus_changes(names), "poisoned": poisoned_set(names, servers)}


def timing(n_tools: int = 10_000, repeat: int = 3) -> dict[str, float]:
    servers = cd.servers()
    names = KnownNames.of(fleet_names(servers))
    newest = [(s, t) for s, caps in servers.items() for t in caps[-1].tools.values()]
    fleet = [newest[i % len(newest)] for i in range(n_tools)]
    changed = []
    for s, t in fleet:
        b = copy.deepcopy(t)
        b["description"] = str(t.get("description", "")) + " Now also returns timestamps."
        changed.append((s, t, b))
    best = {
        "first_sight_wall": 1e9,
        "first_sight_cpu": 1e9,
        "changed_wall": 1e9,
        "changed_cpu": 1e9,
    }
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        for s, t in fleet:
            tool_cues(None, t, names=names, server=s)
        w1, c1 = time.perf_counter(), time.process_time()
        for s, a, b in changed:
            tool_cues(a, b, names=names, server=s)
        w2, c2 = time.perf_counter(), time.process_time()
        for k, v in (
            ("first_sight_wall", w1 - w0),
            ("first_sight_cpu", c1 - c0),
            ("changed_wall", w2 - w1),
            ("changed_cpu", c2 - c1),
        ):
            best[k] = min(best[k], v)
    chars = statistics.mean(sum(len(x) for _, x in tool_texts(t)) for _, t in fleet)
    return {
        "tools": n_tools,
        **{k: round(v, 3) for k, v in best.items()},
        "mean_text_chars_per_tool": round(chars),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite benchmarks/cues/results.json")
    ap.add_argument("--list", action="store_true", help="print every miss and false flag")
    ap.add_argument("--timing", action="store_true", help="time 10,000 tools")
    ap.add_argument("--tools", type=int, default=10_000, help="tools timed (--timing)")
    a = ap.parse_args(argv)
    r = measure()
    c, p = r["corpus"], r["poisoned"]
    print(
        f"(a) corpus: {c['changed_texts']} changed texts, {c['flagged']} with a blocking cue: "
        f"false flags {c['false_flag_rate']:.1%} (target <= {FALSE_FLAG_MAX:.0%}); by kind "
        f"{c['false_flags_by_kind']}; first sight: {c['first_sight_blocked']} of "
        f"{c['first_sight_tools']} new tools blocked"
    )
    for k in ("attacks", "attacks_tuned", "attacks_frozen", "tool_preference", "hard_negatives"):
        s = p[k]
        print(f"(b) {k}: {s['blocked']}/{s['n']} blocked ({s['rate']:.1%})")
    print(
        "(b) by class: "
        + ", ".join(f"{k} {v['blocked']}/{v['n']}" for k, v in p["by_class"].items())
    )
    if a.list:
        for m in p["misses"]:
            print("  miss", m)
        for f in p["false_blocks"]:
            print("  false block", f)
        for f in c["false_flags"]:
            print("  false flag", f["where"], [(x["rule"], x["text"][:90]) for x in f["cues"]])
    if a.write:
        RESULTS.write_text(json.dumps(r, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    if a.timing:
        print("timing:", timing(a.tools))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
