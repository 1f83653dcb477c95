"""The host profiles as data: one per host or model API, each an ``as_of`` date, its sources
(vendor docs, public issues), the numbers a user overrides, and its rules (:class:`HostRule`).

Split from engine/hosts.py, which judges with them (the checks, the findings, the targets) and
re-exports every name here; this module imports nothing of hosts.py's, so there is no circle.
Engine layer: no files, no mcp.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any


class Effect(StrEnum):
    """What the host does when a rule fires."""

    SESSION = "session"
    """The request is refused: every tool of every server is lost for the session."""
    SERVER = "server"
    """The server's whole tool list is lost."""
    TOOL = "tool"
    """The tool is dropped."""
    DEGRADE = "degrade"
    """Accepted, but the model sees another contract (optional made required, ...)."""
    TRUNCATE = "truncate"
    """The model sees a prefix."""


REFUSALS = frozenset({Effect.SESSION, Effect.SERVER, Effect.TOOL})
"""Effects that take a tool (or more) away from the model: a change into one is a regression."""


class Scope(StrEnum):
    TOOL = "tool"
    SERVER = "server"
    FLEET = "fleet"


class Confidence(StrEnum):
    DOCUMENTED = "documented"
    """The vendor documents it."""
    OBSERVED = "observed"
    """Public issues show it; the vendor does not document it (it may move without notice)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """Where a check fired, and what it saw, in our words (never server text)."""

    pointer: str
    detail: str = ""
    at: int | None = None
    """Where a cut falls (a ``truncate`` rule: the model reads the first ``at`` characters)."""


Check = Callable[[dict[str, Any], Mapping[str, Any], str], list[Hit]]
"""A check: (tool wire, the profile's numbers, the user's server name) -> hits."""


@dataclass(frozen=True, slots=True)
class HostRule:
    rule: str
    """The short id (``root-combinator``); the full id is ``host-<profile>-<rule>``."""
    scope: Scope
    effect: Effect
    confidence: Confidence
    message: str
    """What the host refuses, in our words."""
    check: str
    """The name of the check in :data:`CHECKS` (fleet rules: ``max-tools``, ``duplicate-names``)."""
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    label: str
    """How the effect sentence names it: "the Anthropic API"."""
    as_of: str
    sources: tuple[str, ...]
    rules: tuple[HostRule, ...]
    numbers: Mapping[str, Any] = field(default_factory=dict)
    """What a user may override (``max_tools``, ``max_name``, ``description_cut``, ...)."""
    prefix: str = ""
    """How the host names a tool to the model (``{server}``, ``{tool}``), for the fleet's name
    rules; empty when the host sends the tool's own name."""
    clients: tuple[str, ...] = ()
    """``clientInfo.name`` values (case-folded) that are this host (the proxy reads them)."""
    dialect: str = ""
    """The client config dialect (services/discover.py) that means this host is used."""
    loads_its_config: bool = False
    """The host is the client of its dialect and loads only the servers of its own config
    (:func:`given`); a model API (``claude-api``) is handed every server's tools."""
    note: str = ""

    def rule_id(self, rule: HostRule) -> str:
        return f"host-{self.name}-{rule.rule}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "as_of": self.as_of,
            "sources": list(self.sources),
            "numbers": dict(self.numbers),
            "note": self.note,
            "rules": [
                {
                    "id": self.rule_id(r),
                    "scope": str(r.scope),
                    "effect": str(r.effect),
                    "confidence": str(r.confidence),
                    "message": r.message,
                    "sources": list(r.sources),
                }
                for r in self.rules
            ],
        }


# The profiles ----------------------------------------------------------------------------------

_D, _O = Confidence.DOCUMENTED, Confidence.OBSERVED
_T, _S, _F = Scope.TOOL, Scope.SERVER, Scope.FLEET

_ANTHROPIC_TOOLS = "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use"
_ANTHROPIC_STRICT = "https://docs.claude.com/en/docs/build-with-claude/structured-outputs"
_ROOT_COMBINATOR_ISSUES = (
    "https://github.com/makenotion/notion-mcp-server/issues/341",
    "https://github.com/anthropics/claude-code/issues/5973",
    "https://github.com/mobile-next/mobile-mcp/issues/344",
    "https://github.com/zereight/gitlab-mcp/pull/551",
)
_OPENAI_STRICT = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"
_OPENAI_FUNCTIONS = "https://platform.openai.com/docs/guides/function-calling"
_GEMINI_FC = "https://ai.google.dev/gemini-api/docs/function-calling"
_GEMINI_SCHEMA = "https://ai.google.dev/api/caching#Schema"
_CLAUDE_CODE_MCP = "https://docs.anthropic.com/en/docs/claude-code/mcp"

