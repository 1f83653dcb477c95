#!/usr/bin/env python3
"""Train the "reads as an instruction" model (``engine/cue_model.py``) on development data only.

``python benchmarks/eval/train_cue_model.py [--write] [--loso] [--folds N]``

Data (never the frozen set: ``poisoned_frozen*.json``, ``transformed_frozen.json``, the frozen
servers of ``honest_split.json`` and ``benchmarks/cues/frozen.json``'s ids are not read):

- **positives**: the development poisoned texts (``poisoned_dev.json``, ``poisoned_dev3..6``,
  ``poisoned_dev_lang.json``), the same texts rendered by ``translate.py`` into es, fr, de, zh,
  ru and ja, and the project's own attack set of ``bench_cues.py`` (b) (its tuned two thirds,
  the tool-preference class left out: it is not an instruction to read);
- **negatives**: every string of every captured definition of the development corpus servers,
  the published honest tools of ``honest_dev/``, ``bench_cues.py``'s hard negatives and the
  honest phrasings of the project's cue tests (``cue_model_negatives.json``, copied once; a
  text of a corpus server outside the development split left out).

A poisoned text often opens with an honest cover sentence ("Adds two numbers."), so its
sentences are not all instructions: training runs twice (multiple-instance learning); the
second round keeps as positive only each poisoned text's best-scoring sentence and any other
the first round scores above even odds. Logistic regression, L2, plain SGD in a seeded order
(pure Python: no dependency); weights under ``PRUNE`` are dropped, at most ``MAX_WEIGHTS`` kept,
every weight rounded to 4 decimals, so the generated module is byte-identical run after run.

The threshold is chosen on development data only: every honest development tool is scored by a
model trained without its server (grouped folds), and the threshold is set so that at most
``HONEST_BUDGET`` of them would be flagged. ``--loso`` trains once per poisoned source without
it and reports how many of its texts pass that threshold (what generalisation to an unseen
author looks like). ``--write`` regenerates ``mcp_review/engine/cue_model_weights.py``.
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
sys.path.insert(0, str(ROOT))

from mcp_review.engine.cue_model import features, sentences  # noqa: E402

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
HARD = 5.0
HARD_GROUPS = frozenset({"neg:fixtures", "neg:project"})
"""The project's hard negatives and its tests' honest phrasings weigh more than one string
of a corpus server: each was written because a rule read it wrong."""
HONEST_BUDGET = 0.01
"""At most this share of honest development tools flagged out of fold (the issue allows 5 %
for any cue; the brief aims at 1 % newly flagged)."""
POS_DEV = (
    "poisoned_dev.json",
    "poisoned_dev3.json",
    "poisoned_dev4.json",
    "poisoned_dev5.json",
    "poisoned_dev6.json",
    "poisoned_dev_lang.json",
)
HONEST_DEV = (
    "agent_mail atlassian_jira aws_cli bitwarden cloudflare_radar commands elevenlabs "
    "feedback_enhanced fstec_ru graphiti kintone kubernetes magic_21st mastergo postgres_pro "
    "puppeteer resend rillsoft sanity sentry serena ssh_mcp supabase_db supabase_docs "
    "supabase_edge wcgw zen_thinkdeep zerno zh_collection"
).split()
"""The honest published tools read (named, so that a set added later, such as a held-out
one, changes nothing until it is named here)."""


@dataclass(frozen=True)
class Doc:
    """One text: its label, the group it is held out with, and its sentences' features."""

    label: int
    group: str
    unit: str
    """The honest tool (or poisoned item) it belongs to: a tool is flagged if any text is."""
    sents: tuple[tuple[str, ...], ...]
    translated: bool = False


def _sent_feats(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(features(s)) for _, s in sentences(text))


def _strings(tool: dict[str, Any]) -> Iterable[str]:
    from mcp_review.engine.cues import tool_texts

    for _, t in tool_texts(tool):
        if isinstance(t, str) and len(t) >= 16:
            yield t


