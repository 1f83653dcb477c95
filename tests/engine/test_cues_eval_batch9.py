"""Batch 9 of issue 39's evaluation set (benchmarks/eval/public_batch9.py, SOURCES.md "Batch
9"): development data of the genres the frozen set's weakest batch is made of (AgentDojo-style
adversarial suites, tool-selection attacks, scanners' injection lists), from repositories no
other batch, no honest development file and no reserved source uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import public_batch9
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _other_sources() -> set[str]:
    """Every repository another poisoned batch or an honest development file drew from."""
    out: set[str] = set()
    for p in EVAL.glob("poisoned_*.json"):
        # batch 10 takes the rest of one of batch 9's files (its own test checks no text is shared)
        if p.name not in ("poisoned_dev9.json", "poisoned_dev10.json"):
            out |= {str(i["source"]) for i in _load(p.name)}
    for d in ("honest_dev", "honest_dev2", "honest_dev3"):
        for f in (EVAL / d).glob("*.json"):
            out.add(json.loads(f.read_text(encoding="utf-8"))["repo"])
    for f in EVAL.glob("public_batch*.py"):
        if f.name not in ("public_batch9.py", "public_batch10.py"):  # as above; 8 was unplanted
            out |= set(
                re.findall(r'^\s+"([\w.-]+/[\w.-]+)",$', f.read_text(encoding="utf-8"), re.M)
            )
    return out


def test_batch9_is_what_its_builder_writes_with_provenance_from_new_repositories():
    dev9 = public_batch9.items()
    assert _load("poisoned_dev9.json") == dev9
    assert len(dev9) >= 40 and all(i["batch"] == 9 and i["split"] == "dev" for i in dev9)
    per_repo: dict[str, int] = {}
    for i in dev9:
        per_repo[str(i["source"])] = per_repo.get(str(i["source"]), 0) + 1
    assert len(per_repo) >= 6 and max(per_repo.values()) <= 10, per_repo
    others = _other_sources()
    for i in dev9:
        src = str(i["source"])
        assert src not in others, src
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src), src
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])), i["id"]
        assert i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
        _assert_unreserved(src)
        assert not any(src.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), src
    assert len({i["id"] for i in dev9}) == len(dev9)


def test_batch9_is_scored_and_listed_on_its_own_line(eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert 9 in b.DEV_APART and 9 not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r["poisoned_batch9"]["all"]["n"] == len(_load("poisoned_dev9.json"))
    assert "misses" in r["poisoned_batch9"]
