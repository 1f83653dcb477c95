"""The headers of the proxy's requests to a remote MCP server over Streamable HTTP: the
session and version headers, and what a 2026-07-28 request mirrors from its body (its method,
the name it bears, the ``x-mcp-header`` parameters of a tool call), encoded as the SDK does."""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Mapping
from typing import Any

SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
LAST_EVENT_ID = "last-event-id"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
NAME_BEARING = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
"""2026-07-28 requests mirror their method (and this param) in headers, as the SDK does."""
SESSION_ID_RE = re.compile(r"^[\x21-\x7e]{1,1024}$")
"""The spec: visible ASCII. Anything else (or longer) is refused."""
TOKEN_RE = re.compile(r"^[A-Za-z0-9._/-]{1,64}$")
"""A protocol version or method name that may be put in a header."""
_HEADER_SAFE = re.compile(r"^[\x20-\x7e]*$")


def encode_header_value(value: str) -> str:
    """As the SDK encodes ``Mcp-Name``: printable ASCII as is, anything else base64-wrapped."""
    if _HEADER_SAFE.match(value) and value == value.strip() and not value.startswith("=?base64?"):
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


_TOKEN_CHARS = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def param_header_map(schema: Any) -> dict[tuple[str, ...], str]:
    """The ``x-mcp-header`` annotations of a tool's input schema, by property path: on a
    property reached from the root through ``properties`` alone, an RFC 9110 token, on a
    string, integer or boolean property (what the SDK accepts; anything else is left out)."""
    out: dict[tuple[str, ...], str] = {}

    def walk(node: Any, path: tuple[str, ...]) -> None:
        props = node.get("properties") if isinstance(node, dict) and len(path) < 32 else None
        if not isinstance(props, dict):
            return
        for key, sub in props.items():
            if not isinstance(sub, dict):
                continue
            tok = sub.get("x-mcp-header")
            if (
                isinstance(tok, str)
                and _TOKEN_CHARS.match(tok)
                and sub.get("type") in ("string", "integer", "boolean")
            ):
                out[(*path, key)] = tok
            walk(sub, (*path, key))

    walk(schema, ())
    return out


def param_headers(header_map: Mapping[tuple[str, ...], str], arguments: Any) -> dict[str, str]:
    """The ``Mcp-Param-*`` headers a 2026-07-28 ``tools/call`` mirrors from its arguments, as
    the SDK client writes them (a missing or non-scalar value: no header)."""
    out: dict[str, str] = {}
    for path, tok in header_map.items():
        node = arguments
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, bool):
            text = "true" if node else "false"
        elif isinstance(node, (str, int, float)):
            try:
                text = str(node)
            except ValueError:  # an integer past the digit limit
                continue
        else:
            continue
        out[f"Mcp-Param-{tok}"] = encode_header_value(text)
    return out


def quiet_http_logs() -> None:
    # httpx2 and httpcore log request URLs (a query may carry a token) and headers at debug:
    # in a proxy whose stderr is the client's log file, none of it may reach a handler.
    for name in ("httpx2", "httpx", "httpcore", "httpcore2", "hpack", "h2"):
        lg = logging.getLogger(name)
        lg.setLevel(logging.CRITICAL + 1)
        lg.propagate = False
