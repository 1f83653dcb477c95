"""What every rule family uses to judge two schemas: JSON equality, the keyword vocabulary,
small readers of a schema node (its types, its allowed values), and the typed interface between
the walker (``schema_diff``) and the families' handlers.

A family handler is ``judge(w, at) -> None``: ``at`` is the pair of schema nodes the walker
reached (old and new, their pointers, the polarity, the depth); ``w`` is the walker, which
emits rule firings (``w.emit``) and descends into subschemas (``w.diff``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from mcp_review.engine.canonical import canonical_json
from mcp_review.engine.model import Change, ChangeClass, pointer_join
from mcp_review.engine.rules.registry import Effect
from mcp_review.engine.rules.render import Raw, quote
from mcp_review.engine.walk import DEFINITIONS

MISSING: Any = object()
"""A keyword the schema does not have (not the same as a JSON ``null``)."""


ANNOTATIONS_COSMETIC = frozenset(
    {
        "examples",
        "example",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "contentSchema",
        "$vocabulary",
    }
)


TEXT = frozenset({"title", "description"})


TEXT_ANNOTATIONS = frozenset({"$comment", "examples", "example"})  # text: on the trust axis


CONTAINERS = DEFINITIONS  # judged only through the refs that use them


# Keywords that carry no constraint: a schema made only of these accepts every value.
CONTENT = frozenset({"contentEncoding", "contentMediaType"})
"""How the server reads a string (base64, JSON text): no constraint a validator checks, but a
change is not cosmetic (``string-content-changed``)."""


NO_CONSTRAINT = ANNOTATIONS_COSMETIC | CONTENT | TEXT | CONTAINERS | {"$schema", "default"}


JSON_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})


HEADER = "x-mcp-header"


def dumps(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def jeq(a: Any, b: Any) -> bool:
    """JSON equality, fast: Python ``==`` first (it never calls unequal what JSON calls equal),
    then a C-speed dump to tell ``true`` from ``1``, canonical form only for ``1`` vs ``1.0``."""
    if a is b:
        return True
    try:
        if a != b:
            return False
        if dumps(a) == dumps(b):
            return True
        return canonical_json(a) == canonical_json(b)
    except (TypeError, ValueError, RecursionError):
        return False


def ckey(v: Any) -> str:
    try:
        return canonical_json(v)
    except (TypeError, ValueError, RecursionError):
        return repr(v)


def has_ref(v: Any) -> bool:
    try:
        return '"$ref"' in dumps(v)
    except (TypeError, ValueError, RecursionError):
        return True


def accepts_all(s: Any) -> bool:
    return s is True or (isinstance(s, dict) and all(k in NO_CONSTRAINT for k in s))


def rejects_all(s: Any) -> bool:
    return s is False or (
        isinstance(s, dict)
        and "not" in s
        and accepts_all(s["not"])
        and all(k in NO_CONSTRAINT or k == "not" for k in s)
    )


def num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def frac(v: int | float) -> Fraction:
    # The decimal repr, not the binary float: multipleOf 0.1 means one tenth.
    return Fraction(v) if isinstance(v, int) else Fraction(repr(v))


def kind_of(v: Any) -> str:
    if v is None:
        return "null"
    return {
        bool: "boolean",
        int: "number",
        float: "number",
        str: "string",
        list: "array",
        dict: "object",
    }.get(type(v), type(v).__name__)


def shape_key(s: Any) -> str:
    """Canonical text of a property schema without its prose: the key of the rename hint."""
    if isinstance(s, dict):
        s = {k: v for k, v in s.items() if k not in TEXT and k not in ANNOTATIONS_COSMETIC}
    return ckey(s)


WS = re.compile(r"\s+")


def text_rule(old: str, new: str, rule: str) -> str | None:
    """Which rule a text edit fires: None (equal), a cosmetic rule, or ``rule``."""
    if old == new:
        return None
    on, nn = unicodedata.normalize("NFC", old), unicodedata.normalize("NFC", new)
    if on == nn:
        return "text-normalization-changed"
    if WS.sub(" ", on).strip() == WS.sub(" ", nn).strip():
        return "text-whitespace-changed"
    return rule


def as_text(v: Any) -> str:
    if v is None or v is MISSING:
        return ""
    return v if isinstance(v, str) else dumps(v)


def opt(v: Any) -> Any:
    return Raw("(absent)") if v is MISSING else v


def dict_of(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def names(v: Any) -> set[str]:
    return {x for x in v if isinstance(x, str)} if isinstance(v, list) else set()


def type_set(v: Any) -> frozenset[str] | None:
    if v is MISSING:
        return None
    if isinstance(v, str):
        return frozenset((v,))
    if isinstance(v, list):
        return frozenset(x for x in v if isinstance(x, str))
    return frozenset()


def covered(t: str, types: frozenset[str]) -> bool:
    return t in types or (t == "integer" and "number" in types)


def covers_all(types: frozenset[str] | None) -> bool:
    return types is None or all(covered(t, types) for t in JSON_TYPES)


def tlist(types: frozenset[str] | None) -> Any:
    if types is None:
        return Raw("(any)")
    s = sorted(types)
    return s[0] if len(s) == 1 else s


def allowed(s: dict[str, Any]) -> dict[str, Any] | None:
    vals: dict[str, Any] | None = None
    if isinstance(s.get("enum"), list):
        vals = {ckey(v): v for v in s["enum"]}
    if "const" in s:
        k = ckey(s["const"])
        vals = {k: s["const"]} if vals is None else {x: v for x, v in vals.items() if x == k}
    return vals


def value_type(v: Any) -> str | None:
    if isinstance(v, bool):
        return "boolean"
    if v is None:
        return "null"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(type(v))


def disjoint(branches: list[Any]) -> bool:
    """True when no value can match two of ``branches`` (decided cheaply: distinct listed
    values, or distinct single types); False when unsure."""
    seen_vals: set[str] = set()
    seen_types: set[str] = set()
    by_vals = by_types = True
    for b in branches:
        if not isinstance(b, dict):
            return False
        vals = allowed(b)
        if vals is None:
            by_vals = False
        elif seen_vals & vals.keys():
            return False
        else:
            seen_vals |= vals.keys()
        t = b.get("type")
        if (
            not isinstance(t, str)
            or t in seen_types
            or (t in ("integer", "number") and {"integer", "number"} & seen_types)
        ):
            by_types = False
        else:
            seen_types.add(t)
    return by_vals or by_types


def branch_sig(s: Any) -> str:
    """What makes two branches 'the same alternative' when not equal: type or ref."""
    if isinstance(s, dict):
        return ckey([s.get("type"), s.get("$ref"), s.get("const")])
    return ckey(s)


def brief(s: Any) -> Raw:
    return Raw(quote(s, 80))


UNDECIDED: Any = object()
"""A probe's third answer: the walk could not decide (a pattern, a format, a remote $ref)."""


