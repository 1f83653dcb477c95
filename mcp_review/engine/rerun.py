"""Rerun, the pure half: which recorded calls may be re-sent, and how a live result compares.

Seed 003 §3b: a pin defends the model's view of a tool, not what it does. ``rerun`` re-issues
recorded calls of read-only tools and compares the answers; this module decides, without any
I/O, (1) whether one recorded call may be sent at all (:func:`send_verdict`: every condition of
docs/rerun.md, each failure with its reason) and (2) what changed between the recorded result and
two live ones (:func:`compare`): ``structuredContent`` as JSON with pointers, text content as a
word diff, the pinned ``outputSchema`` for shape drift, and values that differ between the two
live answers as *volatile* (ignored and listed).

Pointers are JSON pointers into the ``CallToolResult``: ``/structuredContent/cluster``,
``/content/0/text``. A ``rerun_ignore`` pointer that starts with neither ``/structuredContent``
nor ``/content`` nor ``/isError`` is read as a pointer into ``structuredContent`` (so
``/generated_at`` works as people write it).
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from typing import Any

from mcp_review.engine.canonical import canonical_bytes, json_equal
from mcp_review.engine.model import pointer_escape

REDACTED = "[REDACTED]"
"""What the call log writes in place of a secret (store.calllog.REDACTED, same text)."""

DEFAULT_MAX_CALLS = 20
"""Distinct argument sets re-sent per tool, newest first."""

MAX_TEXT_TOKENS = 20_000
"""Word diffs beyond this many tokens a side compare whole texts only (difflib is quadratic)."""

MAX_DIFFERENCES = 200
"""Differences kept per call (the count says how many there were)."""

NEAR_CALL = timedelta(hours=48)
"""A date, time or date-time this close to its own call's time is the server's clock speaking
(``get_current_time``, "generated at"): volatile when it differs, recorded and live alike."""

HANDLE_MIN = 8
"""Shortest argument string that counts as a server-minted handle when an earlier recorded
result of the same server carried it first (an id, a cursor, a session token)."""

REASON_LIVE = "differed between the two live answers"
REASON_CLOCK = "a date/time within 48 hours of its own call's time, recorded and live"


class RerunOutcome(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    SHAPE_DRIFT = "shape-drift"
    NOW_ERROR = "now-error"
    SKIPPED = "skipped"
    NO_RESULT = "no-result-recorded"


FAILING = frozenset({RerunOutcome.CHANGED, RerunOutcome.SHAPE_DRIFT, RerunOutcome.NOW_ERROR})
"""Outcomes that make ``rerun`` exit 1 (and need review in the gate)."""


# Annotations -----------------------------------------------------------------------------


def is_read_only(wire: Mapping[str, Any] | None) -> bool:
    """``readOnlyHint: true`` and not ``destructiveHint: true`` (exact booleans: a string
    ``"true"`` claims nothing)."""
    ann = wire.get("annotations") if isinstance(wire, Mapping) else None
    if not isinstance(ann, Mapping):
        return False
    return ann.get("readOnlyHint") is True and ann.get("destructiveHint") is not True


def is_closed_world(wire: Mapping[str, Any] | None) -> bool:
    """``openWorldHint: false`` exactly (MCP's default is true: an absent hint is open)."""
    ann = wire.get("annotations") if isinstance(wire, Mapping) else None
    return isinstance(ann, Mapping) and ann.get("openWorldHint") is False


# Recorded calls --------------------------------------------------------------------------


@dataclass(slots=True)
class RecordedCall:
    """One recorded ``tools/call`` with what the proxy kept about it."""

    tool: str
    arguments: Any
    time: str | None = None
    rpc_id: Any = None
    digest: str | None = None
    """Digest of the definition the call was made against (absent in older logs)."""
    redacted: bool = False
    """The recorder replaced at least one argument value (a secret): never re-sent."""
    sealed: bool = False
    """The record's seal verified under this user's key (store/calllog.py): only then are
    its digest and arguments what this user's proxy recorded. Unsealed: never re-sent."""
    result: dict[str, Any] | None = None
    """The recorded ``CallToolResult`` (redacted), or None."""
    error: dict[str, Any] | None = None
    """The recorded JSON-RPC error, when the call failed."""
    result_digest: str | None = None
    """Set when the recorded result was capped: the digest of its comparable form."""
    result_bytes: int | None = None
    minted: tuple[str, str] | None = None
    """(pointer into the arguments, value) of an argument string that first appeared in an
    earlier recorded result of the same server (set by the loader): a server-minted handle,
    stale by the time the call is re-sent, so the call is never re-sent."""

    @property
    def has_result(self) -> bool:
        return self.result is not None or self.error is not None or self.result_digest is not None


def has_redacted_value(value: Any) -> bool:
    """True if ``[REDACTED]`` appears in any string of ``value`` (older logs carry no flag)."""
    stack = [value]
    seen = 0
    while stack:
        v = stack.pop()
        seen += 1
        if seen > 1_000_000:
            return True  # fail closed on absurd sizes
        if isinstance(v, str):
            if REDACTED in v:
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _strings(value: Any, base: str = "") -> Iterator[tuple[str, str]]:
    """(pointer, string) of every string value in ``value`` (keys are names, not values),
    iteratively and bounded."""
    stack: list[tuple[str, Any]] = [(base, value)]
    seen = 0
    while stack and seen < 1_000_000:
        ptr, v = stack.pop()
        seen += 1
        if isinstance(v, str):
            yield ptr, v
        elif isinstance(v, dict):
            stack.extend((f"{ptr}/{_esc(str(k))}", x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((f"{ptr}/{i}", x) for i, x in enumerate(v))


def handle_candidates(arguments: Any) -> dict[str, str]:
    """Argument strings long enough to be a server-minted handle: value -> its pointer."""
    out: dict[str, str] = {}
    for ptr, v in _strings(arguments):
        if len(v) >= HANDLE_MIN and v != REDACTED:
            out.setdefault(v, ptr)
    return out


def strings_in(value: Any) -> Iterator[str]:
    """Every string value in a recorded result (text content included)."""
    for _ptr, v in _strings(value):
        yield v


def mentioned(value: Any, candidates: Iterable[str]) -> set[str]:
    """The ``candidates`` that occur in a string of ``value`` (a whole value, or inside a
    text: "Created page 3f2a9c01")."""
    wanted = set(candidates)
    found: set[str] = set()
    if not wanted:
        return found
    for text in strings_in(value):
        for c in wanted - found:
            if c in text:
                found.add(c)
        if found == wanted:
            break
    return found


def args_key(arguments: Any) -> str:
    """Identity of an argument set (canonical JSON; unhashable input gets a unique key)."""
    try:
        return canonical_bytes(arguments).decode("utf-8", "surrogatepass")
    except (ValueError, TypeError):
        return f"<unhashable:{id(arguments)}>"


def select_calls(
    calls: Iterable[RecordedCall],
    tools: Sequence[str] | None = None,
    max_calls: int = DEFAULT_MAX_CALLS,
) -> list[RecordedCall]:
    """Per tool, the newest call of each distinct argument set, newest first, at most
    ``max_calls`` per tool. ``calls`` are in log order (oldest first). The newest call stands
    for its argument set even when only an older one has a result (it is then
    ``no-result-recorded``): the newest evidence is what the operator is shown."""
    by_tool: dict[str, dict[str, RecordedCall]] = {}
    for c in calls:
        if tools and c.tool not in tools:
            continue
        seen = by_tool.setdefault(c.tool, {})
        k = args_key(c.arguments)
        seen.pop(k, None)
        seen[k] = c
    out: list[RecordedCall] = []
    for tool in sorted(by_tool):
        newest_first = list(reversed(by_tool[tool].values()))
        out.extend(newest_first[: max(0, max_calls)])
    return out


@dataclass(frozen=True, slots=True)
class SendVerdict:
    send: bool
    outcome: RerunOutcome | None = None
    """SKIPPED or NO_RESULT when not sent."""
    reason: str = ""


def send_verdict(
    call: RecordedCall,
    *,
    pin_decision: str | None,
    pin_digest: str | None,
    pin_wire: Mapping[str, Any] | None,
    pin_problem: str | None = None,
    live_wire: Mapping[str, Any] | None,
    live_digest: str | None,
    open_world: bool = False,
) -> SendVerdict:
    """May this recorded call be re-sent? Every condition of docs/rerun.md, in the order an operator
    would fix them; the first that fails is the reason. Fail closed: anything unknown skips.

    ``pin_*``: the pin file's decision, digest and approved definition for the tool (None when
    there is no pin); ``pin_problem``: why the pin cannot be trusted (it does not verify).
    ``live_*``: the definition the live server lists now, in the session the call would use.
    """

    def skip(why: str) -> SendVerdict:
        return SendVerdict(False, RerunOutcome.SKIPPED, why)

    if pin_decision is None:
        return skip("no pin: the tool was never approved")
    if pin_decision == "denied":
        return skip("denied in the pin file")
    if pin_decision != "approved":
        return skip(f"its pin's decision is {pin_decision!r}, not approved")
    if pin_problem is not None:
        return skip(f"its pin does not verify: {pin_problem}")
    if pin_digest is None or pin_wire is None:
        return skip("its pin has no approved definition")
    if live_wire is None or live_digest is None:
        return skip("the live server does not list it")
    if live_digest != pin_digest:
        return skip("its live definition is not the approved one (review the change first)")
    if call.digest is None:
        return skip(
            "recorded without the definition it was made against (an older log, or "
            "the proxy had not seen the tool listed)"
        )
    if not call.sealed:
        return skip(
            "its log line is not sealed by your mcp-review proxy (written by hand, "
            "edited, planted, or recorded by another user): never re-sent"
        )
    if call.digest != pin_digest:
        return skip("recorded against a definition that is not the approved one")
    if not is_read_only(pin_wire):
        return skip(
            "not read-only in the approved definition (readOnlyHint true, destructiveHint not true)"
        )
    if not is_read_only(live_wire):
        return skip("not read-only in the live definition")
    if not open_world and not (is_closed_world(pin_wire) and is_closed_world(live_wire)):
        return skip(
            "openWorldHint is not false (it may reach outside systems; --open-world allows it)"
        )
    if not isinstance(call.arguments, dict):
        return skip("its recorded arguments are not a JSON object")
    if call.redacted or has_redacted_value(call.arguments):
        return skip("an argument was redacted when it was recorded (the call cannot be rebuilt)")
    if call.minted is not None:
        ptr, value = call.minted
        shown = value if len(value) <= 40 else value[:40] + "…"
        return skip(
            f"argument {ptr or '/'} ({shown!r}) first appeared in an earlier recorded result "
            "of this server: a server-minted handle (an id, a cursor), likely stale by now"
        )
    if not call.has_result:
        return SendVerdict(
            False,
            RerunOutcome.NO_RESULT,
            "no result was recorded for this call (record_results = true in the config)",
        )
    return SendVerdict(True)


# Results ---------------------------------------------------------------------------------


def comparable(result: Mapping[str, Any] | None) -> dict[str, Any]:
    """The parts of a ``CallToolResult`` a rerun compares: ``content``, ``structuredContent``
    (when present) and ``isError`` (absent = false). ``_meta`` and unknown keys are the
    server's metadata, not the answer."""
    if not isinstance(result, Mapping):
        return {"content": [], "isError": False, "invalid": True}
    out: dict[str, Any] = {
        "content": result.get("content") if isinstance(result.get("content"), list) else [],
        "isError": result.get("isError") is True,
    }
    if "structuredContent" in result and result["structuredContent"] is not None:
        out["structuredContent"] = result["structuredContent"]
    return out


def result_digest(result: Mapping[str, Any] | None) -> str:
    """``sha256:`` over the canonical JSON of :func:`comparable` (the proxy stores this for a
    result too large to keep whole)."""
    return "sha256:" + hashlib.sha256(canonical_bytes(comparable(result))).hexdigest()


@dataclass(frozen=True, slots=True)
class Difference:
    pointer: str
    old: Any = None
    new: Any = None
    has_old: bool = True
    has_new: bool = True
    text: bool = False
    """A word-diff hunk of text content (old/new are the words)."""

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pointer": self.pointer}
        if self.has_old:
            d["old"] = self.old
        if self.has_new:
            d["new"] = self.new
        return d


@dataclass(slots=True)
class Comparison:
    outcome: RerunOutcome
    reason: str = ""
    differences: list[Difference] = field(default_factory=list)
    volatile: list[str] = field(default_factory=list)
    differences_total: int = 0
    volatile_reasons: dict[str, str] = field(default_factory=dict)
    """pointer -> why it is volatile (:data:`REASON_LIVE`, :data:`REASON_CLOCK`)."""


def _esc(token: str) -> str:
    return pointer_escape(token)


_MISSING = object()


def json_diff(old: Any, new: Any, base: str = "") -> list[Difference]:
    """Leaf differences between two JSON values, each at its JSON pointer (iterative).
    Numbers compare as JSON does (1 == 1.0, true != 1)."""
    out: list[Difference] = []
    stack: list[tuple[str, Any, Any]] = [(base, old, new)]
    while stack:
        ptr, a, b = stack.pop()
        if a is _MISSING:
            out.append(Difference(ptr, None, b, has_old=False))
        elif b is _MISSING:
            out.append(Difference(ptr, a, None, has_new=False))
        elif isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), reverse=True):
                stack.append((f"{ptr}/{_esc(str(k))}", a.get(k, _MISSING), b.get(k, _MISSING)))
        elif isinstance(a, list) and isinstance(b, list):
            for i in range(max(len(a), len(b)) - 1, -1, -1):
                stack.append(
                    (
                        f"{ptr}/{i}",
                        a[i] if i < len(a) else _MISSING,
                        b[i] if i < len(b) else _MISSING,
                    )
                )
        elif not _same_scalar(a, b):
            out.append(Difference(ptr, a, b))
    return out


def _same_scalar(a: Any, b: Any) -> bool:
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b or (type(a) is type(b) and a == b)
    return json_equal(a, b)


_WORD = re.compile(r"\s+|[^\s]+")


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text)


