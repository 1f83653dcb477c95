"""Connect to MCP servers and list every tool, all servers at once, each fault classified and bounded.

Entry points:

- ``await fetch_all(configs, on_progress=..., concurrency=8) -> Snapshot`` (the app calls this in
  an async worker; ``on_progress`` gets a ``Progress`` per state change of each server);
- ``fetch_config(config) -> Snapshot`` for synchronous callers (the CLI);
- ``list_all_tools(client)`` — every page of one connected client's tools (``watch`` and
  ``rerun`` reuse it). Connecting, the stderr log and classifying faults live in
  ``services.transport``, which fetch, watch, rerun and the proxy share.

A failure never raises out of ``fetch_all``: it becomes ``ServerSnapshot.error =
{"kind": KIND, "message": ...}`` with KIND one of ``ERROR_KINDS``. Messages are scrubbed of the
server's own env values and header values.
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.surfaces import DEFAULT_RESOURCE_LIMIT
from mcp_review.services.config import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_PAGES,
    DEFAULT_MAX_TOOLS,
    Config,
    ServerConfig,
)
from mcp_review.services.transport import (
    STDERR_FILE_CAP,
    STDERR_RUN_CAP,
    FetchError,
    Probe,
    ServerStderr,
    classify,
    connect,
    log_path,
    open_errlog,
    scrub_json,
    server_info_of,
    stderr_tail,
)

# fetch's own, and (from services.transport) what fetch's existing callers import from here.
__all__ = [
    "STDERR_FILE_CAP",
    "STDERR_RUN_CAP",
    "FetchError",
    "Listing",
    "Progress",
    "ProgressFn",
    "ServerStderr",
    "classify",
    "connect",
    "fetch_all",
    "fetch_config",
    "fetch_server",
    "list_all_tools",
    "log_path",
]

_log = logging.getLogger(__name__)


@dataclass(slots=True)
class Progress:
    """One server's state change, as reported to ``on_progress``."""

    server: str
    state: str
    """``queued`` → ``connecting`` → ``listing`` → ``done`` | ``failed``."""
    elapsed: float = 0.0
    tools: int = 0
    detail: str = ""
    snapshot: ServerSnapshot | None = None
    """Set on ``done`` and ``failed``."""


ProgressFn = Callable[[Progress], Any]


# --- listing -------------------------------------------------------------------------------


@dataclass(slots=True)
class Listing:
    tools: list[ToolDef]
    ttl_ms: int | None
    cache_scope: str | None
    pages: int
    notes: list[str] = field(default_factory=list)
    """What was read past: entries of a raw list that are not tools (no string name)."""


@dataclass(slots=True)
class _Page:
    wires: list[dict[str, Any]]
    next_cursor: str | None
    ttl_ms: int | None = None
    cache_scope: str | None = None
    skipped: list[str] = field(default_factory=list)


async def _raw_list_result(client: Any, cursor: str | None) -> Any:
    """The ``tools/list`` result exactly as the server sent it (parsed JSON, not validated).

    The SDK offers no public way to skip its models, so this sends the request the way
    ``ClientSession.send_request`` does (its per-version stamp: headers, ``_meta``; the
    session's read timeout) and stops before validation. Covered over stdio and Streamable
    HTTP by tests/services/test_wild.py, so an SDK upgrade that moves these names fails there."""
    import mcp_types as types

    session = client.session
    params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
    data = types.ListToolsRequest(params=params).model_dump(
        by_alias=True, mode="json", exclude_none=True
    )
    opts: dict[str, Any] = {}
    session._stamp(data, opts)
    timeout = session._session_read_timeout_seconds
    if timeout is not None:
        opts["timeout"] = timeout
    return await session._dispatcher.send_raw_request(data["method"], data.get("params"), opts)


