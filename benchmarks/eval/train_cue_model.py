#!/usr/bin/env python3
"""Train the "reads as an instruction" model (``engine/cue_model.py``) on development data only.

``python benchmarks/eval/train_cue_model.py [--write] [--loso [--budgets 0.02,0.05]] [--folds N]``

Data (never the frozen set: ``poisoned_frozen*.json``, ``transformed_frozen.json``, the frozen
servers of ``honest_split.json`` and ``benchmarks/cues/frozen.json``'s ids are not read; nor the
held-out batches 7 and 8 or ``honest_held8/``):

- **positives**: the development poisoned texts (``POS_DEV``: batches 1, 3, 4, 5, 6, 9, the general
  corpora's injected instructions of batch 10, the texts published packages ship of batch 12 and the
  language batch), the same texts rendered by ``translate.py`` into es, fr, de, zh, ru and ja, and
  the project's own attack set of ``bench_cues.py`` (b) (its tuned two thirds, the tool-preference
  class left out: it is not an instruction to read). Each is planted (as ``bench_cues_eval.py``
  plants it: start, after the first sentence or end) into a development honest description drawn by
  a seeded draw, and read with that tool's names: only its own sentences are the positive;
- **negatives**: every string of every captured definition of the development corpus servers
  and of the published honest tools of ``HONEST_DIRS`` (each read with its tool's names),
  ``bench_cues.py``'s hard negatives and the honest phrasings of the project's cue tests
  (``cue_model_negatives.json``, copied once; a text of a corpus server outside the
  development split left out).

A poisoned text often opens with an honest cover sentence ("Adds two numbers."), so its
sentences are not all instructions: training runs twice (multiple-instance learning); the
second round keeps as positive only each poisoned text's best-scoring sentence and any other
the first round scores above even odds. Logistic regression, L2, plain SGD in a seeded order
(pure Python: no dependency); weights under ``PRUNE`` are dropped, at most ``MAX_WEIGHTS`` kept,
every weight rounded to 4 decimals, so the generated module is byte-identical run after run.

The threshold is chosen on development data only: every honest development tool, and every
honest rewrite of a development corpus server (the sentences new in a changed text), is scored
by a model trained without its server (grouped folds), and the threshold is set so that at
most ``HONEST_BUDGET`` of the tools and ``REWRITE_BUDGET`` of the rewrites would be flagged.
``--loso`` trains once per poisoned source without it and reports how many of its texts pass
that threshold (what generalisation to an unseen author looks like), in all and among the texts
the hand rules miss (scored as ``bench_cues_eval.py --set dev`` scores them; the project's own
set counts as caught). ``--write`` regenerates ``mcp_review/engine/cue_model_weights.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "benchmarks" / "cues"))
sys.path.insert(0, str(ROOT))

from build_set import plant  # noqa: E402

from mcp_review.engine.cue_directive import own_names_of  # noqa: E402
from mcp_review.engine.cue_model import features, job_of, sentences  # noqa: E402
from mcp_review.engine.cues import tool_texts  # noqa: E402
from mcp_review.engine.rules.cue_families import (  # noqa: E402
    INSTRUCTION_READS_AS_INSTRUCTION as INSTRUCTION_READS,
)

OUT = ROOT / "mcp_review" / "engine" / "cue_model_weights.py"
SEED = 39
EPOCHS = 12
L2 = 1e-4
RATE = 0.2
PRUNE = 0.02
MAX_WEIGHTS = 3000
MIN_POS_GROUPS = 3
MIN_NEG_GROUPS = 3
POS_SHARE = 0.5
SOURCE_POWER = 0.5
"""A poisoned source's sentences weigh ``1 / n ** SOURCE_POWER`` each (one author's many texts
do not teach its phrasing)."""
HARD = 5.0
HARD_GROUPS = frozenset({"neg:fixtures", "neg:project"})
"""The project's hard negatives and its tests' honest phrasings weigh more than one string
of a corpus server: each was written because a rule read it wrong."""
HONEST_BUDGET = 0.01
"""At most this share of honest development tools flagged out of fold (the issue allows 5 %
for any cue; the brief aims at 1 % newly flagged)."""
REWRITE_BUDGET = 0.001
"""At most this share of the development servers' honest rewrites flagged out of fold."""
ADDED_TOOL_BUDGET = 0.02
ADDED_REWRITE_BUDGET = 0.01
"""``--added``: the budgets of the threshold for a sentence a change *adds*
(``engine/cue_change.py``'s ``ADDED_THRESHOLD``): at most 1 % of the honest rewrites and 2 % of
the honest tools (every sentence read as if added: a superset of the change stress set's
reading) flagged out of fold. Fixed before any recall was looked at (benchmarks/README.md,
change pass 3)."""
POS_DEV = (
    "poisoned_dev.json",
    "poisoned_dev3.json",
    "poisoned_dev4.json",
    "poisoned_dev5.json",
    "poisoned_dev6.json",
    "poisoned_dev9.json",
    "poisoned_dev10.json",
    "poisoned_dev12.json",
    "poisoned_dev_lang.json",
)
"""The development poisoned batches read (named: the held-out batches 7 and 8 never are; a
file not there yet is skipped)."""
HONEST_DIRS = ("honest_dev", "honest_dev2", "honest_dev3", "honest_dev4")
"""The published honest tool lists read (named, so that a set added later, such as the
held-out ``honest_held8/``, changes nothing until it is named here)."""


