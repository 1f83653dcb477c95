#!/usr/bin/env python3
"""Build the evaluation set of issue 39 from text the project did not write.

``python benchmarks/eval/build_eval.py`` rewrites, beside it:

- ``poisoned_frozen.json`` / ``poisoned_dev.json``: every poisoned text of
  ``public_vigil.py`` and ``public_others.py`` (copied verbatim from public repositories; the
  provenance of each is its ``source``, ``path``, ``commit`` and ``where``), each planted (seed
  ``PLANT_SEED``) into a real description of a corpus server's newest capture, at the start,
  the end or after the first sentence. Two thirds of each source (seed ``FREEZE_SEED``) are
  *frozen*: scored only to report, never looked at while rules are written; the rest is the
  development set.
- ``honest_split.json``: which corpus servers' release histories give the frozen honest texts
  (two thirds of the servers, seed ``FREEZE_SEED``) and which the development ones. The
  servers of awslabs/mcp, github/github-mcp-server and basicmachines-co/basic-memory are left
  out (kept for an independent check).

The output depends only on the texts, the seeds and the corpus.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "benchmarks" / "cues"))

import corpus_data as cd  # noqa: E402
import public_batch2  # noqa: E402
import public_batch3  # noqa: E402
import public_batch4  # noqa: E402
import public_batch5  # noqa: E402
import public_batch6  # noqa: E402
import public_batch7  # noqa: E402
import public_batch8  # noqa: E402
import public_others  # noqa: E402
import public_vigil  # noqa: E402
from build_set import plant_targets  # noqa: E402

PLANT_SEED = 39
FREEZE_SEED = 20261203
POSITIONS = ("end", "start", "after-first-sentence")
RESERVED_SERVERS = frozenset(
    # awslabs/mcp's servers: their release histories are kept for an independent check
    {"eks-mcp-server", "dynamodb-mcp-server"}
)


def all_items() -> list[dict[str, Any]]:
    """Every public poisoned text with its provenance, in a fixed order."""
    out: list[dict[str, Any]] = []
    for path, commit, where, text in public_vigil.ITEMS:
        out.append(
            {
                "source": public_vigil.REPO,
                "path": path,
                "commit": commit,
                "where": where,
                "licence": "not stated in the file (an AgentDojo fork; AgentDojo is MIT)",
                "text": text,
            }
        )
    for s in public_others.SOURCES:
        for where, text in s["items"]:
            out.append(
                {
                    "source": s["repo"],
                    "path": s["path"],
                    "commit": s["commit"],
                    "where": where,
                    "licence": s["licence"],
                    "text": text,
                }
            )
    for item in out:
        digest = hashlib.sha256(
            f"{item['source']}\n{item['path']}\n{item['where']}\n{item['text']}".encode()
        ).hexdigest()[:10]
        item["id"] = f"{item['source'].split('/')[1]}-{digest}"
    return out


def batch2_items() -> list[dict[str, Any]]:
    """Batch 2 (``public_batch2.py``): collected after the first families, all frozen."""
    out: list[dict[str, Any]] = []
    for s in public_batch2.SOURCES:
        for where, text in s["items"]:
            digest = hashlib.sha256(
                f"{s['repo']}\n{s['path']}\n{where}\n{text}".encode()
            ).hexdigest()[:10]
            out.append(
                {
                    "id": f"{s['repo'].split('/')[1]}-{digest}",
                    "source": s["repo"],
                    "path": s["path"],
                    "commit": s["commit"],
                    "where": where,
                    "licence": s["licence"],
                    "text": text,
                    "batch": 2,
                }
            )
    rng = random.Random(PLANT_SEED + 1)
    spots = targets()
    for item in out:
        item["plant"] = {**rng.choice(spots), "position": rng.choice(POSITIONS)}
    return out


def batch3_items() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Batch 3 (``public_batch3.py``): sources none of batches 1 and 2 used, collected by the
    issue's second engineer, committed before any of their rule changes and before it was
    scored. Split by whole source: ``split == "dev"`` sources are tuned on, the rest frozen.
    Planted with seed ``PLANT_SEED + 2``. Returns (frozen, dev)."""
    out: list[dict[str, Any]] = []
    for s in public_batch3.SOURCES:
        for where, text in s["items"]:
            digest = hashlib.sha256(
                f"{s['repo']}\n{s['path']}\n{where}\n{text}".encode()
            ).hexdigest()[:10]
            out.append(
                {
                    "id": f"{s['repo'].split('/')[1]}-{digest}",
                    "source": s["repo"],
                    "path": s["path"],
                    "commit": s["commit"],
                    "where": where,
                    "licence": s["licence"],
                    "text": text,
                    "batch": 3,
                    "split": s["split"],
                }
            )
    rng = random.Random(PLANT_SEED + 2)
    spots = targets()
    for item in out:
        item["plant"] = {**rng.choice(spots), "position": rng.choice(POSITIONS)}
    return [i for i in out if i["split"] == "frozen"], [i for i in out if i["split"] == "dev"]