@dataclass(frozen=True, slots=True)
class Hunk:
    old: tuple[int, int]
    new: tuple[int, int]


def word_hunks(a: list[str], b: list[str]) -> list[Hunk]:
    """Token ranges that differ between two token lists (difflib, no junk heuristic)."""
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [Hunk((i1, i2), (j1, j2)) for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]


def word_diff_text(old: str, new: str) -> str:
    """``old`` → ``new`` as one line of words, ``[-removed-]{+added+}`` (for the text report)."""
    a, b = _tokens(old), _tokens(new)
    if len(a) > MAX_TEXT_TOKENS or len(b) > MAX_TEXT_TOKENS:
        return f"[-{old}-]{{+{new}+}}"
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            parts.append("".join(a[i1:i2]))
            continue
        if i2 > i1:
            parts.append("[-" + "".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + "".join(b[j1:j2]) + "+}")
    return "".join(parts)


def _text_diff(
    ptr: str, old: str, new: str, new2: str | None, clock: _Clock | None = None
) -> tuple[list[Difference], str | None]:
    """Word-diff hunks of recorded ``old`` vs live ``new``, minus hunks whose live words all
    differed between the two live answers (``new2``) and hunks that differ only by dates and
    times near their calls' times (``clock``): (differences, why the text is volatile)."""
    if old == new:
        return [], (REASON_LIVE if new2 is not None and new2 != new else None)
    a, b = _tokens(old), _tokens(new)
    if len(a) > MAX_TEXT_TOKENS or len(b) > MAX_TEXT_TOKENS:
        return [Difference(ptr, old, new, text=True)], None
    volatile_tok: set[int] = set()
    if new2 is not None and new2 != new:
        c = _tokens(new2)
        if len(c) <= MAX_TEXT_TOKENS:
            for h in word_hunks(b, c):
                volatile_tok.update(range(*h.old))
    out: list[Difference] = []
    why: str | None = REASON_LIVE if volatile_tok else None
    for h in word_hunks(a, b):
        span = range(*h.new)
        if volatile_tok and len(span) and all(i in volatile_tok or not b[i].strip() for i in span):
            continue
        was, now = "".join(a[h.old[0] : h.old[1]]), "".join(b[h.new[0] : h.new[1]])
        if clock is not None and clock.same_but_clock(was, now):
            why = why or REASON_CLOCK
            continue
        out.append(Difference(ptr, was, now, text=True))
    return out, why