@dataclass(frozen=True)
class Doc:
    """One text: its label, the group it is held out with, and its sentences' features."""

    label: int
    group: str
    unit: str
    """The honest tool (or poisoned item) it belongs to: a tool is flagged if any text is."""
    sents: tuple[tuple[str, ...], ...]
    translated: bool = False


def _sent_feats(
    text: str, own: frozenset[str] = frozenset(), span: tuple[int, int] | None = None
) -> tuple[tuple[str, ...], ...]:
    """The features of each sentence of ``text`` read as a tool with the names ``own`` (the
    reader's own context: its first sentence and names); with ``span``, only the sentences
    that overlap it (a planted text's own sentences, not its host's)."""
    cut = list(sentences(text))
    if not cut:
        return ()
    job = job_of(own, cut[0][1])
    out = []
    for at, s in cut:
        if span is not None and not (at < span[1] and at + len(s) > span[0]):
            continue
        out.append(tuple(features(s, job, at == cut[0][0])))
    return tuple(out)


def _strings(tool: dict[str, Any]) -> Iterable[str]:
    for _, t in tool_texts(tool):
        if isinstance(t, str) and len(t) >= 16:
            yield t


Host = tuple[str, frozenset[str]]
"""A development honest text a poisoned text is planted into, and its tool's own names."""


def _honest_tools() -> list[tuple[str, str, dict[str, Any]]]:
    """(group, unit, tool) of every development honest tool: the published lists of
    ``HONEST_DIRS`` and every captured definition of the development corpus servers."""
    import corpus_data as cd

    out: list[tuple[str, str, dict[str, Any]]] = []
    for folder in HONEST_DIRS:
        for f in sorted((HERE / folder).glob("*.json")):
            d = json.loads(f.read_text(encoding="utf-8"))
            for tool in d["tools"]:
                # one file is one server (a catalog repository holds many)
                group = f"neg:{d['repo']}:{f.stem}"
                out.append((group, f"{folder}/{f.stem}:{tool['name']}", tool))
    split = json.loads((HERE / "honest_split.json").read_text(encoding="utf-8"))
    dev = set(split["dev_servers"])
    for server, caps in sorted(cd.servers().items()):
        if server not in dev:
            continue
        for cap in caps:
            for name, tool in sorted(cap.tools.items()):
                out.append(("neg:" + server, f"{server}:{name}", tool))
    return out


def _hosts(tools: list[tuple[str, str, dict[str, Any]]]) -> list[Host]:
    """Every development description a poisoned text may be planted into (a tool's or a
    property's), with its tool's own names: the host is chosen by a seeded draw, never from
    a frozen server (``bench_cues_eval.py`` plants the same texts into other servers)."""
    out: list[Host] = []
    seen: set[str] = set()
    for _, _, tool in tools:
        own = own_names_of(tool)
        texts = [tool.get("description")]
        props = (tool.get("inputSchema") or {}).get("properties") or {}
        if isinstance(props, dict):
            texts += [v.get("description") for v in props.values() if isinstance(v, dict)]
        for t in texts:
            if isinstance(t, str) and 16 <= len(t) <= 600 and t not in seen:
                seen.add(t)
                out.append((t, own))
    return out


def _planted(text: str, host: Host, position: str) -> tuple[tuple[str, ...], ...]:
    """The poisoned text's sentences as the reader meets them planted into ``host``."""
    whole = plant(host[0], text, position)
    at = whole.find(text)
    return _sent_feats(whole, host[1], (at, at + len(text)) if at >= 0 else None)