def batch4_items() -> list[dict[str, Any]]:
    """Batch 4 (``public_batch4.py``): development data only, from sources no earlier batch
    used, collected for the recall pass of issue 39 and tuned on (``poisoned_dev4.json``).
    Planted with seed ``PLANT_SEED + 3``."""
    return _dev_batch(public_batch4.SOURCES, 4, PLANT_SEED + 3)


def batch5_items() -> list[dict[str, Any]]:
    """Batch 5 (``public_batch5.py``): the recall pass's held-out check, collected after its
    rules and scored before any change; development data from then on
    (``poisoned_dev5.json``). Planted with seed ``PLANT_SEED + 4``."""
    return _dev_batch(public_batch5.SOURCES, 5, PLANT_SEED + 4)


def batch6_items() -> list[dict[str, Any]]:
    """Batch 6 (``public_batch6.py``): the directive pass's held-out check, collected and
    committed before its detector was written, scored before and after it; development data
    (``poisoned_dev6.json``). Planted with seed ``PLANT_SEED + 5``."""
    return _dev_batch(public_batch6.SOURCES, 6, PLANT_SEED + 5)


def batch7_items() -> list[dict[str, Any]]:
    """Batch 7 (``public_batch7.py``): a held-out batch from repositories no earlier batch
    used, collected while other rules were being changed and scored once on main's rules
    before anyone looked at it; development split (``poisoned_dev7.json``), never tuned on.
    Planted with seed ``PLANT_SEED + 6``."""
    return _dev_batch(public_batch7.SOURCES, 7, PLANT_SEED + 6)


def batch8_items() -> list[dict[str, Any]]:
    """Batch 8 (``public_batch8.py``): a second held-out batch from repositories no earlier
    batch and no honest set used, committed before anyone scored it; development split
    (``poisoned_dev8.json``), never tuned on. Planted with seed ``PLANT_SEED + 7``."""
    return _dev_batch(public_batch8.SOURCES, 8, PLANT_SEED + 7)


