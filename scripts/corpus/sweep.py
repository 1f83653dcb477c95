#!/usr/bin/env python3
"""Independent oracle over the captured corpus: which schema changes break a call?

For every unit (one side of one changed tool between consecutive captured versions, see
``corpus_data.py``) hypothesis-jsonschema generates instances from the *old* input schema
(output side: from the *new* output schema, the direction flips) and python-jsonschema checks
them against the other side. An instance valid under the source schema and rejected by the
target one proves the change **breaking**; it is shrunk by Hypothesis and committed as the
counterexample. Where K = 100 instances from the whole schema find none, up to 4 more passes
of K each reach the places where the two schemas' JSON differs (properties on the way made
required, arrays non-empty: a restriction of the source schema, so every instance is still
checked against the source as is). None among them (``tries`` records how many of them
were valid under the source schema; fewer than K when Hypothesis exhausts a small space) →
**compatible**; none valid at all → **unsupported** (no evidence either way).

Calls are objects (MCP arguments), and so are results' ``structuredContent``: the root is
generated as an object on both sides even where the source schema allows any value (``object_root``: no type, a type list with ``object``, a
boolean schema), so every counterexample for an input schema is a call a client can send. Closed world, as the design judges: generated objects carry their declared properties and at
most one *fresh* extra key (a name declared nowhere in either version, on objects that accept
extra keys), so adding an optional property to an open object is compatible while closing an
open object is breaking (a call that sent an extra key stops validating).

The engine is never imported: this script runs in its own venv, because hypothesis-jsonschema
needs ``hypothesis<=6.170.9`` and the project's test deps pin a newer one::

    python3 -m venv /tmp/oracle && /tmp/oracle/bin/pip install 'hypothesis<=6.170.9' \\
        hypothesis-jsonschema==0.23.1 jsonschema==4.26.0 idna
    /tmp/oracle/bin/python scripts/corpus/sweep.py            # writes tests/corpus/labels.json

Formats are asserted (the project's replay asserts them too) with python-jsonschema's own
format checker and whatever format libraries the venv holds (only ``idna`` above, like the
project's venv).
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import json
import signal
import sys
import time
from importlib.metadata import version as _pkg_version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_data as cd

K = 100
"""Instances generated per unit (Hypothesis ``max_examples``) before calling it compatible."""
UNIT_TIMEOUT = 150
"""Seconds per unit before the oracle gives up on it (labelled ``unsupported``)."""

_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_ONE = (
    "additionalProperties",
    "items",
    "contains",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
)


def _children(node: dict) -> list[Any]:
    out: list[Any] = []
    for k in _SCHEMA_LISTS:
        if isinstance(node.get(k), list):
            out.extend(node[k])
    for k in _SCHEMA_MAPS:
        if isinstance(node.get(k), dict):
            out.extend(node[k].values())
    for k in _SCHEMA_ONE:
        v = node.get(k)
        if isinstance(v, (dict, bool)):
            out.append(v)
        elif k == "items" and isinstance(v, list):
            out.extend(v)
    deps = node.get("dependencies")
    if isinstance(deps, dict):
        out.extend(v for v in deps.values() if isinstance(v, dict))
    return out


def all_names(schema: Any) -> set[str]:
    """Every property name declared anywhere in a schema."""
    names: set[str] = set()
    stack, seen = [schema], 0
    while stack and seen < 200_000:
        seen += 1
        n = stack.pop()
        if not isinstance(n, dict):
            continue
        if isinstance(n.get("properties"), dict):
            names.update(n["properties"])
        if isinstance(n.get("required"), list):
            names.update(r for r in n["required"] if isinstance(r, str))
        stack.extend(_children(n))
    return names


def _resolve_local(root: Any, ref: Any) -> Any:
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node = root
    for tok in [t for t in ref[1:].split("/") if t]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and tok in node:
            node = node[tok]
        else:
            return None
    return node


def _declared_here(root: Any, node: dict, depth: int = 0) -> set[str]:
    """Names this object node declares: its own properties and required, and those of the
    combinator branches and local ``$ref`` that apply to the same instance."""
    if depth > 16:
        return set()
    names: set[str] = set()
    if isinstance(node.get("properties"), dict):
        names.update(node["properties"])
    if isinstance(node.get("required"), list):
        names.update(r for r in node["required"] if isinstance(r, str))
    same_place: list[Any] = []
    for k in ("allOf", "anyOf", "oneOf"):
        if isinstance(node.get(k), list):
            same_place.extend(node[k])
    for k in ("if", "then", "else"):
        same_place.append(node.get(k))
    if isinstance(node.get("dependentSchemas"), dict):
        same_place.extend(node["dependentSchemas"].values())
    if "$ref" in node:
        same_place.append(_resolve_local(root, node["$ref"]))
    for s in same_place:
        if isinstance(s, dict):
            names |= _declared_here(root, s, depth + 1)
    return names


def _is_object_node(n: dict) -> bool:
    t = n.get("type")
    return "properties" in n or t == "object" or (isinstance(t, list) and "object" in t)


def closed_world(schema: Any, fresh: str) -> Any:
    """A copy of ``schema`` whose open objects accept only their declared names plus
    ``fresh``: the generator never invents a name another version declares."""
    if not isinstance(schema, dict):
        return schema
    out = copy.deepcopy(schema)
    stack = [out]
    while stack:
        n = stack.pop()
        if not isinstance(n, dict):
            continue
        open_ = n.get("additionalProperties", True) is True
        if (
            _is_object_node(n)
            and open_
            and "patternProperties" not in n
            and "propertyNames" not in n
        ):
            n["propertyNames"] = {"enum": sorted(_declared_here(out, n) | {fresh})}
        stack.extend(_children(n))
    return out


def object_root(schema: Any) -> Any:
    """The generator's schema for a call: ``tools/call`` arguments are always a JSON object,
    so the root is generated as one whatever the input schema allows (no type, a type list
    with ``object`` in it, a boolean schema). A root that allows no object at all keeps its
    other types out through ``allOf``: nothing valid is generated and the unit stays
    unsupported rather than judged on calls no client can send."""
    if schema is True or schema == {}:
        return {"type": "object"}
    if not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if t is None or (isinstance(t, list) and "object" in t):
        return {**schema, "type": "object"}
    if t == "object":
        return schema
    return {"allOf": [schema], "type": "object"}


def root_is_object(schema: Any) -> bool:
    """Whether ``object_root`` leaves this schema as it is."""
    return isinstance(schema, dict) and schema.get("type") == "object"


class _Timeout(Exception):
    pass


def _alarm(_sig, _frm):
    # Raised wherever the unit's work is; where that is a callback whose exceptions Python
    # ignores (a weakref finaliser during GC), the next alarm a second later raises again.
    signal.alarm(1)
    raise _Timeout


def make_validator(schema: Any):
    from jsonschema.validators import Draft202012Validator, validator_for

    if schema is cd.ABSENT:
        schema = True
    cls = (
        validator_for(schema, default=Draft202012Validator)
        if isinstance(schema, dict)
        else Draft202012Validator
    )
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def diff_paths(a: Any, b: Any, path: tuple = (), out: list | None = None) -> list[tuple]:
    """Raw JSON paths where two schemas differ (no schema semantics: the engine's business)."""
    out = [] if out is None else out
    if len(out) >= 64:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            if k not in a or k not in b:
                out.append((*path, k))
            elif a[k] != b[k]:
                diff_paths(a[k], b[k], (*path, k), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                diff_paths(x, y, (*path, i), out)
    elif a != b:
        out.append(path)
    return out


def focus(gen: Any, path: tuple) -> Any | None:
    """A restriction of ``gen`` (so every instance it yields is still valid under it, checked
    anyway) that reaches the place ``path`` points at: each property on the way required, each
    array on the way non-empty, the object whose extra keys changed non-empty. None when the
    path does not lead through properties and items from the root."""
    if not isinstance(gen, dict):
        return None
    root = copy.deepcopy(gen)
    node, i, changed = root, 0, False
    while i < len(path) and isinstance(node, dict):
        tok = path[i]
        if (
            tok == "properties"
            and i + 1 < len(path)
            and isinstance(node.get("properties"), dict)
            and isinstance(node["properties"].get(path[i + 1]), dict)
        ):
            name = path[i + 1]
            req = node.get("required") if isinstance(node.get("required"), list) else []
            if name not in req:
                node["required"] = [*req, name]
                changed = True
            node = node["properties"][name]
            i += 2
        elif tok == "items" and isinstance(node.get("items"), dict):
            node["minItems"] = max(
                1, node.get("minItems", 0) if isinstance(node.get("minItems"), int) else 1
            )
            changed = True
            node = node["items"]
            i += 1
        else:
            if tok in ("additionalProperties", "propertyNames", "patternProperties"):
                node["minProperties"] = max(
                    1,
                    node.get("minProperties", 0)
                    if isinstance(node.get("minProperties"), int)
                    else 1,
                )
                changed = True
            break
    return root if changed else None


MAX_FOCUS = 4
"""Focused passes per unit at most (each K instances), after the unfocused one finds nothing."""


def judge(unit: cd.Unit, k: int = K) -> dict[str, Any]:
    """Label one unit: breaking (with a counterexample), compatible, or unsupported.

    First K instances from the whole source schema; if none breaks, up to MAX_FOCUS passes of
    K instances each that reach the places where the two schemas' JSON differs (``focus``):
    a random instance seldom sets an optional property three levels down."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable
    from hypothesis_jsonschema import from_schema

    src, dst = (
        (unit.old_schema, unit.new_schema)
        if unit.side == "input"
        else (unit.new_schema, unit.old_schema)
    )
    out: dict[str, Any] = {
        "server": unit.server,
        "old": unit.old_version,
        "new": unit.new_version,
        "tool": unit.tool,
        "side": unit.side,
    }
    if dst is cd.ABSENT:
        # Output side, old promised nothing: no result can fall outside the old promise.
        out.update(label="compatible", tries=0, reason="the old side has no outputSchema")
        return out
    try:
        v_src, v_dst = make_validator(src), make_validator(dst)
    except Exception as e:  # an invalid schema: the oracle cannot judge it
        out.update(
            label="unsupported", reason=f"invalid schema: {type(e).__name__}: {str(e)[:200]}"
        )
        return out
    gen = True if src is cd.ABSENT else src
    # Call arguments and structuredContent are both JSON objects by the protocol.
    gen = object_root(gen)
    out["root"] = "object"
    names = all_names(unit.old_schema) | all_names(unit.new_schema)
    fresh = "oracle_extra"
    while fresh in names:
        fresh += "_"
    closed = closed_world(gen, fresh)
    variants: list[Any] = [closed]
    seen = {json.dumps(closed, sort_keys=True)}
    for p in diff_paths(src if src is not cd.ABSENT else {}, dst):
        f = focus(closed, p)
        key = json.dumps(f, sort_keys=True) if f is not None else None
        if f is not None and key not in seen and len(variants) <= MAX_FOCUS:
            seen.add(key)
            variants.append(f)
    tries = 0

    def cond(x: Any) -> bool:
        nonlocal tries
        if not v_src.is_valid(x):
            return False
        tries += 1
        return not v_dst.is_valid(x)

    sett = settings(
        max_examples=k,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    )
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(UNIT_TIMEOUT)
    cex: Any = None
    found, errors, passes = False, [], 0
    try:
        for schema in variants:
            passes += 1
            try:
                cex = find(from_schema(schema), cond, settings=sett)
                found = True
                break
            except (NoSuchExample, Unsatisfiable):
                continue
            except _Timeout:
                raise
            except Exception as e:  # the generator cannot handle this variant
                errors.append(f"{type(e).__name__}: {str(e)[:160]}")
    except _Timeout:
        if passes > 1 and tries:  # the whole-schema pass finished: its evidence stands
            out.update(
                label="compatible",
                tries=tries,
                passes=passes - 1,
                reason=f"focused passes cut at {UNIT_TIMEOUT} s",
            )
        else:
            out.update(label="unsupported", tries=tries, reason=f"timeout after {UNIT_TIMEOUT} s")
        return out
    finally:
        signal.alarm(0)
    out["passes"] = passes
    if not found:
        if not tries:  # nothing generated was valid under the source: no evidence either way
            out.update(
                label="unsupported",
                tries=0,
                reason="; ".join(errors)
                or "no generated instance was valid under the source schema",
            )
        else:
            out.update(label="compatible", tries=tries)
        return out
    # Re-check outside Hypothesis: the counterexample must stand on its own.
    assert v_src.is_valid(cex) and not v_dst.is_valid(cex), unit.key
    out.update(
        label="breaking",
        tries=tries,
        counterexample=cex,
        error=next(iter(v_dst.iter_errors(cex))).message[:300],
    )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", type=int, default=K, help=f"valid instances per unit (default {K})")
    ap.add_argument("--only", nargs="*", help="server slugs")
    ap.add_argument("--out", type=Path, default=cd.LABELS)
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="keep labels of units already in --out whose schemas are unchanged",
    )
    a = ap.parse_args(argv)
    prev: dict[str, dict] = {}
    if a.reuse and a.out.exists():
        for row in json.loads(a.out.read_text())["units"]:
            prev[row["key"]] = row
    rows = []
    t0 = time.monotonic()
    for u in cd.units():
        if a.only and u.server not in a.only:
            if u.key in prev:  # another server's label stays as it was
                rows.append(prev[u.key])
            continue
        fp = cd.fingerprint(u)
        if u.key in prev and prev[u.key].get("fingerprint") == fp and _current(prev[u.key], u):
            rows.append(prev[u.key])
            continue
        t = time.monotonic()
        row = {"key": u.key, "fingerprint": fp, **judge(u, a.k)}
        row = {k: v for k, v in row.items() if v is not None or k == "counterexample"}
        rows.append(row)
        if len(rows) % 10 == 0:  # progress survives an interrupted run (--reuse)
            done = {r["key"] for r in rows}
            _write(a.out, a.k, rows + [r for k, r in prev.items() if k not in done])
        print(f"{row['label']:11} {time.monotonic() - t:5.1f}s {u.key}", flush=True)
    _write(a.out, a.k, rows)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["label"]] = counts.get(r["label"], 0) + 1
    print(f"{len(rows)} units in {time.monotonic() - t0:.0f} s: {counts}", file=sys.stderr)
    return 0


def _current(row: dict, unit: cd.Unit) -> bool:
    """A reused row must meet today's rules: a compatible label rests on >= 1 valid try or
    says why it needs none, and had its focused passes (rows from before them have no
    ``passes``); a row whose source root is not plainly ``type: object`` was generated
    from an object root (``root``: rows from before ``object_root`` are judged again)."""
    src = unit.old_schema if unit.side == "input" else unit.new_schema
    if (
        row.get("root") != "object"
        and not root_is_object(src)
        and row.get("reason") != "the old side has no outputSchema"
    ):
        return False
    if row.get("label") == "breaking":  # null is a counterexample too, but not a call's
        return "counterexample" in row and (
            row["side"] == "output" or isinstance(row["counterexample"], dict)
        )
    if row.get("label") != "compatible" or row.get("reason"):
        return True
    return bool(row.get("tries")) and "passes" in row


def _write(out: Path, k: int, rows: list[dict]) -> None:
    doc = {
        "oracle": {
            "K": k,
            "generator": f"hypothesis {_pkg_version('hypothesis')}, hypothesis-jsonschema "
            f"{_pkg_version('hypothesis-jsonschema')} (derandomized)",
            "validator": f"jsonschema {_pkg_version('jsonschema')} (formats asserted)",
            "closed_world": "declared properties plus one fresh extra key on open objects",
            "generated": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        },
        "units": rows,
    }
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