def load_docs() -> list[Doc]:
    """Every development text, positives then negatives, in a fixed order."""
    from translate import LANGS, translate

    tools = _honest_tools()
    hosts = _hosts(tools)
    docs: list[Doc] = []

    def positive(group: str, unit: str, text: str, position: str) -> None:
        host = hosts[random.Random(f"{SEED}:{unit}").randrange(len(hosts))]
        docs.append(Doc(1, group, unit, _planted(text, host, position)))
        for lang in LANGS:
            t = translate(text, lang)
            if t:
                docs.append(Doc(1, group, f"{unit}:{lang}", _planted(t, host, position), True))

    for name in POS_DEV:
        path = HERE / name
        if not path.exists():
            continue
        for item in json.loads(path.read_text(encoding="utf-8")):
            pos = (item.get("plant") or {}).get("position", "end")
            positive("pos:" + item["source"], f"{name}:{item['id']}", item["text"], pos)
    cues = ROOT / "benchmarks" / "cues"
    frozen = set(json.loads((cues / "frozen.json").read_text(encoding="utf-8"))["ids"])
    for item in json.loads((cues / "poisoned.json").read_text(encoding="utf-8")):
        if item["id"] in frozen or item["class"] == "tool-preference":
            continue
        unit = f"project:{item['id']}"
        docs.append(
            Doc(
                1,
                "pos:project",
                unit,
                _planted(
                    item["text"],
                    hosts[random.Random(f"{SEED}:{unit}").randrange(len(hosts))],
                    "end",
                ),
            )
        )
    fixtures = json.loads((HERE / "cue_model_negatives.json").read_text(encoding="utf-8"))
    for i, item in enumerate(fixtures["texts"]):
        docs.append(Doc(0, "neg:fixtures", f"fixture:{i}", _sent_feats(item["text"])))
    for item in json.loads((cues / "hard_negatives.json").read_text(encoding="utf-8")):
        docs.append(Doc(0, "neg:project", f"hard:{item['id']}", _sent_feats(item["text"])))
    seen: set[tuple[str, frozenset[str]]] = set()
    for group, unit, tool in tools:
        own = own_names_of(tool)
        for t in _strings(tool):
            if (t, own) not in seen:
                seen.add((t, own))
                docs.append(Doc(0, group, unit, _sent_feats(t, own)))
    return docs


def rewrites() -> list[tuple[str, tuple[tuple[str, ...], ...]]]:
    """(server group, features of the sentences new in the text) of every text of a development
    corpus server that changed between consecutive captures: what the cue could add to an
    honest rewrite (a sentence the pinned text had is not introduced)."""
    import corpus_data as cd

    split = json.loads((HERE / "honest_split.json").read_text(encoding="utf-8"))
    dev = set(split["dev_servers"])
    out: list[tuple[str, tuple[tuple[str, ...], ...]]] = []
    for old, new in cd.pairs():
        if new.server not in dev:
            continue
        for name in sorted(new.tools.keys() & old.tools.keys()):
            a, b = old.tools[name], new.tools[name]
            before = dict(tool_texts(a))
            own = own_names_of(b)
            for ptr, t in tool_texts(b):
                if before.get(ptr) == t or not isinstance(t, str) or len(t) < 16:
                    continue
                was = set(_sent_feats(before[ptr], own_names_of(a))) if ptr in before else set()
                fresh = tuple(f for f in _sent_feats(t, own) if f not in was)
                out.append(("neg:" + new.server, fresh))
    return out


# Training ----------------------------------------------------------------------------------


Row = tuple[tuple[str, ...], int, float, str]


def vocabulary(rows: list[Row]) -> list[str]:
    """The features seen in at least ``MIN_POS_GROUPS`` poisoned sources or ``MIN_NEG_GROUPS``
    honest servers: a word one author (or one demo's topic) uses is not evidence."""
    groups: dict[str, set[str]] = defaultdict(set)
    for feats, _, _, g in rows:
        for f in feats:
            groups[f].add(g)
    out = []
    for f, gs in groups.items():
        pos = sum(g.startswith("pos:") for g in gs)
        if pos >= MIN_POS_GROUPS or len(gs) - pos >= MIN_NEG_GROUPS:
            out.append(f)
    return sorted(out)


