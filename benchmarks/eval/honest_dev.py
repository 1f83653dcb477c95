#!/usr/bin/env python3
"""The honest development set of issue 39's precision work: which rules block or flag honest
new-tool definitions, on text that is never the scored (frozen) set.

``python benchmarks/eval/honest_dev.py [--list]``

Two parts, both read at first sight (``tool_cues(None, tool)``, as a tool new in a release):

- **corpus**: every distinct tool definition ever captured of the *development* servers of
  ``honest_split.json`` (every version, not only the tools new in a release: 580 definitions
  where ``bench_cues_eval.py --set dev`` scores 89 new ones);
- **published**: ``honest_dev/*.json``, tool lists of published servers outside the corpus
  (repository, path and commit in each file; descriptions and parameter descriptions copied
  as written), none on the issue's keep-off list;
- **published2**: ``honest_dev2/*.json``, a second, later collection in the same form (one
  file a published server, none in the corpus, in ``honest_dev/`` or on the keep-off list;
  Docker's MCP catalog entries and servers' own sources), reported on its own line;
- **published3**: ``honest_dev3/*.json``, the same for agent-oriented servers (browser, shell,
  email, databases, memory, coding agents, security scanners), reported on a line of its own;
- **published4**: ``honest_dev4/*.json``, a fourth collection of agent-facing servers (payments
  and wallets, databases and pipelines, Docker hosts, chat platforms, files and calendars),
  collected after the held-out ``honest_held8/`` showed the precision work fit the servers it
  was tuned on; reported on a line of its own;
- **published5**: ``honest_dev5/*.json``, a fifth collection, of published npm packages run
  and asked for their tools (``collect_npm_honest.py``): coding agents' task planners, memory,
  browsers, shells and sandboxes, whose descriptions are long and written to the model;
- **published6**: ``honest_dev6/*.json``, a sixth collection, of published PyPI (and npm)
  servers whose authors wrote their tool descriptions in Chinese, Japanese or Russian
  (``collect_pypi_honest.py``): precision measured on native honest text;
- **published7**: ``honest_dev7/*.json``, a seventh collection, of popular official and vendor
  servers on npm and PyPI (databases, cloud, SaaS APIs, observability, payments, search,
  files), run and asked for their tools with the same two collectors, after every earlier
  development set scored 0 or near 0 blocked while the frozen new tools still showed blocks;
- **published8**: ``honest_dev8/*.json``, an eighth collection, of published npm and PyPI
  servers of kinds no earlier set had (ticketing and project tools, CRM and ERP, mail and
  messaging, payments and e-commerce, analytics, maps and travel, finance, health, education,
  developer services), run and asked for their tools with the same two collectors;
- **published_lang**: ``honest_lang/*.json``, published PyPI servers whose authors wrote their
  tool descriptions in Korean, Spanish, German, French, Portuguese, Japanese, Chinese or
  Russian, none in an earlier set (``collect_pypi_honest.py``): the honest counter-set of the
  languages round 2 (issue 39 scope 2).

Each published set is scored twice: as the corpus fleet knows names (a line of its own), and
with each server's own tools known beside the fleet (``[... own tools known]``), as a review
always reads a server: the product knows the tool list of the server it reviews
(``engine/status.py``), so this is the line that says what an operator sees. That second line
was chosen from the product's behaviour, not from the scores.

The frozen servers of ``honest_split.json`` are never read here: their figure is scored only to
report, by ``bench_cues_eval.py --set frozen``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import bench_cues_eval as b  # noqa: E402


def _score(
    label: str,
    defs: list[tuple[str, str, dict[str, Any]]],
    names: Any,
    listing: bool,
    own: dict[str, Any] | None = None,
) -> dict[str, Any]:
    n = flagged = blocked = 0
    rules: Counter[str] = Counter()
    rows = []
    for where, server, tool in defs:
        n += 1
        known = (own or {}).get(server, names)
        cues = [c for c in b.tool_cues(None, tool, names=known, server=server)]
        lv = {b.level(c) for c in cues}
        if lv & set(b.CAUGHT):
            flagged += 1
            blocked += "block" in lv
            for c in cues:
                if b.level(c) in b.CAUGHT:
                    rules[c.rule] += 1
                    rows.append((where, c.rule, b.level(c), c.pointer, c.text[:110]))
    print(
        f"[honest dev {label}] {flagged}/{n} any block/attention ({flagged / max(n, 1):.2%}), "
        f"{blocked} block ({blocked / max(n, 1):.2%}); rules {dict(rules)}"
    )
    if listing:
        for r in rows:
            print("  flag", *r)
    return {"n": n, "any": flagged, "block": blocked, "rules": dict(rules)}


def corpus_defs() -> list[tuple[str, str, dict[str, Any]]]:
    split = json.loads((HERE / "honest_split.json").read_text(encoding="utf-8"))
    want = set(split["dev_servers"])
    seen: set[str] = set()
    out = []
    for server, caps in sorted(b.cd.servers().items()):
        if server not in want:
            continue
        for cap in caps:
            for name, tool in sorted(cap.tools.items()):
                key = json.dumps(tool, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append((f"{server} {cap.version} {name}", server, tool))
    return out


def published_defs(folder: str = "honest_dev") -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for f in sorted((HERE / folder).glob("*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        # one file a server: honest_dev2 holds several servers of one repository
        server = d["repo"].split("/")[-1] if folder == "honest_dev" else f.stem
        for tool in d["tools"]:
            out.append((f"{d['repo']} {tool['name']}", server, tool))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print every flag")
    ap.add_argument(
        "--own-fleet",
        action="store_true",
        help="print only the line with each published server's own tools known beside the "
        "corpus fleet, as a review reads a server (bench_cues_eval.with_own); both by default",
    )
    a = ap.parse_args(argv)
    corpus = b.fleet_names(b.cd.servers())
    names = b.KnownNames.of(corpus)
    _score("corpus", corpus_defs(), names, a.list)
    for label, folder in (
        ("published", "honest_dev"),
        ("published2", "honest_dev2"),
        ("published3", "honest_dev3"),
        ("published4", "honest_dev4"),
        ("published5", "honest_dev5"),
        ("published6", "honest_dev6"),
        ("published7", "honest_dev7"),
        ("published8", "honest_dev8"),
        ("published_lang", "honest_lang"),
    ):
        defs = published_defs(folder)
        if not a.own_fleet:
            _score(label, defs, names, a.list)
        by: dict[str, dict[str, Any]] = {}
        for _, server, tool in defs:
            by.setdefault(server, {"tools": []})["tools"].append(tool)
        own = {srv: b.with_own(corpus, srv, doc) for srv, doc in by.items()}
        _score(f"{label} own tools known", defs, names, a.list and a.own_fleet, own)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