def _read_raw_page(raw: Any, *, offset: int) -> _Page:
    """A raw ``tools/list`` result read as sent: every object with a string ``name`` is a tool;
    only a result that is not a list of objects is an error for the whole server."""
    if not isinstance(raw, dict) or not isinstance(raw.get("tools"), list):
        got = "no 'tools' array" if isinstance(raw, dict) else "not a JSON object"
        raise FetchError(
            "malformed-tool-list",
            f"the tools/list result has {got}: there is no list of tools to read",
        )
    wires: list[dict[str, Any]] = []
    skipped: list[str] = []
    for i, t in enumerate(raw["tools"]):
        if not isinstance(t, dict):
            raise FetchError(
                "malformed-tool-list",
                f"tool #{offset + i} is not a JSON object: the result is not a list of tools",
            )
        if not isinstance(t.get("name"), str):
            # Nothing can call it (tools/call names the tool): not a tool, and said so.
            skipped.append(
                f"entry #{offset + i} of the tool list has no string 'name': not a "
                "tool, not read (MCP schema: Tool requires a name)"
            )
            continue
        wires.append(t)
    cursor = raw.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise FetchError(
            "malformed-tool-list", "nextCursor is not a string: the list cannot be paged"
        )
    ttl = raw.get("ttlMs")
    ttl = ttl if isinstance(ttl, int) and not isinstance(ttl, bool) else None
    scope = raw.get("cacheScope")
    return _Page(wires, cursor, ttl, scope if isinstance(scope, str) else None, skipped)


TOOL_KEYS = frozenset(
    {
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "execution",
        "_meta",
    }
)
"""The keys of a tool the SDK's model reads; any other key of a served tool it drops."""


class _RawCapture:
    """The raw ``tools/list`` results the SDK's session receives while one page is listed
    through it (the session's dispatcher, wrapped for the call): the SDK's model drops the keys
    of a tool MCP does not define, and the digest covers every key as served, so
    they are put back from here (:func:`_with_unknown_keys`). A dispatcher that cannot be
    wrapped captures nothing (the SDK's view, as before)."""

    def __init__(self, client: Any):
        self.results: list[Any] = []
        self._d = getattr(getattr(client, "session", None), "_dispatcher", None)
        self._wrapped = False

    def __enter__(self) -> _RawCapture:
        orig = getattr(self._d, "send_raw_request", None)
        if orig is None:
            return self
        results = self.results

        async def capture(method: str, params: Any, opts: Any) -> Any:
            raw = await orig(method, params, opts)
            if method == "tools/list":
                results.append(raw)
            return raw

        try:
            self._d.send_raw_request = capture  # type: ignore[union-attr]
            self._wrapped = True
        except (AttributeError, TypeError):
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self._wrapped:
            try:
                del self._d.send_raw_request  # type: ignore[union-attr]
            except AttributeError:
                pass

    def last(self) -> Any:
        return self.results[-1] if self.results else None