def _sgd(rows: list[Row], seed: int) -> tuple[dict[str, float], float]:
    """Logistic regression by SGD over (features, label, weight, group) rows, in a seeded
    order."""
    vocab = vocabulary(rows)
    index = {f: i for i, f in enumerate(vocab)}
    data = [([index[f] for f in feats if f in index], y, wt) for feats, y, wt, _ in rows]
    w = [0.0] * len(vocab)
    b = 0.0
    order = list(range(len(data)))
    rng = random.Random(seed)
    step = 0
    for epoch in range(EPOCHS):
        rng.shuffle(order)
        rate = RATE / (1.0 + epoch)
        for i in order:
            idx, y, wt = data[i]
            z = b + sum(w[j] for j in idx)
            p = 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0
            g = (p - y) * wt * rate
            b -= g
            for j in idx:
                w[j] -= g + rate * L2 * w[j]
            step += 1
    return {vocab[i]: w[i] for i in range(len(vocab))}, b


def _rows(docs: list[Doc], weights: dict[str, float] | None, bias: float) -> list[Row]:
    """Training rows: every sentence of a negative text; of a poisoned text every sentence
    (first round) or its best one and any above even odds (second round). Each poisoned source
    weighs the square root of its size (one author's many texts do not teach its phrasing),
    the classes balanced; a sentence that is also honest somewhere is not a positive."""
    neg: dict[tuple[str, ...], str] = {}
    for d in docs:
        if d.label == 0:
            for s in d.sents:
                neg.setdefault(s, d.group)
    pos: dict[tuple[str, ...], str] = {}
    for d in docs:
        if d.label != 1 or not d.sents:
            continue
        if weights is None:
            keep = list(d.sents)
        else:
            scored = [(bias + sum(weights.get(f, 0.0) for f in s), s) for s in d.sents]
            top = max(z for z, _ in scored)
            keep = [s for z, s in scored if z == top or z > 0.0]
        for s in keep:
            if s not in neg:
                pos.setdefault(s, d.group)
    size: dict[str, int] = defaultdict(int)
    for g in pos.values():
        size[g] += 1
    raw = {g: 1.0 / n**SOURCE_POWER for g, n in size.items()}
    total = sum(raw[g] for g in pos.values())
    scale = len(neg) / max(total, 1e-9) * POS_SHARE
    rows: list[Row] = [(s, 1, raw[g] * scale, g) for s, g in pos.items()]
    rows += [(s, 0, HARD if g in HARD_GROUPS else 1.0, g) for s, g in neg.items()]
    return rows


def train(docs: list[Doc], seed: int = SEED) -> tuple[dict[str, float], float]:
    """The model: two rounds (all poisoned sentences, then the ones that read as instructions),
    pruned and rounded."""
    w, b = _sgd(_rows(docs, None, 0.0), seed)
    w, b = _sgd(_rows(docs, w, b), seed)
    kept = sorted(
        ((v, f) for f, v in w.items() if abs(v) >= PRUNE), key=lambda x: (-abs(x[0]), x[1])
    )
    return {f: round(v, 4) for v, f in kept[:MAX_WEIGHTS]}, round(b, 4)


def doc_score(d: Doc, w: dict[str, float], b: float) -> float:
    return max((b + sum(w.get(f, 0.0) for f in s) for s in d.sents), default=-1e9)


def unit_scores(docs: list[Doc], w: dict[str, float], b: float) -> dict[str, float]:
    out: dict[str, float] = {}
    for d in docs:
        z = doc_score(d, w, b)
        out[d.unit] = max(out.get(d.unit, -1e9), z)
    return out


def folds(docs: list[Doc], k: int) -> list[set[str]]:
    """Negative groups (servers) dealt into ``k`` folds in a seeded order."""
    groups = sorted({d.group for d in docs if d.label == 0})
    random.Random(SEED).shuffle(groups)
    return [set(groups[i::k]) for i in range(k)]


def out_of_fold_honest(
    docs: list[Doc], k: int, changed: list[tuple[str, tuple[tuple[str, ...], ...]]]
) -> tuple[dict[str, float], list[float]]:
    """Each honest tool's score, and each honest rewrite's (its new sentences), by a model
    trained without its server."""
    out: dict[str, float] = {}
    rw: list[float] = []
    for held in folds(docs, k):
        w, b = train([d for d in docs if d.group not in held])
        out.update(unit_scores([d for d in docs if d.group in held], w, b))
        for g, sents in changed:
            if g in held:
                rw.append(max((b + sum(w.get(f, 0.0) for f in s) for s in sents), default=-1e9))
    return out, rw


