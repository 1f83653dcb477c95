"""Instructions per tools/call in the proxy process, counted by valgrind's callgrind.

CPU time per call swings with the machine's load (a shared core's caches: the same build read
0.79 and 1.54 ms a call in two runs minutes apart); instructions executed do not. Each path of
``bench_proxy.py`` (``proxy``, ``enforce``, ``held``, ``http-front``) runs with the proxy under
``valgrind --tool=callgrind --instr-atstart=no``: 200 warm-up calls uninstrumented, then
instrumentation on (``callgrind_control -i on``) for ``-n`` timed calls, then off. The count
includes every thread of the proxy (a worker thread's check too), not the server's or the
client's. ``--root`` runs another checkout's code (an A/B against ``main``: ``git archive main |
tar -x -C /tmp/base``) with this script's harness. Needs ``valgrind`` on PATH.

    python benchmarks/bench_proxy_instr.py -n 500 [--paths held,http-front] [--root /tmp/base]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _totals(out: Path) -> int:
    m = re.search(r"^totals:\s*(\d+)", out.read_text(), re.M)
    assert m, f"no totals in {out}"
    return int(m.group(1))


def _instrument(pid: int, on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(pid)],
        check=True,
        capture_output=True,
    )


def measure(bp: Any, kind: str, tmp: Path, n: int) -> float:
    """Instructions per call of ``kind`` (a ``bench_proxy`` path) in the proxy process."""
    out = tmp / f"{kind}.callgrind"
    vg = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        f"--log-file={out}.log",
    ]
    real = bp._argv
    bp._argv = lambda k, t: vg + real(k, t)
    try:
        if kind == "http-front":
            front = bp.FrontProc(tmp)
            conn: Any = bp.HttpConn(front.url, {"Authorization": f"Bearer {front.token}"})
            pid, stop = front.p.pid, front.close
        else:
            conn = bp.Conn(kind, tmp)
            pid, stop = conn.p.pid, None
    finally:
        bp._argv = real
    req = bp._tools_call(100)
    for _ in range(200):
        conn.call(req)
    _instrument(pid, True)
    time.sleep(0.5)  # callgrind polls for commands
    for _ in range(n):
        assert b'"result"' in conn.call(req)
    _instrument(pid, False)
    conn.close()
    if stop is not None:
        stop()
    deadline = time.monotonic() + 120
    while not out.exists() or "totals:" not in out.read_text():
        assert time.monotonic() < deadline, f"callgrind wrote no totals to {out}"
        time.sleep(0.2)
    return _totals(out) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=500, help="instrumented calls per path")
    ap.add_argument("--paths", default="proxy,enforce,held,http-front")
    ap.add_argument("--root", default=str(HERE.parent), help="the checkout whose code runs")
    a = ap.parse_args()
    root = Path(a.root).resolve()
    sys.path.insert(0, str(HERE))
    import bench_proxy as bp  # the harness: its paths, server and clients

    bp.ROOT = root  # the proxy runs from this checkout (python -m mcp_review, cwd=root)
    os.environ["PYTHONMALLOC"] = "malloc"  # valgrind sees every allocation as it is
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "tools.json").write_text(json.dumps(bp.TOOLS))
        (tmp / "tools-held.json").write_text(json.dumps(bp.HELD_TOOLS))
        bp._pin(tmp / "mcp-pins.toml")
        print(f"instructions per tools/call in the proxy process, {a.n} calls, code at {root}")
        for kind in [p.strip() for p in a.paths.split(",") if p.strip()]:
            print(f"{kind:<12}{measure(bp, kind, tmp, a.n):>14,.0f} instructions/call", flush=True)


if __name__ == "__main__":
    main()
