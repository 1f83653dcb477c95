"""Rerun, the session half: read recorded calls and results, plan, re-send, compare.

Two phases, each on its own connection, so nothing is sent before the operator said yes:
:func:`plan` lists the live tools and decides, per recorded call, whether it would be sent
(``engine.rerun.send_verdict``); :func:`execute` connects again, lists again, decides again,
and sends only the calls that were in the confirmed plan *and* still pass every condition
(a server that changed a definition between the two connections gets nothing). Each sent call
is issued twice (volatile values), each with its own timeout; a server error, a timeout or a
dropped connection is an outcome (``now-error``), never a crash.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine import rerun as core
from mcp_review.engine.calls import LOG_KEYS
from mcp_review.engine.errors import InputError
from mcp_review.engine.rerun import Comparison, RecordedCall, RerunOutcome
from mcp_review.services.config import ServerConfig, secrets_scrubber
from mcp_review.store.calllog import (
    DEFAULT_REDACT,
    Redactor,
    log_files,
    seal_key,
    sealed,
)

if TYPE_CHECKING:
    from mcp_review.engine.pins import PinFile


class RerunUnreachable(Exception):
    """The live server could not be connected to or listed (exit 3)."""


# Reading the log ---------------------------------------------------------------------------


def _open_log(path: str) -> Any:
    """``path`` opened for reading, or None when it is gone. A call log is evidence ``rerun``
    acts on: one that is a symbolic link, not a regular file, or owned by another user is
    refused (exit 2), as the pin file and the audit log are."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise InputError(
                "the call log is a symbolic link; refusing to read through it", source=path
            ) from None
        raise InputError(f"cannot read the call log: {e.strerror or e}", source=path) from None
    st = os.fstat(fd)
    why = (
        "is not a regular file"
        if not stat.S_ISREG(st.st_mode)
        else "is owned by another user"
        if st.st_uid != os.geteuid()
        else None
    )
    if why is not None:
        os.close(fd)
        raise InputError(f"the call log {why}; refusing to read it", source=path)
    return os.fdopen(fd, "rb")


def _lines(path: str) -> Iterable[Any]:
    f = _open_log(path)
    if f is None:
        return
    with f:
        for raw in f:
            if not raw.strip():
                continue
            try:
                yield json.loads(raw)
            except (ValueError, RecursionError):
                continue  # a torn line: skipped, never guessed at


def _id_key(v: Any) -> str:
    """The id with its JSON type: 1 and "1" are two ids here (the recorder wrote each as it
    came; matching them loosely could pair a call with another call's result)."""
    return json.dumps(v, sort_keys=True)


_KEYS = LOG_KEYS
"""The keys a call-log record may carry: the engine's replay reads the same records."""


def _result_key(r: Any) -> tuple[str, str, str] | None:
    if (
        not isinstance(r, dict)
        or not isinstance(r.get("tool"), str)
        or not isinstance(r.get("call_time"), str)
    ):
        return None
    return (r["call_time"], _id_key(r.get("id")), r["tool"])


def load_recorded(
    calls_path: str,
    *,
    server: str | None = None,
    principal: str | None = None,
    tools: Sequence[str] | None = None,
    max_calls: int | None = None,
) -> list[RecordedCall]:
    """The server-log records of ``calls_path`` (rotated backups first), oldest first, each
    with its result from ``<log>.results.jsonl`` when one was recorded.

    A result is matched to its call by (call time, id with its JSON type, tool). Two results
    claiming the same call are both dropped (fail closed: the call then has no result and is
    never re-sent). Records of another server or principal (a shared log) are left out.

    With ``max_calls``, memory is bounded by what rerun can send, not by the log: per tool only
    the ``max_calls`` most recent distinct argument sets are kept while reading (as
    ``engine.rerun.select_calls`` would pick them), and result bodies are read for those only."""
    key = _seal_key()
    counts = _result_counts(calls_path, key)
    order = _recorded_calls(
        calls_path,
        key,
        counts,
        server=server,
        principal=principal,
        tools=tools,
        max_calls=max_calls,
    )
    # Server-minted handles: argument strings of the calls kept that an earlier recorded
    # result of this server carried before any recorded call sent them (ids, cursors).
    candidates: set[str] = set()
    for c in order:
        if c.sealed:
            candidates.update(core.handle_candidates(c.arguments))
    first_sent = _first_sent(calls_path, key, candidates, server, principal)
    first_seen = _read_results(calls_path, key, order, candidates, server, principal)
    for c in order:
        for v, ptr in core.handle_candidates(c.arguments).items():
            seen = first_seen.get(v)
            if seen is not None and seen < first_sent.get(v, seen):
                c.minted = (ptr, v)
                break
    return order


