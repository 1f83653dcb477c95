"""Where a tool definition deviates from the MCP schema of its protocol version.

Servers in the wild send definitions the SDK's models reject (an ``inputSchema`` with no
``type``, a name with a space, a description that is a number). mcp-review reads them as sent
(``ToolDef.from_wire`` asks only for an object with a string ``name``) and reports each
deviation here, as a finding on that tool naming the protocol rule it breaks: one bad tool
never hides the good ones beside it, and a reviewer sees what the server really sends.

Findings inform; they never change a verdict by themselves (a new tool is reviewed anyway, a
pinned one was approved as it is). Duplicate names are found per server
(:func:`duplicate_findings`); the proxy withholds every tool whose name is served twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mcp_review.engine.model import json_kind
from mcp_review.engine.noobject import accepts_no_object

LATEST = "2026-07-28"
"""The newest protocol version this mcp-review knows: the rules applied when none was
negotiated (a snapshot without one)."""

NAME_RULE_SINCE = "2025-11-25"
"""Tool names were constrained to ``[A-Za-z0-9_.-]{1,128}`` in this revision (SEP-986)."""
OUTPUT_SCHEMA_SINCE = "2025-06-18"
ICONS_SINCE = "2025-11-25"

_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True, slots=True)
class ProtocolFinding:
    """One deviation from the protocol's schema, on one tool."""

    rule: str
    """``protocol-*`` kebab-case id (see ``RULES``)."""
    pointer: str
    """RFC 6901 pointer into the tool definition as sent."""
    message: str
    """Names the protocol version and the schema rule; never quotes server text."""

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "pointer": self.pointer, "message": self.message}

    def line(self) -> str:
        """The one-line form every text output uses (no server text in it)."""
        return f"protocol: {self.rule} {self.pointer}: {self.message}"


RULES: dict[str, str] = {
    "protocol-input-schema-missing": "a tool must have an inputSchema (Tool.inputSchema is required)",
    "protocol-input-schema-type": 'inputSchema must declare type "object" (Tool.inputSchema.type)',
    "protocol-output-schema-type": 'outputSchema must declare type "object" (Tool.outputSchema.type)',
    "protocol-input-schema-no-object": "inputSchema accepts no object: no tools/call can be valid",
    "protocol-output-schema-no-object": "outputSchema accepts no object: no structured result can be valid",
    "protocol-name-pattern": "a tool name must match [A-Za-z0-9_.-]{1,128} (Tool names)",
    "protocol-field-type": "a field of the definition has the wrong JSON type",
    "protocol-duplicate-name": "tool names must be unique within a server's list",
}
"""Every protocol rule id with its one-line purpose (docs/formats.md lists them)."""


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}").fullmatch
"""A date-named protocol revision (compiled once: checked twice per tool of a fleet)."""


def _since(version: str | None, revision: str) -> bool:
    """True when ``version`` (a date-named protocol revision) is ``revision`` or later; an
    unknown or missing version gets the newest rules."""
    if not isinstance(version, str) or not _DATE(version):
        return True
    return version >= revision


