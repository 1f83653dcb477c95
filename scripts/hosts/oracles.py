"""The vendors' own schema converters as oracles for the host profiles (issue 44 item 8).

Each oracle takes a tool's ``inputSchema`` as an MCP server sent it and answers ``accept`` or
``refuse`` (with the converter's own words), offline:

- ``openai-agents`` (``agents.strict_schema.ensure_strict_json_schema``): the strict conversion
  the Agents SDK applies before handing a function tool to the OpenAI API with ``strict: true``.
  Compared with the ``openai-strict`` profile.
- ``anthropic`` (``anthropic.lib._parse._transform.transform_schema``): the Anthropic SDK's
  conversion of a schema for strict (structured) use. Compared with ``claude-strict``.
- ``google-genai`` (``google.genai._mcp_utils.mcp_to_gemini_tool``, then the Developer API
  check of ``_transformers.process_schema``): how the SDK hands an MCP tool to Gemini as
  ``parameters`` (keys outside its model are dropped). Compared with ``gemini``.

What an SDK accepts is not always what the API accepts: an SDK may rewrite a schema (close an
object, move a keyword into the description) where the API refuses the schema as sent, and an
SDK model may know a field the API refused in public issues. Every result says where it comes
from. Standard library + the three SDKs (the test extras).
"""

from __future__ import annotations

import copy
import json
from typing import Any

ORACLES = {
    "openai-agents": "openai-strict",
    "anthropic": "claude-strict",
    "google-genai": "gemini",
}
"""Oracle -> the profile it is compared with."""

SOURCE = {
    "openai-agents": "openai-agents SDK strict conversion (not the API)",
    "anthropic": "anthropic SDK transform_schema (not the API)",
    "google-genai": "google-genai SDK MCP conversion + Developer API check (not the API)",
}


def _openai_agents(schema: Any) -> tuple[str, str]:
    from agents.strict_schema import ensure_strict_json_schema

    try:
        ensure_strict_json_schema(copy.deepcopy(schema))
    except Exception as e:  # UserError, TypeError: the SDK refuses the schema
        return "refuse", f"{type(e).__name__}: {str(e)[:120]}"
    return "accept", ""


def _anthropic(schema: Any) -> tuple[str, str]:
    from anthropic.lib._parse._transform import transform_schema

    try:
        out = transform_schema(copy.deepcopy(schema))
    except Exception as e:
        return "refuse", f"{type(e).__name__}: {str(e)[:120]}"
    # Accepted, but did the conversion change what the model sees? (a degrade, not a refusal)
    return "accept", "rewritten" if _rewrote(schema, out) else ""


def _rewrote(before: Any, after: Any) -> bool:
    def strip(s: Any) -> Any:
        if isinstance(s, dict):
            return {
                k: strip(v)
                for k, v in s.items()
                if k not in ("description", "title") and not (k == "format" and v == "text")
            }
        if isinstance(s, list):
            return [strip(v) for v in s]
        return s

    return json.dumps(strip(before), sort_keys=True) != json.dumps(strip(after), sort_keys=True)


def _google_genai(schema: Any) -> tuple[str, str]:
    """The SDK's own MCP path (``google.genai._mcp_utils.mcp_to_gemini_tool``): keys outside
    its JSONSchema model are filtered out (dropped, not refused), then
    ``types.Schema.from_json_schema``; and the check it makes before a Gemini Developer API
    request (``_transformers.process_schema``: a truthy additionalProperties is refused)."""
    from types import SimpleNamespace

    from google.genai import _mcp_utils, _transformers

    tool = SimpleNamespace(name="t", description="", inputSchema=copy.deepcopy(schema))
    try:
        converted = _mcp_utils.mcp_to_gemini_tool(tool)
        params = converted.function_declarations[0].parameters
        dumped = params.model_dump(by_alias=True, exclude_none=True) if params else {}
        _transformers.process_schema(dumped, SimpleNamespace(vertexai=False))
    except Exception as e:
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        return "refuse", f"{type(e).__name__}: {' '.join(lines[:2])[:120]}"
    return "accept", "rewritten" if _dropped(schema) else ""


def _dropped(schema: Any) -> bool:
    """Whether the SDK's MCP filter drops a keyword of ``schema`` (the model loses it)."""
    from google.genai import _mcp_utils

    return json.dumps(
        _mcp_utils._filter_to_supported_schema(copy.deepcopy(schema)), sort_keys=True
    ) != json.dumps(schema, sort_keys=True)


RUN = {"openai-agents": _openai_agents, "anthropic": _anthropic, "google-genai": _google_genai}


def judge(oracle: str, schema: Any) -> tuple[str, str]:
    return RUN[oracle](schema)


EXPLAINED: dict[str, dict[str, str]] = {
    "openai-agents": {
        "profile:format-unsupported": "the SDK does not check string formats; the API's strict "
        "mode accepts only its documented list (uri is not on it)",
        "profile:root-not-object": "the SDK writes type: object on a root that declares "
        "properties without a type; the API judges the schema as sent",
    },
    "anthropic": {
        "profile:open-object": "the SDK closes every object (additionalProperties: false): a "
        "free-form map silently loses its keys (a degrade), where the API refuses the open "
        "object as sent",
        "profile:format-unsupported": "the SDK moves an unsupported format into the description "
        "(a degrade); the API refuses it as sent",
        "sdk:ValueError": "the SDK refuses a schema with no type (nor anyOf, enum, ...): a "
        "limit of its converter, not of the API",
        "sdk:AssertionError": "the SDK's converter fails on a list of types (assert_never): a "
        "limit of the SDK, the profile has no rule for it",
    },
    "google-genai": {
        "profile:unsupported-keyword": "the SDK's MCP path drops keys outside its model (a "
        "degrade) where the API refuses them in parameters as sent (observed)",
        "profile:type-list": "the SDK turns a list of types into anyOf; the API refuses the "
        "list as sent (observed)",
        "sdk:AttributeError": "the SDK's MCP filter (_filter_to_supported_schema) fails on "
        "additionalProperties: false (it recurses into a boolean): a defect of the SDK's MCP "
        "path, not an API rule",
        "sdk:ValueError": "the SDK refuses a truthy additionalProperties for the Gemini "
        "Developer API before sending (_raise_for_unsupported_mldev_properties)",
    },
}
"""Every kind of disagreement between an oracle and its profile, with its reason: a
disagreement of no kind here is unexplained (tests/engine/test_hosts_oracles.py fails on it)."""


def explain(oracle: str, profile_rules: set[str], sdk: tuple[str, str]) -> tuple[str, ...] | None:
    """The keys of :data:`EXPLAINED` that account for a disagreement (None: unexplained).
    ``profile_rules``: the short ids of the profile's refusals (empty: the profile accepts)."""
    known = EXPLAINED[oracle]
    if sdk[0] == "accept" and profile_rules:
        keys = tuple(f"profile:{r}" for r in sorted(profile_rules))
        return keys if all(k in known for k in keys) else None
    if sdk[0] == "refuse" and not profile_rules:
        key = "sdk:" + sdk[1].split(":", 1)[0]
        return (key,) if key in known else None
    return ()  # they agree
