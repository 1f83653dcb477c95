"""Batch 10 of issue 39's evaluation set (benchmarks/eval/public_batch10.py, SOURCES.md "Batch
10"): a large development set of injected instructions from general indirect-prompt-injection
corpora (BIPIA, ASB, InjecAgent, LLMail-Inject, garak, spikee, WASP), each text with its
provenance, none from another batch's repository but the one file the brief allowed, none
reserved, none sharing a run of eight words with a frozen or held-out text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import public_batch10
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"

SHARED_WITH_BATCH9 = "Zhang-Henry/AIOS_agent"
"""Batch 9 sampled eight texts of this repository's ASB file; batch 10 takes the others and a
second file (InjecAgent's cases), never a text batch 9 holds."""


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _other_batches() -> dict[str, list[dict[str, object]]]:
    return {
        p.name: _load(p.name)
        for p in sorted(EVAL.glob("poisoned_*.json"))
        if p.name != "poisoned_dev10.json"
    }


def _honest_repos() -> set[str]:
    out: set[str] = set()
    for d in ("honest_dev", "honest_dev2", "honest_dev3", "honest_dev4", "honest_held8"):
        for f in (EVAL / d).glob("*.json"):
            out.add(json.loads(f.read_text(encoding="utf-8"))["repo"])
    return out


def test_batch10_is_what_its_builder_writes_with_provenance_from_new_repositories():
    dev10 = public_batch10.items()
    assert _load("poisoned_dev10.json") == dev10
    assert len(dev10) >= 600 and all(i["batch"] == 10 and i["split"] == "dev" for i in dev10)
    repos = {str(i["source"]) for i in dev10}
    assert len(repos) >= 6, repos
    others = _other_batches()
    earlier_repos = {str(i["source"]) for batch in others.values() for i in batch}
    earlier_texts = {str(i["text"]) for batch in others.values() for i in batch}
    in_batch9 = {str(i["source"]) for i in others["poisoned_dev9.json"]}
    for repo in repos & earlier_repos:
        # the one shared repository is a development batch's, as the brief allowed
        assert repo == SHARED_WITH_BATCH9 and repo in in_batch9, repo
        assert not any(
            repo == i["source"] for n, b in others.items() if n != "poisoned_dev9.json" for i in b
        )
    assert not {str(i["text"]) for i in dev10} & earlier_texts
    honest = _honest_repos()
    for i in dev10:
        src = str(i["source"])
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src), src
        assert src not in honest, src
        assert "agentdojo" not in src.lower() and "vigil" not in src.lower(), src
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])), i["id"]
        assert i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
        _assert_unreserved(src)
        assert not any(src.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), src
    assert len({i["id"] for i in dev10}) == len(dev10)
    assert len({str(i["text"]) for i in dev10}) == len(dev10)


def test_every_raw_copy_is_read_and_texts_in_other_languages_carry_their_language():
    """Each file under batch10_raw/ gives at least one item, and the languages the sources
    name (LLMail-Inject's file names, spikee's ``lang``) are on the items."""
    dev10 = _load("poisoned_dev10.json")
    paths = {(str(i["source"]), str(i["path"])) for i in dev10}
    for f in sorted(public_batch10.RAW.rglob("*")):
        if f.is_file():
            rel = f.relative_to(public_batch10.RAW).as_posix().removesuffix(".tsv")
            owner, name, path = rel.split("/", 2)
            assert (f"{owner}/{name}", path) in paths, rel
    langs = {str(i.get("language", "en")) for i in dev10}
    assert {"es", "ru", "ja", "ar", "hi", "th", "zu", "sq", "ga", "gd"} <= langs, langs
    spikee_zu = [i for i in dev10 if str(i["where"]).startswith("sorry-01-zu ")]
    assert [i["language"] for i in spikee_zu] == ["zu"]
    templates = [i for i in dev10 if i["source"] in public_batch10.TEMPLATE_SOURCES]
    assert len(templates) >= 80
    assert all(public_batch10.PLACEHOLDER.search(str(i["text"])) for i in templates)


def test_leak_check_drops_a_shared_run_of_eight_words_and_not_of_seven():
    """The filter on a made-up protected text: eight shared words drop a candidate, seven do
    not; a repeat after folding case, digits and spaces is dropped as near-identical, and a
    text that is only a template placeholder is dropped."""
    protected = public_batch10._grams("one two three four five six seven eight nine")
    sources = [
        {
            "repo": "a/b",
            "items": [
                ("x", "Now: ONE two three four five six seven eight, then stop."),
                ("y", "one two three four five six seven, and more"),
                ("z", "One two three four five six seven, and  MORE"),
                ("w", "Transfer 500 dollars"),
                ("v", "transfer 900 Dollars"),
                ("u", "<INSTRUCTION>."),
                ("t", "Go to {gitlab_domain}/{project_name} now"),
            ],
        }
    ]
    kept, dropped = public_batch10.filtered(sources, protected)
    assert [w for w, _ in kept[0]["items"]] == ["y", "w", "t"]
    assert dropped["leak"] == {"a/b": 1} and dropped["near-identical"] == {"a/b": 2}
    assert dropped["empty"] == {"a/b": 1}


def test_no_committed_item_shares_eight_words_with_a_frozen_or_held_out_text():
    """Counts only: the committed batch holds no candidate the leak check would drop."""
    protected: set[tuple[str, ...]] = set()
    n_texts = 0
    for t in public_batch10.protected_texts():
        protected |= public_batch10._grams(t)
        n_texts += 1
    assert n_texts > 500 and protected
    overlapping = sum(
        bool(public_batch10._grams(str(i["text"])) & protected)
        for i in _load("poisoned_dev10.json")
    )
    assert overlapping == 0


def test_batch10_is_scored_and_listed_on_its_own_line(eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert 10 in b.DEV_APART and 10 not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r["poisoned_batch10"]["all"]["n"] == len(_load("poisoned_dev10.json"))
    assert "misses" in r["poisoned_batch10"]
    total = sum(len(_load(f"poisoned_dev{n}.json")) for n in ("", 3, 4, 5, 6))
    assert r["poisoned_dev_all"]["all"]["n"] == total  # batch 10 stays out of the old total
