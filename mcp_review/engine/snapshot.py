"""The snapshot format: live tool lists saved as JSON for offline review.

```json
{
  "format": "mcp-review-snapshot",
  "version": 1,
  "taken_at": "2026-11-29T22:00:00Z",
  "servers": {
    "<local server name>": {
      "principal": "default",
      "server_info": {"name": "...", "version": "..."},   // as reported; may be null
      "protocol_version": "2025-11-25",                    // may be null
      "ttl_ms": null, "cache_scope": null,
      "instructions": "...",                               // optional: as sent, if any
      "tools": [ { <tool definition, wire JSON> }, ... ],
      "error": null,                                       // or {"kind": "...", "message": "..."}
      "notes": ["..."]                 // optional: list entries that were not tools
    }
  }
}
```

Servers are keyed by the local name from the config, never by what the server says about
itself. No secrets (env values, headers) are ever stored here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.hidden import json_dumps_safe
from mcp_review.engine.model import ToolDef

FORMAT = "mcp-review-snapshot"
VERSION = 1


def version_label(version: str) -> str:
    """A server's version as shown: ``v1.2.0`` for ``1.2.0``; one that already starts with a
    ``v`` and a digit (``v2``, ``V1.0``) as it is, never ``vv2``."""
    if version[:1] in ("v", "V") and version[1:2].isdigit():
        return version
    return f"v{version}"


@dataclass(slots=True)
class ServerSnapshot:
    """One server's live tool list (or the reason it could not be fetched)."""

    name: str
    principal: str = "default"
    tools: list[ToolDef] = field(default_factory=list)
    server_info: dict[str, Any] | None = None
    protocol_version: str | None = None
    ttl_ms: int | None = None
    cache_scope: str | None = None
    error: dict[str, str] | None = None
    """``{"kind": "timed-out" | "spawn-failed" | ..., "message": "..."}`` when unreachable."""
    instructions: str | None = None
    """The server's ``instructions`` as sent (None: none sent; see engine/instructions.py)."""
    notes: list[str] = field(default_factory=list)
    """What reading the list passed over (an entry with no string name is not a tool)."""

    @property
    def server_version(self) -> str | None:
        if isinstance(self.server_info, dict):
            v = self.server_info.get("version")
            return v if isinstance(v, str) else None
        return None

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "principal": self.principal,
                "server_info": self.server_info,
                "protocol_version": self.protocol_version,
                "ttl_ms": self.ttl_ms,
                "cache_scope": self.cache_scope,
                **({"instructions": self.instructions} if self.instructions is not None else {}),
                "tools": [t.wire for t in self.tools],
                "error": self.error,
            }
            | ({"notes": list(self.notes)} if self.notes else {})
            | _ui_json(self.tools)
        )


@dataclass(slots=True)
class Snapshot:
    servers: dict[str, ServerSnapshot] = field(default_factory=dict)
    taken_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "taken_at": self.taken_at,
            "servers": {n: self.servers[n].to_json() for n in sorted(self.servers)},
        }

    def dumps(self) -> str:
        return json_dumps_safe(self.to_json(), indent=2) + "\n"


def parse_snapshot(data: Any, *, source: str = "<snapshot>") -> Snapshot:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(
            f'not an mcp-review snapshot (expected "format": "{FORMAT}")', source=source
        )
    ver = data.get("version")
    if not isinstance(ver, int) or ver > VERSION:
        raise InputError(
            f"snapshot version {ver!r} is newer than this mcp-review understands "
            f"({VERSION}); upgrade mcp-review",
            source=source,
        )
    servers = data.get("servers")
    if not isinstance(servers, dict):
        raise InputError("snapshot has no 'servers' object", source=source)
    snap = Snapshot(taken_at=data.get("taken_at"))
    for name, s in servers.items():
        if not isinstance(s, dict):
            raise InputError(f"server {name!r}: expected an object", source=source)
        tools_raw = s.get("tools") or []
        if not isinstance(tools_raw, list):
            raise InputError(f"server {name!r}: 'tools' must be an array", source=source)
        instructions = s.get("instructions")
        if instructions is not None and not isinstance(instructions, str):
            raise InputError(f"server {name!r}: 'instructions' must be a string", source=source)
        tools = [
            ToolDef.from_wire(t, source=f"{source}: server {name!r} tool #{i}")
            for i, t in enumerate(tools_raw)
        ]
        if "ui_resources" in s:
            tools = _with_ui(tools, s["ui_resources"], f"{source}: server {name!r}")
        snap.servers[name] = ServerSnapshot(
            name=name,
            principal=s.get("principal") or "default",
            tools=tools,
            server_info=s.get("server_info"),
            protocol_version=s.get("protocol_version"),
            ttl_ms=s.get("ttl_ms"),
            cache_scope=s.get("cache_scope"),
            error=s.get("error"),
            instructions=instructions,
            notes=[n for n in s.get("notes") or [] if isinstance(n, str)]
            if isinstance(s.get("notes"), list)
            else [],
        )
    return snap


def _ui_json(tools: list[ToolDef]) -> dict[str, Any]:
    """``{"ui_resources": [record, ...]}``: the UI resources read with the listing
    (engine/ui_resource.py), each once; nothing when none were read (older snapshots and
    servers without UI read the same)."""
    seen: dict[str, dict[str, Any]] = {}
    for t in tools:
        for r in t.ui or ():
            seen.setdefault(r.uri, r.to_toml())
    return {"ui_resources": [seen[u] for u in sorted(seen)]} if seen else {}


def _with_ui(tools: list[ToolDef], rows: Any, source: str) -> list[ToolDef]:
    """Each tool whose ``_meta`` names UI resources, carrying their records from ``rows``
    (a tool with one of them missing carries none: it was not read)."""
    from dataclasses import replace

    from mcp_review.engine.rules.meta import ui_resource_uris
    from mcp_review.engine.ui_resource import from_toml, record_of, toml_problem

    why = toml_problem(rows)
    if why is not None:
        raise InputError(f"{why.replace('its ', '', 1)}", source=source)
    records = from_toml(rows)
    out = []
    for t in tools:
        uris = ui_resource_uris(t.wire.get("_meta"))
        got = [record_of(records, u) for u in uris]
        if uris and all(r is not None for r in got):
            t = replace(t, ui=tuple(r for r in got if r is not None))
        out.append(t)
    return out
