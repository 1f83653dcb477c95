#!/usr/bin/env python3
"""The evidence of each first-sight block, on development data only (issue 39, corroboration).

``python benchmarks/eval/block_evidence.py [--list] [--honest-only | --poisoned-only]``

A new tool's blocking cue of kind instruction, concealment, exfiltration or secret blocks only
when something independent of its own reading agrees (``engine/cue_corroborate.py``). This
script lists, for every honest development tool that blocks at first sight before the
corroboration step, and for every development poisoned text read as a *new* tool (planted into
its host description, the host read at first sight), each blocking cue with the evidence the
module finds for it (``evidence``: another reader on the same text, a payload, a cue of another
blocking kind, hidden characters or a secret path in the tool), and whether it still blocks.

It reads only development data: every distinct definition of the development servers of
``honest_split.json`` (the dev side of ``bench_cues_eval.py --set dev``, its new tools among
them) and the published tool lists ``honest_dev*/`` (each with its server's own tools known, as
a review reads a server), and the development poisoned batches (``poisoned_dev*.json`` but the
held-out 7 and 8, and ``poisoned_dev_lang.json``). The frozen and held-out sets are never read
here, so the choice of what counts as independent (``cue_corroborate.COUNTED``) is made on
development data.

Totals per label: how often each kind of evidence stands beside a block on honest tools and on
poisoned texts (a label that is common on honest blocks and rare on poisoned ones is no
evidence).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_cues_eval as b  # noqa: E402
import honest_dev as hd  # noqa: E402

from mcp_review.engine import cues as cues_mod  # noqa: E402
from mcp_review.engine.cue_corroborate import counts, evidence  # noqa: E402
from mcp_review.engine.cue_directive import own_names_of  # noqa: E402
from mcp_review.engine.cues import KnownNames, tool_texts  # noqa: E402
from mcp_review.engine.rules.cues import CUE_RULES  # noqa: E402

HONEST_FOLDERS = tuple(f"honest_dev{n}" for n in ("", 2, 3, 4, 5, 6, 7, 8))
POISONED = sorted(
    p
    for p in HERE.glob("poisoned_dev*.json")
    if p.stem.removeprefix("poisoned_dev") not in {str(n) for n in b.HELD_OUT}
)


def raw_first_sight(tool: dict[str, Any], names: KnownNames, server: str) -> list[Any]:
    """A new tool's cues before the corroboration step (its input, as ``tool_cues`` hands it)."""
    with mock.patch.object(cues_mod, "corroborate", lambda out, texts, kw: out):
        return cues_mod.tool_cues(None, tool, names=names, server=server)


def judge(tool: dict[str, Any], names: KnownNames, server: str) -> dict[str, Any]:
    """The block cues of one tool read at first sight, the evidence of each, and the levels
    before and after corroboration."""
    raw = raw_first_sight(tool, names, server)
    name = tool.get("name") if isinstance(tool.get("name"), str) else ""
    ev = evidence(
        raw,
        tool_texts(tool),
        own_names=own_names_of(tool),
        own_tool=name,
        names=names,
        server=server,
    )
    after = cues_mod.tool_cues(None, tool, names=names, server=server)
    rows = [
        {
            "rule": c.rule,
            "pointer": c.pointer,
            "text": c.text[:110],
            "evidence": ev.get(i, []),
            "counted": any(map(counts, ev.get(i, []))) if i in ev else None,
        }
        for i, c in enumerate(raw)
        if CUE_RULES[c.rule].blocking
    ]
    lv = {b.level(c) for c in raw}
    lv_after = {b.level(c) for c in after}
    return {
        "block_before": "block" in lv,
        "block_after": "block" in lv_after,
        "caught_before": bool(lv & set(b.CAUGHT)),
        "caught_after": bool(lv_after & set(b.CAUGHT)),
        "blocks": rows,
    }


def honest_defs() -> list[tuple[str, str, dict[str, Any], KnownNames]]:
    corpus = b.fleet_names(b.cd.servers())
    names = KnownNames.of(corpus)
    out = [(w, s, t, names) for w, s, t in hd.corpus_defs()]
    for folder in HONEST_FOLDERS:
        defs = hd.published_defs(folder)
        by: dict[str, dict[str, Any]] = {}
        for _, server, tool in defs:
            by.setdefault(server, {"tools": []})["tools"].append(tool)
        own = {srv: b.with_own(corpus, srv, doc) for srv, doc in by.items()}
        out += [(f"{folder}: {w}", s, t, own[s]) for w, s, t in defs]
    return out


def poisoned_defs() -> list[tuple[str, str, dict[str, Any], KnownNames]]:
    servers = b.cd.servers()
    names = b.fleet(servers)
    out = []
    for path in POISONED:
        for item in json.loads(path.read_text(encoding="utf-8")):
            _, new = b.planted_pair(item, servers)
            out.append((f"{path.stem} {item['id']}", item["plant"]["server"], new, names))
    return out


def run(label: str, defs: list[tuple[str, str, dict[str, Any], KnownNames]], listing: bool) -> None:
    n = block_before = block_after = caught_before = caught_after = 0
    labels: Counter[str] = Counter()
    for where, server, tool, names in defs:
        n += 1
        j = judge(tool, names, server)
        block_before += j["block_before"]
        block_after += j["block_after"]
        caught_before += j["caught_before"]
        caught_after += j["caught_after"]
        if not j["block_before"]:
            continue
        for lab in {e.split(":", 1)[0] for r in j["blocks"] for e in r["evidence"]}:
            labels[lab] += 1
        if not j["blocks"] or not any(r["evidence"] for r in j["blocks"]):
            labels["(none)"] += 1
        if listing and (label == "honest" or not j["block_after"]):
            print(f"  {label} {where}: {'BLOCK' if j['block_after'] else 'attention'}")
            for r in j["blocks"]:
                print(f"    {r['rule']} {r['pointer']}: {r['text']!r}")
                print(f"      evidence: {r['evidence'] or '(none)'}")
    print(
        f"[{label}] {n} tools read at first sight: block {block_before} -> {block_after}, "
        f"block or attention {caught_before} -> {caught_after}; evidence beside a block "
        f"(tools): {dict(labels.most_common())}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print each block and its evidence")
    ap.add_argument("--honest-only", action="store_true")
    ap.add_argument("--poisoned-only", action="store_true")
    a = ap.parse_args(argv)
    if not a.poisoned_only:
        run("honest", honest_defs(), a.list)
    if not a.honest_only:
        run("poisoned", poisoned_defs(), a.list)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
