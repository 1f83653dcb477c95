#!/usr/bin/env python3
"""The review app on every released upgrade of the corpus, under every tier: its answers, kept.

``python benchmarks/corpus_app.py [--check]``. For every consecutive pair of captured versions
of every server in tests/corpus/ and each policy tier, in a fresh folder, exactly as
tests/e2e/test_corpus_agreement.py sets a pair up (``pin`` the old version, the tier's config, the
new version as a snapshot file): open the review app as ``mcp-review review --snapshot`` opens
it and record what it says (``app_answer``: each row's status and outcome, the table's cells,
the server row, the counts line), and where the policy auto-approves something, press ``P``,
confirm, and record the counts line after it, the pins the app wrote (decision, digest and
decider of each tool) and check's JSON answer on them.

The answers go to benchmarks/corpus_app.json (committed). The app on all 276 (pair, tier)
cases costs a minute or more of CPU, too much for the test suite's budget, so
tests/e2e/test_corpus_agreement.py holds these recorded answers to what ``check`` says now on
every case, and reruns the app on a sample of them to find a recording gone stale. Rerun this
script after a change to the app, the engine's verdicts or the corpus; ``--check`` compares
instead of writing (exit 1 on any difference).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "corpus_app.json"
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests"), str(ROOT / "scripts" / "corpus")]


class Capture:
    """What the commands wrote to stdout since the last read (pytest's capsys, for a script)."""

    def __init__(self) -> None:
        self.buf = io.StringIO()

    def readouterr(self) -> tuple[str, str]:
        out = self.buf.getvalue()
        self.buf.seek(0)
        self.buf.truncate()
        return out, ""


def answers(only: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every (pair, tier) case's app answer (of the servers ``only``), keyed by its label."""
    import test_corpus_agreement as ca

    cap = Capture()
    got: dict[str, dict[str, Any]] = {}
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(cap.buf):
        try:
            for server in sorted(ca.SERVERS):
                if only and server not in only:
                    continue
                for tier in ca.TIERS:
                    for i, (old, new) in enumerate(ca._pairs(server)):
                        folder = Path(tmp) / f"{server}-{tier}-{i}"
                        folder.mkdir()
                        os.chdir(folder)
                        ca.baseline(old, new, tier, cap)  # type: ignore[arg-type]
                        gate = ca.Gate(cap, tier)  # type: ignore[arg-type]
                        auto = any(o == "auto-approve" for _s, o in gate.tools.values())
                        app = ca.app_case(gate, tier, cap, apply=auto)  # type: ignore[arg-type]
                        got[ca.label(server, old, new, tier)] = app
        finally:
            os.chdir(here)
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed answers")
    ap.add_argument("--server", action="append", help="only this server's cases (repeatable)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="write here (default: %(default)s)")
    ap.add_argument("--merge", type=Path, nargs="*", help="write the union of these outputs")
    a = ap.parse_args(argv)
    if a.merge:
        merged: dict[str, Any] = {}
        for part in a.merge:
            merged.update(json.loads(part.read_text(encoding="utf-8")))
        write(merged, a.out)
        return 0
    t0, c0 = time.perf_counter(), time.process_time()
    got = answers(a.server)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{len(got)} cases: {wall:.1f} s wall, {cpu:.1f} s CPU", file=sys.stderr)
    if a.check:
        kept = json.loads(RESULTS.read_text(encoding="utf-8"))
        got = json.loads(json.dumps(got))
        differ = sorted(k for k in got.keys() | kept.keys() if got.get(k) != kept.get(k))
        for k in differ:
            print(f"differs: {k}", file=sys.stderr)
        return 1 if differ else 0
    write(got, a.out)
    return 0


def write(got: dict[str, Any], out: Path) -> None:
    text = "{\n" + ",\n".join(
        f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}"
        for k, v in sorted(got.items())
    )
    out.write_text(text + "\n}\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
