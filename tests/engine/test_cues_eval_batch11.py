"""Batch 11 of issue 39's evaluation set (benchmarks/eval/public_batch11.py, SOURCES.md "Batch
11"): injection texts written natively in other languages, each with its provenance and the
language its author wrote it in, from repositories no earlier batch or honest set drew from,
none reserved, none sharing a run of eight words with a frozen or held-out text."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import public_batch10
import public_batch11
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"
NATIVE = {"zh", "ja", "ru", "es", "fr", "de", "ko", "pt"}


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _earlier_repos() -> set[str]:
    out = {
        str(i["source"])
        for p in sorted(EVAL.glob("poisoned_*.json"))
        if p.name != "poisoned_dev11.json"
        for i in _load(p.name)
    }
    for d in sorted(EVAL.glob("honest_*")):
        if d.is_dir():
            out |= {json.loads(f.read_text(encoding="utf-8"))["repo"] for f in d.glob("*.json")}
    return out


def test_batch11_is_what_its_builder_writes_with_provenance_from_new_repositories():
    dev11 = public_batch11.items()
    assert _load("poisoned_dev11.json") == dev11
    assert len(dev11) >= 80 and all(i["batch"] == 11 and i["split"] == "dev" for i in dev11)
    per_repo = Counter(str(i["source"]) for i in dev11)
    assert len(per_repo) >= 8 and max(per_repo.values()) <= 10, per_repo
    earlier = _earlier_repos()
    # every earlier batch's and every public_batch*.py's repositories, by name in the sources
    scripts = " ".join(
        p.read_text(encoding="utf-8")
        for p in EVAL.glob("public_*.py")
        if p.name != "public_batch11.py"
    )
    for repo in per_repo:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", repo), repo
        assert repo not in earlier, repo
        assert repo not in scripts, repo
        _assert_unreserved(repo)
        assert not any(repo.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), repo
    for i in dev11:
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])), i["id"]
        assert i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
    assert len({i["id"] for i in dev11}) == len(dev11)
    assert len({str(i["text"]) for i in dev11}) == len(dev11)


def test_every_text_is_written_in_the_language_it_carries():
    """Each item names one of the issue's languages (or Korean, Portuguese), at least five of
    them are there, and the text is in that script: CJK for zh, kana for ja, Cyrillic for ru,
    Latin letters for the rest."""
    dev11 = _load("poisoned_dev11.json")
    langs = Counter(str(i["language"]) for i in dev11)
    assert set(langs) <= NATIVE and len(langs) >= 5, langs
    for i in dev11:
        text, lang = str(i["text"]), str(i["language"])
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff]", text), i["id"]
        elif lang == "zh":
            assert re.search(r"[\u4e00-\u9fff]", text) and not re.search(
                r"[\u3040-\u30ff]", text
            ), i["id"]
        elif lang == "ru":
            assert re.search(r"[\u0400-\u04ff]", text), i["id"]
        else:
            assert not re.search(r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]", text), i["id"]


def test_no_committed_item_shares_eight_words_with_a_frozen_or_held_out_text():
    """Counts only (batch 10's leak check): no batch-11 text shares a run of eight words with
    a frozen, transformed, held-out or held-out honest text."""
    protected: set[tuple[str, ...]] = set()
    for t in public_batch10.protected_texts():
        protected |= public_batch10._grams(t)
    assert protected
    overlapping = sum(
        bool(public_batch10._grams(str(i["text"])) & protected)
        for i in _load("poisoned_dev11.json")
    )
    assert overlapping == 0


def test_batch11_and_the_native_file_are_scored_and_listed_on_their_own_lines(eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert 11 in b.DEV_APART and 11 not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r["poisoned_batch11"]["all"]["n"] == len(_load("poisoned_dev11.json"))
    assert "misses" in r["poisoned_batch11"]
    langs = r["poisoned_batch11"]["by_language"]
    assert {"zh", "ja", "ru", "es", "fr", "de"} <= set(langs), langs
    assert r["poisoned_lang"]["all"]["n"] == len(_load(b.LANG_FILE))
    assert "misses" in r["poisoned_lang"]
    total = sum(len(_load(f"poisoned_dev{n}.json")) for n in ("", 3, 4, 5, 6))
    assert r["poisoned_dev_all"]["all"]["n"] == total  # both stay out of the old total


def test_honest_dev6_is_native_honest_text_with_provenance_from_new_servers():
    """The sixth honest development set (batch 11's companion): at least 80 tool definitions
    of published PyPI servers whose authors wrote the descriptions in Chinese, Japanese or
    Russian, each run and asked for its tools (``benchmarks/eval/collect_pypi_honest.py``), one
    file a server naming its repository, ``pypi NAME==VERSION``, the distribution's SHA-1,
    licence and how it was taken; no server is a corpus server, in another honest set, held for
    the independent check or on the keep-off list; most descriptions are in those scripts."""
    from test_cues_eval_set import _assert_new_honest_servers, _honest_docs

    docs = _honest_docs("honest_dev6")
    tools = [t for d in docs for t in d["tools"]]
    assert len(docs) >= 8 and len(tools) >= 80
    earlier = [
        d
        for name in (
            "honest_dev",
            "honest_dev2",
            "honest_dev3",
            "honest_held8",
            "honest_dev4",
            "honest_dev5",
        )
        for d in _honest_docs(name)
    ]
    _assert_new_honest_servers(docs, earlier)
    packages = [d["path"] for d in docs]
    assert all(re.fullmatch(r"pypi [\w.-]+==\d[\w.+-]*", p) for p in packages), packages
    assert len(set(packages)) == len(packages)
    native = [
        t
        for t in tools
        if re.search(r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]", t["description"])
    ]
    assert len(native) >= 0.8 * len(tools), (len(native), len(tools))