def choose_threshold(
    honest: dict[str, float],
    changed: list[float] = (),  # type: ignore[assignment]
    budget: float = HONEST_BUDGET,
    rewrite_budget: float = REWRITE_BUDGET,
) -> float:
    """The lowest threshold flagging at most ``budget`` of the honest tools and at most
    ``rewrite_budget`` of the honest rewrites (both out of fold)."""
    out = 0.0
    for zs_in, share in ((list(honest.values()), budget), (list(changed), rewrite_budget)):
        zs = sorted(zs_in, reverse=True)
        allowed = int(len(zs) * share)
        if allowed < len(zs):
            out = max(out, round(zs[allowed] + 0.01, 2))
    return out


def loso_scores(
    docs: list[Doc], caught: dict[str, bool] | None = None
) -> dict[str, list[tuple[float, bool]]]:
    """Per poisoned source: each of its texts as published, (its score by a model trained
    without the source (its translations held out with it), whether ``caught`` says the hand
    rules miss it); the project's own set is one source."""
    out: dict[str, list[tuple[float, bool]]] = {}
    for g in sorted({d.group for d in docs if d.label == 1}):
        w, b = train([d for d in docs if d.group != g])
        held = [d for d in docs if d.group == g and not d.translated]
        out[g[4:]] = [(doc_score(d, w, b), not (caught or {}).get(d.unit, True)) for d in held]
    return out


def loso_counts(
    scores: dict[str, list[tuple[float, bool]]], threshold: float
) -> dict[str, tuple[int, int, int, int]]:
    """Per source: (texts over ``threshold``, texts, and the same two among those the rules
    miss)."""
    out: dict[str, tuple[int, int, int, int]] = {}
    for g, rows in scores.items():
        over = [z > threshold for z, _ in rows]
        missed = [o for o, (_, m) in zip(over, rows, strict=True) if m]
        out[g] = (sum(over), len(rows), sum(missed), len(missed))
    return out


def loso(
    docs: list[Doc], threshold: float, caught: dict[str, bool] | None = None
) -> dict[str, tuple[int, int, int, int]]:
    """Per poisoned source: (texts over the threshold, texts, and the same two among the texts
    ``caught`` says the hand rules miss) by a model trained without it (its translations held
    out with it); the project's own set is one source."""
    return loso_counts(loso_scores(docs, caught), threshold)


def rule_caught() -> dict[str, bool]:
    """Whether the hand rules catch each development poisoned text (a block or attention cue,
    the learned cue left out: it is info), planted as ``bench_cues_eval.py --set dev`` plants
    it; keyed as the training units are."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as ev

    servers = ev.cd.servers()
    names = ev.fleet(servers)
    out: dict[str, bool] = {}
    for name in POS_DEV:
        path = HERE / name
        if not path.exists():
            continue
        for item in json.loads(path.read_text(encoding="utf-8")):
            old, new = ev.planted_pair(item, servers)
            cues = ev.tool_cues(old, new, names=names, server=item["plant"]["server"])
            out[f"{name}:{item['id']}"] = any(
                ev.level(c) in ev.CAUGHT for c in cues if c.rule != INSTRUCTION_READS
            )
    return out


def render(w: dict[str, float], b: float, threshold: float, note: str) -> str:
    lines = [
        '"""Weights of the "reads as an instruction" model (``engine/cue_model.py``).',
        "",
        "Generated by ``benchmarks/eval/train_cue_model.py --write`` from development data only: do",
        "not edit by hand (``tests/engine/test_cue_model.py`` holds it to the script). " + note,
        '"""',
        "",
        "# fmt: off",
        f"BIAS = {b!r}",
        f"THRESHOLD = {threshold!r}",
        "WEIGHTS: dict[str, float] = {",
    ]
    row = "   "  # entries packed into lines within the project's width: a module of ~650 lines
    for f in sorted(w):
        entry = f" {json.dumps(f, ensure_ascii=True)}: {w[f]!r},"
        if len(row) + len(entry) > 99 and row.strip():
            lines.append(row)
            row = "   "
        row += entry
    if row.strip():
        lines.append(row)
    lines.append("}")
    lines.append("# fmt: on")
    return "\n".join(lines) + "\n"


def data_digest(docs: list[Doc]) -> str:
    h = hashlib.sha256()
    for d in docs:
        h.update(json.dumps([d.label, d.group, d.unit, d.sents]).encode())
    return h.hexdigest()[:16]