def _with_unknown_keys(wires: list[dict[str, Any]], raw: Any) -> list[dict[str, Any]]:
    """``wires`` (the SDK's dumps of one page) with the keys MCP does not define put back from
    the page as sent (``raw``), matched in order by name (the SDK may leave a tool out)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("tools"), list):
        return wires
    sent = [t for t in raw["tools"] if isinstance(t, dict)]
    out = []
    j = 0
    for w in wires:
        k = j
        while k < len(sent) and sent[k].get("name") != w.get("name"):
            k += 1
        if k == len(sent):
            out.append(w)
            continue
        extra = {key: v for key, v in sent[k].items() if key not in TOOL_KEYS}
        out.append({**w, **extra} if extra else w)
        j = k + 1
    return out


async def _list_page(client: Any, cursor: str | None, *, offset: int) -> _Page:
    """One page: through the SDK's models (with the keys they drop put back as sent), or, when
    they reject it, as sent (raw)."""
    from pydantic import ValidationError

    try:
        with _RawCapture(client) as cap:
            result = await client.list_tools(cursor=cursor, cache_mode="bypass")
    except ValidationError:
        return _read_raw_page(await _raw_list_result(client, cursor), offset=offset)
    wires = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in result.tools]
    wires = _with_unknown_keys(wires, cap.last())
    # The model fills defaults (0, "private") even when the server sent nothing, as on every
    # legacy connection: record only what was really on the wire.
    sent: set[str] = getattr(result, "model_fields_set", set())
    ttl_ms = result.ttl_ms if "ttl_ms" in sent else None
    scope = getattr(result, "cache_scope", None) if "cache_scope" in sent else None
    scope = str(getattr(scope, "value", scope)) if scope is not None else None
    return _Page(wires, result.next_cursor, ttl_ms, scope)


async def list_all_tools(
    client: Any,
    *,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_pages: int = DEFAULT_MAX_PAGES,
    on_page: Callable[[int], Any] | None = None,
) -> Listing:
    """Every page of ``tools/list``, bypassing any cache; raises ``FetchError`` on a bad list.

    A page the SDK's models reject is read as sent (``_read_raw_page``): a tool that breaks the
    protocol's schema is still read, pinned and compared, and reported by engine/protocol.py."""
    tools: list[ToolDef] = []
    notes: list[str] = []
    cursor: str | None = None
    ttl_ms: int | None = None
    scope: str | None = None
    seen_cursors: set[str] = set()
    first_page: list[dict[str, Any]] | None = None
    for page in range(max_pages):
        got = await _list_page(client, cursor, offset=len(tools))
        wires = got.wires
        notes.extend(got.skipped)
        if page == 0:
            first_page = wires
            ttl_ms, scope = got.ttl_ms, got.cache_scope
        # A name on two pages is kept twice, as one listed twice on one page is: a
        # protocol-duplicate-name finding on that tool (engine/status.py; several definitions
        # under one name block, and the proxy withholds the name). A list that shifted under
        # the cursor is told apart by reading page 1 again below.
        for wire in wires:
            try:
                tools.append(ToolDef.from_wire(wire, source=f"tool #{len(tools)}"))
            except InputError as e:
                # Only what cannot be canonicalised (NaN, nesting past the cap) lands here.
                raise FetchError(
                    "malformed-tool-list", f"tool #{len(tools)} {wire.get('name')!r}: {e.detail}"
                ) from None
        if on_page is not None:
            on_page(len(tools))
        if len(tools) > max_tools:
            raise FetchError(
                "flood",
                f"more than {max_tools} tools (stopped after {len(tools)} "
                f"in {page + 1} pages); raise max_tools if this is real",
            )
        cursor = got.next_cursor
        if cursor is None:
            if page > 0:
                # Paged: read page 1 again. A list that changed while it was paged (a tool
                # added, removed or edited in front of the cursor) is reported, not merged.
                again = await _list_page(client, None, offset=0)
                if again.wires != first_page:
                    raise FetchError(
                        "malformed-tool-list",
                        _changed_between_pages("page 1 is no longer what it was when paging began"),
                    )
            return Listing(tools, ttl_ms, scope, page + 1, notes)
        if cursor in seen_cursors:
            raise FetchError(
                "malformed-tool-list",
                f"the server repeated cursor {cursor[:40]!r} (page {page + 1}): pagination loops",
            )
        seen_cursors.add(cursor)
    raise FetchError(
        "flood",
        f"more than {max_pages} pages of tools ({len(tools)} tools so "
        "far); raise max_pages if this is real",
    )


MAX_UI_RESOURCES = 64
"""Most distinct UI resources read per server (a listing of thousands of tools each naming
its own ``ui://`` must not turn into thousands of reads); past it, each is recorded as not
read (said, and the proxy serves none of them)."""


async def _raw_read(client: Any, uri: str) -> Any:
    """The ``resources/read`` result for ``uri`` exactly as the server sent it (parsed JSON,
    not validated: the SDK's models would normalise the URI and drop keys), sent the way
    :func:`_raw_list_result` sends ``tools/list``."""
    session = client.session
    data: dict[str, Any] = {"method": "resources/read", "params": {"uri": uri}}
    opts: dict[str, Any] = {}
    session._stamp(data, opts)
    timeout = session._session_read_timeout_seconds
    if timeout is not None:
        opts["timeout"] = timeout
    return await session._dispatcher.send_raw_request(data["method"], data.get("params"), opts)