# Dates and times near their call -----------------------------------------------------------

_OFFSET = r"(?:[Zz]|[+-]\d{2}(?::?\d{2})?)"
_FRAC = r"(?:[.,]\d+)?"
_DATE_TIME = rf"\d{{4}}-\d{{2}}-\d{{2}}[Tt ]\d{{2}}:\d{{2}}(?::\d{{2}}{_FRAC})?{_OFFSET}?"
_DATE = r"\d{4}-\d{2}-\d{2}"
_TIME = rf"\d{{2}}:\d{{2}}(?::\d{{2}}{_FRAC})?{_OFFSET}?"
_WHOLE = re.compile(rf"{_DATE_TIME}|{_DATE}|{_TIME}")
_IN_TEXT = re.compile(
    rf"(?<![\d:.-])(?:{_DATE_TIME}|{_DATE}|\d{{2}}:\d{{2}}:\d{{2}}{_FRAC}{_OFFSET}?)(?![\d:])"
)
_TIME_FORMATS = frozenset({"date-time", "date", "time"})
_NAIVE_SLACK = timedelta(hours=14)
"""A date-time without an offset is read as UTC, give or take the widest zone offset."""


def parse_call_time(text: str | None) -> datetime | None:
    """A call log's ``time`` (``2026-11-30T23:21:47.820Z``) as an aware datetime, or None."""
    if not isinstance(text, str):
        return None
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def near_call(value: str, call: datetime, fmt: str | None = None) -> bool:
    """``value`` is a date, time or date-time (by its shape, or by its schema's ``format``)
    within :data:`NEAR_CALL` of ``call``. A time of day alone always is (it names a moment of
    the day around the call); a date is when it is within two days of the call's date."""
    if len(value) > 64 or not (fmt in _TIME_FORMATS or _WHOLE.fullmatch(value)):
        return False
    text = value.strip()
    if len(text) > 10 and text[10] == " ":
        text = text[:10] + "T" + text[11:]
    try:
        if len(text) == 10 and text[4] == "-":
            d = date.fromisoformat(text)
            return abs((d - call.astimezone(UTC).date()).days) <= NEAR_CALL.days
        if "T" in text or "t" in text:
            t = datetime.fromisoformat(text.replace("t", "T").replace("z", "Z"))
            slack = timedelta(0)
            if t.tzinfo is None:
                t, slack = t.replace(tzinfo=UTC), _NAIVE_SLACK
            return abs(t - call) <= NEAR_CALL + slack
        from datetime import time as _time

        _time.fromisoformat(text.replace("z", "Z"))
        return True
    except (ValueError, OverflowError):
        return False


