"""What the relay's halves share: its JSON-RPC codes and exit codes, and the record of one
request in flight. Split from relay.py (one module per job); importers name this module, not relay.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio

from mcp_review.engine import exitcodes
from mcp_review.services.proxy.hold import Hold

PIN_POLL = 1.0
"""Seconds between pin-file checks when no message arrives (see Proxy._watch_pins)."""

CRASH_CODE = -32000
REFUSED_CODE = -32602
"""MCP answers a call to an unknown tool with -32602; to this client a withheld tool is one."""
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603

FETCH_TIMEOUT = 30.0
"""Seconds the proxy waits for the server's answer to its own ``tools/list``."""
FETCH_MAX_PAGES = 100
"""Pages of its own ``tools/list`` the proxy follows before it gives up (and fails closed)."""
ENVELOPE_KEYS = (
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
)
"""2026-07-28 per-request ``_meta`` keys the proxy copies from a client's call into its own
``tools/list`` (a modern server rejects a request without them)."""

EXIT_OK = exitcodes.PASS
EXIT_SERVER_GONE = exitcodes.UNREACHABLE
"""The server could not be started or exited while the client was still connected."""

WARNING_PREFIX = "⚠ WITHHELD BY MCP-REVIEW"


# A request in flight -------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class OwnReply:
    """The answer to one of the proxy's own requests, delivered by the server pump."""

    msg: dict[str, Any] | None = None
    """None when the server went before answering."""
    done: anyio.Event = field(default_factory=anyio.Event)

    def set(self, msg: dict[str, Any] | None) -> None:
        if not self.done.is_set():
            self.msg = msg
            self.done.set()


@dataclass(slots=True, eq=False)
class Pending:
    method: str
    rpc_id: Any = None
    """The id exactly as the client sent it (answers and relayed replies carry it back)."""
    keys: frozenset[tuple[str, Any]] = frozenset()
    tool: str | None = None
    call_time: str | None = None
    cancelled: bool = False
    reply: OwnReply | None = None
    """Set on the proxy's own requests: the reply goes here and never to the client."""
    first_page: bool = True
    """A tools/list without a cursor: a new listing starts (see ``Proxy.listing``)."""
    hold: Hold | None = None
    """A tools/call relayed to a held tool: its result is checked against the approved
    output schema before the client gets it."""
    ui_uri: str | None = None
    """A resources/read of an MCP Apps UI resource: its result reaches the client only when
    it is the approved content."""


def starts_listing(msg: dict[str, Any]) -> bool:
    params = msg.get("params")
    return not (isinstance(params, dict) and "cursor" in params)


def ui_resource_uri(params: Any) -> str | None:
    """The URI of a ``resources/read`` when it is an MCP Apps UI resource (``ui://``)."""
    uri = params.get("uri") if isinstance(params, dict) else None
    return uri if isinstance(uri, str) and uri[:5].lower() == "ui://" else None
