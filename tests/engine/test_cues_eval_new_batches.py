"""Batches 13, 14 and 17 of issue 39's evaluation set (benchmarks/eval/public_batch13.py,
public_batch14.py and public_batch17.py, SOURCES.md "Batch 13", "Batch 14" and "Batch 17"):
development poisoned tool texts from repositories no other batch, no honest set and no reserved
source uses, whose owners wrote none of the frozen or held-out sources, at most 12 a repository
(8 for batch 17), none sharing a run of eight words with a frozen or held-out text. Each test
runs once per batch."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import public_batch10
import public_batch13
import public_batch14
import public_batch17
import pytest
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"
BATCHES = {13: public_batch13, 14: public_batch14, 17: public_batch17}
"""Each batch and its builder."""
batch = pytest.mark.parametrize("n", sorted(BATCHES))


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _other_repos(n: int) -> set[str]:
    """Every repository another poisoned batch, a batch builder or an honest set names (batch
    ``n``'s own files aside; any quoted "owner/name" of a builder counts)."""
    out: set[str] = set()
    for p in EVAL.glob("poisoned_*.json"):
        if p.name != f"poisoned_dev{n}.json":
            out |= {str(i["source"]) for i in _load(p.name)}
    for f in EVAL.glob("public_*.py"):
        if f.name != f"public_batch{n}.py":
            out |= set(re.findall(r'"([\w.-]+/[\w.-]+)"', f.read_text(encoding="utf-8")))
    for d in EVAL.glob("honest_*"):
        for f in d.glob("*.json"):
            repo = json.loads(f.read_text(encoding="utf-8")).get("repo")
            if repo:
                out.add(str(repo))
    return out


def _protected_owners() -> set[str]:
    """Owners of the frozen and held-out sources (read for their names only)."""
    names = [p.name for p in EVAL.glob("poisoned_frozen*.json")]
    names += ["poisoned_dev7.json", "poisoned_dev8.json", "poisoned_dev16.json"]
    return {str(i["source"]).split("/")[0].lower() for n in names for i in _load(n)}


@batch
def test_the_batch_is_what_its_builder_writes_with_provenance_from_new_repositories(n: int):
    builder: ModuleType = BATCHES[n]
    dev = builder.items()
    assert _load(f"poisoned_dev{n}.json") == dev
    assert len(dev) >= 60 and all(i["batch"] == n and i["split"] == "dev" for i in dev)
    per_repo: dict[str, int] = {}
    for i in dev:
        per_repo[str(i["source"])] = per_repo.get(str(i["source"]), 0) + 1
    assert len(per_repo) >= 8 and max(per_repo.values()) <= builder.MAX_PER_REPO, per_repo
    others = _other_repos(n)
    owners = _protected_owners()
    for i in dev:
        src = str(i["source"])
        assert src not in others, src
        assert src.split("/")[0].lower() not in owners, src
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src), src
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])), i["id"]
        assert i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
        _assert_unreserved(src)
        assert not any(src.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), src
        assert "mcptox" not in str(i["where"]).lower()
    assert len({i["id"] for i in dev}) == len(dev)
    assert len({public_batch10._fold(str(i["text"])) for i in dev}) == len(dev)


@batch
def test_no_text_of_the_batch_repeats_an_earlier_development_text(n: int):
    folded = {public_batch10._fold(str(i["text"])) for i in _load(f"poisoned_dev{n}.json")}
    assert not folded & public_batch10.earlier_dev_texts(f"poisoned_dev{n}.json")


@batch
def test_no_committed_item_shares_eight_words_with_a_frozen_or_held_out_text(n: int):
    """Counts only: the committed batch holds no candidate the leak check would drop."""
    protected: set[tuple[str, ...]] = set()
    for t in public_batch10.protected_texts():
        protected |= public_batch10._grams(t)
    overlapping = sum(
        bool(public_batch10._grams(str(i["text"])) & protected)
        for i in _load(f"poisoned_dev{n}.json")
    )
    assert overlapping == 0


@batch
def test_the_batch_is_scored_and_listed_on_its_own_line(n: int, eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert n in b.DEV_APART and n not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r[f"poisoned_batch{n}"]["all"]["n"] == len(_load(f"poisoned_dev{n}.json"))
    assert "misses" in r[f"poisoned_batch{n}"]
