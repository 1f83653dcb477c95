"""Large calls through the recording proxy: 1 MiB arguments of several shapes, direct vs proxy.

``bench_proxy.py`` times 1 MiB calls of one letter repeated, which no secret format can match:
the call log's redaction then costs nothing, and the figure says nothing of a real file's
contents. Here every call carries one of these arguments, each about 1 MiB, built from this
repository's own files (deterministic, nothing fetched):

- ``x``: ``{"q": "xxx…"}``, bench_proxy.py's shape (the floor);
- ``prose``: ``{"path": …, "content": <the docs' Markdown>}``, what a ``write_file`` sends;
- ``code``: the same with the package's Python source (non-ASCII, URLs, ``sk-``...);
- ``records``: ``{"rows": [...]}``, the corpus' tool definitions: ~100,000 keys and short
  strings, what a bulk insert sends.

Two parts. In-process (CPU, best of ``--repeat``): the call log writer's redaction and its whole
``record_call`` per call, beside what the test server does with the same call (stdlib
``json.loads`` + ``json.dumps``). End to end: ``--calls`` pipelined calls per run over loopback
stdio to ``tests/servers/proxy_raw.py`` (which parses each call and echoes it back), direct and
through ``mcp-review proxy`` (recording every call), runs alternated, median of ``--runs``:
throughput (MiB/s of request and response) and its ratio to direct, and the CPU per call of the
proxy process and of the server. The load average is printed beside each figure: on a shared
machine the wall ratios move with it, the CPU figures much less. ``--recorder N`` also hands N
calls of each shape to a recorder process alone (services/proxy/recorder.py, no proxy, server
or client beside it) and prints its CPU per call.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_proxy  # noqa: E402
from bench_proxy import TOOLS, Conn, _load, _pin  # noqa: E402

MiB = 1 << 20


def _text(patterns: list[str]) -> str:
    """The files matching ``patterns`` (sorted), concatenated and repeated to 1 MiB."""
    parts = []
    for pat in patterns:
        for p in sorted(glob.glob(str(ROOT / pat), recursive=True)):
            with open(p, encoding="utf-8", errors="replace") as f:
                parts.append(f.read())
    text = "".join(parts)
    return (text * (MiB // max(1, len(text)) + 1))[:MiB]


def _records() -> list[Any]:
    rows: list[Any] = []
    size = 0
    while size < MiB:
        for p in sorted(
            glob.glob(str(ROOT / "tests" / "corpus" / "**" / "*.json"), recursive=True)
        ):
            try:
                with open(p, encoding="utf-8") as f:
                    doc = json.load(f)
            except (OSError, ValueError):
                continue
            rows.append(doc)
            size += len(json.dumps(doc))
            if size >= MiB:
                break
    return rows


def shapes() -> dict[str, dict[str, Any]]:
    return {
        "x": {"q": "x" * MiB},
        "prose": {
            "path": "docs/all.md",
            "content": _text(["docs/*.md", "README.md", "CHANGELOG.md", "benchmarks/README.md"]),
        },
        "code": {"path": "src/all.py", "content": _text(["mcp_review/**/*.py"])},
        "records": {"rows": _records()},
    }


def best_ms(f: Any, repeat: int, n: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(n):
            f()
        best = min(best, (time.process_time() - t) / n)
    return best * 1000


def in_process(args: dict[str, Any], repeat: int) -> tuple[float, float, float, float]:
    """(redaction ms, record_call ms, the test server's json.loads + json.dumps ms, the
    recorder process's work on the call's line: its parse and its record, in place)."""
    from mcp_review.services.proxy.framing import relay_read
    from mcp_review.services.proxy.recorder_child import _record_frame
    from mcp_review.store.calllog import CallLog

    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": args})
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo"}}
    call["params"]["arguments"] = args
    raw = json.dumps(call, ensure_ascii=False).encode()
    calls = [[None, "2026-12-04T00:00:00Z", None]]
    meta = json.dumps({"calls": calls, "orjson": True} if relay_read(raw)[2] else calls).encode()
    with tempfile.TemporaryDirectory() as d:
        old = os.environ.get("XDG_STATE_HOME")
        os.environ["XDG_STATE_HOME"] = d  # the seal key: a throwaway one
        try:
            log = CallLog(os.path.join(d, "calls.jsonl"), server="bench", max_bytes=1 << 40)
            red = best_ms(lambda: log.redactor(args), repeat)
            rec = best_ms(lambda: log.record_call("echo", args, 1), repeat)
            frame = best_ms(lambda: _assert_recorded(_record_frame(log, meta, raw)), repeat)
            log.close()
        finally:
            if old is None:
                os.environ.pop("XDG_STATE_HOME", None)
            else:
                os.environ["XDG_STATE_HOME"] = old
    server = best_ms(lambda: json.dumps(json.loads(line)), repeat)
    return red, rec, server, frame


def recorder_alone(raw: bytes, n: int) -> float:
    """The recorder process's CPU ms per call (from /proc) for ``n`` calls of the line ``raw``
    handed to it one at a time as the record-only proxy hands them (services/proxy/recorder.py),
    after one not counted: its figure without the proxy, the server and the client beside it."""
    import subprocess

    from mcp_review.services.proxy.framing import relay_read
    from mcp_review.services.proxy.recorder import _argv
    from mcp_review.services.proxy.recorder_child import HEAD
    from mcp_review.store.calllog import DEFAULT_REDACT

    with tempfile.TemporaryDirectory() as d:
        spec = {
            "path": os.path.join(d, "calls.jsonl"),
            "server": "bench",
            "principal": "default",
            "redact": list(DEFAULT_REDACT),
            "max_bytes": 1 << 40,
            "backups": 3,
            "key": os.urandom(32).hex(),
            "seal_problem": None,
            "secrets": None,
        }
        p = subprocess.Popen(_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={})
        assert p.stdin is not None and p.stdout is not None
        head = json.dumps(spec).encode()
        p.stdin.write(HEAD.pack(len(head), 0) + head)
        calls = [[None, "2026-12-04T00:00:00Z", None]]
        # as the proxy hands it: marked read by orjson where it was (framing.relay_read)
        by_orjson = relay_read(raw)[2]
        meta = json.dumps({"calls": calls, "orjson": True} if by_orjson else calls).encode()
        frame = HEAD.pack(len(meta), len(raw)) + meta + raw
        cpu0 = 0.0
        for i in range(n + 1):
            p.stdin.write(frame)
            p.stdin.flush()
            assert p.stdout.readline() == b"\n"  # recorded
            if i == 0:
                cpu0 = _cpu(p.pid)
        cpu = _cpu(p.pid) - cpu0
        p.stdin.close()
        p.wait()
    return cpu / n * 1000


def _assert_recorded(failed: list[Any]) -> None:
    assert not failed, failed


def _stat(pid: int) -> tuple[float, float, int]:
    """(user CPU s, system CPU s, minor page faults) of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick, int(fields[7])


