"""JSON-RPC line framing for the proxy: split a byte stream into lines, parse a line (leniently
to relay it, strictly to judge it), serialise what was judged, and read ids as clients do."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from mcp_review.engine.exactints import ints_exact
from mcp_review.store.jsonline import separators_escaped

_orjson: Any
try:  # ~5x faster than json on the hot path (every server line is parsed to filter noise).
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson ships with every supported setup
    _orjson = None

CHUNK = 1 << 20
"""Bytes asked of a pipe per read: big chunks keep a 10 MB line to ~10 reads."""

MAX_LINE = 256 * 1024 * 1024
"""A line longer than this is dropped (and logged) instead of buffered without bound."""

MAX_SAFE_ID = 2**53 - 1
"""Beyond this a JavaScript client's ``Number`` cannot tell two integer ids apart."""


class ByteReader(Protocol):
    """Anything with an awaitable ``read(n)`` that returns b"" at the end of the stream."""

    async def read(self, n: int = -1, /) -> bytes: ...


def loads(raw: bytes | str) -> Any:
    """Parse one line as ``json.loads`` does (integers exact, however long); ValueError for
    anything that is not JSON (never RecursionError)."""
    if _orjson is not None:
        try:
            msg = _orjson.loads(raw)
        except _orjson.JSONDecodeError:
            pass  # a number past the float range, a lone surrogate escape: the stdlib decides
        else:
            # orjson reads an integer past 64 bits as a float (engine/exactints.py)
            if ints_exact(raw, msg):
                return msg
    try:
        return json.loads(raw)
    except RecursionError:  # nesting deeper than the interpreter can follow
        raise ValueError("nested too deeply to parse") from None


