"""Canonical JSON and strict JSON loading.

Canonical form (digest scheme 1):
- keys sorted by code point, separators ``,`` and ``:``, no insignificant whitespace;
- UTF-8, non-ASCII kept as is (``ensure_ascii=False``); lone surrogates are kept (surrogatepass)
  rather than crashing the digest of a hostile definition;
- numbers: an integral float whose magnitude is below 2**53 is written as an integer, so ``1``
  and ``1.0`` hash alike (JSON Schema treats them as the same number, and a JavaScript server
  re-serialising ``1.0`` emits ``1``); other floats use Python's shortest round-trip repr;
  integers are exact at any size; NaN and Infinity are refused (not JSON);
- booleans stay booleans: ``true`` never equals ``1``;
- no Unicode normalisation: the digest covers the exact code points the server sent, because a
  homoglyph or a hidden character is exactly what an attack changes.
"""

from __future__ import annotations

import json
import math
import re
import sys
from types import ModuleType
from typing import Any

from mcp_review.engine.errors import InputError

try:  # the canonical form's fast writer (see _fast_bytes); json is the reference
    import orjson

    _orjson: ModuleType | None = orjson
except ImportError:  # pragma: no cover - a declared dependency
    _orjson = None

_INT_SAFE = 2**53

MAX_DEPTH = 512
"""Deepest nesting accepted anywhere in a definition or call (arrays and objects)."""


def normalize(value: Any) -> Any:
    """Return ``value`` with numbers in canonical form (see module doc). Raises ValueError on NaN."""
    return _norm(value, 0, None)


def _norm(v: Any, depth: int, floats: list[float] | None) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"nesting deeper than {MAX_DEPTH} levels")
    if isinstance(v, bool) or v is None or isinstance(v, (str, int)):
        return v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("NaN or Infinity is not JSON")
        if v.is_integer() and abs(v) < _INT_SAFE:
            return int(v)
        if floats is not None:
            floats.append(v)
        return v
    if isinstance(v, dict):
        return {str(k): _norm(x, depth + 1, floats) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_norm(x, depth + 1, floats) for x in v]
    raise TypeError(f"not a JSON value: {type(v).__name__}")


def canonical_json(value: Any) -> str:
    """Canonical JSON text of ``value`` (see module doc)."""
    fast = _fast_bytes(value)
    if fast is not None:
        return fast[1]
    return _stdlib_canonical(normalize(value))