@dataclass(frozen=True, slots=True)
class _Clock:
    """The two calls' times: the recorded one and the live one."""

    recorded: datetime
    live: datetime

    def both_near(self, old: Any, new: Any, fmt: str | None = None) -> bool:
        return (
            isinstance(old, str)
            and isinstance(new, str)
            and near_call(old, self.recorded, fmt)
            and near_call(new, self.live, fmt)
        )

    def same_but_clock(self, old: str, new: str) -> bool:
        """Two texts equal once every date/time near its own call is set aside (and there was
        at least one)."""
        hits = [0]

        def blank(text: str, call: datetime) -> str:
            def sub(m: re.Match[str]) -> str:
                if near_call(m.group(), call):
                    hits[0] += 1
                    return "\0"
                return m.group()

            return _IN_TEXT.sub(sub, text)

        return blank(old, self.recorded) == blank(new, self.live) and hits[0] > 0


def _format_at(schema: Any, pointer: str) -> str | None:
    """The ``format`` the pinned outputSchema declares at a ``/structuredContent`` pointer
    (through properties, items, prefixItems and additionalProperties only), or None."""
    if not pointer.startswith("/structuredContent") or not isinstance(schema, dict):
        return None
    node: Any = schema
    for raw in pointer.split("/")[2:]:
        tok = raw.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict):
            return None
        props = node.get("properties")
        if isinstance(props, dict) and tok in props:
            node = props[tok]
        elif tok.isdigit() and isinstance(node.get("prefixItems"), list):
            items = node["prefixItems"]
            node = items[int(tok)] if int(tok) < len(items) else node.get("items")
        elif tok.isdigit() and isinstance(node.get("items"), dict):
            node = node["items"]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
    fmt = node.get("format") if isinstance(node, dict) else None
    return fmt if isinstance(fmt, str) else None