def _seal_key() -> Any:
    """The call-log seal key; without it no recorded call can be trusted, so an input error."""
    # Only records this user's proxy sealed are trusted (store/calllog.py, "Seals"): a
    # planted or edited line keeps its place as evidence but is never re-sent, and a result
    # line without a seal is no result.
    try:
        return seal_key(create=False)
    except OSError as e:
        raise InputError(
            f"the call-log seal key {e.strerror}; refusing to trust any recorded call",
            source=e.filename,
        ) from None


def _result_counts(calls_path: str, key: Any) -> dict[int, int]:
    """Pass 1: which calls have a result, and which have two (hashes only, no bodies)."""
    counts: dict[int, int] = {}
    for f in log_files(calls_path + ".results.jsonl"):
        for r in _lines(f):
            k = _result_key(r) if sealed(r, key) else None
            if k is not None:
                h = hash(k)
                counts[h] = counts.get(h, 0) + 1
    return counts


def _recorded_calls(
    calls_path: str,
    key: Any,
    counts: dict[int, int],
    *,
    server: str | None,
    principal: str | None,
    tools: Sequence[str] | None,
    max_calls: int | None,
) -> list[RecordedCall]:
    """Pass 2: the calls of this server, principal and tools, oldest first (with
    ``max_calls``, only each tool's most recent distinct argument sets, to bound memory)."""
    kept: dict[str, dict[str, RecordedCall]] = {}
    order: list[RecordedCall] = []
    for f in log_files(calls_path):
        for r in _lines(f):
            if not (
                isinstance(r, dict)
                and isinstance(r.get("tool"), str)
                and "arguments" in r
                and r.keys() <= _KEYS
            ):
                continue
            if server is not None and r.get("server", server) != server:
                continue
            if principal is not None and r.get("principal", principal) != principal:
                continue
            if tools and r["tool"] not in tools:
                continue
            c = _recorded_call(r, key, counts)
            if max_calls is None:
                order.append(c)
                continue
            per = kept.setdefault(c.tool, {})
            ak = core.args_key(c.arguments)
            per.pop(ak, None)
            per[ak] = c
            if len(per) > max_calls:
                per.pop(next(iter(per)))  # the least recently seen argument set
    if max_calls is not None:
        order = sorted(
            (c for per in kept.values() for c in per.values()), key=lambda c: c.time or ""
        )
    return order


def _recorded_call(r: dict[str, Any], key: Any, counts: dict[int, int]) -> RecordedCall:
    """One call record as a RecordedCall, marked as having a result when exactly one sealed
    result claims it."""
    digest = r.get("digest")
    c = RecordedCall(
        tool=r["tool"],
        arguments=r["arguments"],
        time=r.get("time") if isinstance(r.get("time"), str) else None,
        rpc_id=r.get("id"),
        digest=digest if isinstance(digest, str) else None,
        redacted="redacted" in r and r["redacted"] is not False,
        sealed=sealed(r, key),
    )
    has = c.time is not None and counts.get(hash((c.time, _id_key(c.rpc_id), c.tool))) == 1
    # A marker until pass 3 reads the body (has_result looks at result_digest too).
    c.result_digest = "" if has else None
    return c


def _first_sent(
    calls_path: str, key: Any, candidates: set[str], server: str | None, principal: str | None
) -> dict[str, Any]:
    """When each candidate handle was first sent in a sealed call of this server (any call
    of the log, not only those kept)."""
    first_sent: dict[str, Any] = {}
    if candidates:
        for f in log_files(calls_path):
            for r in _lines(f):
                if not (isinstance(r, dict) and "arguments" in r and _ours(r, server, principal)):
                    continue
                t = core.parse_call_time(r.get("time"))
                if t is None or not sealed(r, key):
                    continue
                for v in candidates.intersection(core.handle_candidates(r["arguments"])):
                    if v not in first_sent or t < first_sent[v]:
                        first_sent[v] = t
    return first_sent