def _stdlib_canonical(normalized: Any) -> str:
    return json.dumps(
        normalized, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def canonical_bytes(value: Any) -> bytes:
    fast = _fast_bytes(value)
    if fast is not None:
        return fast[0]
    return _stdlib_canonical(normalize(value)).encode("utf-8", "surrogatepass")


def _fast_bytes(value: Any) -> tuple[bytes, str] | None:
    """The canonical form through orjson (6-8x faster than ``json.dumps``; a 10,000-tool fleet
    hashes every definition twice), or None where the two could differ: a value holding a
    float that stays a float (the exponent is written ``1e-07`` by Python, ``1e-7`` by
    orjson), an integer beyond 64 bits or a lone surrogate (orjson refuses both). For every
    other value the text is the same: keys sorted by code point (UTF-8 byte order is code
    point order), the same escapes (tests/store/test_golden_digest.py, tests/engine/test_canonical_fast.py).

    Most definitions hold no float at all: orjson writes them as they are, and one scan of its
    output (:data:`_NOT_PLAIN`) shows that no number token is a float and no ``null`` could be
    a NaN written as null, so nothing needed normalising; the Python walk runs only when it
    finds one (or when orjson refuses the value)."""
    if _orjson is None:
        return None
    try:
        raw = _orjson.dumps(value, option=_SORTED)
    except TypeError:  # orjson.JSONEncodeError: a big integer, a lone surrogate, too deep, ...
        raw = None
    if raw is not None and _not_plain(raw) is None:
        return raw, raw.decode("utf-8")
    floats: list[float] = []
    normalized = _norm(value, 0, floats)
    if floats:
        return None
    try:
        raw = _orjson.dumps(normalized, option=_SORTED)
    except TypeError:  # orjson.JSONEncodeError: a big integer, a lone surrogate
        return None
    return raw, raw.decode("utf-8")


def check_json(value: Any) -> None:
    """Raise as :func:`normalize` does (ValueError: NaN, Infinity, nesting deeper than
    :data:`MAX_DEPTH`; TypeError: not a JSON value), without building the normalised copy
    when orjson can write the value and its output holds no ``null`` (the form orjson gives a
    NaN or an infinity): then every value in it is a finite JSON value nested at most 255
    deep (orjson's own limit)."""
    if _orjson is not None:
        try:
            raw = _orjson.dumps(value, option=_STRICT)
        except TypeError:
            raw = None
        if raw is not None and (b"null" not in raw or _NULL(raw) is None):
            return
    _norm(value, 0, None)


# Types a JSON parser never produces are not written by orjson either (they take the walk,
# which refuses them); UUID and Enum values, which orjson writes by value, come from code, not
# from a server or a file.
_STRICT = (
    (
        _orjson.OPT_PASSTHROUGH_DATACLASS
        | _orjson.OPT_PASSTHROUGH_DATETIME
        | _orjson.OPT_PASSTHROUGH_SUBCLASS
    )
    if _orjson is not None
    else 0
)
_SORTED = _STRICT | (_orjson.OPT_SORT_KEYS if _orjson is not None else 0)
# orjson's compact output puts a number right after ``[``, ``:`` or ``,`` (or at the start);
# a float always has a ``.`` or an exponent. ``null`` may be a NaN or an infinity. A match
# inside a string only sends the value the slow way, never the wrong way.
_NOT_PLAIN = re.compile(rb"(?:^|[\[:,])(?:-?[0-9]+[.eE]|null)").search
_NOT_PLAIN_INSIDE = re.compile(rb"[\[:,](?:-?[0-9]+[.eE]|null)").search
"""The same scan without the ``^`` alternative, for an object or an array (whose text starts
with its bracket, never with a number): a third of the time, since the scanner can skip to the
next ``[``, ``:`` or ``,`` instead of trying both alternatives at every byte."""


def _not_plain(raw: bytes) -> re.Match[bytes] | None:
    """:data:`_NOT_PLAIN` of orjson's output ``raw``."""
    if raw[:1] in (b"{", b"["):
        return _NOT_PLAIN_INSIDE(raw)
    return _NOT_PLAIN(raw)


_NULL = re.compile(rb"(?:^|[\[:,])null").search


def pretty_json(value: Any) -> str:
    """Sorted, indented JSON for showing a schema side by side (still canonical in content)."""
    return json.dumps(normalize(value), sort_keys=True, indent=2, ensure_ascii=False)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true != 1 and key order is irrelevant."""
    try:
        return canonical_json(a) == canonical_json(b)
    except (ValueError, TypeError):
        return bool(a == b)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
"""One strict decoder for every :func:`loads` (``json.loads`` with an argument builds one per
call: a fleet's pin file parses 10,000 definitions)."""


def loads(text: str | bytes, *, source: str = "<input>") -> Any:
    """Parse JSON strictly: NaN/Infinity refused, errors name the source and the line,
    nesting beyond MAX_DEPTH refused with a clear message (never a RecursionError traceback)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text (byte {e.start})", source=source) from None
    # A big document (a 10,000-tool snapshot is ~5 MB) is parsed first and measured after: the
    # character scan below costs ~0.3 s per 5 MB, the parser refuses runaway nesting itself
    # (RecursionError, ~1,000 levels) and the walk over the parsed value is ~40x cheaper.
    big = len(text) >= BIG_JSON
    if not big and _max_depth_estimate(text) > MAX_DEPTH:
        raise _too_deep(source)
    try:
        if text.startswith("\ufeff"):  # json.loads words this case itself
            value = json.loads(text, parse_constant=_reject_constant)
        else:
            value = _DECODER.decode(text)
        if big and too_deep(value):
            raise _too_deep(source)
        return value
    except json.JSONDecodeError as e:
        raise InputError(
            f"invalid JSON: {e.msg} (column {e.colno})", source=source, line=e.lineno
        ) from None
    except ValueError as e:
        raise InputError(f"invalid JSON: {e}", source=source) from None
    except RecursionError:
        if big:
            raise _too_deep(source) from None
        raise InputError("JSON nesting too deep", source=source) from None


def _too_deep(source: str) -> InputError:
    return InputError(f"JSON nested more than {MAX_DEPTH} levels deep (the limit)", source=source)


BIG_JSON = 1 << 20
"""From this many characters :func:`loads` measures the nesting after parsing, not before."""


_LEAVES = frozenset({str, int, float, bool, type(None)})


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if arrays/objects nest deeper than ``limit``. Iterative: safe on any depth. Parsed
    JSON holds exact dicts and lists, tested by type first; a subclass is still counted."""
    if not isinstance(value, (dict, list)):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, d = pop()
        if d > limit:
            return True
        for x in v.values() if isinstance(v, dict) else v:
            t = type(x)
            if t is dict or t is list or (t not in _LEAVES and isinstance(x, (dict, list))):
                push((x, d + 1))
    return False


def _max_depth_estimate(text: str) -> int:
    """Bracket depth outside strings: a cheap pre-check so a 10,000-deep document is refused
    before the parser recurses."""
    if "[" not in text and "{" not in text:
        return 0
    # Fast path: if the total count of openers is small, no need to scan.
    openers = text.count("[") + text.count("{")
    if openers <= MAX_DEPTH:
        return openers
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_DEPTH:
                    return best
        elif ch in "]}":
            depth -= 1
    return best


# Walkers recurse a few frames per nesting level; make room for MAX_DEPTH levels.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 8 * MAX_DEPTH + 1000))