@dataclass(frozen=True, slots=True)
class Cover:
    """Coverage of one anyOf/oneOf: per accepting-side branch index, True (covered), False
    (some part is accepted by no alternative), or UNDECIDED."""

    old: dict[int, Any]
    new: dict[int, Any]
    complete: bool
    used: frozenset[int] = frozenset()
    """Other-side branches that cover an accepting-side part: not news themselves."""


TEXT_KIND = {
    "description": "description",
    "title": "title",
    "$comment": "$comment",
    "examples": "examples",
    "example": "examples",
    "default": "default",
    "enum": "enum",
    "const": "enum",
}


def norm(s: str) -> str:
    """Text as a reader compares it: NFC, whitespace runs as one space, trimmed."""
    if not s.isascii():
        s = unicodedata.normalize("NFC", s)
    return " ".join(s.split())


def data_strings(v: Any) -> Iterator[str]:
    """Every string in a JSON value, object keys included, iteratively."""
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            for k, y in x.items():
                if isinstance(k, str):
                    yield k
                stack.append(y)
        elif isinstance(x, list):
            stack.extend(x)


# The walker and its handlers -------------------------------------------------------------------


class Pair(NamedTuple):
    """Two schema nodes the walker compares: old and new (objects, booleans folded), where each
    is (pointers into the tool definition), the polarity (True where new must accept every value
    old accepted) and the nesting depth."""

    o: dict[str, Any]
    n: dict[str, Any]
    op: str
    np: str
    pos: bool
    depth: int