def normalise_ignore(pointer: str) -> str:
    """A ``rerun_ignore`` entry as a pointer into the result (see the module doc)."""
    if pointer in ("", "/"):
        return "/structuredContent"
    for root in ("/structuredContent", "/content", "/isError"):
        if pointer == root or pointer.startswith(root + "/"):
            return pointer
    return "/structuredContent" + (pointer if pointer.startswith("/") else "/" + pointer)


def _under(ptr: str, prefixes: Iterable[str]) -> bool:
    return any(ptr == p or ptr.startswith(p + "/") for p in prefixes)


def _is_own_serialisation(item: Any, structured: Any) -> bool:
    """A text item that is just the JSON of the same answer's structuredContent (SDKs emit
    both): compared once, as structuredContent."""
    if structured is _MISSING or not isinstance(item, dict) or item.get("type") != "text":
        return False
    text = item.get("text")
    if not isinstance(text, str):
        return False
    import json

    try:
        return json_equal(json.loads(text), structured)
    except (ValueError, RecursionError):  # too deep to decide: compared as text instead
        return False


def _diff_results(
    rec: dict[str, Any],
    live: dict[str, Any],
    live2: dict[str, Any] | None,
    clock: _Clock | None = None,
) -> tuple[list[Difference], dict[str, str]]:
    """(differences recorded→live, volatile pointers and why) over comparable forms."""
    diffs: list[Difference] = []
    volatile: dict[str, str] = {}
    rs = rec.get("structuredContent", _MISSING)
    ls = live.get("structuredContent", _MISSING)
    l2s = live2.get("structuredContent", _MISSING) if live2 is not None else _MISSING
    if rs is not _MISSING or ls is not _MISSING:
        diffs.extend(json_diff(rs, ls, "/structuredContent"))
        if live2 is not None:
            volatile.update(
                (d.pointer, REASON_LIVE) for d in json_diff(ls, l2s, "/structuredContent")
            )
    if rec.get("isError") != live.get("isError"):
        diffs.append(Difference("/isError", rec.get("isError"), live.get("isError")))
    rc, lc = rec.get("content", []), live.get("content", [])
    l2c = live2.get("content", []) if live2 is not None else None
    for i in range(max(len(rc), len(lc))):
        ptr = f"/content/{i}"
        ri = rc[i] if i < len(rc) else _MISSING
        li = lc[i] if i < len(lc) else _MISSING
        l2i = l2c[i] if l2c is not None and i < len(l2c) else _MISSING
        if _is_own_serialisation(ri, rs) and _is_own_serialisation(li, ls):
            continue
        if (
            isinstance(ri, dict)
            and isinstance(li, dict)
            and ri.get("type") == "text"
            and li.get("type") == "text"
            and isinstance(ri.get("text"), str)
            and isinstance(li.get("text"), str)
        ):
            rest_r = {k: v for k, v in ri.items() if k != "text"}
            rest_l = {k: v for k, v in li.items() if k != "text"}
            diffs.extend(json_diff(rest_r, rest_l, ptr))
            t2 = l2i.get("text") if isinstance(l2i, dict) else None
            d, why = _text_diff(
                f"{ptr}/text", ri["text"], li["text"], t2 if isinstance(t2, str) else None, clock
            )
            diffs.extend(d)
            if why:
                volatile[f"{ptr}/text"] = why
            continue
        diffs.extend(json_diff(ri, li, ptr))
        if live2 is not None and li is not _MISSING:
            volatile.update((d.pointer, REASON_LIVE) for d in json_diff(li, l2i, ptr))
    return diffs, volatile