def _cpu(pid: int) -> float:
    user, system, _ = _stat(pid)
    return user + system


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            kids += [int(k) for k in f.read().split()]
    return kids


def _server_pid(c: Conn, kind: str) -> int:
    if kind == "direct":
        return c.p.pid
    for _ in range(100):
        kids = _children(c.p.pid)
        if kids:
            return kids[0]
        time.sleep(0.01)
    raise SystemExit("the proxy started no server")


def _recorder_pid(c: Conn, server: int) -> int | None:
    """The call log's recorder process (record-only, services/proxy/recorder.py), if any."""
    kids = [k for k in _children(c.p.pid) if k != server]
    return kids[0] if kids else None


def _logged(path: Path, want: int, seen: list[int]) -> bool:
    """Whether the call log holds ``want`` lines yet (``seen``: [offset, lines] so far)."""
    if not path.exists():
        return False
    with open(path, "rb") as f:
        f.seek(seen[0])
        data = f.read()
    seen[0] += len(data)
    seen[1] += data.count(b"\n")
    return seen[1] >= want


def pipelined(kind: str, tmp: Path, line: bytes, n: int) -> tuple[float, ...]:
    """(MiB/s of requests and responses, proxy CPU ms per call, server CPU ms per call, of the
    proxy's CPU the kernel's ms per call, the proxy's minor page faults per call, the
    recorder's CPU ms per call, MiB/s to the last record written) for ``n`` calls written as
    fast as the pipe takes them while a thread reads the answers, after one call (the
    recorder process's start, the heap's growth) that is not counted."""
    c = Conn(kind, tmp)
    server = _server_pid(c, kind)
    got: list[bytes] = []
    head, tail = line.split(b'"id": 7', 1)  # each call its own id: --enforce refuses a reused one
    c.p.stdin.write(head + b'"id": 999' + tail)
    c.p.stdin.flush()
    assert b'"result"' in c.p.stdout.readline()
    log = tmp / f"calls-{kind}.jsonl"
    seen = [0, 0]
    deadline = time.monotonic() + 60
    while kind != "direct" and not _logged(log, 1, seen) and time.monotonic() < deadline:
        time.sleep(0.005)
    recorder = _recorder_pid(c, server) if kind != "direct" else None
    rec0 = _cpu(recorder) if recorder else 0.0

    def read() -> None:
        for _ in range(n):
            got.append(c.p.stdout.readline())

    proxy0 = _cpu(c.p.pid) if kind != "direct" else 0.0
    stat0 = _stat(c.p.pid)
    server0 = _cpu(server)
    th = threading.Thread(target=read)
    t0 = time.perf_counter()
    th.start()
    for i in range(n):
        c.p.stdin.write(head)
        c.p.stdin.write(b'"id": %d' % (1000 + i))
        c.p.stdin.write(tail)
    c.p.stdin.flush()
    th.join()
    dt = time.perf_counter() - t0
    while kind != "direct" and not _logged(log, 1 + n, seen) and time.monotonic() < deadline + 60:
        time.sleep(0.002)
    dt_logged = time.perf_counter() - t0
    proxy_cpu = (_cpu(c.p.pid) - proxy0) if kind != "direct" else 0.0
    rec_cpu = (_cpu(recorder) - rec0) if recorder else 0.0
    stat1 = _stat(c.p.pid)
    server_cpu = _cpu(server) - server0
    assert len(got) == n and all(b'"result"' in g for g in got), [g[:200] for g in got[:3]]
    moved = sum(len(g) for g in got) + n * len(line)  # (the ids' digits aside)
    c.close()
    return (
        moved / MiB / dt,
        proxy_cpu / n * 1000,
        server_cpu / n * 1000,
        (stat1[1] - stat0[1]) / n * 1000,
        (stat1[2] - stat0[2]) / n,
        rec_cpu / n * 1000,
        moved / MiB / dt_logged,
    )


