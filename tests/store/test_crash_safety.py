"""Crash safety with real processes: SIGKILL mid-write never tears the pin file, and concurrent
approvals from separate processes lose no decision."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from helpers import stdio_server_argv

from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins

pytestmark = pytest.mark.slow

# The child approves t0, t1, ... forever, each save rewriting a file that keeps growing (big
# definitions make every write take a while). Given a save number N and a point, the child stops
# for good at that point of its N-th save (store.files.fault_point: "temp-written" is after the
# temp file is written and synced, before the rename; "renamed" is after the rename, before the
# folder is synced) and says "stopped": the parent's SIGKILL lands there every time, never after
# a random sleep.
WRITER = textwrap.dedent("""
    import os, sys, time
    from mcp_review.store import files as F
    from mcp_review.store import pinfile as P
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import make_pin

    path = sys.argv[1]
    stall_at, stall_point = int(sys.argv[2]), sys.argv[3]
    saves = 0
    def stop_here(point):
        if saves == stall_at and point == stall_point:
            print("stopped", flush=True)
            time.sleep(600)
    F.fault_point = stop_here

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
    kills = 0
    mid_write = 0
    last = 0
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    for run in range(12):
        # Set points, rotated: the 0th to 2nd save of this run, before or after the rename
        # (each of the six twice, the second time over the file the first one left).
        at, point = run // 2 % 3, ("temp-written", "renamed")[run % 2]
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, path, str(at), point], stdout=subprocess.PIPE, env=env
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"ready"
        assert child.stdout.readline().strip() == b"stopped"
        child.send_signal(signal.SIGKILL)
        child.wait()
        kills += 1
        if point == "temp-written":
            # killed between writing the temp file and renaming it: the temp file is left
            assert any(n.endswith(".tmp") for n in os.listdir(tmp_path))
            mid_write += 1
        k = _check_consistent(path)
        # Each run's stopped save is lost before the rename and kept after it, never torn.
        assert k == last + at + (point == "renamed")
        last = k
    assert kills == 12 and mid_write == 6 and last == 12 + 3 * 2
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
    # Eight separate processes, forked from the warm zygote (tests/helpers.py): each its own
    # pid, pipes and exit status, running `main` at the same instant; their interpreters'
    # start-up and imports, shared, are not what the test is about.
    script = tmp_path / "approve.py"
    script.write_text(code, encoding="utf-8")
    procs = [
        subprocess.Popen(
            [
                *stdio_server_argv(script),
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