def load_docs() -> list[Doc]:
    """Every development text, positives then negatives, in a fixed order."""
    import corpus_data as cd
    from translate import LANGS, translate

    docs: list[Doc] = []
    for name in POS_DEV:
        path = HERE / name
        if not path.exists():
            continue
        for item in json.loads(path.read_text(encoding="utf-8")):
            group = "pos:" + item["source"]
            unit = f"{name}:{item['id']}"
            docs.append(Doc(1, group, unit, _sent_feats(item["text"])))
            for lang in LANGS:
                t = translate(item["text"], lang)
                if t:
                    docs.append(Doc(1, group, f"{unit}:{lang}", _sent_feats(t), True))
    cues = ROOT / "benchmarks" / "cues"
    frozen = set(json.loads((cues / "frozen.json").read_text(encoding="utf-8"))["ids"])
    for item in json.loads((cues / "poisoned.json").read_text(encoding="utf-8")):
        if item["id"] in frozen or item["class"] == "tool-preference":
            continue
        docs.append(Doc(1, "pos:project", f"project:{item['id']}", _sent_feats(item["text"])))
    fixtures = json.loads((HERE / "cue_model_negatives.json").read_text(encoding="utf-8"))
    for i, item in enumerate(fixtures["texts"]):
        docs.append(Doc(0, "neg:fixtures", f"fixture:{i}", _sent_feats(item["text"])))
    for item in json.loads((cues / "hard_negatives.json").read_text(encoding="utf-8")):
        docs.append(Doc(0, "neg:project", f"hard:{item['id']}", _sent_feats(item["text"])))
    seen: set[str] = set()
    for f in (HERE / "honest_dev" / f"{n}.json" for n in HONEST_DEV):
        d = json.loads(f.read_text(encoding="utf-8"))
        for tool in d["tools"]:
            for t in _strings(tool):
                if t not in seen:
                    seen.add(t)
                    docs.append(
                        Doc(0, "neg:" + d["repo"], f"{d['repo']}:{tool['name']}", _sent_feats(t))
                    )
    split = json.loads((HERE / "honest_split.json").read_text(encoding="utf-8"))
    dev = set(split["dev_servers"])
    for server, caps in sorted(cd.servers().items()):
        if server not in dev:
            continue
        for cap in caps:
            for name, tool in sorted(cap.tools.items()):
                for t in _strings(tool):
                    if t not in seen:
                        seen.add(t)
                        docs.append(Doc(0, "neg:" + server, f"{server}:{name}", _sent_feats(t)))
    return docs


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
    raw = {g: 1.0 / math.sqrt(n) for g, n in size.items()}
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


def out_of_fold_honest(docs: list[Doc], k: int) -> dict[str, float]:
    """Each honest tool's score by a model trained without its server."""
    out: dict[str, float] = {}
    for held in folds(docs, k):
        w, b = train([d for d in docs if d.group not in held])
        out.update(unit_scores([d for d in docs if d.group in held], w, b))
    return out


def choose_threshold(honest: dict[str, float], budget: float = HONEST_BUDGET) -> float:
    """The lowest threshold flagging at most ``budget`` of the honest tools (out of fold)."""
    zs = sorted(honest.values(), reverse=True)
    allowed = int(len(zs) * budget)
    return round(zs[allowed] + 0.01, 2) if allowed < len(zs) else 0.0


def loso(docs: list[Doc], threshold: float) -> dict[str, tuple[int, int]]:
    """Per poisoned source: (texts over the threshold, texts) by a model trained without it
    (its translations held out with it); the project's own set is one source."""
    out: dict[str, tuple[int, int]] = {}
    for g in sorted({d.group for d in docs if d.label == 1}):
        w, b = train([d for d in docs if d.group != g])
        held = [d for d in docs if d.group == g and not d.translated]
        hit = sum(doc_score(d, w, b) > threshold for d in held)
        out[g[4:]] = (hit, len(held))
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="regenerate the weights module")
    ap.add_argument("--loso", action="store_true", help="leave one poisoned source out")
    ap.add_argument("--folds", type=int, default=8, help="grouped folds for the threshold")
    a = ap.parse_args(argv)
    docs = load_docs()
    npos = sum(d.label for d in docs)
    print(f"texts: {npos} poisoned, {len(docs) - npos} honest; data {data_digest(docs)}")
    honest = out_of_fold_honest(docs, a.folds)
    threshold = choose_threshold(honest)
    flagged = sum(z > threshold for z in honest.values())
    print(f"threshold {threshold}: honest tools out of fold {flagged}/{len(honest)}")
    w, b = train(docs)
    print(f"weights: {len(w)}, bias {b}")
    report_in_sample(docs, w, b, threshold)
    if a.loso:
        res = loso(docs, threshold)
        hit = sum(x for x, _ in res.values())
        n = sum(y for _, y in res.values())
        for g, (x, y) in res.items():
            print(f"  loso {g}: {x}/{y}")
        print(f"leave-one-source-out: {hit}/{n} ({hit / max(1, n):.1%})")
    if a.write:
        note = f"Data {data_digest(docs)}, seed {SEED}, {a.folds} folds."
        OUT.write_text(render(w, b, threshold, note), encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