STRICT_OPENAI_FORMATS = (
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
)  # fmt: skip
STRICT_CLAUDE_FORMATS = (
    "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid",
)  # fmt: skip

_ROOT_COMBINATOR_RULE = HostRule(
    "root-combinator",
    _T,
    Effect.SESSION,
    _O,
    "input_schema may not use anyOf, oneOf or allOf at the top level",
    "root-combinator",
    _ROOT_COMBINATOR_ISSUES,
)
"""The Anthropic API's and strict tool use's refusal of a root combinator (one rule, two
profiles)."""

_NAME_RULE = HostRule(
    "name-pattern",
    _T,
    Effect.SESSION,
    _D,
    "a tool name must match [a-zA-Z0-9_-] and fit the length limit",
    "name-pattern",
)

PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            "claude-api",
            "Claude (the Anthropic Messages API)",
            "2026-09-14",
            (_ANTHROPIC_TOOLS, *_ROOT_COMBINATOR_ISSUES),
            (
                _ROOT_COMBINATOR_RULE,
                HostRule(
                    "root-not-object",
                    _T,
                    Effect.SESSION,
                    _D,
                    'input_schema must be a JSON Schema of type "object"',
                    "root-not-object",
                    (_ANTHROPIC_TOOLS,),
                ),
                replace(
                    _NAME_RULE,
                    sources=(
                        _ANTHROPIC_TOOLS,
                        "https://github.com/getsentry/XcodeBuildMCP/issues/3",
                    ),
                ),
            ),
            {"max_name": 64},
            clients=("claude-ai", "claude", "claude desktop", "anthropic"),
            dialect="claude-desktop",
        ),
        Profile(
            "claude-strict",
            "Claude with strict tool use",
            "2026-09-14",
            (_ANTHROPIC_STRICT,),
            (
                _ROOT_COMBINATOR_RULE,
                HostRule(
                    "open-object",
                    _T,
                    Effect.SESSION,
                    _D,
                    "strict schemas refuse an object that allows extra keys (additionalProperties "
                    "true or a schema: a free-form map)",
                    "open-object",
                    (_ANTHROPIC_STRICT,),
                ),
                HostRule(
                    "format-unsupported",
                    _T,
                    Effect.SESSION,
                    _D,
                    "strict schemas accept only a short list of string formats",
                    "format-unsupported",
                    (_ANTHROPIC_STRICT,),
                ),
            ),
            {"formats": STRICT_CLAUDE_FORMATS},
        ),
        Profile(
            "claude-code",
            "Claude Code",
            "2026-09-19",
            (_CLAUDE_CODE_MCP,),
            (
                HostRule(
                    "root-not-object",
                    _S,
                    Effect.SERVER,
                    _O,
                    "a tool whose input schema root is not an object makes it drop every "
                    "tool of the server, silently",
                    "root-not-object",
                    (
                        "https://github.com/anthropics/claude-code/issues/88049",
                        "https://github.com/anthropics/claude-code/issues/44364",
                    ),
                ),
                HostRule(
                    "root-combinator",
                    _T,
                    Effect.TOOL,
                    _O,
                    "a tool whose input schema uses a combinator at the root is dropped",
                    "root-combinator",
                    (
                        "https://github.com/anthropics/claude-code/issues/95504",
                        "https://github.com/moira-mcp/moira/issues/177",
                    ),
                ),
                HostRule(
                    "output-not-object",
                    _S,
                    Effect.SERVER,
                    _O,
                    'an outputSchema whose root is not type "object" fails the tool list',
                    "output-not-object",
                    ("https://github.com/Wynelson94/longhand/issues/9",),
                ),
                HostRule(
                    "description-cut",
                    _T,
                    Effect.TRUNCATE,
                    _D,
                    "tool descriptions are cut at 2 KB: the model reads a prefix",
                    "description-cut",
                    (
                        _CLAUDE_CODE_MCP,
                        "https://github.com/anthropics/claude-code/issues/87650",
                    ),
                ),
                HostRule(
                    "prefixed-length",
                    _F,
                    Effect.SESSION,
                    _O,
                    "the name mcp__<server>__<tool> must fit the API's 64 characters",
                    "prefixed-length",
                    ("https://github.com/getsentry/XcodeBuildMCP/issues/3",),
                ),
                HostRule(
                    "duplicate-names",
                    _F,
                    Effect.SESSION,
                    _O,
                    "two tools with one prefixed name: the API refuses duplicate tool names",
                    "duplicate-names",
                    (_ANTHROPIC_TOOLS,),
                ),
            ),
            {"description_cut": 2048, "max_name": 64},
            prefix="mcp__{server}__{tool}",
            clients=("claude-code",),
            dialect="claude-code",
            loads_its_config=True,
        ),
        Profile(
            "openai",
            "the OpenAI API (function tools, strict off)",
            "2026-09-01",
            (_OPENAI_FUNCTIONS,),
            (
                HostRule(
                    "root-not-object",
                    _T,
                    Effect.SESSION,
                    _O,
                    'function parameters must be a JSON Schema of type "object"',
                    "root-not-object",
                    (_OPENAI_FUNCTIONS,),
                ),
                HostRule(
                    "root-combinator",
                    _T,
                    Effect.SESSION,
                    _O,
                    "function parameters may not have oneOf, anyOf, allOf, enum or not at the "
                    "top level",
                    "root-forbidden",
                    ("https://github.com/vercel/ai/issues/7924",),
                ),
                HostRule(
                    "array-without-items",
                    _T,
                    Effect.SESSION,
                    _O,
                    "an array schema must have items",
                    "array-without-items",
                    ("https://github.com/microsoft/vscode/issues/246119",),
                ),
                replace(_NAME_RULE, sources=(_OPENAI_FUNCTIONS,)),
                HostRule(
                    "max-tools",
                    _F,
                    Effect.SESSION,
                    _D,
                    "at most 128 tools in one request",
                    "max-tools",
                    (_OPENAI_FUNCTIONS,),
                ),
            ),
            {"max_tools": 128, "max_name": 64},
            clients=("openai-mcp", "openai", "codex", "codex-mcp-client", "chatgpt"),
        ),
        Profile(
            "openai-strict",
            "the OpenAI API with strict function schemas",
            "2026-09-01",
            (_OPENAI_STRICT,),
            (
                HostRule(
                    "root-combinator",
                    _T,
                    Effect.SESSION,
                    _D,
                    "the root of a strict schema must be an object, not anyOf",
                    "root-combinator",
                    (_OPENAI_STRICT,),
                ),
                HostRule(
                    "root-not-object",
                    _T,
                    Effect.SESSION,
                    _D,
                    "the root of a strict schema must be an object",
                    "root-not-object",
                    (_OPENAI_STRICT,),
                ),
                HostRule(
                    "open-object",
                    _T,
                    Effect.SESSION,
                    _D,
                    "strict schemas refuse an object that allows extra keys (additionalProperties "
                    "true or a schema: a free-form map)",
                    "open-object",
                    (_OPENAI_STRICT,),
                ),
                HostRule(
                    "format-unsupported",
                    _T,
                    Effect.SESSION,
                    _D,
                    "strict schemas accept only a short list of string formats",
                    "format-unsupported",
                    (_OPENAI_STRICT,),
                ),
                HostRule(
                    "optional-made-required",
                    _T,
                    Effect.DEGRADE,
                    _D,
                    "strict mode makes every property required: an optional parameter "
                    "becomes required and nullable, so the model must send it",
                    "optional-made-required",
                    (_OPENAI_STRICT,),
                ),
                HostRule(
                    "too-deep",
                    _T,
                    Effect.SESSION,
                    _D,
                    "strict schemas allow at most 10 levels of nesting",
                    "too-deep",
                    (_OPENAI_STRICT,),
                ),
            ),
            {"formats": STRICT_OPENAI_FORMATS, "max_depth": 10},
            note="strict: true (the default for function tools on the Responses API) after the "
            "conversion frameworks apply first (openai-agents' ensure_strict_json_schema: an "
            "object that says nothing is closed, every property made required): what no "
            "conversion can fix (an object explicitly open, a format outside the list, a root "
            "combinator) is refused; a framework may fall back to strict: false instead",
        ),
        Profile(
            "gemini",
            "Gemini (function declarations' parameters)",
            "2026-09-01",
            (_GEMINI_FC, _GEMINI_SCHEMA),
            (
                HostRule(
                    "unsupported-keyword",
                    _T,
                    Effect.SESSION,
                    _O,
                    "parameters take an OpenAPI subset: any other keyword fails the request "
                    "(Unknown name ... Cannot find field)",
                    "gemini-keyword",
                    (
                        _GEMINI_SCHEMA,
                        "https://github.com/openswarm-ai/openswarm/issues/24",
                        "https://github.com/nanbingxyz/5ire/issues/42",
                    ),
                ),
                HostRule(
                    "type-list",
                    _T,
                    Effect.SESSION,
                    _O,
                    "type must be one name, not a list",
                    "type-list",
                    ("https://github.com/zed-industries/zed/issues/53919",),
                ),
            ),
            clients=("gemini-cli", "gemini-cli-mcp-client"),
        ),
        Profile(
            "gemini-json",
            "Gemini (parametersJsonSchema)",
            "2026-09-01",
            (_GEMINI_FC,),
            (
                HostRule(
                    "root-not-object",
                    _T,
                    Effect.SESSION,
                    _D,
                    "the schema must describe an object",
                    "root-not-object",
                    (_GEMINI_FC,),
                ),
                HostRule(
                    "ignored-keyword",
                    _T,
                    Effect.DEGRADE,
                    _D,
                    "keywords outside the documented subset are ignored: the model does not "
                    "see that constraint",
                    "gemini-json-keyword",
                    (_GEMINI_FC,),
                ),
            ),
        ),
        Profile(
            "vscode",
            "VS Code (Copilot agent mode)",
            "2026-09-23",
            ("https://code.visualstudio.com/docs/copilot/chat/mcp-servers",),
            (
                HostRule(
                    "array-without-items",
                    _T,
                    Effect.SESSION,
                    _O,
                    "an array parameter without items fails the tool's validation "
                    "(tool parameters array type must have items)",
                    "array-without-items",
                    (
                        "https://github.com/microsoft/vscode/issues/246119",
                        "https://github.com/microsoft/vscode/issues/257537",
                    ),
                ),
                HostRule(
                    "max-tools",
                    _F,
                    Effect.TOOL,
                    _O,
                    "at most 128 tools per request: past the cap, tools are left out",
                    "max-tools",
                    (
                        "https://github.com/microsoft/vscode-copilot-release/issues/11653",
                        "https://github.com/microsoft/vscode/issues/337428",
                    ),
                ),
            ),
            {"max_tools": 128},
            clients=("visual studio code", "vscode", "visual studio code - insiders"),
            dialect="vscode",
            loads_its_config=True,
        ),
        Profile(
            "cursor",
            "Cursor",
            "2026-02-27",
            ("https://docs.cursor.com/context/model-context-protocol",),
            (
                HostRule(
                    "prefixed-length",
                    _F,
                    Effect.TOOL,
                    _O,
                    "server name + tool name over 60 characters: the tool is filtered out",
                    "prefixed-length",
                    (
                        "https://github.com/awslabs/mcp/issues/1283",
                        "https://github.com/ComposioHQ/composio/issues/2788",
                        "https://github.com/executeautomation/mcp-playwright/issues/145",
                    ),
                ),
                HostRule(
                    "max-tools",
                    _F,
                    Effect.TOOL,
                    _D,
                    "only the first tools up to the cap reach the agent (40, later 80)",
                    "max-tools",
                    (
                        "https://docs.cursor.com/context/model-context-protocol",
                        "https://github.com/Snowflake-Labs/mcp/issues/77",
                    ),
                ),
                HostRule(
                    "duplicate-names",
                    _F,
                    Effect.TOOL,
                    _O,
                    "two tools with one prefixed name: one of them is lost",
                    "duplicate-names",
                ),
            ),
            {"max_tools": 80, "max_name": 60},
            prefix="{server}{tool}",
            clients=("cursor", "cursor-vscode"),
            dialect="cursor",
            loads_its_config=True,
        ),
        Profile(
            "windsurf",
            "Windsurf (Cascade)",
            "2026-06-16",
            ("https://docs.windsurf.com/windsurf/cascade/mcp",),
            (
                HostRule(
                    "max-tools",
                    _F,
                    Effect.TOOL,
                    _D,
                    "Cascade has a limit of 100 tools in all at any time",
                    "max-tools",
                    ("https://docs.windsurf.com/windsurf/cascade/mcp",),
                ),
            ),
            {"max_tools": 100},
            clients=("windsurf", "windsurf-client", "codeium"),
            dialect="windsurf",
            loads_its_config=True,
        ),
        Profile(
            "mcp-2025-11-25",
            "an MCP client validating the 2025-11-25 shapes",
            "2025-11-25",
            ("https://modelcontextprotocol.io/specification/2025-11-25/schema#tool",),
            (
                HostRule(
                    "root-not-object",
                    _S,
                    Effect.SERVER,
                    _D,
                    'Tool.inputSchema.type must be "object": a client that validates the '
                    "list (the TypeScript SDK's) rejects the whole tools/list",
                    "root-not-object",
                    ("https://github.com/anthropics/claude-code/issues/28620",),
                ),
                HostRule(
                    "output-not-object",
                    _S,
                    Effect.SERVER,
                    _D,
                    'Tool.outputSchema.type must be "object"',
                    "output-not-object",
                    ("https://github.com/Wynelson94/longhand/issues/10",),
                ),
                HostRule(
                    "required-not-list",
                    _S,
                    Effect.SERVER,
                    _O,
                    "required must be a list of names (null fails the list)",
                    "required-not-list",
                    ("https://github.com/anthropics/claude-code/issues/44364",),
                ),
            ),
        ),
    )
}
"""Every profile this mcp-review knows, by name."""
