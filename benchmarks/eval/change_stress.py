#!/usr/bin/env python3
"""The change readers' honest stress set (development only, not a scorer line).

``python benchmarks/eval/change_stress.py [--params] [DIR ...]`` (from the repository root; the
default folders are ``honest_dev`` to ``honest_dev5``; ``honest_dev6 honest_dev7`` are tools the
learned model never trained on, the out-of-sample reading of change pass 3)

``--params`` reads parameters instead (the recall pass): each parameter description of two
sentences or more read as a change that adds one of its own sentences back, the rest of the
tool unchanged.

Each published development tool (``honest_dev/`` to ``honest_dev5/``) with two sentences or
more is read as a change that adds one of its own sentences back (every sentence but the
first, in turn), the server vocabulary empty (those servers are not in the fleet): the tools
on which a change reader (engine/cue_change.py) raises a cue are printed. See
benchmarks/README.md, the change readers' second pass.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_cues_eval as E

from mcp_review.engine.cue_change import _cut
from mcp_review.engine.rules.cue_change import CHANGE_RULE_LIST
from mcp_review.engine.rules.cue_handover import HANDOVER_RULE_LIST
from mcp_review.engine.rules.cue_notes import NOTE_RULE_LIST

# the change readers, those of what an added sentence relays (recall pass 3) and those of what
# it hands over (development batch 17)
RULES = (
    {r[0] for r in CHANGE_RULE_LIST}
    | {r[0] for r in NOTE_RULE_LIST}
    | {r[0] for r in HANDOVER_RULE_LIST}
)
PARAMS = "--params" in sys.argv
DIRS = [a for a in sys.argv[1:] if not a.startswith("--")] or [
    "honest_dev",
    "honest_dev2",
    "honest_dev3",
    "honest_dev4",
    "honest_dev5",
]


def _param_changes(t):
    """(old, new) for each parameter sentence but the first of each parameter, added back."""
    props = (t.get("inputSchema") or {}).get("properties") or {}
    if not isinstance(props, dict):
        return
    for name, sch in props.items():
        if not isinstance(sch, dict) or not isinstance(sch.get("description"), str):
            continue
        ss = list(_cut(sch["description"]))
        for i in range(1, len(ss)):
            old = json.loads(json.dumps(t))
            new = json.loads(json.dumps(t))
            old["inputSchema"]["properties"][name]["description"] = " ".join(ss[:i] + ss[i + 1 :])
            new["inputSchema"]["properties"][name]["description"] = " ".join(ss)
            yield old, new


def _description_changes(t):
    """(old, new) for each description sentence but the first, added back (a tool of two
    sentences or more)."""
    ss = list(_cut(t.get("description") or ""))
    new = dict(t, description=" ".join(ss))
    for i in range(1, len(ss)):
        yield dict(t, description=" ".join(ss[:i] + ss[i + 1 :])), new


per: dict[str, list[int]] = {}
names = E.KnownNames()
n = f = 0
hits = []
for d in DIRS:
    for p in sorted((E.EVAL / d).glob("*.json")):
        doc = json.loads(p.read_text())
        for t in doc["tools"]:
            pairs = list(_param_changes(t) if PARAMS else _description_changes(t))
            if not pairs:
                continue
            n += 1
            per.setdefault(d, [0, 0])[0] += 1
            got = set()
            for old, new in pairs:
                for c in E.tool_cues(old, new, names=names, server=p.stem):
                    if c.rule in RULES:
                        got.add((c.rule.split(".")[-1], c.text[:150]))
            if got:
                f += 1
                per[d][1] += 1
                hits.append((d, p.stem, t["name"], sorted(got)))
print("stress tools", n, "flagged", f)
for d, (dn, df) in per.items():
    print(f"  {d}: {df}/{dn}")
for h in hits:
    print(" ", h)