def _profiled(kind: str, tmp: Path, line: bytes, n: int) -> tuple[dict[Any, Any], float]:
    """(cProfile's stats of one proxy of ``kind`` that relayed ``n`` pipelined calls, its CPU
    ms a call as /proc counts it)."""
    import pstats

    out = tmp / f"proxy-{kind}-{n}.prof"
    real = bench_proxy._argv

    def argv(k: str, t: Path) -> list[str]:
        a = real(k, t)
        return [a[0], "-m", "cProfile", "-o", str(out), *a[1:]] if k == kind else a

    bench_proxy._argv = argv
    try:
        cpu = pipelined(kind, tmp, line, n)[1]
    finally:
        bench_proxy._argv = real
    return pstats.Stats(str(out)).stats, cpu  # type: ignore[attr-defined]


def profile(kind: str, tmp: Path, line: bytes, n: int, top: int) -> None:
    """Where one proxy's CPU goes per call: cProfile over ``n`` pipelined calls minus a run of
    one call (start-up, the first listing), per function, divided by ``n - 1``."""
    many, cpu = _profiled(kind, tmp, line, n)
    one, _ = _profiled(kind, tmp, line, 1)
    rows = []
    for key, (_, nc, tt, ct, _) in many.items():
        base = one.get(key, (0, 0, 0.0, 0.0, None))
        rows.append((tt - base[2], ct - base[3], nc - base[1], key))
    rows.sort(key=lambda r: -r[0])
    total = sum(r[0] for r in rows)
    k = max(1, n - 1)
    print(
        f"  {kind}: {total / k * 1000:.2f} ms a call in profiled functions "
        f"({cpu:.2f} ms a call by /proc with the profiler's overhead); top {top} by own time:"
    )
    print(f"    {'own ms':>8} {'cum ms':>8} {'calls':>8}  function")
    for tt, ct, nc, (file, lineno, fn) in rows[:top]:
        where = f" ({Path(file).name}:{lineno})" if lineno else ""
        print(f"    {tt / k * 1000:8.2f} {ct / k * 1000:8.2f} {nc / k:8.1f}  {fn}{where}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--shapes", default="x,prose,code,records", help="comma list")
    ap.add_argument("--calls", type=int, default=30, help="pipelined calls per run")
    ap.add_argument("--runs", type=int, default=3, help="runs per path (median)")
    ap.add_argument("--repeat", type=int, default=5, help="in-process repeats (best)")
    ap.add_argument("--quick", action="store_true", help="--calls 10 --runs 1 --repeat 2")
    ap.add_argument("--skip-e2e", action="store_true", help="in-process figures only")
    ap.add_argument("--skip-inproc", action="store_true", help="end-to-end figures only")
    ap.add_argument(
        "--kinds",
        default="proxy",
        help="comma list of proxied paths to time beside direct: proxy (record only), "
        "enforce (--enforce, the tool pinned)",
    )
    ap.add_argument(
        "--recorder",
        type=int,
        default=0,
        metavar="N",
        help="also hand N calls of each shape to a recorder process alone (no proxy, server "
        "or client beside it) and print its CPU per call",
    )
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="TOP",
        help="instead of timing, run each kind's proxy under cProfile and print its TOP "
        "functions by own time per call",
    )
    a = ap.parse_args()
    if a.quick:
        a.calls, a.runs, a.repeat = 10, 1, 2
    every = shapes()
    chosen = {k: every[k] for k in a.shapes.split(",")}
    print(f"load average: {_load()}")
    if not a.skip_inproc:
        print("\nin-process, CPU per 1 MiB call, best of", a.repeat)
        print(
            f"{'shape':<9}{'bytes':>10}{'redaction':>12}{'record_call':>13}"
            f"{'server parse+dump':>19}{'recorder frame':>16}"
        )
        for name, args in chosen.items():
            red, rec, srv, frame = in_process(args, a.repeat)
            size = len(json.dumps(args))
            print(f"{name:<9}{size:>10,}{red:>10.2f}ms{rec:>11.2f}ms{srv:>17.2f}ms{frame:>14.2f}ms")
    if a.recorder:
        print(f"\nthe recorder process alone, CPU per call over {a.recorder} calls handed to it")
        for name, args in chosen.items():
            call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo"}}
            call["params"]["arguments"] = args
            raw = json.dumps(call, ensure_ascii=False).encode()
            print(f"{name:<9}{recorder_alone(raw, a.recorder):>8.2f}ms   {_load()}")
    if a.skip_e2e:
        return
    print(
        f"\nend to end: {a.calls} pipelined calls per run, median of {a.runs} runs "
        "(direct and proxy alternated)"
    )
    print(
        f"{'shape':<9}{'direct MiB/s':>13}{'proxy MiB/s':>13}{'ratio':>7}"
        f"{'proxy CPU/call':>16}{'server CPU/call':>17}{'of it sys':>11}{'faults':>8}"
        f"{'recorder CPU':>14}{'to log':>8}   load"
    )
    kinds = a.kinds.split(",")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "tools.json").write_text(json.dumps(TOOLS))
        if "enforce" in kinds:
            _pin(tmp / "mcp-pins.toml")
        for name, args in chosen.items():
            line = (
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": 7,
                        "method": "tools/call",
                        "params": {"name": "echo", "arguments": args},
                    },
                    ensure_ascii=False,
                ).encode()
                + b"\n"
            )
            if a.profile:
                print(f"{name}:")
                for kind in kinds:
                    profile(kind, tmp, line, a.calls, a.profile)
                continue
            runs: dict[str, list[tuple[float, ...]]] = {k: [] for k in ("direct", *kinds)}
            for _ in range(a.runs):
                for kind in runs:
                    runs[kind].append(pipelined(kind, tmp, line, a.calls))
            for kind in kinds:
                ratios = [p[0] / dd[0] for p, dd in zip(runs[kind], runs["direct"], strict=True)]
                logged = [p[6] / dd[0] for p, dd in zip(runs[kind], runs["direct"], strict=True)]
                med = {k: statistics.median(r[0] for r in runs[k]) for k in ("direct", kind)}
                label = name if kind == "proxy" else f"{name}/{kind}"
                print(
                    f"{label:<9}{med['direct']:>13.1f}{med[kind]:>13.1f}"
                    f"{statistics.median(ratios):>6.2f}×"
                    f"{statistics.median(r[1] for r in runs[kind]):>14.2f}ms"
                    f"{statistics.median(r[2] for r in runs[kind]):>15.2f}ms"
                    f"{statistics.median(r[3] for r in runs[kind]):>9.2f}ms"
                    f"{statistics.median(r[4] for r in runs[kind]):>8.0f}"
                    f"{statistics.median(r[5] for r in runs[kind]):>12.2f}ms"
                    f"{statistics.median(logged):>7.2f}×   {_load()}"
                    f"   (ratios {' '.join(f'{r:.2f}' for r in ratios)})"
                )


if __name__ == "__main__":
    main()
