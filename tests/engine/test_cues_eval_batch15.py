"""Batch 15 of issue 39's evaluation set (benchmarks/eval/public_batch15.py, SOURCES.md "Batch
15"): poisoned tool and agent texts written in other languages, each with its provenance and
the language its author wrote it in, from repositories no other batch, batch builder or honest
set uses, whose owners wrote none of the frozen or held-out sources, none reserved, none
sharing a run of eight words with a frozen or held-out text."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import public_batch10
import public_batch15
from collect_honest_lang import written_in
from test_cues_eval_new_batches import _other_repos, _protected_owners
from test_cues_eval_set import KEEP_OFF_HONEST, _assert_unreserved

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"
NATIVE = {"zh", "ja", "ru", "es", "fr", "de", "ko", "pt"}
_SCRIPTS = {
    "ja": r"[\u3040-\u30ff]",
    "zh": r"[\u4e00-\u9fff]",
    "ru": r"[\u0400-\u04ff]",
    "ko": r"[\uac00-\ud7af]",
}


def _load(name: str) -> list[dict[str, object]]:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_batch15_is_what_its_builder_writes_with_provenance_from_new_repositories():
    dev15 = public_batch15.items()
    assert _load("poisoned_dev15.json") == dev15
    assert len(dev15) >= 40 and all(i["batch"] == 15 and i["split"] == "dev" for i in dev15)
    others = _other_repos(15)
    owners = _protected_owners()
    per_file = Counter((str(i["source"]), str(i["path"])) for i in dev15)
    per_repo = Counter(str(i["source"]) for i in dev15)
    for repo, path in per_file:
        cap = public_batch15.PER_LANGUAGE_FILES.get((repo, path))
        if cap is None:
            assert per_repo[repo] <= public_batch15.MAX_PER_REPO, repo
        else:  # the same intents in every language of the file, no more
            langs = Counter(str(i["language"]) for i in dev15 if i["path"] == path)
            assert set(langs.values()) == {cap}, langs
    for i in dev15:
        src = str(i["source"])
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src), src
        assert src not in others, src
        assert src.split("/")[0].lower() not in owners, src
        _assert_unreserved(src)
        assert not any(src.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), src
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", str(i["commit"])), i["id"]
        assert i["where"] and str(i["text"]).strip() and i["licence"], i["id"]
    assert len({i["id"] for i in dev15}) == len(dev15)
    assert len({public_batch10._fold(str(i["text"])) for i in dev15}) == len(dev15)


def test_every_text_is_written_in_the_language_it_carries():
    """Six of the issue's languages at least, each text in its script (kana for ja, Han and no
    kana for zh, Cyrillic for ru, Hangul for ko, Latin letters for the rest)."""
    dev15 = _load("poisoned_dev15.json")
    langs = Counter(str(i["language"]) for i in dev15)
    assert set(langs) <= NATIVE and len(langs) >= 6, langs
    for i in dev15:
        text, lang = str(i["text"]), str(i["language"])
        if lang in _SCRIPTS:
            assert re.search(_SCRIPTS[lang], text), i["id"]
            if lang == "zh":
                assert not re.search(_SCRIPTS["ja"], text), i["id"]
        else:
            assert not re.search(r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text)


def test_no_batch15_text_repeats_an_earlier_development_text_or_leaks_a_protected_one():
    folded = {public_batch10._fold(str(i["text"])) for i in _load("poisoned_dev15.json")}
    assert not folded & public_batch10.earlier_dev_texts("poisoned_dev15.json")
    protected: set[tuple[str, ...]] = set()
    for t in public_batch10.protected_texts():
        protected |= public_batch10._grams(t)
    overlapping = sum(
        bool(public_batch10._grams(str(i["text"])) & protected)
        for i in _load("poisoned_dev15.json")
    )
    assert overlapping == 0  # counts only


def test_batch15_is_scored_and_listed_on_its_own_line(eval_dev_scores):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert 15 in b.DEV_APART and 15 not in b.HELD_OUT
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert r["poisoned_batch15"]["all"]["n"] == len(_load("poisoned_dev15.json"))
    assert "misses" in r["poisoned_batch15"]
    assert {"zh", "ja", "ru", "es", "fr", "de"} <= set(r["poisoned_batch15"]["by_language"])


def test_honest_lang_is_native_honest_text_with_provenance_from_new_servers():
    """The honest counter-set of batch 15 (``benchmarks/eval/honest_lang/``): at least 100 tool
    definitions of at least 8 published PyPI servers whose authors wrote their tool descriptions
    in one of the issue's other languages (or Korean, Portuguese), each run and asked for its
    tools (``benchmarks/eval/collect_pypi_honest.py``), one file a server naming its
    repository, ``pypi NAME==VERSION``, the distribution's SHA-1, licence and how it was taken,
    with its ``language``; no server is a corpus server, in another honest set (the held-out
    one's names included), held for the independent check or on the keep-off list; most of each
    server's descriptions are in its language."""
    from test_cues_eval_set import _assert_new_honest_servers, _honest_docs

    docs = _honest_docs("honest_lang")
    tools = [t for d in docs for t in d["tools"]]
    assert len(docs) >= 8 and len(tools) >= 100, (len(docs), len(tools))
    others = sorted(p.name for p in EVAL.glob("honest_*") if p.is_dir() and p.name != "honest_lang")
    _assert_new_honest_servers(docs, [d for name in others for d in _honest_docs(name)])
    packages = [d["path"] for d in docs]
    assert all(re.fullmatch(r"pypi [\w.-]+==\d[\w.+-]*", p) for p in packages), packages
    assert len(set(packages)) == len(packages)
    langs = Counter(str(d["language"]) for d in docs)
    assert set(langs) <= NATIVE and len(langs) >= 5, langs
    for d in docs:
        native = [t for t in d["tools"] if written_in(t["description"], d["language"])]
        assert 2 * len(native) >= len(d["tools"]), (d["path"], len(native), len(d["tools"]))
