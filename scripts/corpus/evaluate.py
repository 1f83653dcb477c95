"""The engine's verdict on every corpus unit, held against the committed oracle labels.

Used by ``tests/engine/test_corpus.py`` (assertions, no timing) and ``benchmarks/bench_corpus.py``
(figures for benchmarks/README.md). Runs in the project's venv; reads only committed files.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_data as cd

BREAKING, NO_ANSWER, COMPATIBLE, CRASH = "breaking", "potentially-breaking", "compatible", "crash"
REMOVED_DECLARED = "property-removed-open"
"""A declared property gone from an open object: potentially-breaking by design (an old call
that sends it is now ignored, not rejected), so counted apart from "no answer"."""


@dataclass
class Verdict:
    unit: cd.Unit
    verdict: str  # BREAKING | NO_ANSWER | COMPATIBLE | CRASH
    changes: list[Any] = field(default_factory=list)  # the engine's Change objects, this side
    error: str | None = None  # traceback text when the engine raised
    seconds: float = 0.0  # compare() of the whole tool pair (shared by its two sides)

    def rules(self, cls: str | None = None) -> list[str]:
        return [f"{c.rule} {c.pointer}" for c in self.changes if cls is None or str(c.cls) == cls]


def load_labels(path: Path = cd.LABELS) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def engine_verdicts(
    units: list[cd.Unit] | None = None, compared: dict[tuple, tuple[Any, str | None]] | None = None
) -> list[Verdict]:
    """compare() (witnesses on) once per changed tool pair; one Verdict per unit. ``compared``:
    comparisons already made (the test suite's, shared by its files), keyed (server, old
    version, new version, tool), each its Comparison or the traceback compare() raised."""
    from mcp_review.engine.compare import compare
    from mcp_review.engine.model import ChangeClass, Direction, ToolDef

    units = list(cd.units()) if units is None else units
    done: dict[tuple, tuple[Any, str | None, float]] = {
        k: (cmp, err, 0.0) for k, (cmp, err) in (compared or {}).items()
    }
    out: list[Verdict] = []
    for u in units:
        pk = (u.server, u.old_version, u.new_version, u.tool)
        if pk not in done:
            t0 = time.perf_counter()
            try:
                cmp = compare(ToolDef.from_wire(u.old_tool), ToolDef.from_wire(u.new_tool))
                done[pk] = (cmp, None, time.perf_counter() - t0)
            except Exception:
                done[pk] = (None, traceback.format_exc(), time.perf_counter() - t0)
        cmp, err, secs = done[pk]
        if cmp is None:
            out.append(Verdict(u, CRASH, error=err, seconds=secs))
            continue
        want = Direction.INPUT if u.side == "input" else Direction.OUTPUT
        mine = [c for c in cmp.changes if c.direction is want]
        classes = {c.cls for c in mine}
        if ChangeClass.BREAKING in classes:
            v = BREAKING
        elif ChangeClass.POTENTIALLY_BREAKING in classes:
            v = NO_ANSWER
        else:
            v = COMPATIBLE
        out.append(Verdict(u, v, mine, seconds=secs))
    return out


def text_only_verdicts() -> list[tuple[str, str]]:
    """(key, verdict) for tools whose schemas did not change: never breaking, never a crash."""
    from mcp_review.engine.compare import compare
    from mcp_review.engine.model import ChangeClass, ToolDef

    out = []
    for old, new, name in cd.text_only():
        key = f"{old.server} {old.version}->{new.version} {name} text"
        try:
            cmp = compare(ToolDef.from_wire(old.tools[name]), ToolDef.from_wire(new.tools[name]))
        except Exception:
            out.append((key, CRASH))
            continue
        classes = {c.cls for c in cmp.changes}
        out.append(
            (
                key,
                BREAKING
                if ChangeClass.BREAKING in classes
                else NO_ANSWER
                if ChangeClass.POTENTIALLY_BREAKING in classes
                else COMPATIBLE,
            )
        )
    return out


def figures(verdicts: list[Verdict], labels: dict[str, Any]) -> dict[str, Any]:
    """Counts and the goals' failing units (keys with the engine's rules)."""
    by_key = {r["key"]: r for r in labels["units"]}
    f: dict[str, Any] = {
        "units": len(verdicts),
        "crash": [],
        "missed_breaking": [],
        "cry_wolf": [],
        "no_answer": [],
        "removed_declared": [],
        "unlabelled": [],
        "breaking_without_witness": [],
        "breaking_left_open": [],
    }
    f["breaking_changes"] = f["breaking_with_witness"] = 0
    cnt = {
        "oracle_breaking": 0,
        "oracle_compatible": 0,
        "oracle_unsupported": 0,
        "engine_breaking": 0,
        "engine_no_answer": 0,
        "engine_compatible": 0,
    }
    for v in verdicts:
        lab = by_key.get(v.unit.key)
        if lab is None or lab.get("fingerprint") != cd.fingerprint(v.unit):
            f["unlabelled"].append(v.unit.key)
            continue
        cnt[f"oracle_{lab['label']}"] += 1
        if v.verdict == CRASH:
            f["crash"].append((v.unit.key, (v.error or "").strip().splitlines()[-1:]))
            continue
        cnt[
            {
                "breaking": "engine_breaking",
                NO_ANSWER: "engine_no_answer",
                "compatible": "engine_compatible",
            }[v.verdict]
        ] += 1
        if v.verdict == NO_ANSWER:
            open_rules = v.rules("potentially-breaking")
            # A removed declared property of an open object stays potentially-breaking by
            # design (replay decides it from recorded calls): counted apart, not "no answer".
            removed = all(r.split(" ", 1)[0] == REMOVED_DECLARED for r in open_rules)
            f["removed_declared" if removed else "no_answer"].append((v.unit.key, open_rules))
        if lab["label"] == "breaking" and v.verdict == COMPATIBLE:
            f["missed_breaking"].append((v.unit.key, v.rules()))
        if lab["label"] == "breaking" and v.verdict == NO_ANSWER:
            f["breaking_left_open"].append((v.unit.key, v.rules("potentially-breaking")))
        if lab["label"] == "compatible" and v.verdict == BREAKING:
            f["cry_wolf"].append((v.unit.key, v.rules("breaking")))
        for c in v.changes:
            if str(c.cls) != "breaking":
                continue
            f["breaking_changes"] += 1
            f["breaking_with_witness"] += bool(c.has_witness)
            # A witness, or the engine's note on why none (budget spent, search failed).
            if not (c.has_witness or getattr(c, "note", None)):
                f["breaking_without_witness"].append((v.unit.key, f"{c.rule} {c.pointer}"))
    f.update(cnt)
    judged = len(verdicts) - len(f["unlabelled"])
    f["judged"] = judged
    f["cry_wolf_rate"] = (
        len(f["cry_wolf"]) / cnt["oracle_compatible"] if cnt["oracle_compatible"] else 0.0
    )
    f["no_answer_rate"] = len(f["no_answer"]) / judged if judged else 0.0
    f["witness_share"] = (
        f["breaking_with_witness"] / f["breaking_changes"] if f["breaking_changes"] else 1.0
    )
    return f