def _is_error(result: Mapping[str, Any] | None, error: Any) -> bool:
    return error is not None or (isinstance(result, Mapping) and result.get("isError") is True)


def _compare_failures(
    recorded: RecordedCall, live: Mapping[str, Any] | None, live_error: Any
) -> Comparison | None:
    """The verdict when either side failed (a JSON-RPC error or ``isError``), or None when
    both answered: a failure is compared by its code, never by its result's values."""
    rec_err = _is_error(recorded.result, recorded.error)
    if _is_error(live, live_error) and not rec_err:
        what = _error_text(live, live_error)
        return Comparison(
            RerunOutcome.NOW_ERROR,
            f"the call now fails: {what}",
            [Difference("", "a result", what)],
            differences_total=1,
        )
    if live_error is not None or recorded.error is not None:
        # Both failed at the JSON-RPC level (or one did and the other returned isError).
        a = recorded.error.get("code") if isinstance(recorded.error, dict) else None
        b = live_error.get("code") if isinstance(live_error, dict) else None
        if recorded.error is not None and live_error is not None and a == b:
            return Comparison(RerunOutcome.SAME, "it failed then and fails now, with the same code")
        return Comparison(
            RerunOutcome.CHANGED,
            "it failed when recorded and fails differently now",
            [
                Difference(
                    "/error",
                    _error_text(recorded.result, recorded.error),
                    _error_text(live, live_error),
                )
            ],
            differences_total=1,
        )
    return None