async def read_ui_resources(
    client: Any, tools: list[ToolDef], *, scrub: Callable[[str], str] = str
) -> list[ToolDef]:
    """``tools``, each whose ``_meta`` names a UI resource carrying its record
    (engine/ui_resource.py): read once per URI with ``resources/read``. A read that fails is
    recorded with why (never passed over); a server fault here never fails the listing."""
    from dataclasses import replace

    from mcp_review.engine.rules.meta import ui_resource_uris
    from mcp_review.engine.ui_resource import UIResource, from_read_result

    read: dict[str, UIResource] = {}
    out = []
    for t in tools:
        uris = ui_resource_uris(t.wire.get("_meta"))
        if not uris:
            out.append(t)
            continue
        for uri in uris:
            if uri in read:
                continue
            if len(read) >= MAX_UI_RESOURCES:
                read[uri] = UIResource(
                    uri=uri, error=f"not read: over {MAX_UI_RESOURCES} UI resources on one server"
                )
                continue
            try:
                read[uri] = from_read_result(uri, await _raw_read(client, uri))
            except Exception as e:  # cancellation (BaseException) propagates on purpose
                why = getattr(getattr(e, "error", None), "message", None) or str(e)
                # The server's words may echo a secret of the config: scrubbed, as every
                # fetch error is, before a pin or a snapshot keeps them.
                read[uri] = UIResource(
                    uri=uri,
                    error=f"resources/read failed: {scrub(str(why))[:200] or type(e).__name__}",
                )
        out.append(replace(t, ui=tuple(read[u] for u in uris)))
    return out


def _changed_between_pages(detail: str) -> str:
    return (
        f"the tool list changed while it was being paged ({detail}); nothing was merged: "
        "fetch again"
    )


# --- one server ----------------------------------------------------------------------------


async def fetch_server(
    cfg: ServerConfig,
    *,
    log_dir: str | os.PathLike[str] | None = None,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_pages: int = DEFAULT_MAX_PAGES,
    on_progress: ProgressFn | None = None,
    max_resources: int = DEFAULT_RESOURCE_LIMIT,
) -> ServerSnapshot:
    """Fetch one server within ``cfg.timeout``; never raises for a server fault."""
    import anyio

    snap = ServerSnapshot(name=cfg.name, principal=cfg.principal)
    t0 = time.monotonic()

    def report(state: str, **kw: Any) -> None:
        if on_progress is not None:
            try:
                on_progress(Progress(cfg.name, state, time.monotonic() - t0, **kw))
            except Exception:  # a UI callback must never break a fetch
                _log.exception("on_progress failed")

    probe = Probe()
    errlog = open_errlog(cfg, log_dir)
    report("connecting")
    try:
        try:
            with anyio.fail_after(cfg.timeout):
                async with connect(cfg, errlog=errlog, probe=probe) as c:
                    snap.protocol_version = scrub_json(c.protocol_version, cfg.scrub)
                    snap.server_info = server_info_of(c, cfg)
                    # Pinned like a description: stored as served, never scrubbed (its digest
                    # must be of what the model reads; docs/security.md, not promised).
                    instr = getattr(c, "instructions", None)
                    snap.instructions = instr if isinstance(instr, str) else None
                    report("listing")
                    listing = await list_all_tools(
                        c,
                        max_tools=max_tools,
                        max_pages=max_pages,
                        on_page=lambda n: report("listing", tools=n),
                    )
                    snap.tools = await read_ui_resources(c, listing.tools, scrub=cfg.scrub)
                    snap.ttl_ms = listing.ttl_ms
                    snap.cache_scope = listing.cache_scope
                    snap.notes = listing.notes
                    await _fetch_surfaces(c, snap, max_resources, cfg)
        except Exception as e:  # cancellation (BaseException) propagates on purpose
            kind, message = classify(e, cfg, probe)
            tail = stderr_tail(errlog, scrub=cfg.scrub)
            if tail and kind in ("exited", "timed-out", "not-an-mcp-server", "protocol-error"):
                message += f"; stderr: {tail}"
            snap.tools = []
            snap.error = {"kind": kind, "message": cfg.scrub(message)}
            report("failed", detail=snap.error["message"], snapshot=snap)
            return snap
    finally:
        if errlog is not None:
            errlog.close()
    report("done", tools=len(snap.tools), snapshot=snap)
    return snap


