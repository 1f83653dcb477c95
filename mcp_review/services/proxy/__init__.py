"""Stdio proxy engine: relays JSON-RPC lines byte-for-byte, records tools/call, enforces pins.

A small package: ``framing`` (lines, parsing, ids), ``process`` (the server's process group and
the client's pipes), ``upstream`` (the server end whatever its transport: ``StdioUpstream`` here,
``http_upstream.HttpUpstream`` for a remote server), ``enforce`` (the pin file's verdicts, cached
until it changes) and ``relay`` (both directions in one anyio task group). ``commands/proxy`` is its only caller."""

from __future__ import annotations

from mcp_review.services.proxy.enforce import Enforcer, PinEnforcer, Verdict, verdict_for
from mcp_review.services.proxy.framing import (
    CHUNK,
    MAX_LINE,
    MAX_SAFE_ID,
    id_keys,
    read_line_batches,
)
from mcp_review.services.proxy.process import STDIN_GRACE, TERM_GRACE
from mcp_review.services.proxy.relay import Proxy
from mcp_review.services.proxy.relay_common import (
    CRASH_CODE,
    EXIT_OK,
    EXIT_SERVER_GONE,
    FETCH_MAX_PAGES,
    FETCH_TIMEOUT,
    INVALID_REQUEST,
    PARSE_ERROR,
    PIN_POLL,
    REFUSED_CODE,
    WARNING_PREFIX,
)
from mcp_review.services.proxy.upstream import StdioUpstream, Upstream, UpstreamError

__all__ = [
    "CHUNK",
    "CRASH_CODE",
    "EXIT_OK",
    "EXIT_SERVER_GONE",
    "FETCH_MAX_PAGES",
    "FETCH_TIMEOUT",
    "INVALID_REQUEST",
    "MAX_LINE",
    "MAX_SAFE_ID",
    "PARSE_ERROR",
    "PIN_POLL",
    "REFUSED_CODE",
    "STDIN_GRACE",
    "TERM_GRACE",
    "WARNING_PREFIX",
    "Enforcer",
    "PinEnforcer",
    "Proxy",
    "StdioUpstream",
    "Upstream",
    "UpstreamError",
    "Verdict",
    "id_keys",
    "read_line_batches",
    "verdict_for",
]