def _shape_drift(
    live_c: dict[str, Any], output_schema: Any, shape_errors: Sequence[tuple[str, str]] | None
) -> Comparison | None:
    """SHAPE_DRIFT when a pinned outputSchema is not kept by the live answer (missing
    structuredContent, or the validator's errors), else None: the shape is judged before the
    values, since values of the wrong shape are not worth comparing."""
    if output_schema is None or live_c["isError"]:
        return None
    if "structuredContent" not in live_c:
        return Comparison(
            RerunOutcome.SHAPE_DRIFT,
            "no structuredContent although the pinned definition declares an outputSchema",
            [Difference("/structuredContent", None, None, has_old=False, has_new=False)],
            differences_total=1,
        )
    if shape_errors:
        ds = [
            Difference("/structuredContent" + p, None, msg, has_old=False)
            for p, msg in shape_errors
        ]
        return Comparison(
            RerunOutcome.SHAPE_DRIFT,
            "the live result does not validate against the pinned outputSchema",
            ds[:MAX_DIFFERENCES],
            differences_total=len(ds),
        )
    return None


def _compare_capped(recorded: RecordedCall, live: Mapping[str, Any] | None) -> Comparison:
    """The verdict on a call whose result was capped at record time: only its digest was
    kept, so the live result can only be the same or not (volatile values cannot be told)."""
    try:
        live_digest = result_digest(live)
    except (ValueError, TypeError):  # nested deeper than the canonical form allows
        live_digest = "(cannot be hashed)"
    if live_digest == recorded.result_digest:
        return Comparison(RerunOutcome.SAME, "the recorded result was capped; its digest matches")
    return Comparison(
        RerunOutcome.CHANGED,
        f"the recorded result was capped at record time "
        f"({recorded.result_bytes} bytes): only its digest could be compared, "
        "and it differs (volatile values cannot be told apart)",
        [Difference("", recorded.result_digest, live_digest)],
        differences_total=1,
    )


def _real_changes(
    diffs: list[Difference],
    volatile: dict[str, str],
    ignores: Sequence[str],
    clock: _Clock | None,
    output_schema: Any,
) -> list[Difference]:
    """The differences that are real changes: not volatile, not ignored, not a date or time
    near its own call (added to ``volatile`` with :data:`REASON_CLOCK`), not a value redacted
    when recorded."""
    kept: list[Difference] = []
    for d in diffs:
        # Text hunks were already filtered word by word (_text_diff); the text's pointer is
        # listed as volatile, but a hunk outside its volatile words is a real change.
        if (not d.text and _under(d.pointer, volatile)) or _under(d.pointer, ignores):
            continue
        if (
            not d.text
            and clock is not None
            and clock.both_near(d.old, d.new, _format_at(output_schema, d.pointer))
        ):
            volatile[d.pointer] = REASON_CLOCK
            continue
        if d.has_old and d.old == REDACTED:
            continue  # redacted when recorded (maybe by a pattern this run does not use)
        kept.append(d)
    return kept


