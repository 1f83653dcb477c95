"""Every benchmark that borrows code from the test folders still starts.

The tests moved into one folder per layer; two scripts kept importing from ``tests/`` and
failed at their first line, which only ``benchmarks/run_all.py`` noticed. ``--help`` runs each
script's imports without measuring anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BORROWERS = sorted(
    p
    for p in (ROOT / "benchmarks").glob("*.py")
    if '"tests"' in p.read_text(encoding="utf-8") and "argparse" in p.read_text(encoding="utf-8")
)


def test_the_borrowers_are_found():
    names = {p.name for p in BORROWERS}
    assert {"bench_cost.py", "bench_cues_hostile.py", "corpus_app.py"} <= names


@pytest.mark.parametrize("script", BORROWERS, ids=lambda p: p.name)
def test_a_benchmark_borrowing_from_the_tests_starts(script: Path):
    p = subprocess.run(
        [sys.executable, str(script), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-2000:]
