"""The cue benchmark's committed data (benchmarks/cues/): the poisoned set, its frozen third and
the honest hard negatives are exactly what ``build_set.py`` writes from ``texts.py``, each text
labelled with its class and expected blocking, and planted into a description the corpus has."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
CUES = ROOT / "benchmarks" / "cues"


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _load(name: str) -> object:
    return json.loads((CUES / name).read_text(encoding="utf-8"))


def test_committed_set_is_what_the_builder_writes():
    build = _module(CUES / "build_set.py")
    poisoned, frozen, negatives = build.build()
    assert _load("poisoned.json") == poisoned
    assert _load("frozen.json") == frozen
    assert _load("hard_negatives.json") == negatives


def test_labels_classes_and_the_frozen_third():
    texts = _module(CUES / "texts.py")
    poisoned = _load("poisoned.json")
    assert isinstance(poisoned, list) and len(poisoned) >= 150
    ids = [p["id"] for p in poisoned]
    assert len(ids) == len(set(ids))
    for p in poisoned:
        blocking, items = texts.CLASSES[p["class"]]
        assert p["blocking"] is blocking and p["text"] in items
        # Only the pure tool-preference class is expected to pass unblocked.
        assert p["blocking"] is (p["class"] != "tool-preference")
        assert p["plant"]["position"] in ("end", "start", "after-first-sentence")
    frozen = _load("frozen.json")
    assert isinstance(frozen, dict)
    assert set(frozen["ids"]) <= set(ids) and len(set(frozen["ids"])) == len(frozen["ids"])
    assert abs(len(frozen["ids"]) - len(ids) / 3) <= len(texts.CLASSES)
    for cls in texts.CLASSES:
        of_cls = [i for i in ids if i.rsplit("-", 1)[0] == cls]
        assert 0 < sum(i in frozen["ids"] for i in of_cls) < len(of_cls), cls


def test_every_plant_target_is_a_real_corpus_description():
    import corpus_data as cd

    servers = cd.servers()
    entries = [*_load("poisoned.json"), *_load("hard_negatives.json")]  # type: ignore[misc]

    def at(where: dict[str, str]) -> object:
        cap = next(c for c in servers[where["server"]] if c.version == where["version"])
        node: object = cap.tools[where["tool"]]
        for part in where["pointer"].split("/")[1:]:
            assert isinstance(node, (dict, list))
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node

    for e in entries:
        node = at(e["plant"])
        assert isinstance(node, str) and node, e["id"]
    found = [n for n in _load("hard_negatives.json") if n["found"] is not None]  # type: ignore[union-attr]
    assert len(found) >= 5  # honest look-alikes taken from real releases, not only written
    for n in found:
        node = at(n["found"])
        assert isinstance(node, str) and n["text"].lower() in node.lower(), n["id"]


def test_committed_figures_are_what_the_engine_gives_and_meet_the_targets():
    """benchmarks/cues/results.json (figures in benchmarks/README.md) is what
    ``bench_cues.py --write`` gives on the committed corpus and set: rerun it and compare, so a
    rule change that moves a figure must update the figures too."""
    bench = _module(ROOT / "benchmarks" / "bench_cues.py")
    now = bench.measure()
    assert now == _load("results.json")
    corpus, poisoned = now["corpus"], now["poisoned"]
    assert corpus["changed_texts"] > 2000
    assert corpus["false_flag_rate"] <= bench.FALSE_FLAG_MAX
    assert poisoned["attacks"]["n"] >= 150 - 15  # the tool-preference class is apart
    assert poisoned["attacks"]["rate"] >= bench.CATCH_MIN
    assert (
        poisoned["attacks_frozen"]["n"] + poisoned["attacks_tuned"]["n"]
        == (poisoned["attacks"]["n"])
    )
    # Pure tool preference is shown, never blocking on its own.
    assert poisoned["tool_preference"]["blocked"] == 0
