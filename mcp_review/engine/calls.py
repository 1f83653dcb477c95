"""Recorded calls and the reader of a call log (JSONL): :class:`Call`, :func:`parse_calls`
(the whole log, a chunk at a time) and :func:`one_call` (one line read as ``parse_calls`` reads
it, without a reader per line: the enforcing proxy reads its own last recorded call this way,
services/proxy/enforce.py, where that reader cost more than the call's judgement). Replay
(engine/replay.py) judges these calls; store/readers.py opens the files."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import IO, Any

from mcp_review.engine.canonical import MAX_DEPTH, too_deep
from mcp_review.engine.errors import InputError
from mcp_review.engine.exactints import long_digit_run

_orjson: ModuleType | None  # None only where orjson is missing: the stdlib is the fallback
try:  # orjson is 2-3x faster on call logs; the stdlib parser is the exact fallback.
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is installed in every supported setup
    _orjson = None


LONE_SURROGATE = "a lone surrogate escape (\\ud800-\\udfff with no partner): not Unicode text"
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: Any) -> bool:
    """True if a string anywhere in ``value`` (keys included) holds a surrogate code point:
    after JSON decoding a paired escape is one character, so any left is a lone one.
    Iterative: safe on any depth."""
    stack = [value]
    pop, push = stack.pop, stack.append
    search = _SURROGATE.search
    while stack:
        v = pop()
        if isinstance(v, str):
            if not v.isascii() and search(v):
                return True
        elif isinstance(v, dict):
            for k, x in v.items():
                if isinstance(k, str) and not k.isascii() and search(k):
                    return True
                push(x)
        elif isinstance(v, list):
            stack.extend(v)
    return False


@dataclass(slots=True)
class Call:
    """One recorded call: 1-based position among the calls loaded, file line, arguments."""

    index: int
    line: int | None
    arguments: Any
    tool: str | None = None
    depth_checked: bool = field(default=False, repr=False, compare=False)
    """Set by load_calls when the line was proven shallow, so replay skips the depth walk."""


class LoadedCalls(list[Call]):
    """The calls of a log (a list of Call) plus what was left out and why."""

    skipped: int
    """Lines that are not valid JSON (non-strict mode only)."""
    skipped_lines: list[int]
    ignored: int
    """Valid records left out: another tool, or a JSON-RPC message that is not tools/call."""

    surrogate_lines: list[int]
    """Of ``skipped_lines``, those skipped for a lone surrogate (read in strict mode too)."""

    def __init__(self, calls: Iterable[Call] = ()):
        super().__init__(calls)
        self.skipped = 0
        self.skipped_lines = []
        self.surrogate_lines = []
        self.ignored = 0


_ABSENT = object()
LOG_KEYS = frozenset(
    {
        "tool",
        "arguments",
        "time",
        "ts",
        "server",
        "principal",
        "id",
        "digest",
        "redacted",
        "seal",
        "held",
    }
)
"""Keys of a server-log record. ``digest``, ``redacted`` and ``seal`` were added by the proxy
for ``rerun`` (store/calllog.py), ``held`` for a call to a held tool;
logs without them read as before. ``rerun`` (services/rerun.py) reads records by the same set."""
# orjson reads an integer outside [-2**63, 2**64) as a float, silently: a line that may hold
# one (exactints.long_digit_run: 19 digits in a row) takes the exact parser. A chunk is checked
# whole first (0.04 us a line, where a regex per line cost 0.5), its lines only on a hit.


_MIN_DEEP_BYTES = 2 * MAX_DEPTH


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while building many small acyclic objects.

    Measured: with the GC on, allocating 200,000 calls or outcomes triggers repeated
    collections that cost 2-6x the work itself (CallOutcome: 2.6 us vs 0.27 us each).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _classify_record(rec: Any) -> tuple[str, str | None, Any]:
    """("call", tool, arguments) or ("ignore", None, None) for a parsed log line.

    Forms: JSON-RPC (has ``jsonrpc`` and ``method``); a server-log record (a string ``tool``
    and an ``arguments`` key, and no keys beyond LOG_KEYS: otherwise a tool whose own
    parameters are called ``tool``/``arguments`` would be misread); anything else is a bare
    argument object (the seed's ``gate`` form).
    """
    if isinstance(rec, dict):
        if "jsonrpc" in rec and "method" in rec:
            params = rec.get("params")
            if rec["method"] != "tools/call" or not isinstance(params, dict):
                return "ignore", None, None
            name = params.get("name")
            # MCP makes arguments optional: an absent one is an empty object.
            return "call", name if isinstance(name, str) else None, params.get("arguments", {})
        tool = rec.get("tool")
        if isinstance(tool, str) and "arguments" in rec and rec.keys() <= LOG_KEYS:
            return "call", tool, rec["arguments"]
    return "call", None, rec


_stdlib_decode = json.JSONDecoder(parse_constant=_reject_constant).decode


def _exact_loads(raw: bytes) -> Any:
    # One decoder made once: json.loads(raw, parse_constant=...) builds a new decoder per line
    # (measured: half the cost of a 100,000-line log).
    return _stdlib_decode(raw.decode("utf-8"))


_CHUNK = 1 << 20


def _chunks(f: Any) -> Iterator[tuple[list[bytes], bool]]:
    """The lines of a binary file, read 1 MiB at a time, a chunk's worth per step, with
    whether any of them needs the exact parser: memory holds one chunk and the longest line,
    never the file. One digit scan per chunk decides whether any of its lines may hold an
    integer orjson cannot represent. (A step per chunk, not per line: the loop over a
    100,000-line log resumes no generator per line.)"""
    pending: list[bytes] = []  # the unfinished last line, in pieces (no quadratic joins)
    first = True
    while True:
        block = f.read(_CHUNK)
        if not block:
            break
        if first:
            first = False
            if block.startswith(b"\xef\xbb\xbf"):
                block = block[3:]
        if b"\n" not in block:
            pending.append(block)
            continue
        data = b"".join((*pending, block)) if pending else block
        parts = data.split(b"\n")
        last = parts.pop()
        pending = [last] if last else []
        yield parts, long_digit_run(data)
    if pending:
        yield [b"".join(pending)], True


def parse_calls(
    f: IO[bytes],
    *,
    source: str,
    tool: str | None = None,
    strict: bool = True,
    stats: LoadedCalls | None = None,
) -> Iterator[Call]:
    """The calls of a JSONL log one at a time, reading the file a chunk at a time, so a caller
    that keeps only some of them holds memory for those, not for the log. ``stats`` (if
    given) receives the ``skipped`` / ``skipped_lines`` / ``ignored`` counts as lines go by.
    Same lines, errors and numbering as ``store.readers.load_calls``. ``f`` is a binary
    stream the caller opened (``store.readers.iter_calls`` opens a log file); ``source``
    names it in errors."""
    st = stats if stats is not None else LoadedCalls()
    n = 0
    fast_loads = _orjson.loads if _orjson is not None else None
    with gc_paused():
        try:
            lineno = 0
            for lines, exact in _chunks(f):
                for raw in lines:
                    lineno += 1
                    problem = None
                    try:
                        # orjson reads integers past 64 bits as floats: the exact parser.
                        if fast_loads is None or (exact and long_digit_run(raw)):
                            rec = _exact_loads(raw)
                            if has_lone_surrogate(rec):
                                problem = LONE_SURROGATE
                        else:
                            try:
                                rec = fast_loads(raw)
                            except ValueError:
                                # orjson refuses some JSON the standard accepts (a lone surrogate
                                # escape such as "\ud800"): the exact parser decides, and such a
                                # record is a bad one (no validator reads it, see UNREADABLE).
                                rec = _exact_loads(raw)
                                if has_lone_surrogate(rec):
                                    problem = LONE_SURROGATE
                    except json.JSONDecodeError as e:  # orjson.JSONDecodeError subclasses it
                        if not raw.strip():  # blank lines are allowed; checked only on failure
                            continue
                        problem = f"invalid JSON: {e.msg} (column {e.colno})"
                    except UnicodeDecodeError:
                        problem = "invalid JSON: not UTF-8 text"
                    except (ValueError, RecursionError) as e:
                        problem = f"invalid JSON: {e}"
                    # Nesting d levels takes at least 2d bytes: short lines need no depth walk.
                    if (
                        problem is None
                        and len(raw) > _MIN_DEEP_BYTES
                        and raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
                        and too_deep(rec)
                    ):
                        problem = f"JSON nesting deeper than {MAX_DEPTH} levels"
                    if problem is not None:
                        if strict and problem is not LONE_SURROGATE:
                            raise InputError(problem, source=source, line=lineno)
                        # A lone surrogate is counted and named, never fatal: one planted line
                        # must not stop the rest of a log being read.
                        st.skipped += 1
                        st.skipped_lines.append(lineno)
                        if problem is LONE_SURROGATE:
                            st.surrogate_lines.append(lineno)
                        continue
                    if type(rec) is dict and "jsonrpc" not in rec:
                        name = rec.get("tool", _ABSENT)
                        if name is _ABSENT:
                            n += 1  # the common bare-argument line, without the classifier call
                            yield Call(n, lineno, rec, None, True)
                            continue
                        if type(name) is str and "arguments" in rec and rec.keys() <= LOG_KEYS:
                            # a server-log record (as _classify_record decides), inline
                            if tool is not None and name != tool:
                                st.ignored += 1
                                continue
                            n += 1
                            yield Call(n, lineno, rec["arguments"], name, True)
                            continue
                    kind, name, args = _classify_record(rec)
                    if kind == "ignore" or (tool is not None and name is not None and name != tool):
                        st.ignored += 1
                        continue
                    n += 1
                    yield Call(n, lineno, args, name, True)
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror}", source=source) from None


def one_call(line: bytes) -> Call | None:
    """The call :func:`parse_calls` reads from ``line``, one server-log record with its ``\\n``
    (as the recording proxy appends them), when it takes none of that reader's slow paths;
    None when it might (a long digit run, a line long enough to nest deeply, anything orjson
    refuses, any other form of record): ``parse_calls`` must read it then."""
    if (
        _orjson is None
        or len(line) > _MIN_DEEP_BYTES
        or line.count(b"\n") != 1
        or not line.endswith(b"\n")
        or line.startswith(b"\xef\xbb\xbf")
        or long_digit_run(line)
    ):
        return None
    try:
        rec = _orjson.loads(line)
    except ValueError:
        return None
    if type(rec) is not dict or "jsonrpc" in rec:
        return None
    name = rec.get("tool")
    if type(name) is not str or "arguments" not in rec or not rec.keys() <= LOG_KEYS:
        return None
    return Call(1, 1, rec["arguments"], name, True)