def tool_findings(
    wire: dict[str, Any], protocol_version: str | None = None
) -> list[ProtocolFinding]:
    """Every deviation of one definition (wire JSON, as sent) from the MCP schema of
    ``protocol_version`` (the newest known when None). Pure and total: never raises."""
    ver = (
        protocol_version
        if isinstance(protocol_version, str) and _DATE(protocol_version)
        else LATEST
    )
    spec = f"MCP {ver} schema"
    out: list[ProtocolFinding] = []

    def wrong(pointer: str, field: str, expected: str, got: Any) -> None:
        out.append(
            ProtocolFinding(
                "protocol-field-type",
                pointer,
                f"{field} must be {expected}, the server sent {json_kind(got)} ({spec})",
            )
        )

    name = wire.get("name")
    if isinstance(name, str) and _since(ver, NAME_RULE_SINCE) and not _NAME.fullmatch(name):
        out.append(
            ProtocolFinding(
                "protocol-name-pattern",
                "/name",
                f"the name is outside [A-Za-z0-9_.-]{{1,128}} ({len(name)} characters; {spec}: "
                "tool names)",
            )
        )
    for key in ("title", "description"):
        if key in wire and not isinstance(wire[key], str):
            wrong(f"/{key}", f"Tool.{key}", "a string", wire[key])
    if "inputSchema" not in wire:
        out.append(
            ProtocolFinding(
                "protocol-input-schema-missing",
                "/inputSchema",
                f"no inputSchema ({spec}: Tool.inputSchema is required)",
            )
        )
    else:
        _schema_findings(
            wire["inputSchema"],
            "/inputSchema",
            "Tool.inputSchema",
            "protocol-input-schema-type",
            spec,
            out,
            wrong,
        )
    if "outputSchema" in wire and _since(ver, OUTPUT_SCHEMA_SINCE):
        _schema_findings(
            wire["outputSchema"],
            "/outputSchema",
            "Tool.outputSchema",
            "protocol-output-schema-type",
            spec,
            out,
            wrong,
        )
    if "annotations" in wire:
        ann = wire["annotations"]
        if not isinstance(ann, dict):
            wrong("/annotations", "Tool.annotations", "an object", ann)
        else:
            for h in _HINTS:
                if h in ann and not isinstance(ann[h], bool):
                    wrong(f"/annotations/{h}", f"ToolAnnotations.{h}", "a boolean", ann[h])
            if "title" in ann and not isinstance(ann["title"], str):
                wrong("/annotations/title", "ToolAnnotations.title", "a string", ann["title"])
    if "icons" in wire and _since(ver, ICONS_SINCE) and not isinstance(wire["icons"], list):
        wrong("/icons", "Tool.icons", "an array", wire["icons"])
    if "execution" in wire and _since(ver, ICONS_SINCE) and not isinstance(wire["execution"], dict):
        wrong("/execution", "Tool.execution", "an object", wire["execution"])
    if "_meta" in wire and not isinstance(wire["_meta"], dict):
        wrong("/_meta", "Tool._meta", "an object", wire["_meta"])
    return out


def _schema_findings(
    schema: Any,
    pointer: str,
    field: str,
    type_rule: str,
    spec: str,
    out: list[ProtocolFinding],
    wrong: Any,
) -> None:
    if not isinstance(schema, dict):
        wrong(pointer, field, 'an object with type "object"', schema)
        return
    t = schema.get("type")
    if accepts_no_object(schema):
        # One finding for the whole schema: arguments and structured
        # results are JSON objects, and this root admits none (a $ref to a string enum, say).
        out.append(
            ProtocolFinding(
                type_rule.replace("-type", "-no-object"),
                pointer,
                f"{field} accepts no JSON object, so no value sent in its place can be valid "
                f'({spec}: {field}.type must be "object")',
            )
        )
    elif t != "object":
        got = (
            "no type"
            if "type" not in schema
            else f"type {json_kind(t)}"
            if not isinstance(t, str)
            else "another type"
        )
        out.append(
            ProtocolFinding(
                type_rule,
                pointer + "/type",
                f'{field} has {got} ({spec}: {field}.type must be "object")',
            )
        )
    if "properties" in schema and not isinstance(schema["properties"], dict):
        wrong(pointer + "/properties", field + ".properties", "an object", schema["properties"])
    req = schema.get("required")
    if "required" in schema and not (
        isinstance(req, list) and all(isinstance(x, str) for x in req)
    ):
        wrong(pointer + "/required", field + ".required", "an array of strings", req)


def duplicate_findings(count: int, protocol_version: str | None = None) -> ProtocolFinding:
    """The finding on a name a server lists ``count`` (> 1) times."""
    ver = (
        protocol_version
        if isinstance(protocol_version, str) and _DATE(protocol_version)
        else LATEST
    )
    return ProtocolFinding(
        "protocol-duplicate-name",
        "/name",
        f"the server lists this name {count} times (MCP {ver}: a tool is "
        "called by its name, which must be unique in the list; the proxy "
        "withholds every copy)",
    )
