"""List a connected server's prompts, resources and resource templates.

Each list is read as the server sent it (the raw JSON-RPC result, not the SDK's models, which
drop keys MCP does not define: the digest covers the whole object as served), every page up to
a bound. Only what the server's capabilities declare is listed (``prompts``, ``resources``);
a server that declares neither is asked nothing. Resources are bounded: the first
``max_resources`` are kept (:data:`engine.surfaces.DEFAULT_RESOURCE_LIMIT` by default) and the
number listed is recorded, so a server that lists thousands is said to, not pinned whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.surfaces import (
    DEFAULT_RESOURCE_LIMIT,
    LIST_FIELD,
    LIST_METHOD,
    PROMPT,
    RESOURCE,
    TEMPLATE,
    surface_key,
)
from mcp_review.services.transport import FetchError

MAX_SURFACES = 5000
"""Prompts (or templates) per server at most: past it the list is a flood, as for tools."""
MAX_PAGES = 100


@dataclass(slots=True)
class SurfaceListing:
    surfaces: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    listed: dict[str, int] = field(default_factory=dict)
    """The kinds cut at the bound, and how many entries the server listed in the pages read."""
    failed: dict[str, str] = field(default_factory=dict)
    """The kinds whose list failed, and why (left out: their pins are not judged)."""


def declared(client: Any) -> tuple[bool, bool]:
    """(prompts, resources) as the server's capabilities declare them."""
    caps = getattr(client, "server_capabilities", None)
    return (
        getattr(caps, "prompts", None) is not None,
        getattr(caps, "resources", None) is not None,
    )


async def _raw(client: Any, method: str, cursor: str | None) -> Any:
    """One list result exactly as sent (see services/fetch.py ``_raw_list_result``)."""
    session = client.session
    data: dict[str, Any] = {"method": method}
    if cursor is not None:
        data["params"] = {"cursor": cursor}
    opts: dict[str, Any] = {}
    session._stamp(data, opts)
    timeout = session._session_read_timeout_seconds
    if timeout is not None:
        opts["timeout"] = timeout
    return await session._dispatcher.send_raw_request(data["method"], data.get("params"), opts)


async def list_kind(
    client: Any, kind: str, *, limit: int
) -> tuple[list[dict[str, Any]], int, bool]:
    """(the first ``limit`` entries of one kind, how many the pages read listed, whether the
    list was cut at ``limit``). Entries without a string key (name or URI) are passed over.
    Raises FetchError on a bad list."""
    out: list[dict[str, Any]] = []
    listed = 0
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        raw = await _raw(client, LIST_METHOD[kind], cursor)
        items = raw.get(LIST_FIELD[kind]) if isinstance(raw, dict) else None
        if not isinstance(items, list):
            raise FetchError(
                "protocol-error", f"{LIST_METHOD[kind]}: no {LIST_FIELD[kind]!r} array"
            )
        for w in items:
            key = surface_key(kind, w) if isinstance(w, dict) else None
            if kind == RESOURCE and key is not None and key[:5].lower() == "ui://":
                continue  # an MCP Apps UI resource: pinned with the tool naming it
            if isinstance(w, dict) and key is not None:
                listed += 1
                if len(out) < limit:
                    out.append(w)
        nxt = raw.get("nextCursor")
        more = isinstance(nxt, str) and nxt != ""
        if listed >= limit and kind == RESOURCE:
            # Bounded: counted as far as the pages read; the rest is not read.
            return out, listed, listed > limit or more
        if listed > MAX_SURFACES:
            raise FetchError("flood", f"more than {MAX_SURFACES} entries in {LIST_METHOD[kind]}")
        if not more:
            return out, listed, False
        assert isinstance(nxt, str)
        if nxt in seen:
            raise FetchError("malformed-tool-list", f"{LIST_METHOD[kind]} repeated a cursor")
        seen.add(nxt)
        cursor = nxt
    raise FetchError("flood", f"more than {MAX_PAGES} pages of {LIST_METHOD[kind]}")


async def list_surfaces(
    client: Any, *, max_resources: int = DEFAULT_RESOURCE_LIMIT
) -> SurfaceListing:
    """Every declared kind of one connected server (see the module notes)."""
    prompts, resources = declared(client)
    got = SurfaceListing()
    kinds = ([PROMPT] if prompts else []) + ([RESOURCE, TEMPLATE] if resources else [])
    for kind in kinds:
        limit = max_resources if kind == RESOURCE else MAX_SURFACES
        try:
            items, listed, cut = await list_kind(client, kind, limit=limit)
        except Exception as e:  # one kind's failure leaves the others; cancellation propagates
            got.failed[kind] = f"{type(e).__name__}: {e}"[:300]
            continue
        got.surfaces[kind] = items
        if cut:
            got.listed[kind] = listed
    return got
