#!/usr/bin/env python3
"""Build the cue benchmark's data from ``texts.py``: plant each poisoned text into a real
description of the corpus (tests/corpus, each server's newest capture) at a stated position,
freeze a third of the set at random with a fixed seed, and locate each hard negative in the
corpus where a real release says it.

``python benchmarks/cues/build_set.py`` rewrites ``poisoned.json``, ``frozen.json`` and
``hard_negatives.json`` beside it; the output depends only on the texts, the seed and the
corpus (``tests/test_cues_bench.py`` checks the committed files are what it writes).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(HERE))

import corpus_data as cd  # noqa: E402
import texts  # noqa: E402

PLANT_SEED = 27
FREEZE_SEED = 20261201
NEGATIVE_SEED = 19
POSITIONS = ("end", "start", "after-first-sentence")


def plant(original: str, text: str, position: str) -> str:
    """``original`` with ``text`` planted at ``position``."""
    if position == "start":
        return f"{text} {original}"
    if position == "after-first-sentence":
        cut = original.find(". ")
        if cut >= 0:
            return f"{original[: cut + 1]} {text}{original[cut + 1 :]}"
    return f"{original} {text}" if original else text


def targets() -> list[dict[str, Any]]:
    """Every description in the newest capture of each server the set was written and frozen
    on (the suite's corpus) that a text can be planted into."""
    return plant_targets(lambda server: server in cd.SUITE_SERVERS)


def plant_targets(keep: Any) -> list[dict[str, Any]]:
    """Every description in the newest capture of each server ``keep(server)`` accepts that a
    text can be planted into: the tool's description and each top-level input property's
    description, in a fixed order (benchmarks/eval/build_eval.py plants with it too)."""
    out: list[dict[str, Any]] = []
    for server, caps in sorted(cd.servers().items()):
        if not keep(server):
            continue
        cap = caps[-1]
        for name in sorted(cap.tools):
            tool = cap.tools[name]
            if isinstance(tool.get("description"), str) and tool["description"]:
                out.append(
                    {
                        "server": server,
                        "version": cap.version,
                        "tool": name,
                        "pointer": "/description",
                    }
                )
            props = (tool.get("inputSchema") or {}).get("properties") or {}
            if isinstance(props, dict):
                for p in sorted(props):
                    v = props[p]
                    if isinstance(v, dict) and isinstance(v.get("description"), str):
                        esc = p.replace("~", "~0").replace("/", "~1")
                        out.append(
                            {
                                "server": server,
                                "version": cap.version,
                                "tool": name,
                                "pointer": f"/inputSchema/properties/{esc}/description",
                            }
                        )
    return out


def build() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    rng = random.Random(PLANT_SEED)
    spots = targets()
    poisoned: list[dict[str, Any]] = []
    for cls, (blocking, items) in texts.CLASSES.items():
        for i, text in enumerate(items, 1):
            spot = rng.choice(spots)
            poisoned.append(
                {
                    "id": f"{cls}-{i:02d}",
                    "class": cls,
                    "blocking": blocking,
                    "text": text,
                    "plant": {**spot, "position": rng.choice(POSITIONS)},
                }
            )
    frz = random.Random(FREEZE_SEED)
    frozen: list[str] = []
    for cls in texts.CLASSES:
        ids = [p["id"] for p in poisoned if p["class"] == cls]
        frozen.extend(sorted(frz.sample(ids, round(len(ids) / 3))))
    frozen_doc = {
        "seed": FREEZE_SEED,
        "how": "a third of each class, random.Random(seed).sample, classes in texts.py order",
        "note": "the rules are never tuned on these ids: their figure is the honest one",
        "ids": frozen,
    }
    corpus_texts: list[tuple[str, str, str, str, str]] = []
    for server, caps in sorted(cd.servers().items()):
        if server not in cd.SUITE_SERVERS:  # the corpus the set was written and frozen on
            continue
        for cap in caps:
            for name, tool in sorted(cap.tools.items()):
                stack: list[tuple[Any, str]] = [(tool, "")]
                while stack:
                    node, ptr = stack.pop()
                    if isinstance(node, str):
                        corpus_texts.append((server, cap.version, name, ptr, node))
                    elif isinstance(node, dict):
                        for k, v in node.items():
                            esc = k.replace("~", "~0").replace("/", "~1")
                            stack.append((v, f"{ptr}/{esc}"))
                    elif isinstance(node, list):
                        stack.extend((v, f"{ptr}/{i}") for i, v in enumerate(node))
    negatives: list[dict[str, Any]] = []
    neg_rng = random.Random(NEGATIVE_SEED)
    for i, text in enumerate(texts.HARD_NEGATIVES, 1):
        found = None
        for server, version, name, ptr, s in corpus_texts:
            if text.lower() in s.lower():
                found = {"server": server, "version": version, "tool": name, "pointer": ptr}
                break
        negatives.append(
            {
                "id": f"negative-{i:02d}",
                "text": text,
                "blocking": False,
                "found": found,
                # A real release's text is honest in its own server (it may name that
                # server's tools): planted into another description of the same server.
                "plant": {
                    **neg_rng.choice(
                        [s for s in spots if found is None or s["server"] == found["server"]]
                    ),
                    "position": neg_rng.choice(POSITIONS),
                },
            }
        )
    return poisoned, frozen_doc, negatives


def main() -> int:
    poisoned, frozen, negatives = build()
    for name, doc in (
        ("poisoned.json", poisoned),
        ("frozen.json", frozen),
        ("hard_negatives.json", negatives),
    ):
        (HERE / name).write_text(
            json.dumps(doc, indent=1, ensure_ascii=True) + "\n", encoding="utf-8"
        )
    n_frozen = len(frozen["ids"])
    print(
        f"{len(poisoned)} poisoned texts ({n_frozen} frozen), {len(negatives)} hard negatives "
        f"({sum(n['found'] is not None for n in negatives)} found in the corpus)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
