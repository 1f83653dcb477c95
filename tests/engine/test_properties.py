"""Property tests: a diff that reports nothing breaking keeps every old call valid, and every
witness is valid under old and rejected by new (judged by python-jsonschema, independently)."""

from __future__ import annotations

import copy
import os
from typing import Any

import jsonschema
from helpers import tool_def as tool
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from mcp_review.engine.compare import compare
from mcp_review.engine.generate import example
from mcp_review.engine.model import ChangeClass

FC = jsonschema.Draft202012Validator.FORMAT_CHECKER
NAMES = ["a", "b", "c", "d"]
# PROP_EXAMPLES=3000 for a deeper run (about 50 s); the suite runs hypothesis's default 100
# (a fresh draw every run: runs add up to the deeper run's examples over a day's work).
SETTINGS = settings(
    max_examples=int(os.environ.get("PROP_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def validator(schema: Any) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema, format_checker=FC)


# Schema pairs ------------------------------------------------------------------------------


@st.composite
def leaf_schema(draw, depth: int = 0) -> dict:
    kind = draw(
        st.sampled_from(
            ["string", "integer", "number", "boolean", "array", "enum"]
            + (["object", "anyOf"] if depth == 0 else [])
        )
    )
    if kind == "string":
        s: dict = {"type": "string"}
        if draw(st.booleans()):
            s["minLength"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            s["maxLength"] = draw(st.integers(s.get("minLength", 0), 6))
        if draw(st.integers(0, 5)) == 0:
            s["pattern"] = draw(st.sampled_from(["^[a-z]*$", "^[ab]+$", "b"]))
        return s
    if kind in ("integer", "number"):
        s = {"type": kind}
        if draw(st.booleans()):
            s["minimum"] = draw(st.integers(-5, 5))
        if draw(st.booleans()):
            s["maximum"] = draw(st.integers(s.get("minimum", -5), 10))
        return s
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "enum":
        return {
            "type": "string",
            "enum": draw(
                st.lists(st.sampled_from(["x", "y", "z", "w"]), min_size=1, max_size=3, unique=True)
            ),
        }
    if kind == "array":
        s = {"type": "array", "items": draw(leaf_schema(depth + 1))}
        if draw(st.booleans()):
            s["maxItems"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            s["minItems"] = draw(st.integers(0, s.get("maxItems", 3)))
        return s
    if kind == "object":
        return draw(object_schema(depth + 1))
    return {"anyOf": draw(st.lists(leaf_schema(depth + 1), min_size=2, max_size=3))}


@st.composite
def object_schema(draw, depth: int = 0) -> dict:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    props = {n: draw(leaf_schema(depth)) for n in names}
    s: dict = {"type": "object", "properties": props}
    req = [n for n in names if draw(st.booleans())]
    if req:
        s["required"] = req
    ap = draw(st.sampled_from(["absent", True, False]))
    if ap != "absent":
        s["additionalProperties"] = ap
    return s


@st.composite
def mutate(draw, schema: dict) -> dict:
    """Apply one random edit somewhere in an object schema."""
    s = copy.deepcopy(schema)
    props = s["properties"]
    name = draw(st.sampled_from(sorted(props)))
    p = props[name]
    ops = [
        "bound",
        "type",
        "enum",
        "required",
        "unrequire",
        "ap",
        "add-prop",
        "pattern",
        "replace",
        "widen",
        "split",
        "reexpress",
    ]
    if len(props) > 1:
        ops.append("del-prop")
    if isinstance(p.get("anyOf"), list):
        ops.append("branch")
    if isinstance(p.get("items"), dict):
        ops.append("items")
    op = draw(st.sampled_from(ops))
    if op == "bound":
        key = draw(
            st.sampled_from(
                ["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"]
            )
        )
        if draw(st.booleans()) and key in p:
            del p[key]
        else:
            p[key] = draw(st.integers(0, 8))
    elif op == "type":
        p["type"] = draw(
            st.sampled_from(
                [
                    "string",
                    "integer",
                    "number",
                    "boolean",
                    ["string", "integer"],
                    ["number", "null"],
                ]
            )
        )
    elif op == "enum":
        if isinstance(p.get("enum"), list) and p["enum"] and draw(st.booleans()):
            p["enum"] = p["enum"][1:] or ["q"]
        else:
            p["enum"] = [*p.get("enum", []), draw(st.sampled_from(["x", "y", "v"]))]
    elif op == "required":
        s["required"] = sorted(set(s.get("required", [])) | {name})
    elif op == "unrequire":
        s["required"] = [r for r in s.get("required", []) if r != name]
        if not s["required"]:
            del s["required"]
    elif op == "ap":
        s["additionalProperties"] = draw(st.sampled_from([True, False]))
    elif op == "add-prop":
        extra = draw(st.sampled_from(["e", "f"]))
        props[extra] = draw(leaf_schema(1))
        if draw(st.booleans()):
            s["required"] = sorted(set(s.get("required", [])) | {extra})
    elif op == "del-prop" and len(props) > 1:
        del props[name]
        if "required" in s:
            s["required"] = [r for r in s["required"] if r != name]
            if not s["required"]:
                del s["required"]
    elif op == "pattern":
        if "pattern" in p:
            del p["pattern"]
        else:
            p["pattern"] = draw(st.sampled_from(["^[a-z]*$", "^a", "[0-9]"]))
    elif op == "replace":
        props[name] = draw(leaf_schema(1))
    elif op == "branch" and isinstance(p.get("anyOf"), list):
        if len(p["anyOf"]) > 1 and draw(st.booleans()):
            p["anyOf"] = p["anyOf"][:-1]
        else:
            p["anyOf"] = [*p["anyOf"], draw(leaf_schema(1))]
    elif op == "items" and isinstance(p.get("items"), dict):
        p["items"] = draw(leaf_schema(1))
    elif op == "split":  # the same constraints spread over allOf branches (a pure restyle)
        keys = sorted(k for k in p if k != "allOf")
        if keys:
            cut = draw(st.integers(0, len(keys)))
            parts = [{k: p[k] for k in keys[:cut]}, {k: p[k] for k in keys[cut:]}]
            props[name] = {"allOf": [x for x in parts if x]}
    elif op == "reexpress":  # the same values, other syntax (issue 11): enum as anyOf/oneOf
        kw = draw(st.sampled_from(["anyOf", "oneOf"]))  # of const, a type list as alternatives
        rest = {k: v for k, v in p.items() if k not in ("enum", "type")}
        if isinstance(p.get("enum"), list):
            props[name] = {**rest, kw: [{"const": v} for v in p["enum"]]}
        elif isinstance(p.get("type"), list):
            props[name] = {**rest, kw: [{"type": t} for t in p["type"]]}
        elif isinstance(p.get("anyOf"), list):
            props[name] = {**rest, "oneOf" if kw == "anyOf" else "anyOf": p["anyOf"]}
    elif op == "widen":  # compatible edits, so property 1 sees real, non-breaking diffs
        for key in ("maxLength", "maximum", "maxItems"):
            if key in p:
                p[key] += draw(st.integers(0, 3))
        for key in ("minLength", "minItems", "pattern"):
            p.pop(key, None)
        if "minimum" in p:
            p["minimum"] -= draw(st.integers(0, 3))
        if isinstance(p.get("enum"), list):
            p["enum"] = [*p["enum"], "v"] if "v" not in p["enum"] else p["enum"]
        if p.get("type") == "integer" and draw(st.booleans()):
            p["type"] = "number"
    return s


@st.composite
def schema_pair(draw) -> tuple[dict, dict]:
    old = draw(object_schema())
    new = old
    for _ in range(draw(st.sampled_from([1, 2, 3, 0]))):
        for _attempt in range(4):  # some edits are no-ops on a given schema: draw again
            edited = draw(mutate(new))
            if edited != new:
                new = edited
                break
    return old, new


# Calls valid under old (closed world: declared properties only) ----------------------------


def value_strategy(s: Any) -> st.SearchStrategy:
    if not isinstance(s, dict) or not s:
        return st.just("a")
    for kw in ("anyOf", "oneOf"):
        if kw in s:
            rest = {k: v for k, v in s.items() if k != kw}
            return st.one_of([value_strategy({**rest, **b}) for b in s[kw]])
    if "const" in s:
        return st.just(s["const"])
    if "enum" in s:
        return st.sampled_from(s["enum"])
    t = s.get("type")
    if isinstance(t, list):
        return st.one_of([value_strategy({**s, "type": x}) for x in t])
    if t == "string":
        lo = s.get("minLength", 0)
        hi = s.get("maxLength", lo + 6)
        return st.text(alphabet="abz0 ", min_size=lo, max_size=max(lo, hi))
    if t in ("integer", "number"):
        ints = st.integers(s.get("minimum", -20), s.get("maximum", 20))
        if t == "integer":
            return ints
        return st.one_of(
            ints, st.floats(s.get("minimum", -20), s.get("maximum", 20), allow_nan=False)
        )
    if t == "boolean":
        return st.booleans()
    if t == "null":
        return st.none()
    if t == "array":
        lo = s.get("minItems", 0)
        return st.lists(
            value_strategy(s.get("items", {})),
            min_size=lo,
            max_size=max(lo, s.get("maxItems", lo + 3)),
        )
    if t == "object":
        props = s.get("properties", {})
        req = set(s.get("required", []))
        return st.fixed_dictionaries(
            {k: value_strategy(v) for k, v in props.items() if k in req},
            optional={k: value_strategy(v) for k, v in props.items() if k not in req},
        )
    return st.just("a")


@SETTINGS
@given(pair=schema_pair(), data=st.data())
def test_no_breaking_change_reported_means_old_calls_stay_valid(pair, data):
    old, new = pair
    cmp = compare(tool(old), tool(new), witnesses=False)
    flagged = [
        c for c in cmp.changes if c.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
    ]
    assume(not flagged)
    event("schemas differ" if old != new else "schemas identical")
    vo, vn = validator(old), validator(new)
    calls = data.draw(st.lists(value_strategy(old), min_size=1, max_size=8))
    calls.append(example(old))  # the witness generator's minimal call, too
    for call in calls:
        if not vo.is_valid(call):
            continue  # the strategy overshoots sometimes (pattern); only old-valid calls count
        errors = [e.message for e in vn.iter_errors(call)]
        assert not errors, (
            f"engine reported no breaking change, yet {call!r} valid under old fails under "
            f"new: {errors}\nold={old}\nnew={new}\nchanges={[c.rule for c in cmp.changes]}"
        )


@SETTINGS
@given(pair=schema_pair())
def test_every_witness_is_valid_under_old_and_rejected_by_new(pair):
    old, new = pair
    cmp = compare(tool(old), tool(new))
    vo, vn = validator(old), validator(new)
    flagged = [
        c for c in cmp.changes if c.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
    ]
    with_w = [c for c in flagged if c.has_witness]
    event(
        f"flagged changes with a witness: {len(with_w)}/{len(flagged)}"
        if flagged
        else "nothing flagged"
    )
    for c in cmp.changes:
        if not c.has_witness:
            continue
        assert vo.is_valid(c.witness), (c, old, new)
        assert not vn.is_valid(c.witness), (c, old, new)
        assert c.cls is ChangeClass.BREAKING