def _read_results(
    calls_path: str,
    key: Any,
    order: list[RecordedCall],
    candidates: set[str],
    server: str | None,
    principal: str | None,
) -> dict[str, Any]:
    """Pass 3: result bodies for the calls kept (set on them), and when each candidate handle
    first appeared in a sealed result of this server (returned)."""
    first_seen: dict[str, Any] = {}
    want = {(c.time, _id_key(c.rpc_id), c.tool): c for c in order if c.result_digest == ""}
    for c in want.values():
        c.result_digest = None
    for f in log_files(calls_path + ".results.jsonl") if want or candidates else ():
        for r in _lines(f):
            k = _result_key(r)
            hit = want.get(k) if k is not None else None
            scan = bool(candidates) and k is not None and isinstance(r.get("result"), dict)
            if (hit is None and not scan) or not sealed(r, key):
                continue
            if scan and _ours(r, server, principal):
                t = core.parse_call_time(r["call_time"])
                if t is not None:
                    for v in core.mentioned(r["result"], candidates):
                        if v not in first_seen or t < first_seen[v]:
                            first_seen[v] = t
            if hit is None:
                continue
            if isinstance(r.get("error"), dict):
                hit.error = r["error"]
            elif isinstance(r.get("result"), dict):
                hit.result = r["result"]
            elif isinstance(r.get("result_digest"), str):
                hit.result_digest = r["result_digest"]
                n = r.get("result_bytes")
                hit.result_bytes = n if isinstance(n, int) else None
    return first_seen


def _ours(r: dict[str, Any], server: str | None, principal: str | None) -> bool:
    """A log record of this server and principal (a record without them: a log of its own)."""
    return (server is None or r.get("server", server) == server) and (
        principal is None or r.get("principal", principal) == principal
    )


# Planning and running ----------------------------------------------------------------------


@dataclass(slots=True)
class CallReport:
    call: RecordedCall
    outcome: RerunOutcome | None = None
    """None while planned and not yet sent."""
    reason: str = ""
    comparison: Comparison | None = None
    live_result: dict[str, Any] | None = None
    """The live (redacted) answer, for the app's side-by-side view."""

    @property
    def will_send(self) -> bool:
        return self.outcome is None

    def to_json(self) -> dict[str, Any]:
        c = self.comparison
        return {
            "tool": self.call.tool,
            "arguments": self.call.arguments,
            "recorded_at": self.call.time,
            "outcome": str(self.outcome) if self.outcome is not None else "planned",
            "reason": self.reason,
            "differences": [d.to_json() for d in c.differences] if c else [],
            "volatile": list(c.volatile) if c else [],
            "volatile_reasons": dict(c.volatile_reasons) if c else {},
        }


@dataclass(slots=True)
class RerunReport:
    server: str
    calls: list[CallReport] = field(default_factory=list)

    @property
    def to_send(self) -> list[CallReport]:
        return [c for c in self.calls if c.will_send]

    def counts(self) -> dict[str, int]:
        return core.counts(c.outcome for c in self.calls if c.outcome is not None)

    def exit_code(self) -> int:
        from mcp_review.engine.verdict import rerun_exit_code

        return rerun_exit_code(c.outcome for c in self.calls if c.outcome is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "mcp-review-rerun",
            "version": 1,
            "server": self.server,
            "calls": [c.to_json() for c in self.calls],
            "counts": self.counts(),
        }


@dataclass(slots=True)
class Settings:
    open_world: bool = False
    max_calls: int = core.DEFAULT_MAX_CALLS
    tools: Sequence[str] = ()
    timeout: float | None = None
    """Seconds per call (default: the server's `timeout`)."""
    redact: Sequence[str] = DEFAULT_REDACT


def _pins_for(pins: PinFile, server: str, principal: str, tool: str) -> dict[str, Any]:
    pin = pins.get(server, principal, tool)
    bad = pins.unverified.get((server, principal, tool))
    if pin is None and bad is not None:
        pin = bad[0]
    if pin is None:
        return {"pin_decision": None, "pin_digest": None, "pin_wire": None}
    problem = bad[1] if bad is not None else None
    try:
        wire = pin.tool_def().wire
        digest = pin.current_digest()
    except Exception as e:  # an unreadable stored definition is a pin that does not verify
        return {
            "pin_decision": str(pin.decision),
            "pin_digest": None,
            "pin_wire": None,
            "pin_problem": problem or str(e),
        }
    return {
        "pin_decision": str(pin.decision),
        "pin_digest": digest,
        "pin_wire": wire,
        "pin_problem": problem,
    }


