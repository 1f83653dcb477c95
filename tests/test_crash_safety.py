"""Crash safety with real processes: SIGKILL mid-write never tears the pin file, and concurrent
approvals from separate processes lose no decision."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins

pytestmark = pytest.mark.slow

# The child approves t0, t1, ... forever, each save rewriting a file that keeps growing (big
# definitions make every write take a while). A sleep inside fsync widens the window between
# "temp file written" and "renamed into place". With a second argument N the child stops for good
# inside its N-th save, after the temp file is written and before the rename, and says "mid": the
# parent's kill then lands mid-write every time, not by luck of timing.
WRITER = textwrap.dedent("""
    import os, sys, time
    from mcp_review.store import pinfile as P
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import make_pin

    path = sys.argv[1]
    stall_at = int(sys.argv[2]) if len(sys.argv) > 2 else -1
    folder = os.path.dirname(path)
    saves = 0
    real_fsync = os.fsync
    def slow_fsync(fd):
        time.sleep(0.01)
        real_fsync(fd)
        if saves == stall_at and any(n.endswith(".tmp") for n in os.listdir(folder)):
            print("mid", flush=True)
            time.sleep(600)
    P.os.fsync = slow_fsync

    i = len(P.load_pins(path).pins)
    print("ready", flush=True)
    while True:
        pf = P.load_pins(path)
        t = ToolDef.from_wire({"name": f"t{i}", "description": "x" * 20000 + str(i),
                               "inputSchema": {"type": "object"}})
        pf.decide(make_pin("srv", t, "approved", by="writer"))
        P.save_pins(pf)
        saves += 1
        i += 1
""")


def _check_consistent(path: str) -> int:
    """The file parses and holds exactly t0..t(k-1), each definition matching its digest."""
    pf = load_pins(path)
    names = sorted(k[2] for k in pf.pins)
    k = len(names)
    assert names == sorted(f"t{i}" for i in range(k))
    for p in pf.pins.values():
        assert p.tool_def().digest == p.digest
    return k


def test_sigkill_mid_write_never_leaves_a_torn_file(tmp_path):
    path = str(tmp_path / "mcp-pins.toml")
    rng = random.Random(1234)
    kills = 0
    mid_write = 0
    last = 0
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    for run in range(25):
        # Every other run stops inside a save on purpose; the rest are killed at a random time.
        stall = ["1"] if run % 2 else []
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, path, *stall], stdout=subprocess.PIPE, env=env
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"ready"
        if stall:
            assert child.stdout.readline().strip() == b"mid"
        else:
            time.sleep(rng.uniform(0.02, 0.15))
        child.send_signal(signal.SIGKILL)
        child.wait()
        kills += 1
        if any(n.endswith(".tmp") for n in os.listdir(tmp_path)):
            mid_write += 1  # killed between creating the temp file and renaming it
        if os.path.exists(path):
            k = _check_consistent(path)
            assert k >= last  # never goes back to an older state either
            last = k
    assert kills == 25 and last >= 5
    assert mid_write >= 12, "the kills on purpose did not land mid-write; the test proved nothing"
    # Audit lines are whole JSON objects; at most a torn tail is skipped by the reader.
    assert len(audit.read(str(tmp_path / "mcp-pins.audit.jsonl"))) >= last


def _snapshot(tmp_path, n: int) -> str:
    snap = {
        "format": "mcp-review-snapshot",
        "version": 1,
        "servers": {
            "srv": {
                "principal": "default",
                "tools": [
                    {
                        "name": f"tool{i}",
                        "description": f"tool number {i}",
                        "inputSchema": {"type": "object"},
                    }
                    for i in range(n)
                ],
            }
        },
    }
    p = tmp_path / "snap.json"
    p.write_text(json.dumps(snap))
    return str(p)


def test_concurrent_approvals_from_separate_processes_lose_nothing(tmp_path):
    n = 8
    snap = _snapshot(tmp_path, n)
    pins = str(tmp_path / "mcp-pins.toml")
    start = time.time() + 1.0
    # Every child waits for the same instant, then approves its own tool.
    code = (
        "import sys, time\n"
        f"while time.time() < {start}: time.sleep(0.001)\n"
        "from mcp_review.cli import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "approve",
                "srv",
                f"tool{i}",
                "--snapshot",
                snap,
                "--pins",
                pins,
                "--by",
                f"op{i}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for i in range(n)
    ]
    results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    assert all(rc == 0 for rc, _ in results), results
    pf = load_pins(pins)
    assert sorted(k[2] for k in pf.pins) == sorted(f"tool{i}" for i in range(n))
    assert {p.decided_by for p in pf.pins.values()} == {f"op{i}" for i in range(n)}
    recs = audit.read(str(tmp_path / "mcp-pins.audit.jsonl"))
    assert sorted(r["tool"] for r in recs) == sorted(f"tool{i}" for i in range(n))