class Judge(Protocol):
    """What a family handler may ask of the walker."""

    out: list[Change]
    """Changes emitted so far in this walk (composition prunes its own alarms)."""
    lifted: set[int]
    """ids of anyOf/oneOf lists the walker made up to compare a plain schema with a composed
    one (``T`` seen as ``anyOf [T]``)."""
    is_probe: bool
    """True in a probe walk (coverage of an alternative): the verdict matters, not the words."""
    reported: set[tuple[str, str]]
    """(kind, normalised text) of every text a text rule has named in this walk."""
    old_root: Any
    new_root: Any
    """The two schema documents of this walk (what ``$ref`` and ``$schema`` are read in)."""

    def emit(
        self,
        rule_id: str,
        ptr: str,
        pos: bool,
        effect: Effect | None = None,
        cls: ChangeClass | None = None,
        **params: Any,
    ) -> Change: ...

    def diff(self, o: Any, n: Any, op: str, np: str, pos: bool, depth: int) -> None: ...

    def coverage(
        self,
        kw: str,
        ol: list[Any],
        nl: list[Any],
        optr: Callable[[int], str],
        nptr: Callable[[int], str],
        pos: bool,
        depth: int,
        types: tuple[Any, Any] = ...,
    ) -> Cover | None: ...

    def refs_same(self, oi: Any, ni: Any, op: str, np: str, pos: bool, depth: int) -> bool: ...


Handler = Callable[[Judge, Pair], None]
"""A family's judgement of the keywords it owns at one pair of nodes."""


@dataclass(frozen=True, slots=True)
class Keywords:
    """What the schema walker (``engine/schema_diff.py``) asks about a keyword. Each family
    registers the keywords it owns (its ``HANDLERS``, and where it has them ``COUNTS``,
    ``INSTANCE_TYPES``, ``ENTRY_KEYWORDS``, ``INTERACTING``); ``catalog`` assembles them."""

    handlers: dict[str, Handler]
    """keyword -> the family handler the walker calls for it (each handler once per node)."""
    instance_types: dict[str, frozenset[str]]
    """The instance types each assertion keyword constrains; on any other type it is a no-op."""
    entries: frozenset[str]
    """Keywords whose pointer may name one entry (an alternative, a pattern, a dependency)."""
    interacting: tuple[frozenset[str], ...]
    """Keywords whose meaning depends on siblings in the same schema object: each group may
    come from one part of an allOf only, or folding the parts would change the meaning."""
    nodes: tuple[Handler, ...] = ()
    """Handlers the walker calls once at every node, before keywords that cannot apply to the
    node's type are set aside (a family's ``NODE_HANDLERS``: defaults written out)."""


class Bound(NamedTuple):
    """The rule ids of one bound keyword, written out so grep finds where each is emitted."""

    added: str
    removed: str
    tightened: str
    loosened: str


class Count(NamedTuple):
    """A count keyword (``minLength``, ``maxItems``, ...) and its rules."""

    keyword: str
    ids: Bound
    lower: bool
    """A lower bound (``min*``): raising it tightens."""
    default: int | None
    """The effective value when absent (None: no bound)."""


def counts_judge(table: tuple[Count, ...]) -> Handler:
    """One handler for the count keywords of ``table``, judged in the table's order."""

    def judge_counts(w: Judge, at: Pair) -> None:
        o, n, op, np, pos, _depth = at
        for kw, ids, lower, default in table:
            ov, nv = o.get(kw, MISSING), n.get(kw, MISSING)
            if (ov is MISSING and nv is MISSING) or jeq(ov, nv):
                continue
            ptr = pointer_join(np if nv is not MISSING else op, kw)
            if any(v is not MISSING and not (num(v) and v >= 0) for v in (ov, nv)):
                w.emit("schema-invalid", ptr, pos, kind=Raw(f"{kw} {quote(nv)}"))
                continue
            if kw == "minContains" and "contains" not in o and "contains" not in n:
                continue  # no effect without contains
            if lower:
                oe: Any = default if ov is MISSING else ov
                ne: Any = default if nv is MISSING else nv
                if oe == ne:
                    continue
                if ov is MISSING:
                    w.emit(ids.added, ptr, pos, new=nv)
                elif nv is MISSING:
                    w.emit(ids.removed, ptr, pos, old=ov)
                else:
                    w.emit(ids.tightened if ne > oe else ids.loosened, ptr, pos, old=ov, new=nv)
            elif ov is MISSING:
                w.emit(ids.added, ptr, pos, new=nv)
            elif nv is MISSING:
                w.emit(ids.removed, ptr, pos, old=ov)
            elif nv != ov:
                w.emit(ids.tightened if nv < ov else ids.loosened, ptr, pos, old=ov, new=nv)

    return judge_counts
