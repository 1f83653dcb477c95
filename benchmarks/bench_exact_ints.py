"""What keeping integers past 64 bits exact costs the proxy's line parsers, per 1 MiB call.

orjson reads an integer outside [-2**63, 2**64) as a float (engine/exactints.py), so the
record-only relay's ``relay_loads`` and the server side's ``loads`` (services/proxy/framing.py)
now check orjson's value before taking it. In-process CPU (best of ``--repeat``) on
``bench_proxy_large.py``'s four 1 MiB shapes, the client line spelled as that bench sends it:

- ``orjson``: ``orjson.loads`` alone (what both parsers cost before);
- ``relay_loads`` / ``loads``: the parsers now, check included;
- ``check``: ``ints_exact`` alone on the parsed value (the walk, or the scan);
- ``scan``: the digit-run scan alone (what a line pays when its value has many members or a
  float);
- ``+float``: ``relay_loads`` with ``"f": 0.5`` among the arguments (the walk finds a float,
  the scan decides);
- ``+bigint``: ``relay_loads`` with a 30-digit integer among the arguments (the stdlib reads
  the line: exact, and as slow as ``json.loads``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import orjson  # noqa: E402
from bench_proxy_large import best_ms, shapes  # noqa: E402

from mcp_review.engine.exactints import ints_exact, long_digit_run  # noqa: E402
from mcp_review.services.proxy.framing import loads, relay_loads  # noqa: E402


def _best(f: Callable[[], Any], repeat: int) -> float:
    return best_ms(f, repeat, n=5)


def _line(args: dict[str, Any]) -> bytes:
    msg = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo"}}
    msg["params"]["arguments"] = args
    return json.dumps(msg, ensure_ascii=False).encode() + b"\n"


def figures(args: dict[str, Any], repeat: int) -> tuple[int, list[float]]:
    """(the line's bytes, the columns of ``main``) for one shape."""
    line = _line(args)
    with_float = _line({**args, "f": 0.5})
    big = 123456789012345678901234567890
    with_big = _line({**args, "n": big})
    value = orjson.loads(line)
    assert relay_loads(with_big)[0]["params"]["arguments"]["n"] == big
    return len(line), [
        _best(lambda: orjson.loads(line), repeat),
        _best(lambda: relay_loads(line), repeat),
        _best(lambda: loads(line), repeat),
        _best(lambda: ints_exact(line, value), repeat),
        _best(lambda: long_digit_run(line), repeat),
        _best(lambda: relay_loads(with_float), repeat),
        _best(lambda: relay_loads(with_big), repeat),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=20, help="best of this many")
    a = ap.parse_args()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    cols = ["orjson", "relay_loads", "loads", "check", "scan", "+float", "+bigint"]
    print(f"{'shape':<9}{'MiB':>6}" + "".join(f"{c:>13}" for c in cols) + "   (ms per call)")
    for name, args in shapes().items():
        size, got = figures(args, a.repeat)
        print(f"{name:<9}{size / (1 << 20):>6.2f}" + "".join(f"{f:>13.3f}" for f in got))


if __name__ == "__main__":
    main()
