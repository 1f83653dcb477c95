"""Replay recorded calls against the old and new input schema with a real JSON Schema validator."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import jsonschema_rs

from mcp_review.engine.calls import Call, gc_paused
from mcp_review.engine.canonical import MAX_DEPTH, too_deep
from mcp_review.engine.errors import InputError
from mcp_review.engine.model import pointer_escape

BACKTRACK_LIMIT = 100_000
"""Backtracking steps allowed to one regex match (fancy-regex; see SchemaValidator).

Measured on this machine: the hostile ``^(a|a)*\\1$`` hits the limit in ~0.3 ms at 10,000 steps,
~3 ms at 100,000 and ~30 ms at the library default of 1,000,000. 100,000 keeps a hostile
schema to a few ms per call while leaving ordinary backreference patterns plenty of room.
"""

MAX_ISSUES = 100
"""Errors kept per instance: a hostile call with a million bad array items must not produce a
million-line report."""

_REGEX_LIMIT_MARK = "Max limit for backtracking"


class SchemaError(InputError):
    """A schema the validator cannot compile (bad regex, unresolvable or remote ``$ref``,
    unknown ``$schema``, not a schema at all, nesting too deep). ``reason`` says which."""

    def __init__(self, reason: str, *, source: str | None = None):
        super().__init__(f"schema cannot be used: {reason}", source=source)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Issue:
    """One validation error: where in the instance, what, and which schema keyword said so."""

    path: str
    """JSON pointer into the instance ("" is the root)."""
    message: str
    schema_path: str
    """JSON pointer into the schema (the keyword that failed)."""

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}

    def __str__(self) -> str:
        return f"{self.path or '/'}: {self.message}"


def _ptr(parts: Sequence[Any]) -> str:
    text = "/".join(map(str, parts))
    if "~" in text or text.count("/") >= len(parts):  # a part holds "~" or "/": escape each
        return "".join("/" + pointer_escape(p) for p in parts)
    return "/" + text if text or parts else ""


class SchemaValidator:
    """One JSON Schema compiled once by jsonschema-rs, reused for every instance.

    - Dialect: from ``$schema`` (draft 4, 6, 7, 2019-09, 2020-12); 2020-12 when absent. An
      unknown ``$schema`` is a SchemaError, not a silent fallback.
    - Offline: remote ``$ref`` is never fetched; a ref that does not resolve locally is a
      SchemaError at compile time.
    - ``format`` is asserted (email, uri, date, ...; unknown formats are ignored): MCP servers
      and clients commonly validate formats, and a call whose ``format`` stops matching breaks.
    - Regex semantics are ECMA-262, as JSON Schema specifies (``\\d`` and ``\\w`` are ASCII; Python
      ``re`` would accept Arabic-Indic digits for ``^\\d+$``). We keep the validator's ECMA
      semantics so a verdict matches what a JavaScript or Rust server decides. Patterns that
      need backtracking (backreferences, look-around) run in fancy-regex with
      ``BACKTRACK_LIMIT`` steps; a match that exceeds it counts as *not matching* and the issue
      message says "Max limit for backtracking count exceeded", so a catastrophic pattern
      costs milliseconds, never a hang. Other patterns run in a linear-time engine.
    - Depth: schemas and instances nested deeper than ``MAX_DEPTH`` are refused before they
      reach the Rust validator (a 100,000-deep instance crashes the process there).
    """

    __slots__ = ("_v", "schema")

    def __init__(self, schema: Any, *, source: str | None = None, formats: bool = True):
        """``formats=False``: ``format`` is an annotation, not asserted (how MCP clients check
        a result's ``structuredContent`` against an output schema, docs/proxy.md "Hold")."""
        self.schema = schema
        if schema is None:
            raise SchemaError("the schema is null", source=source)
        if not isinstance(schema, (dict, bool)):
            raise SchemaError(
                f"a schema must be an object or a boolean, not {type(schema).__name__}",
                source=source,
            )
        if too_deep(schema):
            raise SchemaError(f"nested deeper than {MAX_DEPTH} levels", source=source)
        try:
            self._v = jsonschema_rs.validator_for(
                schema,
                offline=True,
                validate_formats=formats,
                pattern_options=jsonschema_rs.FancyRegexOptions(backtrack_limit=BACKTRACK_LIMIT),
            )
        except jsonschema_rs.ValidationError as e:
            # The meta-schema rejected it, or a $ref / $schema could not be resolved.
            first = str(e.message).split("\n", 1)[0].strip()
            where = _ptr(e.instance_path)
            raise SchemaError(f"{first} (at {where})" if where else first, source=source) from None
        except (ValueError, TypeError, OverflowError, RecursionError) as e:
            raise SchemaError(str(e).split("\n", 1)[0] or type(e).__name__, source=source) from None

    def is_valid(self, instance: Any) -> bool:
        if too_deep(instance):
            return False
        try:
            return self._v.is_valid(instance)
        except UnicodeEncodeError:  # a lone surrogate: no validator reads it (see UNREADABLE)
            return False

    def errors(self, instance: Any) -> list[Issue]:
        """Every validation error (up to MAX_ISSUES), in the validator's order."""
        if too_deep(instance):
            return [Issue("", f"nested deeper than {MAX_DEPTH} levels: refused unvalidated", "")]
        return self._errors(instance)

    def error_keywords(self, instance: Any, cap: int = 10_000) -> set[str] | None:
        """The schema paths (keywords) of every error, or None past ``cap`` errors: lets the
        witness search see all the reasons for a rejection, where ``errors`` keeps 100."""
        if too_deep(instance):
            return None
        out: set[str] = set()
        try:
            for n, e in enumerate(self._v.iter_errors(instance)):
                if n >= cap:
                    return None
                out.add(_ptr(e.schema_path))
        except UnicodeEncodeError:
            return None
        return out

    # Unchecked variants for callers that already bounded the depth (the replay fast path).
    def _is_valid(self, instance: Any) -> bool:
        try:
            return self._v.is_valid(instance)
        except UnicodeEncodeError:
            return False

    def _error_pairs(self, instance: Any) -> tuple[tuple[str, str], ...]:
        """``(path, message)`` of each of ``_errors``: what a JSON report prints of them."""
        out: list[tuple[str, str]] = []
        try:
            for e in self._v.iter_errors(instance):
                out.append((_ptr(e.instance_path), str(e.message)))
                if len(out) >= MAX_ISSUES:
                    break
        except UnicodeEncodeError:
            return (("", UNREADABLE),)
        return tuple(out)

    def _errors(self, instance: Any) -> list[Issue]:
        out: list[Issue] = []
        try:
            for e in self._v.iter_errors(instance):
                out.append(Issue(_ptr(e.instance_path), str(e.message), _ptr(e.schema_path)))
                if len(out) >= MAX_ISSUES:
                    break
        except UnicodeEncodeError:
            return [unreadable_issue()]
        return out


UNREADABLE = (
    "holds a lone surrogate (a \\ud800-\\udfff escape with no partner), which no JSON Schema "
    "validator reads: refused unvalidated"
)
"""Why an instance with a lone surrogate is never valid: JSON allows the escape, but the
validator works on Unicode text, where a lone surrogate is not a character. Judged invalid
(fail closed: the proxy refuses such a call to a held tool; replay counts it as a call
neither schema accepts, named by its line) rather than guessed at."""


def unreadable_issue() -> Issue:
    return Issue("", UNREADABLE, "")


def hit_regex_limit(issues: Iterable[Issue]) -> bool:
    """True if a verdict rests on a regex that ran out of backtracking budget."""
    return any(_REGEX_LIMIT_MARK in i.message for i in issues)


# Replay ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RemovedProperty:
    """A declared property removed from an open object: calls that still send it validate, but
    the server now ignores the argument (the fail-open break of seed 003)."""

    pointer: str
    """The change's pointer (``/inputSchema/properties/x``): the key replay reports it under."""
    paths: tuple[tuple[str | int | None, ...], ...]
    """Instance paths that reach the property: keys, array indexes, None for any index."""


class ReplayOutcome(StrEnum):
    """What replay says about one recorded call (``outcome`` in JSON)."""

    OK = "ok"
    BROKEN = "broken"
    """Valid under old, rejected by new."""
    IGNORED = "ignored"
    """Valid under both, but it sends an argument the new definition no longer declares on an
    open object: the call still goes through and the server now ignores that argument."""
    BAD_RECORDING = "bad-recording"
    """Invalid under old already: the recording proves nothing."""


@dataclass(slots=True)
class CallOutcome:
    index: int
    line: int | None
    arguments: Any
    valid_under_old: bool
    valid_under_new: bool
    errors: list[Issue] = field(default_factory=list)
    """Why the call fails under the new schema (empty when valid under new)."""
    old_errors: list[Issue] = field(default_factory=list)
    """Why the call fails under the old schema: a bad recording (the seed's negative control)."""
    ignored: list[str] = field(default_factory=list)
    """Instance pointers of the arguments this call sends that the server now ignores."""

    @property
    def broken(self) -> bool:
        return self.valid_under_old and not self.valid_under_new

    @property
    def bad_recording(self) -> bool:
        return not self.valid_under_old

    @property
    def outcome(self) -> ReplayOutcome:
        if not self.valid_under_old:
            return ReplayOutcome.BAD_RECORDING
        if not self.valid_under_new:
            return ReplayOutcome.BROKEN
        return ReplayOutcome.IGNORED if self.ignored else ReplayOutcome.OK

    def to_json(self) -> dict[str, Any]:
        d = {
            "index": self.index,
            "line": self.line,
            "arguments": self.arguments,
            "outcome": str(self.outcome),
            "valid_under_old": self.valid_under_old,
            "valid_under_new": self.valid_under_new,
            "broken": self.broken,
            "errors": [i.to_json() for i in self.errors],
            "old_errors": [i.to_json() for i in self.old_errors],
        }
        if self.ignored:
            d["ignored"] = list(self.ignored)
        return d


REPORT_LIMIT = 20
"""Calls of each kind a text report lists before "… and K more" (``--all-calls``: every one)."""

KINDS = ("broken", "bad_recording", "ignored")
"""The kinds of call a report lists one by one (the rest are counted): valid under old and not
under new; invalid under old; valid under both but sending an argument the server now
ignores (ReplayOutcome.IGNORED)."""


class ReplayResult:
    """The replay of a call log. Counts come from compact per-call flags; the per-call
    :class:`CallOutcome` objects are built only when someone asks for them (a report), one
    at a time, so replaying a large log costs little more than the validator itself.

    With ``keep_valid=False`` (see :func:`replay`) the calls valid under old and new (and
    sending nothing now ignored) are counted but not kept: memory is then bounded by the calls
    a report lists, not by the log.
    """

    __slots__ = (
        "_calls",
        "_dropped",
        "_errors",
        "_flags",
        "_ignored",
        "_new_v",
        "_old_v",
        "_outcomes",
        "new_schema_error",
        "old_schema_error",
    )

    _OLD, _NEW, _IGN = 1, 2, 4

    def __init__(
        self,
        calls: list[Call],
        flags: bytearray,
        errors: dict[int, tuple[list[Issue], list[Issue]]],
        old_schema_error: str | None = None,
        new_schema_error: str | None = None,
        validators: tuple[SchemaValidator | None, SchemaValidator | None] = (None, None),
        ignored: dict[int, list[tuple[str, str]]] | None = None,
        dropped: int = 0,
    ):
        self._calls = calls
        self._old_v, self._new_v = validators
        # per call: bit 1 valid under old, bit 2 valid under new, bit 4 sends an ignored argument
        self._flags = flags
        # position -> [(change pointer, instance pointer)] for the calls flagged ignored
        self._ignored = ignored or {}
        # position -> (errors under new, errors under old) for calls whose reasons are not the
        # validators' (too deep, schema uncompilable); the validators' own messages are asked
        # for only when outcomes are built, because collecting them costs 5-20 µs per call.
        self._errors = errors
        self._outcomes: list[CallOutcome] | None = None
        self._dropped = dropped  # calls valid under old and new that were counted, not kept
        self.old_schema_error = old_schema_error
        self.new_schema_error = new_schema_error

    def _outcome(self, i: int) -> CallOutcome:
        c, f = self._calls[i], self._flags[i]
        vo, vn = bool(f & 1), bool(f & 2)
        if vo and vn:
            ign = [p for _, p in self._ignored.get(i, ())] if f & 4 else []
            return CallOutcome(c.index, c.line, c.arguments, True, True, [], [], ign)
        given = self._errors.get(i)
        if given is not None:
            errs, old_errs = list(given[0]), list(given[1])
        else:
            errs = [] if vn or self._new_v is None else self._new_v._errors(c.arguments)
            old_errs = [] if vo or self._old_v is None else self._old_v._errors(c.arguments)
        return CallOutcome(c.index, c.line, c.arguments, vo, vn, errs, old_errs)

    @property
    def outcomes(self) -> list[CallOutcome]:
        """Every kept call's outcome, in log order (built once and cached: for the app's
        table; reports use :meth:`iter_outcomes`, which holds one at a time)."""
        if self._outcomes is None:
            with gc_paused():
                self._outcomes = [self._outcome(i) for i in range(len(self._calls))]
        return self._outcomes

    @property
    def keeps_valid(self) -> bool:
        return self._dropped == 0

    @staticmethod
    def kind_of(flag: int) -> str | None:
        """The listed kind of a call with this flag (None: valid under old and new)."""
        if not flag & 1:
            return "bad_recording"
        if not flag & 2:
            return "broken"
        return "ignored" if flag & 4 else None

    def positions(self, kind: str | None = "any") -> list[int]:
        """Positions of the kept calls of one kind (``"any"``: every listed kind; None: the
        calls valid under both), in log order."""
        kind_of = self.kind_of
        if kind == "any":
            return [i for i, f in enumerate(self._flags) if kind_of(f) is not None]
        return [i for i, f in enumerate(self._flags) if kind_of(f) == kind]

    def iter_outcomes(self, all_calls: bool = False) -> Iterator[CallOutcome]:
        """Outcomes in log order, built one at a time: the listed kinds only, or every kept
        call with ``all_calls``."""
        kind_of = self.kind_of
        for i, f in enumerate(self._flags):
            if all_calls or kind_of(f) is not None:
                yield self._outcome(i)

    def iter_json_parts(
        self, all_calls: bool = False
    ) -> Iterator[dict[str, Any] | tuple[Call, tuple[tuple[str, str], ...] | None]]:
        """:meth:`iter_json`'s entries, the two common kinds left unbuilt: ``(call, None)``
        for a call valid under both, ``(call, ((path, message), ...))`` for a broken call and
        the new schema's reasons; any other entry as its dict. A report writes the common
        kinds from a template (formats/replay_json.py) instead of a dict per call."""
        calls, errors, new_v = self._calls, self._errors, self._new_v
        for i, f in enumerate(self._flags):
            if f == 1 and new_v is not None and i not in errors:
                c = calls[i]
                yield c, new_v._error_pairs(c.arguments)
            elif f == 3:
                if all_calls:
                    yield calls[i], None
            elif all_calls or self.kind_of(f) is not None:
                yield self._outcome(i).to_json()

    def iter_json(self, all_calls: bool = False) -> Iterator[dict[str, Any]]:
        """``o.to_json() for o in self.iter_outcomes(all_calls)``, the same dicts, without
        building a :class:`CallOutcome` and its :class:`Issue` objects for the two common
        kinds (valid under both; broken, its reasons from the new schema's validator): a
        100,000-call report's JSON entries were a third of its time
        (``tests/formats/test_replay_reports.py`` holds them equal)."""
        for e in self.iter_json_parts(all_calls):
            if isinstance(e, dict):
                yield e
                continue
            yield entry_dict(*e)

    def outcome_at(self, i: int) -> CallOutcome:
        return self._outcome(i)

    @property
    def total(self) -> int:
        return len(self._calls) + self._dropped

    @property
    def broken(self) -> int:
        return self._flags.count(self._OLD)  # valid under old only

    @property
    def bad_recordings(self) -> int:
        return (
            len(self._flags)
            - self._flags.count(self._OLD)
            - self._flags.count(self._OLD | self._NEW)
            - self._flags.count(self._OLD | self._NEW | self._IGN)
        )

    @property
    def ignored(self) -> int:
        """Calls valid under both that send an argument the server now ignores."""
        return len(self._ignored)

    @property
    def valid(self) -> int:
        """Calls valid under old and new that send nothing the server now ignores."""
        return self.total - self.broken - self.bad_recordings - self.ignored

    @property
    def broken_calls(self) -> list[CallOutcome]:
        return [self._outcome(i) for i in self.positions("broken")]

    @property
    def ignored_calls(self) -> list[CallOutcome]:
        return [self._outcome(i) for i in self.positions("ignored")]

    def ignoring(self, pointer: str) -> list[Call]:
        """The recorded calls that still send the property removed at change ``pointer``."""
        return [
            self._calls[i]
            for i, hits in sorted(self._ignored.items())
            if any(p == pointer for p, _ in hits)
        ]

    @property
    def schema_error(self) -> str | None:
        """Why a schema could not be compiled, naming the side; None when both compiled."""
        if self.old_schema_error:
            return f"old inputSchema: {self.old_schema_error}"
        if self.new_schema_error:
            return f"new inputSchema: {self.new_schema_error}"
        return None

    def summary_json(self, all_calls: bool = False) -> dict[str, Any]:
        """The replay's JSON without ``calls`` (see :meth:`to_json`)."""
        return {
            "total": self.total,
            "broken": self.broken,
            "bad_recordings": self.bad_recordings,
            "ignored": self.ignored,
            "valid": self.valid,
            "schema_error": self.schema_error,
            "calls_listed": "all" if all_calls and self.keeps_valid else "notable",
        }

    def to_json(self, all_calls: bool = False) -> dict[str, Any]:
        """Counts, and a per-call entry for each broken call, bad recording and call sending an
        ignored argument (every call with ``all_calls``; report format 2, docs/formats.md)."""
        return {
            **self.summary_json(all_calls),
            "calls": list(self.iter_json(all_calls)),
        }


def _compile(schema: Any) -> tuple[SchemaValidator | None, str | None]:
    if isinstance(schema, SchemaValidator):
        return schema, None
    try:
        return SchemaValidator(schema), None
    except SchemaError as e:
        return None, e.reason


def replay(
    old_schema: Any,
    new_schema: Any,
    calls: Iterable[Call | Any],
    removed: Iterable[RemovedProperty] = (),
    *,
    keep_valid: bool = True,
) -> ReplayResult:
    """Validate every call under old and new; a call valid under old and not under new is broken.

    ``removed``: properties removed from open objects; a call valid under both that still sends
    one of them is marked ``ignored`` (see ReplayOutcome.IGNORED).

    ``calls`` are Call objects (from store.readers.load_calls) or bare argument values. A schema that cannot
    be compiled never raises: every call carries that reason. Old uncompilable: every call is
    a bad recording (nothing can vouch for it). New uncompilable: fail closed, every call valid
    under old counts as broken, because a server cannot accept calls against a schema that
    does not work.

    ``keep_valid=False``: calls valid under old and new are counted, not kept (a report that
    lists only broken calls and bad recordings then holds memory for those alone; ``calls``
    may be a generator such as :func:`parse_calls`).
    """
    r = Replayer(old_schema, new_schema, removed, keep_valid=keep_valid)
    r.feed(calls)
    return r.result()


class Replayer:
    """:func:`replay` fed in batches: one pass over a server's log replays each of its tools
    (``engine.status`` streams a log this way, holding only the calls a report lists).
    ``feed`` as often as needed, then ``result`` once."""

    __slots__ = (
        "_deep",
        "_dropped",
        "_errors",
        "_flags",
        "_gone",
        "_ignored",
        "_kept",
        "_new_issue",
        "_new_ok",
        "_old_issue",
        "_old_ok",
        "keep_valid",
        "new_err",
        "new_v",
        "old_err",
        "old_v",
    )

    def __init__(
        self,
        old_schema: Any,
        new_schema: Any,
        removed: Iterable[RemovedProperty] = (),
        *,
        keep_valid: bool = True,
    ):
        self.old_v, self.old_err = _compile(old_schema)
        self.new_v, self.new_err = _compile(new_schema)
        self._old_issue = (
            [Issue("", f"old schema cannot be compiled: {self.old_err}", "")]
            if self.old_err
            else []
        )
        self._new_issue = (
            [Issue("", f"new schema cannot be compiled: {self.new_err}", "")]
            if self.new_err
            else []
        )
        self._deep = [Issue("", f"nested deeper than {MAX_DEPTH} levels: refused unvalidated", "")]
        # the Rust methods themselves: no wrapper call per instance
        self._old_ok = self.old_v._v.is_valid if self.old_v else None
        self._new_ok = self.new_v._v.is_valid if self.new_v else None
        self._kept: list[Call] = []
        self._flags = bytearray()
        self._errors: dict[int, tuple[list[Issue], list[Issue]]] = {}
        self._gone = tuple(removed)
        self._ignored: dict[int, list[tuple[str, str]]] = {}
        self._dropped = 0
        self.keep_valid = keep_valid

    def feed(self, calls: Iterable[Call | Any]) -> None:
        old_ok, new_ok, gone = self._old_ok, self._new_ok, self._gone
        old_v, new_v = self.old_v, self.new_v
        kept, flags, errors, ignored = self._kept, self._flags, self._errors, self._ignored
        keep, flag = kept.append, flags.append
        keep_valid = self.keep_valid
        dropped = 0
        base = len(flags) + self._dropped
        with gc_paused():
            for n, c in enumerate(calls, base):
                if not isinstance(c, Call):
                    c = Call(n + 1, None, c, None)
                args = c.arguments
                i = len(flags)
                if not c.depth_checked and too_deep(args):
                    keep(c)
                    flag(0)
                    errors[i] = (list(self._deep), list(self._deep))
                    continue
                try:
                    vo = old_ok(args) if old_ok else False
                    vn = new_ok(args) if new_ok else False
                except UnicodeEncodeError:  # a lone surrogate: see UNREADABLE
                    keep(c)
                    flag(0)
                    errors[i] = ([unreadable_issue()], [unreadable_issue()])
                    continue
                if vo and vn and gone:
                    hits = _sends_removed(args, gone)
                    if hits:
                        keep(c)
                        ignored[i] = hits
                        flag(7)
                        continue
                if vo and vn and not keep_valid:
                    dropped += 1
                    continue
                keep(c)
                flag(vo | (vn << 1))
                if (not vn and new_v is None) or (not vo and old_v is None):
                    errors[i] = (
                        [] if vn else list(self._new_issue),
                        [] if vo else list(self._old_issue),
                    )
        self._dropped += dropped

    @property
    def noted(self) -> int:
        """Calls fed so far and kept for the report (every one but those valid under both
        when ``keep_valid`` is off): the mark :meth:`turned_since` counts from."""
        return len(self._flags)

    def turned_since(self, mark: int) -> bool:
        """Some call fed after ``mark`` (a :attr:`noted` value) is one a verdict turns on:
        broken (valid under old only) or still sending a removed property (engine.compare
        promotes that change). Linear in the calls fed since, not in all of them."""
        new = self._flags[mark:]
        return bool(new.count(1) or new.count(7))

    def result(self) -> ReplayResult:
        return ReplayResult(
            self._kept,
            self._flags,
            self._errors,
            self.old_err,
            self.new_err,
            (self.old_v, self.new_v),
            self._ignored,
            self._dropped,
        )


MAX_IGNORED_HITS = 20
"""Ignored arguments listed per call (a call with a 10,000-item array is not listed whole)."""


def _sends_removed(args: Any, gone: tuple[RemovedProperty, ...]) -> list[tuple[str, str]]:
    """(change pointer, instance pointer) for each removed property this call still sends."""
    hits: list[tuple[str, str]] = []
    for rp in gone:
        for path in rp.paths:
            # Iterative walk; None (any index) fans out over the array, bounded by the hits cap.
            stack: list[tuple[Any, int, tuple[Any, ...]]] = [(args, 0, ())]
            while stack and len(hits) < MAX_IGNORED_HITS:
                node, k, at = stack.pop()
                if k == len(path):
                    hits.append((rp.pointer, _ptr(at)))
                    continue
                step = path[k]
                if isinstance(step, str):
                    if isinstance(node, dict) and step in node:
                        stack.append((node[step], k + 1, (*at, step)))
                elif isinstance(node, list):
                    if step is None:
                        stack.extend(
                            (v, k + 1, (*at, j)) for j, v in reversed(list(enumerate(node)))
                        )
                    elif step < len(node):
                        stack.append((node[step], k + 1, (*at, step)))
    return hits


def entry_dict(c: Call, errs: tuple[tuple[str, str], ...] | None) -> dict[str, Any]:
    """A call's report entry of the common kind (valid under the old schema; under the new one
    valid, or broken with ``errs``): what :meth:`ReplayResult.iter_json` yields for it, and
    what ``formats/replay_json.py`` spells from a template where orjson can."""
    return {
        "index": c.index,
        "line": c.line,
        "arguments": c.arguments,
        "outcome": "ok" if errs is None else "broken",
        "valid_under_old": True,
        "valid_under_new": errs is None,
        "broken": errs is not None,
        "errors": [{"path": p, "message": m} for p, m in errs or ()],
        "old_errors": [],
    }
