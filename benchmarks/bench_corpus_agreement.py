#!/usr/bin/env python3
"""Every command and the app agree on every release pair of every corpus server.

``python benchmarks/bench_corpus_agreement.py [--only SERVER ...] [--dry-run]`` runs
tests/e2e/test_corpus_agreement.py over the whole corpus (``MCP_REVIEW_CORPUS_ALL=1``: every
server, not only the suite's ``corpus_data.AGREEMENT_SERVERS``; ``--outside-suite``: only the others, which
the suite does not run), both halves (commands and app), every tier,
and writes what passed to ``benchmarks/results/corpus-agreement.json``: per server the sha256
of each capture it ran on, per tier and half ``passed`` and the seconds it took. The suite's
``test_every_corpus_server_agreed_in_the_committed_run`` re-checks that file against today's
captures (every server, every capture, every tier and half, all passed), so a server added to
the corpus without this run fails the suite fast; the per-pair run itself stays here, out of
the suite's time (minutes of CPU for the added servers; figures in benchmarks/README.md).

``--only``: run those servers and keep the other servers' rows as they were.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))

import corpus_data as cd  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "corpus-agreement.json"
TEST = "tests/e2e/test_corpus_agreement.py"
HALVES = {
    "test_the_commands_agree_on_every_release_pair": "commands",
    "test_the_app_agrees_with_check_on_every_release_pair": "app",
}


def capture_digests(server: str) -> dict[str, str]:
    """sha256 of each capture file of ``server``, by version (what the run judged)."""
    return {
        c.version: "sha256:" + hashlib.sha256(c.path.read_bytes()).hexdigest()
        for c in cd.servers()[server]
    }


def _cases(junit: Path) -> list[tuple[str, str, str, str, float]]:
    """(half, server, tier, outcome, seconds) of each parametrized case in a junit report."""
    out = []
    for case in ET.parse(junit).iter("testcase"):
        name = case.get("name", "")
        base, _, params = name.partition("[")
        if base not in HALVES or not params.endswith("]"):
            continue
        server, _, tier = params[:-1].rpartition("-")
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
            elif child.tag == "skipped":
                outcome = "skipped"
        out.append((HALVES[base], server, tier, outcome, float(case.get("time", 0))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="server slugs (the others' rows are kept)")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the results")
    ap.add_argument(
        "--outside-suite", action="store_true", help="only the servers the suite does not run"
    )
    a = ap.parse_args(argv)
    servers = sorted(cd.servers())
    run = [s for s in servers if not a.only or s in a.only]
    if a.outside_suite:
        sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests")]
        from test_corpus_agreement import SUITE_SERVERS

        run = [s for s in run if s not in SUITE_SERVERS]
        a.only = run
    keep: dict = {}
    if a.only and RESULTS.exists():
        keep = json.loads(RESULTS.read_text(encoding="utf-8"))["servers"]
    with tempfile.TemporaryDirectory() as d:
        junit = Path(d) / "junit.xml"
        kexpr = " or ".join(f"[{s}-" for s in run) if a.only else ""
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            TEST,
            f"--junitxml={junit}",
            "-k",
            "release_pair" + (f" and ({kexpr})" if kexpr else ""),
        ]
        t0 = time.monotonic()
        env = dict(os.environ, MCP_REVIEW_CORPUS_ALL="1")
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.monotonic() - t0
        print(p.stdout[-3000:])
        cases = _cases(junit) if junit.exists() else []
    rows: dict = {s: keep[s] for s in servers if s in keep and s not in run}
    for s in run:
        rows[s] = {"captures": capture_digests(s), "pairs": len(cd.servers()[s]) - 1, "runs": {}}
    for half, server, tier, outcome, secs in cases:
        if server in rows and server in run:
            rows[server]["runs"][f"{half} {tier}"] = {"outcome": outcome, "seconds": round(secs, 1)}
    for s in run:
        rows[s]["runs"] = dict(sorted(rows[s]["runs"].items()))
    bad = [
        (s, k, r["outcome"])
        for s in run
        for k, r in rows[s]["runs"].items()
        if r["outcome"] != "passed"
    ]
    short = [s for s in run if len(rows[s]["runs"]) != 2 * 3]
    n_pairs = sum(rows[s]["pairs"] for s in run)
    print(
        f"{len(run)} servers, {n_pairs} release pairs, {len(cases)} runs (half x tier x server) "
        f"in {wall:.0f} s wall: {len(cases) - len(bad)} passed, {len(bad)} not"
        + (f"; servers missing runs: {short}" if short else "")
    )
    for item in bad:
        print(f"  {item}")
    if a.dry_run:
        return 0 if not bad and not short and p.returncode == 0 else 1
    doc = {
        "about": "benchmarks/bench_corpus_agreement.py; re-checked by tests/e2e/test_corpus_agreement.py",
        "run": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "pytest_exit": p.returncode,
        "servers": dict(sorted(rows.items())),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0 if not bad and not short and p.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