def decide(
    calls: Iterable[RecordedCall],
    *,
    server: str,
    principal: str,
    pins: PinFile,
    live: dict[str, Any],
    settings: Settings,
) -> list[CallReport]:
    """A report per selected call: planned (will be sent) or skipped / no-result-recorded."""
    from mcp_review.engine.model import digest_of

    out: list[CallReport] = []
    live_digest: dict[str, str | None] = {}
    for c in core.select_calls(calls, settings.tools or None, settings.max_calls):
        w = live.get(c.tool)
        if c.tool not in live_digest:
            try:
                live_digest[c.tool] = digest_of(w) if w is not None else None
            except (ValueError, TypeError):
                live_digest[c.tool] = None
        v = core.send_verdict(
            c,
            **_pins_for(pins, server, principal, c.tool),
            live_wire=w,
            live_digest=live_digest[c.tool],
            open_world=settings.open_world,
        )
        out.append(CallReport(c) if v.send else CallReport(c, v.outcome, v.reason))
    return out


async def _live_tools(client: Any) -> dict[str, Any]:
    from mcp_review.services.fetch import list_all_tools

    listing = await list_all_tools(client)
    counts: dict[str, int] = {}
    for t in listing.tools:
        counts[t.name] = counts.get(t.name, 0) + 1
    # A name listed twice is ambiguous: which definition would answer is anyone's guess.
    return {t.name: t.wire for t in listing.tools if counts[t.name] == 1}


def _connect_errors(e: BaseException, cfg: ServerConfig) -> str:
    from mcp_review.services.transport import Probe, classify

    kind, message = classify(e, cfg, Probe())
    return cfg.scrub(f"{kind}: {message}")


async def plan(
    cfg: ServerConfig, pins: PinFile, calls: list[RecordedCall], settings: Settings
) -> RerunReport:
    """Connect, list, and decide; nothing but ``tools/list`` is sent."""
    import anyio

    from mcp_review.services.fetch import connect

    try:
        with anyio.fail_after(cfg.timeout):
            async with connect(cfg) as c:
                live = await _live_tools(c)
    except Exception as e:
        raise RerunUnreachable(_connect_errors(e, cfg)) from None
    rep = RerunReport(cfg.name)
    rep.calls = decide(
        calls, server=cfg.name, principal=cfg.principal, pins=pins, live=live, settings=settings
    )
    return rep


def _wire(result: Any) -> dict[str, Any]:
    wire: dict[str, Any] = result.model_dump(by_alias=True, exclude_unset=True, mode="json")
    return wire