def report_in_sample(docs: list[Doc], w: dict[str, float], b: float, threshold: float) -> None:
    """The model alone on its own training data, per poisoned file (texts as published, and
    their translations) and over the honest tools: an upper bound, printed beside the
    leave-one-source-out figure that predicts unseen authors."""
    by: dict[str, list[bool]] = defaultdict(list)
    for d in docs:
        z = doc_score(d, w, b) > threshold
        if d.label == 0:
            continue
        src = d.unit.split(":", 1)[0]
        by[src + (" translated" if d.translated else "")].append(z)
    for k in sorted(by):
        print(f"  in-sample {k}: {sum(by[k])}/{len(by[k])}")
    honest = unit_scores([d for d in docs if d.label == 0], w, b)
    print(
        f"  in-sample honest tools over threshold: {sum(z > threshold for z in honest.values())}/{len(honest)}"
    )


def report_added(
    honest: dict[str, float],
    rw: list[float],
    scores: dict[str, list[tuple[float, bool]]] | None,
) -> None:
    """The threshold for a sentence a change adds (``ADDED_TOOL_BUDGET``,
    ``ADDED_REWRITE_BUDGET``, out of fold) and, given the leave-one-source-out scores, the
    recall it would have on an unseen author's texts read as added."""
    t = choose_threshold(honest, rw, ADDED_TOOL_BUDGET, ADDED_REWRITE_BUDGET)
    print(
        f"added-sentence threshold {t}: honest tools out of fold "
        f"{sum(z > t for z in honest.values())}/{len(honest)}, "
        f"rewrites {sum(z > t for z in rw)}/{len(rw)}"
    )
    if scores:
        r = loso_counts(scores, t)
        hit, n, mhit, mn = (sum(x[i] for x in r.values()) for i in range(4))
        print(
            f"  added, leave-one-source-out {hit}/{n} ({hit / max(1, n):.1%}), "
            f"rule-missed {mhit}/{mn} ({mhit / max(1, mn):.1%})"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="regenerate the weights module")
    ap.add_argument("--loso", action="store_true", help="leave one poisoned source out")
    ap.add_argument("--folds", type=int, default=8, help="grouped folds for the threshold")
    ap.add_argument(
        "--budgets",
        type=lambda v: [float(x) for x in v.split(",")],
        default=[],
        help="with --loso, also at thresholds letting these shares of honest tools through",
    )
    ap.add_argument(
        "--added",
        action="store_true",
        help="the threshold for added sentences (ADDED_*_BUDGET) and, with --loso, its recall",
    )
    a = ap.parse_args(argv)
    docs = load_docs()
    npos = sum(d.label for d in docs)
    print(f"texts: {npos} poisoned, {len(docs) - npos} honest; data {data_digest(docs)}")
    changed = rewrites()
    honest, rw = out_of_fold_honest(docs, a.folds, changed)
    threshold = choose_threshold(honest, rw)
    flagged = sum(z > threshold for z in honest.values())
    print(
        f"threshold {threshold}: honest tools out of fold {flagged}/{len(honest)}, "
        f"rewrites {sum(z > threshold for z in rw)}/{len(rw)}"
    )
    w, b = train(docs)
    print(f"weights: {len(w)}, bias {b}")
    report_in_sample(docs, w, b, threshold)
    scores: dict[str, list[tuple[float, bool]]] = {}
    if a.loso:
        scores = loso_scores(docs, rule_caught())
        res = loso_counts(scores, threshold)
        hit, n, mhit, mn = (sum(r[i] for r in res.values()) for i in range(4))
        for g, (x, y, mx, my) in res.items():
            print(f"  loso {g}: {x}/{y}; of the texts the rules miss {mx}/{my}")
        print(f"leave-one-source-out: {hit}/{n} ({hit / max(1, n):.1%})")
        print(f"  on the texts the hand rules miss: {mhit}/{mn} ({mhit / max(1, mn):.1%})")
        for budget in a.budgets:
            t = choose_threshold(honest, rw, budget=budget)
            r = loso_counts(scores, t)
            hit, n, mhit, mn = (sum(x[i] for x in r.values()) for i in range(4))
            print(
                f"  tool budget {budget:.0%}, rewrite budget kept (threshold {t}): "
                f"{sum(z > t for z in honest.values())}/{len(honest)} tools, "
                f"leave-one-source-out {hit}/{n} ({hit / max(1, n):.1%}), "
                f"rule-missed {mhit}/{mn} ({mhit / max(1, mn):.1%})"
            )
    if a.added:
        report_added(honest, rw, scores if a.loso else None)
    if a.write:
        note = f"Data {data_digest(docs)}, seed {SEED}, {a.folds} folds."
        OUT.write_text(render(w, b, threshold, note), encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
