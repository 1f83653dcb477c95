#!/usr/bin/env python3
"""The cue rules measured on text the project did not write (issue 39).

``python benchmarks/bench_cues_eval.py [--set frozen|dev|both] [--list] [--write]``
``python benchmarks/bench_cues_eval.py --batch N`` (one batch alone; a held-out one totals only)
``python benchmarks/bench_cues_eval.py --honest-held`` (the held-out honest set, totals only)
``python benchmarks/bench_cues_eval.py --held-out`` (the held-out batches and honest set:
the only way to see them; a development run leaves them out, so tuning never shows them)

- **Poisoned** (``benchmarks/eval/poisoned_*.json``, public texts copied verbatim, see
  ``benchmarks/eval/SOURCES.md``): each text is planted into a real description of a corpus
  server's newest capture (``build_eval.py`` chose where) and read as a change of that tool
  (``tool_cues(original, planted)``), as ``bench_cues.py`` reads its own set. Caught = at least
  one introduced cue at level ``block`` or ``attention``; reported per source, per language and
  per level.
- **Honest** (the corpus servers of ``honest_split.json``): every changed text between
  consecutive releases (rewrites) and every tool new in a release (first sight): the share with
  any block or attention cue, and with a block cue; first-sight blocking under the policy
  (``policy.first_sight_blocking``) is reported beside. The fleet these read names against
  holds every server's tools of every captured version, the server's own among them; the
  new tools are read a second time with the release's own tools as the server's entry
  (``the release's own tools known``), as a review of that release reads them: the product
  always knows the tool list of the server it reviews. That line was chosen from the
  product's behaviour, not from the scores; the first line is unchanged beside it.

A cue's level is the cue's or its rule's ``level`` attribute where the engine has one (issue
38), else ``block`` for a blocking cue and ``info`` for the rest.

Batch 2 (``poisoned_frozen2.json``) and batch 3 (``poisoned_<set>3.json``: its frozen and its
development sources) are scored and reported apart from batch 1, and together; batch 4
(``poisoned_dev4.json``), batch 5 (``poisoned_dev5.json``, the recall pass's held-out
check) and batch 6 (``poisoned_dev6.json``, the directive pass's held-out check), development only, with the development set. Batches 7 and 8 (``poisoned_dev7.json``,
``poisoned_dev8.json``: new public repositories, collected by helpers who changed no rule) were
**held out** from their collection until a3b4f19, scored only in totals as the check that rules
generalise to new authors (58/64 and 52/63 at their last held-out score); from then on they are
development data, each on a listed line of its own (``DEV_APART``), as batches 5 and 6 became
once their check was spent. A held-out batch (``HELD_OUT``) is scored on its own line, kept out
of every development run, and never listed miss by miss, so no rule is written against it. Batch 11 (``poisoned_dev11.json``, injection texts written
natively in Chinese, Japanese, Russian, Spanish, Portuguese, German and French) and the earlier
native-language file ``poisoned_dev_lang.json`` are development data, each scored and listed on
a line of its own (``DEV_APART``, ``LANG_FILE``), outside the old development total. Batch 15
(``poisoned_dev15.json``, poisoned tool and agent texts written in other languages) is listed on a
line of its own the same way; ``--batch 15`` scores it alone. Batch 17 (``poisoned_dev17.json``,
poisoned tool texts and injected tool output from new authors) is one more listed line
(``--batch 17``).

``--honest-held`` scores the held-out honest set (``benchmarks/eval/honest_held8/``: tool lists
of published servers no other honest set uses, collected with batch 8): every tool read at
first sight, as a tool new in a release, and reported as the share with any block or attention
cue and with a block cue. Totals only: which tools drew a cue is never printed or returned, so
no rule is written against them.

``--write`` rewrites ``benchmarks/eval/results_<set>.json``. The frozen set is scored only to
report: rules are tuned on ``dev``.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "benchmarks" / "eval"
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(ROOT / "benchmarks" / "cues"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import corpus_data as cd  # noqa: E402
from bench_cues import _get, _set, fleet_names  # noqa: E402  (the same planting helpers)
from build_set import plant  # noqa: E402

from mcp_review.engine.cue_families import level_of  # noqa: E402
from mcp_review.engine.cues import Cue, KnownNames, tool_cues, tool_texts  # noqa: E402
from mcp_review.engine.policy import first_sight_blocking  # noqa: E402
from mcp_review.engine.rules.cues import CUE_RULES  # noqa: E402

CAUGHT = ("block", "attention")
HONEST_HELD = EVAL / "honest_held8"  # held-out honest tool lists, scored in totals only
HELD_OUT = (16,)  # batches scored on their own line, outside every dev run, unlisted
DEV_APART = (
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    17,
)  # development batches scored on their own line (listed), outside the old total
LANG_FILE = (
    "poisoned_dev_lang.json"  # native-language development texts, on a listed line of their own
)


def level(c: Cue) -> str:
    lv = getattr(c, "level", None) or getattr(CUE_RULES.get(c.rule), "level", None)
    if lv:
        return str(lv)
    return level_of(c.rule, c.blocking)


def language(text: str) -> str:
    """A coarse language tag by script and a few function words (for the per-language table)."""
    scripts: Counter[str] = Counter()
    for ch in text:
        if not ch.isalpha():
            continue
        name = unicodedata.name(ch, "")
        if name.startswith("CJK"):
            scripts["zh"] += 1
        elif name.startswith(("HIRAGANA", "KATAKANA")):
            scripts["ja"] += 1
        elif name.startswith("CYRILLIC"):
            scripts["ru"] += 1
        elif name.startswith("HANGUL"):
            scripts["ko"] += 1
    if scripts["ja"]:
        return "ja"
    if scripts:
        return scripts.most_common(1)[0][0]
    low = f" {text.lower()} "
    for lang, words in (
        ("es", (" del ", " los ", " con ", " para ", " usuario")),
        ("fr", (" les ", " des ", " avec ", " pour ", " utilisateur")),
        ("de", (" der ", " die ", " und ", " mit ", " benutzer")),
        ("pt", (" não ", " para ", " usuário", " histórico")),
    ):
        if sum(w in low for w in words) >= 2:
            return lang
    return "en"


def fleet(servers: dict[str, list[cd.Capture]]) -> KnownNames:
    return KnownNames.of(fleet_names(servers))


def planted_pair(item: dict[str, Any], servers: dict[str, list[cd.Capture]]) -> tuple[Any, Any]:
    t = item["plant"]
    cap = next(c for c in servers[t["server"]] if c.version == t["version"])
    old = cap.tools[t["tool"]]
    new = copy.deepcopy(old)
    _set(new, t["pointer"], plant(_get(old, t["pointer"]), item["text"], t["position"]))
    return old, new


def score_poisoned(
    items: list[dict[str, Any]], names: KnownNames, servers: dict[str, list[cd.Capture]]
) -> dict[str, Any]:
    rows = []
    for item in items:
        old, new = planted_pair(item, servers)
        cues = tool_cues(old, new, names=names, server=item["plant"]["server"])
        levels = sorted({level(c) for c in cues})
        rows.append(
            {
                "id": item["id"],
                "source": item["source"],
                "language": item.get("language") or language(item["text"]),
                "caught": any(lv in CAUGHT for lv in levels),
                "block": "block" in levels,
                "levels": levels,
                "rules": sorted({c.rule for c in cues}),
            }
        )

    def share(sel: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(sel)
        hit = sum(r["caught"] for r in sel)
        blk = sum(r["block"] for r in sel)
        return {
            "n": n,
            "caught": hit,
            "rate": round(hit / n, 4) if n else 0.0,
            "block": blk,
            "block_rate": round(blk / n, 4) if n else 0.0,
        }

    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_source[r["source"]].append(r)
        by_lang[r["language"]].append(r)
    return {
        "all": share(rows),
        "by_source": {k: share(v) for k, v in sorted(by_source.items())},
        "by_language": {k: share(v) for k, v in sorted(by_lang.items())},
        "misses": [
            {"id": r["id"], "source": r["source"], "rules": r["rules"]}
            for r in rows
            if not r["caught"]
        ],
        "rules_fired": dict(Counter(x for r in rows for x in r["rules"]).most_common()),
    }


def score_honest(
    server_names: list[str], names: KnownNames, corpus: dict[str, set[str]] | None = None
) -> dict[str, Any]:
    """Rewrites and new tools of ``server_names``; with ``corpus`` (the fleet's names), each
    new tool is read a second time with its release's own tools as the server's entry
    (``new_tools_own``), as a review of that release knows them."""
    wanted = set(server_names)
    changed = any_flag = block_flag = 0
    new_tools = new_any = new_block = new_policy = 0
    own_any = own_block = 0
    flagged: list[dict[str, Any]] = []
    for old, new in cd.pairs():
        if new.server not in wanted:
            continue
        release = KnownNames.of({**corpus, new.server: set(new.tools)}) if corpus else None
        for name in sorted(new.tools):
            b = new.tools[name]
            a = old.tools.get(name)
            if a is None:
                new_tools += 1
                if release is not None:
                    own = {level(c) for c in tool_cues(None, b, names=release, server=new.server)}
                    own_any += bool(own & set(CAUGHT))
                    own_block += "block" in own
                cues = tool_cues(None, b, names=names, server=new.server)
                lv = {level(c) for c in cues}
                new_any += bool(lv & set(CAUGHT))
                new_block += "block" in lv
                new_policy += any(first_sight_blocking(c) for c in cues)
                if lv & set(CAUGHT):
                    flagged.append(
                        _row(new, old, name, [c for c in cues if level(c) in CAUGHT], "(new tool)")
                    )
                continue
            before = dict(tool_texts(a))
            texts = [p for p, t in tool_texts(b) if before.get(p) != t]
            if not texts:
                continue
            cues = tool_cues(a, b, names=names, server=new.server)
            by_ptr: dict[str, list[Cue]] = defaultdict(list)
            for c in cues:
                by_ptr[c.pointer].append(c)
            for ptr in texts:
                changed += 1
                lv = {level(c) for c in by_ptr.get(ptr, [])}
                any_flag += bool(lv & set(CAUGHT))
                block_flag += "block" in lv
                if lv & set(CAUGHT):
                    flagged.append(
                        _row(new, old, name, [c for c in by_ptr[ptr] if level(c) in CAUGHT], ptr)
                    )

    def rate(x: int, n: int) -> float:
        return round(x / n, 4) if n else 0.0

    return {
        "servers": sorted(wanted),
        "rewrites": {
            "n": changed,
            "any": any_flag,
            "any_rate": rate(any_flag, changed),
            "block": block_flag,
            "block_rate": rate(block_flag, changed),
        },
        "new_tools": {
            "n": new_tools,
            "any": new_any,
            "any_rate": rate(new_any, new_tools),
            "block": new_block,
            "block_rate": rate(new_block, new_tools),
            "policy_first_sight_blocked": new_policy,
            "policy_rate": rate(new_policy, new_tools),
        },
        "new_tools_own": {
            "n": new_tools if corpus else 0,
            "any": own_any,
            "any_rate": rate(own_any, new_tools) if corpus else 0.0,
            "block": own_block,
            "block_rate": rate(own_block, new_tools) if corpus else 0.0,
        },
        "flagged": flagged,
    }


def _row(new: cd.Capture, old: cd.Capture, name: str, cues: list[Cue], ptr: str) -> dict[str, Any]:
    return {
        "where": f"{new.server} {old.version}->{new.version} {name} {ptr}",
        "cues": [{"rule": c.rule, "level": level(c), "text": c.text[:120]} for c in cues],
    }


def measure(which: str) -> dict[str, Any]:
    servers = cd.servers()
    names = fleet(servers)
    items = json.loads((EVAL / f"poisoned_{which}.json").read_text(encoding="utf-8"))
    split = json.loads((EVAL / "honest_split.json").read_text(encoding="utf-8"))
    out = {
        "set": which,
        "poisoned": score_poisoned(items, names, servers),
        "honest": score_honest(split[f"{which}_servers"], names, fleet_names(servers)),
    }
    batch2 = EVAL / "poisoned_frozen2.json"
    batch3 = EVAL / f"poisoned_{which}3.json"
    b2: list[dict[str, Any]] = []
    if which == "frozen" and batch2.exists():
        b2 = json.loads(batch2.read_text(encoding="utf-8"))
        out["poisoned_batch2"] = score_poisoned(b2, names, servers)
    b3: list[dict[str, Any]] = []
    if batch3.exists():
        b3 = json.loads(batch3.read_text(encoding="utf-8"))
        out["poisoned_batch3"] = score_poisoned(b3, names, servers)
    b4: list[dict[str, Any]] = []
    for n in (
        4,
        5,
        6,
    ):  # development only (recall pass's sources, its and the directive pass's held-out checks)
        batch = EVAL / f"poisoned_{which}{n}.json"
        if batch.exists():
            got = json.loads(batch.read_text(encoding="utf-8"))
            out[f"poisoned_batch{n}"] = score_poisoned(got, names, servers)
            b4 += got
    for n in DEV_APART:
        batch = EVAL / f"poisoned_{which}{n}.json"
        if batch.exists():
            out[f"poisoned_batch{n}"] = score_poisoned(
                json.loads(batch.read_text(encoding="utf-8")), names, servers
            )
    lang = EVAL / LANG_FILE
    if which == "dev" and lang.exists():
        out["poisoned_lang"] = score_poisoned(
            json.loads(lang.read_text(encoding="utf-8")), names, servers
        )
    # The held-out batches (HELD_OUT) are not scored here: a development run, read while rules
    # are tuned, never shows them; ``--held-out`` (or ``--batch N``) scores them, totals only.
    if b2 or b3 or b4:
        out["poisoned_frozen_all" if which == "frozen" else "poisoned_dev_all"] = score_poisoned(
            items + b2 + b3 + b4, names, servers
        )
    extra = EVAL / f"transformed_{which}.json"
    if extra.exists():
        t_items = json.loads(extra.read_text(encoding="utf-8"))
        out["transformed"] = score_poisoned(t_items, names, servers)
    return out


def report(r: dict[str, Any], listing: bool) -> None:
    p, h = r["poisoned"], r["honest"]
    a = p["all"]
    print(
        f"[{r['set']}] poisoned: {a['caught']}/{a['n']} with a block or attention cue "
        f"({a['rate']:.1%}); block {a['block']}/{a['n']} ({a['block_rate']:.1%})"
    )
    for k, v in p["by_source"].items():
        print(f"  source {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
    for k, v in p["by_language"].items():
        print(f"  language {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
    for key, label in (
        ("poisoned_batch2", "batch 2"),
        ("poisoned_batch3", "batch 3"),
        ("poisoned_batch4", "batch 4"),
        ("poisoned_batch5", "batch 5"),
        ("poisoned_batch6", "batch 6"),
        ("poisoned_frozen_all", "batches 1+2+3"),
        ("poisoned_dev_all", "batches 1+3+4+5+6"),
        *((f"poisoned_batch{n}", f"batch {n}") for n in DEV_APART),
        ("poisoned_lang", "native languages"),
    ):
        if key in r:
            b = r[key]["all"]
            print(
                f"[{r['set']}] poisoned {label}: {b['caught']}/{b['n']} ({b['rate']:.1%}); "
                f"block {b['block']}/{b['n']} ({b['block_rate']:.1%})"
            )
            for k, v in r[key]["by_source"].items():
                print(f"  {label} source {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
            for k, v in r[key]["by_language"].items():
                print(f"  {label} language {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
    if "transformed" in r:
        t = r["transformed"]
        print(
            f"[{r['set']}] transformed: {t['all']['caught']}/{t['all']['n']} "
            f"({t['all']['rate']:.1%})"
        )
        for k, v in t["by_language"].items():
            print(f"  transformed {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
    rw, nt = h["rewrites"], h["new_tools"]
    print(
        f"[{r['set']}] honest rewrites ({len(h['servers'])} servers): {rw['any']}/{rw['n']} any "
        f"block/attention ({rw['any_rate']:.2%}), {rw['block']} block ({rw['block_rate']:.2%})"
    )
    print(
        f"[{r['set']}] honest new tools: {nt['any']}/{nt['n']} any ({nt['any_rate']:.2%}), "
        f"{nt['block']} block ({nt['block_rate']:.2%}); policy first-sight blocked "
        f"{nt['policy_first_sight_blocked']} ({nt['policy_rate']:.2%})"
    )
    ow = h.get("new_tools_own")
    if ow and ow["n"]:
        print(
            f"[{r['set']}] honest new tools, the release's own tools known: {ow['any']}/{ow['n']} "
            f"any ({ow['any_rate']:.2%}), {ow['block']} block ({ow['block_rate']:.2%})"
        )
    if listing:
        for key in (
            "poisoned",
            "poisoned_batch2",
            "poisoned_batch3",
            "poisoned_batch4",
            "poisoned_batch5",
            "poisoned_batch6",
            *(f"poisoned_batch{n}" for n in DEV_APART),
            "poisoned_lang",
        ):
            for m in r.get(key, {}).get("misses", []):
                print("  miss", key, m)
        for f in h["flagged"]:
            print(
                "  flag", f["where"], [(c["rule"], c["level"], c["text"][:70]) for c in f["cues"]]
            )


def measure_batch(n: int) -> dict[str, Any]:
    """One development batch alone (``poisoned_dev<n>.json``); a held-out one in totals only."""
    path = EVAL / f"poisoned_dev{n}.json"
    if not path.exists():
        raise SystemExit(f"no batch {n}: {path.name} is not there")
    servers = cd.servers()
    items = json.loads(path.read_text(encoding="utf-8"))
    got = score_poisoned(items, fleet(servers), servers)
    if n in HELD_OUT:
        got.pop("misses")  # held out: which items miss is never shown, nor returned
    return got


def report_batch(n: int, p: dict[str, Any]) -> None:
    a = p["all"]
    held = " (held out)" if n in HELD_OUT else ""
    print(
        f"[dev] poisoned batch {n}{held}: {a['caught']}/{a['n']} with a block or attention "
        f"cue ({a['rate']:.1%}); block {a['block']}/{a['n']} ({a['block_rate']:.1%})"
    )
    for k, v in p["by_source"].items():
        print(f"  batch {n} source {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")
    for k, v in p["by_language"].items():
        print(f"  batch {n} language {k}: {v['caught']}/{v['n']} ({v['rate']:.1%})")


def with_own(corpus: dict[str, set[str]], server: str, doc: dict[str, Any]) -> KnownNames:
    """The corpus fleet with ``server``'s own tools added, as a review reads a server: the
    snapshot's every server, this one included, is the fleet its text may refer to
    (``engine/status.py``), so a sibling named in its text is its own tool, not another
    server's that happens to share the name."""
    return KnownNames.of({**corpus, server: {t["name"] for t in doc["tools"]}})


def measure_honest_held(folder: Path = HONEST_HELD, *, own: bool = False) -> dict[str, Any]:
    """The held-out honest set: each published server's tools read at first sight (as tools
    new in a release). Totals only, never which tool drew a cue. ``own``: each server's own
    tools known beside the corpus fleet (:func:`with_own`)."""
    corpus = fleet_names(cd.servers())
    names = KnownNames.of(corpus)
    files = sorted(folder.glob("*.json"))
    n = flagged = blocked = 0
    for f in files:
        doc = json.loads(f.read_text(encoding="utf-8"))
        known = with_own(corpus, f.stem, doc) if own else names
        for tool in doc["tools"]:
            lv = {level(c) for c in tool_cues(None, tool, names=known, server=f.stem)}
            n += 1
            flagged += bool(lv & set(CAUGHT))
            blocked += "block" in lv

    def rate(x: int) -> float:
        return round(x / n, 4) if n else 0.0

    return {
        "servers": len(files),
        "n": n,
        "any": flagged,
        "any_rate": rate(flagged),
        "block": blocked,
        "block_rate": rate(blocked),
    }


def report_honest_held(h: dict[str, Any], label: str = "") -> None:
    print(
        f"[held] honest held-out tools ({h['servers']} servers){label}: {h['any']}/{h['n']} any "
        f"block/attention ({h['any_rate']:.2%}), {h['block']} block ({h['block_rate']:.2%})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("frozen", "dev", "both"), default="dev")
    ap.add_argument("--list", action="store_true", help="print every miss and honest flag")
    ap.add_argument(
        "--write", action="store_true", help="rewrite benchmarks/eval/results_<set>.json"
    )
    ap.add_argument(
        "--batch",
        type=int,
        metavar="N",
        help="score only development batch N (poisoned_devN.json, a held-out one in totals only), totals only",
    )
    ap.add_argument(
        "--honest-held",
        action="store_true",
        help="score the held-out honest set (honest_held8/), totals only",
    )
    ap.add_argument(
        "--held-out",
        action="store_true",
        help="score the held-out batches and the held-out honest set together, totals only",
    )
    a = ap.parse_args(argv)
    if a.held_out:
        for n in HELD_OUT:
            report_batch(n, measure_batch(n))
        a.honest_held = True
    if a.honest_held:
        report_honest_held(measure_honest_held())
        report_honest_held(measure_honest_held(own=True), ", each server's own tools known")
        return 0
    if a.batch is not None:
        report_batch(a.batch, measure_batch(a.batch))
        return 0
    for which in ("dev", "frozen") if a.set == "both" else (a.set,):
        r = measure(which)
        report(r, a.list)
        if a.write:
            (EVAL / f"results_{which}.json").write_text(
                json.dumps(r, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