async def _fetch_surfaces(c: Any, snap: ServerSnapshot, limit: int, cfg: ServerConfig) -> None:
    """Prompts, resources and templates (services/surfaces_fetch.py). A list that
    fails is a note and its kind is left out (its pins are not judged, and the note says so);
    the tools fetched stand."""
    from mcp_review.services.surfaces_fetch import list_surfaces

    try:
        got = await list_surfaces(c, max_resources=limit)
    except Exception as e:  # cancellation (BaseException) propagates on purpose
        snap.notes.append(
            cfg.scrub(f"prompts and resources not read ({type(e).__name__}: {e})")[:500]
        )
        return
    snap.surfaces = got.surfaces
    snap.surfaces_listed = got.listed
    for kind, why in sorted(got.failed.items()):
        snap.notes.append(cfg.scrub(f"{kind}s not read ({why})"))
    for kind, n in sorted(got.listed.items()):
        snap.notes.append(
            f"{n} {kind}s listed; only the first {len(got.surfaces[kind])} are pinned "
            "(max_resources in the config)"
        )


# --- all servers ---------------------------------------------------------------------------


async def fetch_all(
    configs: Sequence[ServerConfig],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    log_dir: str | os.PathLike[str] | None = None,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_pages: int = DEFAULT_MAX_PAGES,
    on_progress: ProgressFn | None = None,
    max_resources: int = DEFAULT_RESOURCE_LIMIT,
) -> Snapshot:
    """Fetch every server at once (at most ``concurrency`` connecting at a time).

    One server's failure, hang or flood never cancels or delays the others past its own
    timeout. The result has one ``ServerSnapshot`` per config, keyed by the local name.
    """
    import anyio

    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise InputError(
            "duplicate server names: " + ", ".join(sorted({n for n in names if names.count(n) > 1}))
        )
    limiter = anyio.CapacityLimiter(max(1, concurrency))
    snap = Snapshot(taken_at=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    if on_progress is not None:
        for c in configs:
            on_progress(Progress(c.name, "queued"))

    async def one(cfg: ServerConfig) -> None:
        async with limiter:
            try:
                snap.servers[cfg.name] = await fetch_server(
                    cfg,
                    log_dir=log_dir,
                    max_tools=max_tools,
                    max_pages=max_pages,
                    on_progress=on_progress,
                    max_resources=max_resources,
                )
            except Exception as e:  # a bug here must not take the other servers down
                _log.exception("fetch of %s failed", cfg.name)
                snap.servers[cfg.name] = ServerSnapshot(
                    name=cfg.name,
                    principal=cfg.principal,
                    error={
                        "kind": "internal-error",
                        "message": cfg.scrub(f"{type(e).__name__}: {e}"),
                    },
                )

    async with anyio.create_task_group() as tg:
        for cfg in configs:
            tg.start_soon(one, cfg)
    # Keep the config order: the report lists servers as the operator wrote them.
    snap.servers = {n: snap.servers[n] for n in names}
    return snap


def fetch_config(
    config: Config, *, only: Sequence[str] | None = None, on_progress: ProgressFn | None = None
) -> Snapshot:
    """Synchronous ``fetch_all`` over a loaded ``Config`` (logs under ``<state_dir>/logs``)."""
    import anyio

    servers = config.servers
    if only:
        unknown = [n for n in only if n not in {s.name for s in servers}]
        if unknown:
            from mcp_review.engine.names import not_found, shown

            raise InputError(
                f"no server named {', '.join(map(shown, unknown))} in the config"
                + not_found(unknown[0], [s.name for s in servers], "servers"),
                source=config.source,
            )
        servers = [s for s in servers if s.name in only]
    log_dir = Path(config.state_dir) / "logs" if config.state_dir else None

    async def run() -> Snapshot:
        return await fetch_all(
            servers,
            concurrency=config.concurrency,
            log_dir=log_dir,
            max_tools=config.max_tools,
            max_pages=config.max_pages,
            on_progress=on_progress,
            max_resources=config.max_resources,
        )

    return anyio.run(run)
