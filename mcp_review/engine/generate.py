"""Value generation: simple values a schema probably accepts, and the values to try at a changed
location (boundary values first). Proposals only: the witness search (engine/witness.py) checks
every one with the real validator, so this only has to be usually right; it must never loop
(depth bounded by GEN_DEPTH) nor explode (MAX_ALTERNATIVES per node)."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterator
from typing import Any, TypeGuard

from mcp_review.engine.regex_sample import regex_example
from mcp_review.engine.replay import SchemaError, SchemaValidator
from mcp_review.engine.rules import Witness
from mcp_review.engine.walk import COMBINATORS, MISSING, follow

GEN_DEPTH = 8
"""How deep the value generator follows nesting and $ref: recursive schemas stop here."""

MAX_ALTERNATIVES = 4
"""Alternative example values the generator keeps per schema node (not a cartesian product)."""

STRING_PROBES: tuple[str, ...] = (
    "",
    "a",
    "A1",
    "x y",
    "0",
    "https://example.com/a",
    "user@example.com",
    "2024-01-01",
    "2024-01-01T00:00:00Z",
    "12:00:00",
    "192.0.2.1",
    "2001:db8::1",
    "example.com",
    "00000000-0000-0000-0000-000000000000",
    "/a",
    "-1",
    "1.5",
    "true",
    "null",
)
"""Strings tried against a pattern or a format: the empty string, a letter, mixed case with a
digit, a space, a digit, and one sample of each common format."""

_FORMAT_SAMPLES = {
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/a",
    "iri": "https://example.com/a",
    "uri-reference": "/a",
    "iri-reference": "/a",
    "uri-template": "/a/{b}",
    "url": "https://example.com/a",
    "date": "2024-01-01",
    "date-time": "2024-01-01T00:00:00Z",
    "time": "12:00:00Z",
    "duration": "P1D",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "json-pointer": "/a",
    "relative-json-pointer": "0",
    "regex": "a",
}


_ABSENT: Any = MISSING
"""Candidate meaning "leave the property out" (a required property added); also what a schema
location the document lacks reads as (engine.walk.get)."""


def example(schema: Any) -> Any:
    """A simple value the generator proposes for ``schema`` (unverified; _ABSENT-free)."""
    vals = Gen(schema).values(schema, 0)
    return vals[0] if vals else None


def view(root: Any, node: Any) -> Any:
    """``node`` with its local ``$ref`` chain followed (engine.walk, at most GEN_DEPTH hops);
    keywords beside a ``$ref`` are merged over its target."""
    return follow(root, node, GEN_DEPTH)


def _num(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def dict_at(d: dict[str, Any], key: str) -> dict[str, Any]:
    """``d[key]`` when it is an object, else an empty one (schemas are untrusted JSON)."""
    v = d.get(key)
    return v if isinstance(v, dict) else {}


def _int_at(d: dict[str, Any], key: str, default: int) -> int:
    """``d[key]`` when it is an integer (as ``isinstance`` says), else ``default``."""
    v = d.get(key)
    return v if isinstance(v, int) else default


def _list_at(d: dict[str, Any], key: str) -> list[Any]:
    """``d[key]`` when it is an array, else an empty one."""
    v = d.get(key)
    return v if isinstance(v, list) else []


def targeted_values(
    gen: Gen, o: Any, n: Any, hint: Any, kw: list[str], strategy: Witness
) -> Iterator[Any]:
    """Values to try at the changed location, boundary values first (see module notes)."""
    od = o if isinstance(o, dict) else {}
    nd = n if isinstance(n, dict) else {}
    if strategy in (Witness.OMIT, Witness.OMIT_REQUIRED):
        yield _ABSENT
    ex = gen.values(o, 1)
    first = ex[0] if ex else None

    # lengths: first length the new schema rejects, then the old bound itself
    s0 = first if isinstance(first, str) and first else "a"
    for lo_kw, hi_kw in (("minLength", "maxLength"),):
        for length in _length_probes(od.get(lo_kw), od.get(hi_kw), nd.get(lo_kw), nd.get(hi_kw)):
            yield _stretch(s0, length)
            yield "a" * length
            yield "0" * length
    # counts of items
    item_ex = gen.values(od.get("items"), 1) if isinstance(od.get("items"), (dict, bool)) else []
    x = item_ex[0] if item_ex else (first[0] if isinstance(first, list) and first else "a")
    for length in _length_probes(
        od.get("minItems"), od.get("maxItems"), nd.get("minItems"), nd.get("maxItems")
    ):
        if length <= 1000:
            yield [copy.deepcopy(x) for _ in range(length)]
            if len(item_ex) > 1:
                yield [copy.deepcopy(item_ex[i % len(item_ex)]) for i in range(length)]
    # numbers
    yield from _number_probes(od, nd)
    # enum / const: the dropped values first, then the rest of the old ones
    if isinstance(od.get("enum"), list):
        new_enum = nd.get("enum") if isinstance(nd.get("enum"), list) else None
        kept = _Members(new_enum) if new_enum is not None else None
        dropped = [v for v in od["enum"] if kept is None or v not in kept]
        yield from dropped
        yield from od["enum"]
    if "const" in od:
        yield od["const"]
    # each type of a type array
    types = od.get("type")
    if isinstance(types, list):
        lost = [t for t in types if t not in _types_of(nd)] + list(types)
        for t in lost:
            yield from gen.values({**od, "type": t}, 1)[:2]
    elif types is None and ("type" in nd or any(b in nd for b in COMBINATORS)):
        # a free value now typed, or now held to alternatives: one value of each JSON type
        yield from ("a", 0, 0.5, True, None, {}, [], [0])
    if types == "number" or (isinstance(types, list) and "number" in types):
        yield from (0.5, 1.5, 1.0, -0.5)
    # a branch the pointer names (a removed anyOf alternative), then every old branch
    if hint is not None:
        yield from gen.values(_merge_branch(od, hint), 1)
    for b in COMBINATORS:
        if isinstance(od.get(b), list):
            for br in od[b][:8]:
                yield from gen.values(_merge_branch(od, br), 1)[:2]
            # What a branch accepts that the new union may not: every value of a branch's
            # enum (a value the union dropped), an object branch's extra key or optional
            # property (the branch was closed or lost one).
            for br in od[b][:8]:
                merged = _merge_branch(od, view(gen.root, br))
                if not isinstance(merged, dict):
                    continue
                if isinstance(merged.get("enum"), list):
                    yield from merged["enum"][:64]
                vals = gen.values(merged, 1)
                if vals and isinstance(vals[0], dict):
                    yield from _object_variants(gen, merged, vals[0])
    # strings for patterns and formats
    if _stringish(od) or _stringish(nd):
        for pat in (od.get("pattern"), nd.get("pattern")):
            if isinstance(pat, str):
                s = regex_example(pat)
                if s is not None:
                    yield s
                    yield s + s
        yield from STRING_PROBES
    # objects: each optional property set, an extra key, everything set
    if isinstance(first, dict):
        yield from _object_variants(gen, od, first)
    if isinstance(first, list):
        yield []
        yield [copy.deepcopy(x), copy.deepcopy(x)]  # duplicates, for uniqueItems
    yield from ex


class _Members:
    """``x in values`` with Python's list equality (``1 == 1.0 == True``; containers compared
    by content) in linear time: hashable values in a set, containers by a frozen key, and only
    what has no key (a NaN, an odd type) by a scan of those few."""

    __slots__ = ("_keys", "_rest")

    def __init__(self, values: list[Any]):
        self._keys: set[Any] = set()
        self._rest: list[Any] = []
        for v in values:
            k = _frozen(v)
            if k is None:
                self._rest.append(v)
            else:
                self._keys.add(k)

    def __contains__(self, v: Any) -> bool:
        k = _frozen(v)
        if k is not None and k in self._keys:
            return True
        return any(v is x or v == x for x in self._rest)


def _frozen(v: Any, depth: int = 0) -> Any:
    """A hashable stand-in equal exactly when Python's ``==`` says the values are (None when
    there is none: a float NaN, which equals nothing, or a value too deep)."""
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, (str, int, float)) or v is None:
        return v  # bool is an int: True == 1, as list membership has it
    if depth > 64:
        return None
    if isinstance(v, list):
        items = [_frozen(x, depth + 1) for x in v]
        return (
            None
            if any(x is None and y is not None for x, y in zip(items, v, strict=True))
            else ("list", tuple(items))
        )
    if isinstance(v, dict):
        pairs = [(k, _frozen(x, depth + 1)) for k, x in v.items()]
        if any(f is None and v[k] is not None for k, f in pairs):
            return None
        return ("dict", frozenset(pairs))
    return None


def _stretch(s: str, length: int) -> str:
    if length <= len(s):
        return s[:length]
    return s + s[-1] * (length - len(s))


def _length_probes(o_lo: Any, o_hi: Any, n_lo: Any, n_hi: Any) -> list[int]:
    """Lengths just outside the new bounds (the first invalid length), then the old bounds."""
    out: list[int] = []
    if isinstance(n_hi, int) and not isinstance(n_hi, bool):
        out.append(n_hi + 1)
    if isinstance(n_lo, int) and not isinstance(n_lo, bool) and n_lo > 0:
        out.append(n_lo - 1)
    for v in (o_hi, o_lo):
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
    if out:
        out.append(0)
    return [v for v in out if 0 <= v <= 100_000]


def _number_probes(od: dict[str, Any], nd: dict[str, Any]) -> list[Any]:
    """The first value the new bounds reject on the integer grid, a half step beyond, an
    exclusive bound itself; then the old bounds and the old multiples."""
    out: list[Any] = []
    lo, hi = nd.get("minimum"), nd.get("maximum")
    if _num(lo):
        out += [lo - 1 if float(lo).is_integer() else math.floor(lo), lo - 0.5]
    if _num(hi):
        out += [hi + 1 if float(hi).is_integer() else math.ceil(hi), hi + 0.5]
    out += [v for v in (nd.get("exclusiveMinimum"), nd.get("exclusiveMaximum")) if _num(v)]
    for k in ("minimum", "maximum"):
        if _num(od.get(k)):
            out.append(od[k])
    xlo, xhi = od.get("exclusiveMinimum"), od.get("exclusiveMaximum")
    if _num(xlo):
        out += [math.floor(xlo) + 1, xlo + 0.5]
    if _num(xhi):
        out += [math.ceil(xhi) - 1, xhi - 0.5]
    om, nm = od.get("multipleOf"), nd.get("multipleOf")
    if _num(om) and om > 0:
        omin = od.get("minimum")
        base = omin if _num(omin) else 0
        k0 = math.ceil(base / om)
        out += [om * k for k in range(k0, k0 + 6)]
    elif _num(nm) and nm > 0:
        out += [nm / 2, 1, 0.5]
    if {"integer", "number"} & set(_types_of(od)):
        out += [0, 1, -1]
    return [v for v in out if not (isinstance(v, float) and (math.isnan(v) or math.isinf(v)))]


def _types_of(d: dict[str, Any]) -> list[str]:
    t = d.get("type")
    return [t] if isinstance(t, str) else list(t) if isinstance(t, list) else []


def _stringish(d: dict[str, Any]) -> bool:
    t = _types_of(d)
    return "string" in t or any(k in d for k in ("pattern", "format", "minLength", "maxLength"))


def _merge_branch(parent: dict[str, Any], branch: Any) -> Any:
    if not isinstance(branch, dict):
        return branch
    rest = {k: v for k, v in parent.items() if k not in COMBINATORS}
    return _merge(rest, branch)


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if k == "properties" and isinstance(out.get(k), dict) and isinstance(v, dict):
            out[k] = {**out[k], **v}
        elif k == "required" and isinstance(out.get(k), list) and isinstance(v, list):
            out[k] = list(dict.fromkeys([*out[k], *v]))
        else:
            out[k] = v
    return out


def _object_variants(gen: Gen, od: dict[str, Any], first: dict[str, Any]) -> Iterator[Any]:
    props = dict_at(od, "properties")
    optional = [p for p in props if p not in first]
    for p in optional[:16]:
        for v in gen.values(props[p], 1)[:2]:
            yield {**first, p: v}
    for key in ("extra", "x_extra"):
        if key not in props:
            yield {**first, key: "a"}
            yield {**first, key: 1}
            break
    full = dict(first)
    for p in optional[:16]:
        vals = gen.values(props[p], 1)
        if vals:
            full[p] = vals[0]
    yield full
    # fewer keys: for a raised minProperties the old minimum count itself
    req = _list_at(od, "required")
    req_set = {r for r in req if isinstance(r, str)}
    yield {k: v for k, v in first.items() if k in req_set}


# Value generator ----------------------------------------------------------------------------


class Gen:
    """Proposes simple values for a schema: required properties only, simplest values that
    honour type/enum/const/bounds/lengths/pattern/format, $ref followed, composition branches
    tried. Proposals are checked by the real validator, so this only has to be usually right;
    it must never loop (depth bounded by GEN_DEPTH) nor explode (MAX_ALTERNATIVES per node)."""

    def __init__(self, root: Any, spend: Callable[[int], None] | None = None):
        self.root = root
        self.spend = spend
        """Charged one unit per node proposed for and per proposal checked (the witness
        search's budget: it raises when that is spent)."""
        self._leaf: dict[str, SchemaValidator | None] = {}
        self._keys: dict[int, tuple[Any, str | None]] = {}
        self._leaf_vals: dict[tuple[str, str], list[Any]] = {}
        self._memo: dict[tuple[int, int], tuple[Any, list[Any]]] = {}

    def values(self, schema: Any, depth: int) -> list[Any]:
        """Proposals for ``schema`` at nesting ``depth``: computed once per schema object and
        depth (a 200,000-property object is proposed for once, not once per change), a new
        list each time."""
        if not isinstance(schema, dict):
            return self._values(schema, depth)
        hit = self._memo.get((id(schema), depth))
        if hit is None or hit[0] is not schema:
            hit = (schema, self._values(schema, depth))  # holding schema keeps its id unique
            self._memo[(id(schema), depth)] = hit
        return list(hit[1])

    def _values(self, schema: Any, depth: int) -> list[Any]:
        if depth > GEN_DEPTH or schema is _ABSENT:
            return []
        if self.spend is not None:
            self.spend(1)
        if schema is True or schema is None or schema == {}:
            return ["a", 0, True, None]
        if schema is False or not isinstance(schema, dict):
            return []
        s = view(self.root, schema)
        if not isinstance(s, dict):
            return self.values(s, depth + 1)
        if "const" in s:
            return [s["const"]]
        if isinstance(s.get("enum"), list):
            return self._filter(s, list(s["enum"][: MAX_ALTERNATIVES * 2]))
        if isinstance(s.get("allOf"), list):
            merged = {k: v for k, v in s.items() if k != "allOf"}
            for br in s["allOf"][:8]:
                br = view(self.root, br)
                if isinstance(br, dict):
                    merged = _merge(merged, br)
            return self.values(merged, depth + 1)
        for b in ("anyOf", "oneOf"):
            if isinstance(s.get(b), list):
                out: list[Any] = []
                for br in s[b][:8]:
                    out += self.values(_merge_branch(s, view(self.root, br)), depth + 1)[:2]
                return out[: MAX_ALTERNATIVES * 2]
        types = _types_of(s) or self._infer_types(s)
        out = []
        for t in types:
            out += self._of_type(s, t, depth)[:MAX_ALTERNATIVES]
        return out[: MAX_ALTERNATIVES * 2]

    @staticmethod
    def _infer_types(s: dict[str, Any]) -> list[str]:
        if any(
            k in s
            for k in (
                "properties",
                "required",
                "additionalProperties",
                "patternProperties",
                "minProperties",
            )
        ):
            return ["object"]
        if any(k in s for k in ("items", "prefixItems", "minItems", "maxItems", "contains")):
            return ["array"]
        if any(k in s for k in ("minLength", "maxLength", "pattern", "format")):
            return ["string"]
        if any(
            k in s
            for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
        ):
            return ["number"]
        return ["string", "integer", "boolean", "null", "object", "array"]

    def _key(self, s: dict[str, Any]) -> str | None:
        """The JSON text of a schema node, computed once per node object (a 200,000-value
        enum is written out once, not once per proposal)."""
        hit = self._keys.get(id(s))
        if hit is not None and hit[0] is s:
            return hit[1]
        try:
            key: str | None = json.dumps(s, sort_keys=True)
        except (TypeError, ValueError):
            key = None
        self._keys[id(s)] = (s, key)  # holding s keeps its id unique
        return key

    def _filter(self, s: dict[str, Any], vals: list[Any]) -> list[Any]:
        """Keep the proposals a leaf schema accepts (only for $ref-free leaves)."""
        key = self._key(s)
        if key is None:
            return vals
        if key not in self._leaf:
            try:
                self._leaf[key] = None if "$ref" in key else SchemaValidator(s)
            except SchemaError:
                self._leaf[key] = None
        v = self._leaf[key]
        if v is None:
            return vals
        if self.spend is not None:
            self.spend(len(vals))
        good = [x for x in vals if v.is_valid(x)]
        return good or vals

    def _leaf_values(self, s: dict[str, Any], t: str) -> list[Any]:
        """:meth:`_of_type` for a string or number leaf, once per distinct leaf schema (a
        schema repeating one leaf 200,000 times proposes for it once)."""
        key = self._key(s)
        hit = self._leaf_vals.get((key, t)) if key is not None else None
        if hit is None:
            if t == "string":
                hit = self._filter(s, self._strings(s))
            else:
                hit = self._filter(s, self._numbers(s, t == "integer"))
            if key is not None:
                self._leaf_vals[(key, t)] = hit
        return list(hit)

    def _of_type(self, s: dict[str, Any], t: str, depth: int) -> list[Any]:
        if t == "null":
            return [None]
        if t == "boolean":
            return [False, True]
        if t in ("integer", "number", "string"):
            return self._leaf_values(s, t)
        if t == "array":
            return self._arrays(s, depth)
        if t == "object":
            return self._objects(s, depth)
        return []

    @staticmethod
    def _numbers(s: dict[str, Any], integer: bool) -> list[Any]:
        lo, hi = s.get("minimum"), s.get("maximum")
        xlo, xhi = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
        cands: list[Any] = [0, 1]
        if _num(lo):
            cands = [math.ceil(lo) if integer else lo, *cands]
        if _num(xlo):
            cands = [math.floor(xlo) + 1, xlo + 0.5, *cands]
        if _num(hi):
            cands += [math.floor(hi) if integer else hi]
        if _num(xhi):
            cands += [math.ceil(xhi) - 1, xhi - 0.5]
        m = s.get("multipleOf")
        if _num(m) and m > 0:
            base = lo if _num(lo) else (xlo if _num(xlo) else 0)
            k = math.ceil(base / m)
            cands = [m * k, m * (k + 1), *cands]
        return list(
            dict.fromkeys(
                c for c in cands if not (integer and isinstance(c, float) and not c.is_integer())
            )
        )

    @staticmethod
    def _strings(s: dict[str, Any]) -> list[str]:
        lo = _int_at(s, "minLength", 0)
        hi = s["maxLength"] if isinstance(s.get("maxLength"), int) else None
        out: list[str] = []
        if isinstance(s.get("pattern"), str):
            ex = regex_example(s["pattern"])
            if ex is not None:
                out.append(ex)
        fmt = s.get("format")
        if isinstance(fmt, str):
            if fmt in _FORMAT_SAMPLES:
                out.append(_FORMAT_SAMPLES[fmt])
            out += STRING_PROBES[5:]
        out += ["a" * max(lo, 1) if hi is None or hi >= 1 else "", "a" * lo, *STRING_PROBES[1:5]]
        if lo > 0:
            out += [_stretch(x, lo) for x in out[:3] if x]
        return list(dict.fromkeys(out))[:12]

    def _arrays(self, s: dict[str, Any], depth: int) -> list[Any]:
        lo = _int_at(s, "minItems", 0)
        lo = min(lo, 1000)
        pre = s.get("prefixItems") if isinstance(s.get("prefixItems"), list) else None
        items = s.get("items")
        if isinstance(items, list):  # draft-07 tuple form
            pre, items = items, s.get("additionalItems", True)
        head: list[Any] = []
        for p in (pre or [])[:lo]:
            vals = self.values(p, depth + 1)
            if not vals:
                return []
            head.append(vals[0])
        vals = self.values(items, depth + 1) if items is not None else ["a"]
        need = lo - len(head)
        out: list[Any] = []
        if need <= 0:
            out.append(head)
        if vals and need > 0:
            if s.get("uniqueItems") is True and len(vals) >= need:
                out.append(head + vals[:need])
            out.append(head + [copy.deepcopy(vals[0]) for _ in range(need)])
        if vals and (need <= 0):
            out.append([*head, vals[0]])
        if isinstance(s.get("contains"), (dict, bool)):
            cv = self.values(s["contains"], depth + 1)
            if cv:
                out.insert(0, [*head, cv[0]] + [copy.deepcopy(cv[0])] * max(0, need - 1))
        full = self._full_prefix(pre or [], head, depth)
        if full is not None and full not in out:
            out.append(full)  # every tuple position set: what a dialect reads differently
        return out

    def _full_prefix(self, pre: list[Any], head: list[Any], depth: int) -> list[Any] | None:
        """``head`` with a value for each further tuple position (up to 16), or None when
        there is none further or one position has no value."""
        if len(pre) <= len(head):
            return None
        full = list(head)
        for p in pre[len(head) : 16]:
            vals = self.values(p, depth + 1)
            if not vals:
                return None
            full.append(vals[0])
        return full

    def _objects(self, s: dict[str, Any], depth: int) -> list[Any]:
        props = dict_at(s, "properties")
        req = (
            [r for r in s.get("required", []) if isinstance(r, str)]
            if isinstance(s.get("required"), list)
            else []
        )
        ap = s.get("additionalProperties", True)
        obj: dict[str, Any] = {}
        alts: list[tuple[str, list[Any]]] = []
        for r in req:
            sub = props.get(r, ap if ap is not False else True)
            vals = self.values(sub, depth + 1)
            if not vals:
                return []
            obj[r] = vals[0]
            if len(vals) > 1:
                alts.append((r, vals[1:3]))
        mp = s.get("minProperties")
        if isinstance(mp, int):
            for p in props:
                if len(obj) >= mp:
                    break
                if p not in obj:
                    vals = self.values(props[p], depth + 1)
                    if vals:
                        obj[p] = vals[0]
        out = [obj]
        for r, vs in alts[:MAX_ALTERNATIVES]:  # vary one property at a time
            for v in vs:
                out.append({**obj, r: v})
        return out[:MAX_ALTERNATIVES]