async def _send(
    client: Any, tool: str, arguments: dict[str, Any], timeout: float
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(result, error) of one tools/call; the SDK's own output-schema check is bypassed so a
    result that drifted in shape is compared, not raised."""
    import anyio
    import mcp_types as t
    from mcp import MCPError

    req = t.CallToolRequest(params=t.CallToolRequestParams(name=tool, arguments=arguments))
    try:
        with anyio.fail_after(timeout):
            res = await client.session.send_request(
                req, t.CallToolResult, request_read_timeout_seconds=timeout
            )
        return _wire(res), None
    except MCPError as e:
        return None, {"code": e.code, "message": str(e.message)[:2000]}
    except TimeoutError:
        return None, {"code": "timeout", "message": f"no answer within {timeout:g} s"}
    except Exception as e:  # a malformed reply, a dropped connection: an outcome
        return None, {"code": "error", "message": f"{type(e).__name__}: {str(e)[:500]}"}


def _shape_errors(schema: Any, structured: Any) -> list[tuple[str, str]]:
    from mcp_review.engine.replay import SchemaValidator

    try:
        v = SchemaValidator(schema)
    except Exception as e:
        return [("", f"the pinned outputSchema cannot be compiled: {e}")]
    return [(i.path, i.message) for i in v.errors(structured)]


async def execute(
    cfg: ServerConfig,
    pins: PinFile,
    planned: RerunReport,
    settings: Settings,
    on_call: Callable[[CallReport], None] | None = None,
) -> RerunReport:
    """Connect again, re-decide, and send each call that was planned *and* still passes,
    twice; compare. Calls that no longer pass are skipped with the new reason."""
    import anyio

    from mcp_review.services.fetch import connect

    # The recorded results lost the configured secrets to ``***`` (CallLog): the live answers
    # lose them the same way before they are compared or shown.
    redactor = Redactor(settings.redact, scrub=secrets_scrubber(cfg))
    timeout = settings.timeout or cfg.timeout
    confirmed = {id(c.call) for c in planned.calls if c.will_send}
    out = RerunReport(planned.server)
    try:
        async with connect(cfg) as client:
            with anyio.fail_after(cfg.timeout):
                live = await _live_tools(client)
            now = decide(
                [c.call for c in planned.calls],
                server=cfg.name,
                principal=cfg.principal,
                pins=pins,
                live=live,
                settings=settings,
            )
            by_call = {id(r.call): r for r in now}
            for p in planned.calls:
                r = by_call.get(id(p.call)) or CallReport(
                    p.call, RerunOutcome.SKIPPED, "no longer selected"
                )
                if id(p.call) not in confirmed:
                    r = CallReport(p.call, p.outcome, p.reason)
                elif r.will_send:
                    await _rerun_one(client, r, live, pins, cfg, settings, redactor, timeout)
                elif r.outcome is not None:
                    r.reason = f"{r.reason} (changed since the plan: not sent)"
                out.calls.append(r)
                if on_call is not None:
                    on_call(r)
    except Exception as e:
        if out.calls or isinstance(e, RerunUnreachable):
            raise
        raise RerunUnreachable(_connect_errors(e, cfg)) from None
    return out


async def _rerun_one(
    client: Any,
    r: CallReport,
    live: dict[str, Any],
    pins: PinFile,
    cfg: ServerConfig,
    settings: Settings,
    redactor: Redactor,
    timeout: float,
) -> None:
    from mcp_review.store.calllog import now_iso

    c = r.call
    assert isinstance(c.arguments, dict)
    sent_at = now_iso()
    res1, err1 = await _send(client, c.tool, c.arguments, timeout)
    res2, err2 = await _send(client, c.tool, c.arguments, timeout) if err1 is None else (None, None)
    res1 = redactor(res1) if res1 is not None else None
    res2 = redactor(res2) if res2 is not None else None
    err1 = redactor(err1) if err1 is not None else None
    pin = pins.get(cfg.name, cfg.principal, c.tool)
    schema = pin.tool_def().output_schema if pin is not None else None
    shape = None
    if schema is not None and res1 is not None and res1.get("structuredContent") is not None:
        shape = _shape_errors(schema, res1["structuredContent"])
    try:
        cmp = core.compare(
            c,
            res1,
            err1,
            live2=res2,
            live2_error=err2 if err1 is None else None,
            output_schema=schema,
            ignore=tuple(getattr(cfg, "rerun_ignore", {}).get(c.tool, ())),
            shape_errors=shape,
            live_time=sent_at,
        )
    except (ValueError, TypeError, RecursionError) as e:
        # A result no comparison can walk (hostile nesting): needs a human, never "same".
        cmp = Comparison(
            RerunOutcome.CHANGED, f"the live result could not be compared: {type(e).__name__}"
        )
    r.outcome, r.reason, r.comparison, r.live_result = cmp.outcome, cmp.reason, cmp, res1


def call_log_for(cfg: ServerConfig, state_dir: str | None) -> str:
    """Where this server's calls are (the config's `calls`, else the proxy's default)."""
    from mcp_review.services.inputs import default_call_log

    if cfg.calls:
        return str(cfg.calls)
    return default_call_log(state_dir or os.path.join(".mcp-review"), cfg.name)


def run_server(
    cfg: ServerConfig,
    pins: PinFile,
    calls_path: str,
    settings: Settings,
    confirm: Callable[[RerunReport], bool],
) -> RerunReport:
    """The whole rerun of one server, synchronously: read the log, plan, ask ``confirm`` (only
    when something would be sent), execute. A plan not confirmed is returned as planned
    (nothing sent: its calls keep ``outcome`` None). Raises RerunUnreachable."""
    import anyio

    recorded = load_recorded(
        calls_path,
        server=cfg.name,
        principal=cfg.principal,
        tools=settings.tools or None,
        max_calls=settings.max_calls,
    )
    planned = anyio.run(plan, cfg, pins, recorded, settings)
    if not planned.to_send or not confirm(planned):
        return planned
    return anyio.run(execute, cfg, pins, planned, settings)