def _dev_batch(sources: list[dict[str, Any]], batch: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in sources:
        for where, text in s["items"]:
            digest = hashlib.sha256(
                f"{s['repo']}\n{s['path']}\n{where}\n{text}".encode()
            ).hexdigest()[:10]
            out.append(
                {
                    "id": f"{s['repo'].split('/')[1]}-{digest}",
                    "source": s["repo"],
                    "path": s["path"],
                    "commit": s["commit"],
                    "where": where,
                    "licence": s["licence"],
                    "text": text,
                    "batch": batch,
                    "split": "dev",
                }
            )
    rng = random.Random(seed)
    spots = targets()
    for item in out:
        item["plant"] = {**rng.choice(spots), "position": rng.choice(POSITIONS)}
    return out


def targets() -> list[dict[str, Any]]:
    """Descriptions of each non-reserved server's newest capture that a text can be planted
    into: the tool's description and each top-level input property's description."""
    return plant_targets(lambda server: server not in RESERVED_SERVERS)


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    items = all_items()
    ids = [i["id"] for i in items]
    assert len(set(ids)) == len(ids), "duplicate items"
    rng = random.Random(PLANT_SEED)
    spots = targets()
    for item in items:
        item["plant"] = {**rng.choice(spots), "position": rng.choice(POSITIONS)}
    frz = random.Random(FREEZE_SEED)
    frozen_ids: set[str] = set()
    for src in dict.fromkeys(i["source"] for i in items):
        mine = [i["id"] for i in items if i["source"] == src]
        k = max(1, round(len(mine) * 2 / 3)) if len(mine) > 1 else 1
        frozen_ids.update(frz.sample(mine, k))
    frozen = [i for i in items if i["id"] in frozen_ids]
    dev = [i for i in items if i["id"] not in frozen_ids]
    servers = sorted(s for s in cd.servers() if s not in RESERVED_SERVERS)
    hon = random.Random(FREEZE_SEED)
    frozen_servers = sorted(hon.sample(servers, round(len(servers) * 2 / 3)))
    split = {
        "seed": FREEZE_SEED,
        "how": "two thirds of the corpus servers, random.Random(seed).sample over the sorted names",
        "reserved_left_out": sorted(RESERVED_SERVERS),
        "frozen_servers": frozen_servers,
        "dev_servers": [s for s in servers if s not in frozen_servers],
    }
    return frozen, dev, split


def main() -> int:
    frozen, dev, split = build()
    batch2 = batch2_items()
    assert not {i["id"] for i in batch2} & {i["id"] for i in frozen + dev}, "duplicate items"
    frozen3, dev3 = batch3_items()
    earlier = {i["id"] for i in frozen + dev + batch2}
    assert not {i["id"] for i in frozen3 + dev3} & earlier, "duplicate items"
    dev4 = batch4_items()
    assert not {i["id"] for i in dev4} & (earlier | {i["id"] for i in frozen3 + dev3}), "dup"
    dev5 = batch5_items()
    assert not {i["id"] for i in dev5} & {i["id"] for i in dev4}, "dup"
    dev6 = batch6_items()
    assert not {i["id"] for i in dev6} & {i["id"] for i in dev4 + dev5}, "dup"
    dev7 = batch7_items()
    assert not {i["id"] for i in dev7} & {i["id"] for i in dev4 + dev5 + dev6}, "dup"
    assert len({i["id"] for i in dev7}) == len(dev7), "dup"
    dev8 = batch8_items()
    assert not {i["id"] for i in dev8} & {i["id"] for i in dev4 + dev5 + dev6 + dev7}, "dup"
    assert len({i["id"] for i in dev8}) == len(dev8), "dup"
    for name, doc in (
        ("poisoned_frozen3.json", frozen3),
        ("poisoned_dev3.json", dev3),
        ("poisoned_dev4.json", dev4),
        ("poisoned_dev5.json", dev5),
        ("poisoned_dev6.json", dev6),
        ("poisoned_dev7.json", dev7),
        ("poisoned_dev8.json", dev8),
        ("poisoned_frozen2.json", batch2),
        ("poisoned_frozen.json", frozen),
        ("poisoned_dev.json", dev),
        ("honest_split.json", split),
    ):
        (HERE / name).write_text(
            json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    n_src = len({i["source"] for i in frozen + dev})
    print(
        f"{len(frozen) + len(dev)} poisoned texts from {n_src} sources: "
        f"{len(frozen)} frozen, {len(dev)} dev; batch 2: {len(batch2)} frozen; batch 3: "
        f"{len(frozen3)} frozen, {len(dev3)} dev; batch 4: {len(dev4)} dev; batch 5: {len(dev5)} dev; batch 6: {len(dev6)} dev; batch 7: {len(dev7)} dev; batch 8: {len(dev8)} dev; honest servers "
        f"{len(split['frozen_servers'])} frozen, {len(split['dev_servers'])} dev"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
