"""Replay throughput: end to end (load_calls + replay old/new) against the raw validator."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import jsonschema_rs
import orjson

# Runnable from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp_review.engine.replay import replay
from mcp_review.store.readers import load_calls

# A typical tool schema: the seed's run_query with a few realistic constraints.
OLD = {
    "type": "object",
    "properties": {
        "sql": {"type": "string", "minLength": 1, "maxLength": 10000},
        "limit": {"type": "integer", "minimum": 1, "maximum": 10000},
        "format": {"type": "string", "enum": ["json", "csv", "parquet"]},
        "dry_run": {"type": "boolean"},
        "timeout_ms": {"type": "integer", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "params": {"type": "object", "additionalProperties": {"type": ["string", "number"]}},
    },
    "required": ["sql"],
    "additionalProperties": False,
}


def _variant(**edits) -> dict:
    new = json.loads(json.dumps(OLD))
    for prop, (key, value) in edits.items():
        if key is None:
            new["properties"][prop] = value
        else:
            new["properties"][prop][key] = value
    return new


SCENARIOS = {
    # an optional property added: nothing breaks (the common case)
    "compatible": _variant(cache=(None, {"type": "boolean"})),
    # the dry_run=false calls stop validating (const true): ~10% broken
    "typical": _variant(dry_run=("const", True)),
    # csv dropped and limit lowered: ~25% broken, so errors are collected for a quarter of calls
    "heavy": _variant(format=("enum", ["json", "parquet"]), limit=("maximum", 1000)),
}


def make_calls(n: int, seed: int = 1) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        c: dict = {"sql": f"select * from t{i % 97} where id > {rnd.randint(0, 10**6)}"}
        if rnd.random() < 0.5:
            c["limit"] = rnd.choice([10, 100, 500, 5000])
        if rnd.random() < 0.4:
            c["format"] = rnd.choice(["json", "csv", "parquet"])
        if rnd.random() < 0.2:
            c["dry_run"] = rnd.random() < 0.5
        if rnd.random() < 0.2:
            c["tags"] = ["a", "b"][: rnd.randint(0, 2)]
        if rnd.random() < 0.1:
            c["params"] = {"x": 1, "y": "z"}
        out.append(c)
    return out


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run(name: str, new: dict, calls: list[dict], path: str, repeat: int) -> None:
    opts = {"offline": True, "validate_formats": True}
    vo, vn = jsonschema_rs.validator_for(OLD, **opts), jsonschema_rs.validator_for(new, **opts)

    def raw_validate() -> None:  # the validator alone, instances already parsed
        for c in calls:
            vo.is_valid(c)
            vn.is_valid(c)

    def raw_parse_validate() -> None:  # the floor for any pipeline: orjson + validator
        with open(path, "rb") as f:
            for line in f.read().split(b"\n"):
                if line:
                    c = orjson.loads(line)
                    vo.is_valid(c)
                    vn.is_valid(c)

    result = None

    def end_to_end() -> None:
        nonlocal result
        result = replay(OLD, new, load_calls(path))

    n = len(calls)
    t_raw = best_of(raw_validate, repeat)
    t_floor = best_of(raw_parse_validate, repeat)
    t_e2e = best_of(end_to_end, repeat)
    assert result is not None
    print(
        f"[{name}] calls: {n}  broken: {result.broken} ({result.broken / n:.1%})  "
        f"bad recordings: {result.bad_recordings}"
    )
    print(f"  raw validator, old+new, pre-parsed:   {n / t_raw:>12,.0f} calls/s")
    print(f"  raw orjson parse + old+new validator: {n / t_floor:>12,.0f} calls/s")
    print(
        f"  end to end (load_calls + replay):     {n / t_e2e:>12,.0f} calls/s"
        f"   {t_e2e / t_floor:.2f}x the raw parse+validate time"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", "--calls", type=int, default=200_000)
    ap.add_argument("-r", "--repeat", type=int, default=3)
    ap.add_argument("-s", "--scenario", choices=[*SCENARIOS, "all"], default="all")
    args = ap.parse_args()
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]

    calls = make_calls(args.calls)
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    with os.fdopen(fd, "wb") as f:
        for c in calls:
            f.write(orjson.dumps(c) + b"\n")
    try:
        for name in names:
            run(name, SCENARIOS[name], calls, path, args.repeat)
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
