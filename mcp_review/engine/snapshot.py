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
      "notes": ["..."],                // optional: list entries that were not tools
      "surfaces": {                    // optional: what prompts/list,
        "prompt": [ {...} ],           // resources/list and resources/templates/list
        "resource": [ {...} ],         // served, as sent; a kind absent was not fetched
        "resource-template": [ {...} ]
      },
      "surfaces_listed": {"resource": 1500}   // optional: a list cut at the bound, and how
                                              // many the server listed in the pages read
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
    surfaces: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Prompts, resources and resource templates as served, by kind (engine/surfaces.py);
    a kind absent was not fetched (the server does not declare it)."""
    surfaces_listed: dict[str, int] = field(default_factory=dict)
    """The kinds whose list was cut at the bound, and how many entries the server listed."""

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
            | self._surfaces_json()
        )

    def _surfaces_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.surfaces:
            out["surfaces"] = {k: list(v) for k, v in sorted(self.surfaces.items())}
        if self.surfaces_listed:
            out["surfaces_listed"] = dict(sorted(self.surfaces_listed.items()))
        return out


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
            surfaces=_surfaces(s.get("surfaces"), f"{source}: server {name!r}"),
            surfaces_listed=_listed(s.get("surfaces_listed"), f"{source}: server {name!r}"),
        )
    return snap


def _surfaces(v: Any, source: str) -> dict[str, list[dict[str, Any]]]:
    """A snapshot's ``surfaces``; absent (an older snapshot): none fetched."""
    from mcp_review.engine.canonical import check_json
    from mcp_review.engine.surfaces import KINDS

    if v is None:
        return {}
    if not isinstance(v, dict):
        raise InputError("'surfaces' must be an object", source=source)
    out: dict[str, list[dict[str, Any]]] = {}
    for kind, items in v.items():
        if kind not in KINDS:
            raise InputError(f"'surfaces': unknown kind {kind!r}", source=source)
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise InputError(f"'surfaces.{kind}' must be an array of objects", source=source)
        for i in items:
            try:
                check_json(i)
            except (ValueError, TypeError) as e:
                raise InputError(f"'surfaces.{kind}': {e}", source=source) from None
        out[kind] = items
    return out


def _listed(v: Any, source: str) -> dict[str, int]:
    if v is None:
        return {}
    if not isinstance(v, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in v.values()
    ):
        raise InputError("'surfaces_listed' must map kinds to counts", source=source)
    return dict(v)


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