class Unjudgeable(ValueError):
    """A client line the enforcing proxy will not forward: it cannot judge it as the server would."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise Unjudgeable(
            f"the key {dup!r} appears twice in one object (parsers disagree on which one counts)"
        )
    return d


def _no_constant(name: str) -> Any:
    raise Unjudgeable(f"{name} is not JSON")


_BOM = "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
_STRICT = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
"""One decoder for every strict parse: ``json.loads`` with hooks builds a new one per call."""


def strict_loads(raw: bytes) -> Any:
    """Parse one client line as the enforcing proxy must: UTF-8 strictly, no duplicate keys,
    no NaN/Infinity, depth and integer size bounded by the stdlib parser. Anything else raises
    ``Unjudgeable`` (what a server's lenient parser would make of it is not ours to guess).

    A compact line (what the SDKs send) is parsed by orjson and taken when orjson writes its
    value back to the very same bytes: a repeated key (which orjson keeps once, silently), an
    integer past 64 bits (which it reads as a float), nesting past 255 levels, any spelling
    other than its own would all write other bytes. Every other line, and one that does not
    match, is parsed by the stdlib with the duplicate-key hook (2-3x slower on a large line),
    which also says why a line is refused."""
    if _orjson is not None and raw[:1] == b"{" and b'": ' not in raw[:256]:
        body = raw[:-1] if raw[-1:] == b"\n" else raw
        try:
            msg = _orjson.loads(body)
            same = _orjson.dumps(msg) == body
        except (_orjson.JSONDecodeError, TypeError):  # (JSONEncodeError is a TypeError)
            same = False
        if same:
            return msg
    return _stdlib_strict_loads(raw)


def _stdlib_strict_loads(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Unjudgeable(f"not valid UTF-8 (byte {e.start})") from None
    if text.startswith("\ufeff"):  # json.loads refuses it; the decoder alone says less
        raise Unjudgeable(f"not JSON: {_BOM}")
    try:
        return _STRICT.decode(text)
    except Unjudgeable:
        raise
    except RecursionError:
        raise Unjudgeable("nested too deeply to parse") from None
    except ValueError as e:  # JSONDecodeError, and integers beyond the stdlib's digit limit
        raise Unjudgeable(f"not JSON: {str(e)[:120]}") from None


def framing_hazard(line: bytes) -> str | None:
    """Why some server may read this client line as other messages than the proxy does, or
    None. Servers frame and decode differently: the Python SDK reads its stdin as text with
    universal newlines (a lone ``\\r`` ends a message, as ``\\n`` does) and replaces invalid
    UTF-8 with U+FFFD, as the TypeScript SDK does; the proxy frames on ``\\n`` and parses bytes.
    Honest JSON serialisers emit neither a raw ``\\r`` (they escape it in strings) nor invalid
    UTF-8, so a line holding one is refused rather than guessed at."""
    why = _carriage_return(line)
    if why is not None:
        return why
    if not line.isascii():
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as e:
            return f"not valid UTF-8 (byte {e.start}): servers would read U+FFFD and run it"
    return None


def _carriage_return(line: bytes) -> str | None:
    body = line[:-2] if line.endswith(b"\r\n") else line
    cr = body.find(b"\r")
    if cr < 0:
        return None
    return (
        f"a carriage return not followed by a line feed (byte {cr}): "
        "some servers end a message there"
    )


def relay_loads(line: bytes) -> tuple[Any, str | None]:
    """A client line as the record-only proxy reads it: ``(message, None)``, or ``(None, why)``
    it is refused (``framing_hazard``'s reason first, else why it is not JSON). orjson checks
    UTF-8 itself, strictly (surrogates, overlong forms and cut sequences refused:
    tests/proxy/test_proxy_framing.py holds it to the strict decoder), so a line it parses
    needs only the carriage-return check, not a second decode of the whole line. Its value is
    the stdlib's, integers past 64 bits exact (what the server reads, what the call log must
    record)."""
    msg, why, _ = relay_read(line)
    return msg, why


def relay_read(line: bytes) -> tuple[Any, str | None, bool]:
    """:func:`relay_loads`, and whether its message is ``orjson.loads(line)`` as it stands
    (parsed by orjson, no lone carriage return, every integer read exactly): a reader of the
    same bytes told so (the recorder process, by the proxy that read them) takes
    ``orjson.loads`` alone and the same message, without the checks (~1 ms a MiB of records:
    engine/exactints.py's digit scan)."""
    if _orjson is not None:
        try:
            msg = _orjson.loads(line)
        except _orjson.JSONDecodeError:
            pass
        else:
            why = _carriage_return(line)
            if why is not None:
                return None, why, False
            # orjson reads an integer past 64 bits as a float (engine/exactints.py): such a
            # line is read again by the stdlib below, which keeps it exact.
            if ints_exact(line, msg):
                return msg, None, True
    why = framing_hazard(line)
    if why is not None:
        return None, why, False
    try:
        return json.loads(line), None, False  # (past the float range, a lone surrogate)
    except RecursionError:
        return None, "not JSON: nested too deeply to parse", False
    except ValueError as e:
        return None, f"not JSON: {str(e)[:120]}", False


def wire(msg: Any) -> bytes:
    """The one serialisation the enforcing proxy forwards: exactly what it judged."""
    out = None
    if _orjson is not None:
        try:
            out = _orjson.dumps(msg, option=_orjson.OPT_APPEND_NEWLINE)  # no copy to add it
        except TypeError:  # >64-bit integers, lone surrogates, depth > 255: the stdlib copes
            pass
    if out is None:
        out = (
            json.dumps(msg, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()
            + b"\n"
        )
    # U+2028/9 end a line for JavaScript and str.splitlines readers
    return separators_escaped(out)


_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\Z")
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")


def _js_number(s: str) -> float | int | None:
    """What JavaScript's ``Number(s)`` gives (the TypeScript SDK matches response ids with it),
    or None for NaN."""
    s = s.strip(_JS_SPACE)
    if not s:
        return 0
    m = _JS_RADIX.match(s)
    if m:
        return float(int(m.group(1)[1:], {"x": 16, "o": 8, "b": 2}[m.group(1)[0].lower()]))
    if _JS_DECIMAL.match(s):
        return float(s.replace("Infinity", "inf"))
    return None


def id_keys(v: Any) -> frozenset[tuple[str, Any]]:
    """Every key under which some client could match JSON-RPC id ``v``; empty if ``v`` is not a
    usable id. The Python SDK turns an id string into ``int(s)`` when it can, the TypeScript SDK
    into ``Number(s)`` (so ``"1"``, ``" 1"``, ``"0x1"`` and ``1.0`` all answer request 1), and a
    JavaScript client reads an integer beyond 2**53 as the nearest double. Two ids whose key sets
    meet are one id to some client."""
    if type(v) is int and -MAX_SAFE_ID <= v <= MAX_SAFE_ID:
        return frozenset((("n", v),))  # the common id: what the loop below gives it
    keys: set[tuple[str, Any]] = set()
    nums: list[Any] = []
    if isinstance(v, bool) or v is None:
        return frozenset()
    if isinstance(v, int):
        nums.append(v)
    elif isinstance(v, float):
        nums.append(v)
    elif isinstance(v, str):
        keys.add(("s", v))
        with contextlib.suppress(ValueError):
            nums.append(int(v))
        js = _js_number(v)
        if js is not None:
            nums.append(js)
    else:
        return frozenset()
    for n in nums:
        if isinstance(n, float) and (n != n or n in (float("inf"), float("-inf"))):
            continue
        keys.add(("n", n))  # 1.0 == 1 as a dict key, as in JavaScript
        if isinstance(n, int) and abs(n) > MAX_SAFE_ID:
            with contextlib.suppress(OverflowError):
                keys.add(("n", float(n)))
    return frozenset(keys)


def usable_id(v: Any) -> bool:
    """An id the enforcing proxy accepts on a client request (and may answer with): a string,
    or an integer every client reads exactly. MCP forbids null; floats, bools, arrays and
    objects are not ids any SDK sends."""
    if isinstance(v, str):
        return True
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SAFE_ID


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s"{}\[\]:,]+', re.S)
_SMALL_INT = re.compile(rb"-?(?:0|[1-9][0-9]{0,15})\Z")


def salvage_id(raw: bytes) -> Any:
    """The id of a line that did not parse, when it can be read without guessing: the line is
    an object whose top level has exactly one key spelled ``"id"`` (and no escaped key that
    might decode to it), with a plain string or a small integer as its value. Else None."""
    depth = 0
    expect_key = False
    key: bytes | None = None
    found: list[bytes] = []
    after_colon = False
    first = True
    for m in _TOKEN.finditer(raw):
        tok = m.group()
        if first and tok != b"{":
            return None
        first = False
        if tok in (b"{", b"["):
            if depth == 1 and after_colon and key == b'"id"':
                return None  # an object or array as the id
            depth += 1
            expect_key = tok == b"{" and depth == 1
            after_colon = False
            continue
        if tok in (b"}", b"]"):
            depth -= 1
            if depth == 0:
                break
            continue
        if depth != 1:
            continue
        if tok == b",":
            expect_key, after_colon, key = True, False, None
        elif tok == b":":
            after_colon = True
        elif expect_key:
            if b"\\" in tok:
                return None  # "\u0069d" is "id" too
            key, expect_key = tok, False
        elif after_colon and key == b'"id"':
            found.append(tok)
            after_colon = False
    if len(found) != 1:
        return None
    tok = found[0]
    if _SMALL_INT.match(tok):
        n = int(tok)
        return n if abs(n) <= MAX_SAFE_ID else None
    if tok.startswith(b'"') and b"\\" not in tok and len(tok) <= 258:
        try:
            return tok[1:-1].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def short(v: Any, n: int = 80) -> str:
    """A bounded repr for the proxy's log and errors (untrusted text, escaped by repr)."""
    r = repr(v)
    return r if len(r) <= n else r[:n] + "…"


async def read_line_batches(
    reader: ByteReader,
    max_line: int = MAX_LINE,
    on_overlong: Callable[[int], None] | None = None,
) -> AsyncIterator[list[bytes]]:
    """Yield, per chunk read, the lines it completed, each with its ``\\n`` (the last line of
    the stream may lack it). Batches let a burst of pipelined messages go out in one write.
    Linear in the input: each chunk is searched once and copied once, never re-scanned."""
    parts: list[bytes] = []
    size = 0
    dropping = False
    while True:
        chunk = await reader.read(CHUNK)
        if not chunk:
            if parts and not dropping:
                yield [b"".join(parts)]
            return
        batch: list[bytes] = []
        start = 0
        while True:
            i = chunk.find(b"\n", start)
            if i < 0:
                piece = chunk[start:]
                if not dropping:
                    parts.append(piece)
                    size += len(piece)
                    if size > max_line:
                        dropping, parts = True, []
                else:
                    size += len(piece)
                break
            piece = chunk[start : i + 1]
            if dropping or size + len(piece) > max_line:
                if on_overlong is not None:
                    on_overlong(size + len(piece))
                dropping = False
            elif parts:
                parts.append(piece)
                batch.append(b"".join(parts))
            else:
                batch.append(piece)
            parts, size = [], 0
            start = i + 1
        if batch:
            yield batch
