"""Issue 39's evaluation set is what its scripts write from the verbatim public texts, and
every item carries its provenance (benchmarks/eval/SOURCES.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"

import build_eval  # noqa: E402
import transform  # noqa: E402


def _load(name: str) -> object:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))


def test_committed_set_is_what_the_build_writes():
    frozen, dev, split = build_eval.build()
    assert _load("poisoned_frozen.json") == frozen
    assert _load("poisoned_dev.json") == dev
    assert _load("honest_split.json") == split
    assert _load("poisoned_frozen2.json") == build_eval.batch2_items()
    frozen3, dev3 = build_eval.batch3_items()
    assert _load("poisoned_frozen3.json") == frozen3
    assert _load("poisoned_dev3.json") == dev3
    assert _load("transformed_frozen.json") == transform.build()


def test_every_item_names_where_it_comes_from_and_no_reserved_source():
    reserved = (
        "mcptox",
        "fuzzd",
        "safetybench",
        "cisco",
        "safe-mcp",
        "damn-vulnerable",
        "mcp-injection-experiments",
        "mcpsecbench",
        "pipelock",
        "mcp-watchdog",
        "secure-mcp-gateway",
        "mcp-shield",
        "mcp-guardian",
        "everything-wrong",
        "devsecops_arena",
        "devsecops-arena",
        "mcp-safetybench",
    )
    items = [
        *_load("poisoned_frozen.json"),
        *_load("poisoned_dev.json"),
        *_load("poisoned_frozen2.json"),
        *_load("poisoned_frozen3.json"),
        *_load("poisoned_dev3.json"),
    ]  # type: ignore[misc]
    assert len(items) == len({i["id"] for i in items}) == 380
    frozen = [
        *_load("poisoned_frozen.json"),
        *_load("poisoned_frozen2.json"),
        *_load("poisoned_frozen3.json"),
    ]  # type: ignore[misc]
    assert len(frozen) == 300
    for i in items:
        assert i["source"] and i["path"] and len(i["commit"]) == 40 and i["where"], i["id"]
        assert not any(r in i["source"].lower() for r in reserved), i["source"]
        # MSB (the MCP Security Bench) as a whole name, not a substring of another
        assert "msb" not in re.split(r"[/_.-]", i["source"].lower()), i["source"]
    split = _load("honest_split.json")
    assert "eks-mcp-server" not in split["frozen_servers"] + split["dev_servers"]  # type: ignore[index]


def test_batch3_splits_whole_sources_and_shares_none_with_earlier_batches():
    """Batch 3's dev sources are tuned on and none of them has a frozen item; no batch-3 source
    is one batches 1 and 2 drew from."""
    frozen3 = _load("poisoned_frozen3.json")
    dev3 = _load("poisoned_dev3.json")
    assert {i["source"] for i in frozen3}.isdisjoint({i["source"] for i in dev3})  # type: ignore[index]
    earlier = {
        i["source"]  # type: ignore[index]
        for name in ("poisoned_frozen.json", "poisoned_dev.json", "poisoned_frozen2.json")
        for i in _load(name)  # type: ignore[attr-defined]
    }
    assert earlier.isdisjoint({i["source"] for i in [*frozen3, *dev3]})  # type: ignore[index, misc]


def test_batch4_is_development_data_from_new_unreserved_sources():
    """Batch 4 (the recall pass's development data) is what the build writes, every item of it
    development (tuned on, never frozen), each with its provenance, from sources no earlier
    batch drew from and none reserved for the independent check."""
    dev4 = build_eval.batch4_items()
    assert _load("poisoned_dev4.json") == dev4
    assert len(dev4) >= 25 and len({i["source"] for i in dev4}) >= 10
    assert all(i["split"] == "dev" and i["batch"] == 4 for i in dev4)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    reserved = (
        "mcptox",
        "fuzzd",
        "safetybench",
        "cisco",
        "safe-mcp",
        "damn-vulnerable",
        "mcp-injection-experiments",
        "mcpsecbench",
        "pipelock",
        "mcp-watchdog",
        "secure-mcp-gateway",
        "mcp-shield",
        "mcp-guardian",
        "everything-wrong",
        "devsecops_arena",
        "devsecops-arena",
    )
    for i in dev4:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]
        assert not any(r in i["source"].lower() for r in reserved), i["source"]
        assert "msb" not in re.split(r"[/_.-]", i["source"].lower()), i["source"]
    assert len({i["id"] for i in dev4}) == len(dev4)


def test_batch5_is_the_held_out_check_from_sources_no_batch_used():
    """Batch 5 (collected after the recall pass's rules, scored before any change) is what the
    build writes, from repositories none of batches 1-4 drew from, none reserved."""
    dev5 = build_eval.batch5_items()
    assert _load("poisoned_dev5.json") == dev5
    assert len(dev5) >= 9 and all(i["batch"] == 5 for i in dev5)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
            "poisoned_dev4.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    for i in dev5:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]


def test_batch6_is_the_directive_pass_held_out_check_from_new_unreserved_sources():
    """Batch 6 (collected and committed before the directive detector, scored before and after
    it) is what the build writes: at least 15 texts, each with its provenance, from
    repositories none of batches 1-5 drew from, none reserved for the independent check."""
    dev6 = build_eval.batch6_items()
    assert _load("poisoned_dev6.json") == dev6
    assert len(dev6) >= 15 and all(i["batch"] == 6 and i["split"] == "dev" for i in dev6)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
            "poisoned_dev4.json",
            "poisoned_dev5.json",
            "poisoned_dev_lang.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    reserved = (
        "mcptox",
        "fuzzd",
        "safetybench",
        "cisco",
        "safe-mcp",
        "damn-vulnerable",
        "mcp-injection-experiments",
        "invariant",
        "mcpsecbench",
        "pipelock",
        "mcp-watchdog",
        "secure-mcp-gateway",
        "mcp-shield",
        "mcp-guardian",
        "everything-wrong",
        "devsecops_arena",
        "devsecops-arena",
    )
    for i in dev6:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]
        assert not any(r in i["source"].lower() for r in reserved), i["source"]
        assert "msb" not in re.split(r"[/_.-]", i["source"].lower()), i["source"]
    assert len({i["id"] for i in dev6}) == len(dev6)


def test_honest_dev3_keeps_provenance_and_stays_apart_from_the_other_honest_sets():
    """``honest_dev3/`` (agent-oriented published servers, precision work only) names where each
    tool list comes from, and shares no server with ``honest_dev/``, the corpus or the honest
    sources the issue keeps for the independent check."""
    kept_off = ("awslabs/mcp", "github/github-mcp-server", "basicmachines-co/basic-memory")
    earlier = {
        json.loads(f.read_text(encoding="utf-8"))["repo"]
        for f in (EVAL / "honest_dev").glob("*.json")
    }
    corpus = set(_load("honest_split.json")["frozen_servers"])  # type: ignore[index]
    corpus |= set(_load("honest_split.json")["dev_servers"])  # type: ignore[index]
    files = sorted((EVAL / "honest_dev3").glob("*.json"))
    repos, tools = set(), 0
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        assert d["repo"] and d["path"] and d["note"], f.name
        assert re.fullmatch(r"[0-9a-f]{40}", d["commit"]), f.name
        assert d["repo"] not in earlier and d["repo"].lower() not in kept_off, d["repo"]
        assert d["repo"].split("/")[-1] not in corpus, d["repo"]
        assert d["tools"] and all(t["name"] and t["description"] for t in d["tools"]), f.name
        repos.add(d["repo"])
        tools += len(d["tools"])
    assert len(repos) >= 15 and tools >= 150