def _values_verdict(
    kept: list[Difference], volatile: dict[str, str], second_failed: bool
) -> Comparison:
    """SAME or CHANGED from the real changes, with a note of what was set aside as volatile
    and whether the second call (which tells the volatile values) failed."""
    vol = sorted(volatile)
    reasons = {p: volatile[p] for p in vol}
    note = " (volatile values ignored)" if vol else ""
    if second_failed:
        note += " (the second call failed: volatile values could not be told apart)"
    if not kept:
        return Comparison(
            RerunOutcome.SAME, "same result" + note, [], vol, volatile_reasons=reasons
        )
    return Comparison(
        RerunOutcome.CHANGED,
        f"{len(kept)} difference(s){note}",
        kept[:MAX_DIFFERENCES],
        vol,
        differences_total=len(kept),
        volatile_reasons=reasons,
    )


def compare(
    recorded: RecordedCall,
    live: Mapping[str, Any] | None,
    live_error: Any = None,
    *,
    live2: Mapping[str, Any] | None = None,
    live2_error: Any = None,
    output_schema: Any = None,
    ignore: Sequence[str] = (),
    shape_errors: Sequence[tuple[str, str]] | None = None,
    live_time: str | None = None,
) -> Comparison:
    """Compare a recorded call's result with the live answer (and a second live answer, which
    decides what is volatile). Both sides must already be redacted the same way.

    ``shape_errors``: the validator's ``(pointer, message)`` errors of the live
    ``structuredContent`` against the pinned ``outputSchema`` (computed by the caller with the
    real validator; None when there is no output schema). ``output_schema`` tells whether
    structuredContent is required, and the ``format`` of its values.

    ``live_time``: when the (first) live call was sent. With the recorded call's ``time``, a
    date, time or date-time that lies within :data:`NEAR_CALL` of its own call's time in the
    recorded and in the live answer is volatile (the server's clock), whatever the two live
    answers say: they are often sent within the same second.
    """
    ignores = [normalise_ignore(p) for p in ignore]
    failed = _compare_failures(recorded, live, live_error)
    if failed is not None:
        return failed
    live_c = comparable(live)
    drift = _shape_drift(live_c, output_schema, shape_errors)
    if drift is not None:
        return drift
    live2_c = (
        comparable(live2)
        if live2 is not None and live2_error is None and not _is_error(live2, None)
        else None
    )
    if recorded.result is None and recorded.result_digest is not None:
        return _compare_capped(recorded, live)
    rec_c = comparable(recorded.result)
    rec_t, live_t = parse_call_time(recorded.time), parse_call_time(live_time)
    clock = _Clock(rec_t, live_t) if rec_t is not None and live_t is not None else None
    diffs, volatile = _diff_results(rec_c, live_c, live2_c, clock)
    kept = _real_changes(diffs, volatile, ignores, clock, output_schema)
    second_failed = (live2 is None or live2_c is None) and (
        live2 is not None or live2_error is not None
    )
    return _values_verdict(kept, volatile, second_failed)


def _error_text(result: Mapping[str, Any] | None, error: Any) -> str:
    if isinstance(error, dict):
        code = error.get("code")
        msg = error.get("message")
        return f"error {code}: {msg}" if msg is not None else f"error {code}"
    if error is not None:
        return str(error)
    if isinstance(result, Mapping):
        texts = [
            c["text"]
            for c in result.get("content") or []
            if isinstance(c, dict) and isinstance(c.get("text"), str)
        ]
        return "isError: " + (" ".join(texts)[:300] if texts else "(no text)")
    return "no result"


def counts(outcomes: Iterable[RerunOutcome]) -> dict[str, int]:
    out = {str(o): 0 for o in RerunOutcome}
    for o in outcomes:
        out[str(o)] += 1
    return out
