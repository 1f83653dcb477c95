"""Host profiles: what each host that hands MCP tools to a model refuses, drops, degrades or cuts.

MCP says an ``inputSchema`` is a JSON Schema object; the hosts accept far less, each in its own
way, and their rules move. A profile (one per host or model API) is data: an ``as_of`` date,
its sources (vendor docs, public issues), a few numbers a user overrides in TOML
(``[hosts.profiles.cursor] max_tools = 80``), and rules. A rule has an id
(``host-<profile>-<rule>``), a scope (``tool``: judged on one definition; ``server``: what it
does reaches the server's whole list; ``fleet``: judged across the servers a host is given,
with the user's own server names), an effect (:class:`Effect`), a confidence (``documented``
by the vendor, or ``observed`` in public issues) and a message in our own words: a finding
never quotes server text, so it is safe on every output path.

Judging is pure (:func:`tool_findings`, :func:`fleet_findings`); what a finding means for a
change (``host-regression``, ``host-degrade``) is :func:`regressions`. Schemas are never
rewritten. Engine layer: no files, no mcp.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_join
from mcp_review.engine.rules.outside import HOST_DEGRADE, HOST_REGRESSION, HOST_RULES
from mcp_review.engine.rules.render import OUTSIDE_TEMPLATES
from mcp_review.engine.rules.settle import OUTSIDE_SETTLE


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


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule of one profile that fires on one tool (or on the fleet, for one tool)."""

    profile: str
    rule: str
    """The full id, ``host-<profile>-<rule>``."""
    effect: Effect
    scope: Scope
    confidence: Confidence
    pointer: str
    message: str
    """Our words: the rule's message, and what it saw (a keyword, a count, a length)."""
    at: int | None = None
    """A cut (``truncate``): the model on that host reads the first ``at`` characters."""

    @property
    def refuses(self) -> bool:
        return self.effect in REFUSALS

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.profile, self.rule, self.pointer)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "rule": self.rule,
            "effect": str(self.effect),
            "scope": str(self.scope),
            "confidence": str(self.confidence),
            "pointer": self.pointer,
            "message": self.message,
        }


# The schema walk ------------------------------------------------------------------------------

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_MAX_NODES = 20_000
_MAX_DEPTH = 64


def walk(schema: Any, base: str = "/inputSchema") -> Iterator[tuple[str, dict[str, Any], int]]:
    """Every schema object under ``schema`` as (pointer, node, depth), depth-first; iterative,
    bounded (a hostile schema cannot make the walk unbounded)."""
    stack: list[tuple[str, Any, int]] = [(base, schema, 0)]
    seen = 0
    while stack and seen < _MAX_NODES:
        ptr, node, depth = stack.pop()
        if not isinstance(node, dict) or depth > _MAX_DEPTH:
            continue
        seen += 1
        yield ptr, node, depth
        kids: list[tuple[str, Any, int]] = []
        for kw in _SCHEMA_MAPS:
            m = node.get(kw)
            if isinstance(m, dict):
                for name, sub in m.items():
                    kids.append((pointer_join(ptr, kw, name), sub, depth + 1))
        for kw in _SCHEMA_ONE:
            sub = node.get(kw)
            if isinstance(sub, dict):
                kids.append((pointer_join(ptr, kw), sub, depth + 1))
        for kw in _SCHEMA_LISTS:
            seq = node.get(kw)
            if isinstance(seq, list):
                for i, sub in enumerate(seq):
                    kids.append((pointer_join(ptr, kw, i), sub, depth + 1))
        stack.extend(reversed(kids))


def _types(node: Mapping[str, Any]) -> set[str]:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _is_object(node: Mapping[str, Any]) -> bool:
    return "object" in _types(node) or (
        not _types(node) and isinstance(node.get("properties"), dict)
    )


def _schema(tool: Mapping[str, Any]) -> Any:
    return tool.get("inputSchema")


# The checks ------------------------------------------------------------------------------------

_COMBINATORS = ("anyOf", "oneOf", "allOf")


def _root_combinator(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    s = _schema(tool)
    if not isinstance(s, dict):
        return []
    return [
        Hit(pointer_join("/inputSchema", kw), f"{kw} at the root") for kw in _COMBINATORS if kw in s
    ]


def _root_forbidden(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    s = _schema(tool)
    if not isinstance(s, dict):
        return []
    return [
        Hit(pointer_join("/inputSchema", kw), f"{kw} at the root")
        for kw in (*_COMBINATORS, "enum", "not")
        if kw in s
    ]


def _root_not_object(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    s = _schema(tool)
    if not isinstance(s, dict):
        return [Hit("/inputSchema", "no input schema object")]
    if s.get("type") != "object":
        what = "no type" if "type" not in s else "another type"
        return [Hit("/inputSchema/type", f'the root declares {what}, not "object"')]
    return []


def _open_object(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        if not _is_object(node):
            continue
        ap = node.get("additionalProperties")
        if ap is True or isinstance(ap, dict):
            shape = "a free-form map" if isinstance(ap, dict) else "extra keys allowed"
            out.append(Hit(pointer_join(ptr, "additionalProperties"), f"an open object ({shape})"))
    return out


def _object_closed(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        if _is_object(node) and "additionalProperties" not in node:
            out.append(Hit(ptr, "an object that does not say whether extra keys are allowed"))
    return out


def _format_unsupported(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    allowed = set(n.get("formats", ()))
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        f = node.get("format")
        types = _types(node)
        if types and "string" not in types:
            continue  # the lists are of string formats (int32 on an integer is another matter)
        if isinstance(f, str) and f not in allowed:
            shown = f if f in _KNOWN_FORMATS else "a format of the server's own"
            out.append(Hit(pointer_join(ptr, "format"), f"format {shown} is not on its list"))
    return out


_KNOWN_FORMATS = frozenset(
    {
        "date-time", "time", "date", "duration", "email", "idn-email", "hostname",
        "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
        "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex", "int32",
        "int64", "float", "double", "byte", "binary", "password", "enum",
    }
)  # fmt: skip
"""Formats a message may name (ours to name: a format outside it is "of the server's own")."""


def _optional_made_required(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        props = node.get("properties")
        if not isinstance(props, dict) or not props:
            continue
        req = node.get("required")
        have = set(req) if isinstance(req, list) else set()
        optional = [p for p in props if p not in have]
        if optional:
            out.append(
                Hit(
                    pointer_join(ptr, "required"),
                    f"{len(optional)} optional parameter(s) become required (and nullable)",
                )
            )
    return out


def _array_without_items(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        if "array" in _types(node) and "items" not in node and "prefixItems" not in node:
            out.append(Hit(ptr, "an array without items"))
    return out


_GEMINI_KEYWORDS = frozenset(
    {
        "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
        "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
        "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum",
        "maximum",
    }
)  # fmt: skip
"""The OpenAPI subset of Gemini's ``Schema`` (function declarations' ``parameters``)."""

_GEMINI_JSON_KEYWORDS = frozenset(
    {
        "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
        "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf",
        "oneOf", "properties", "additionalProperties", "required", "propertyOrdering",
    }
)  # fmt: skip
"""What ``parametersJsonSchema`` is documented to read; other keywords are ignored."""

_SHOWN_KEYWORDS = frozenset(
    {
        "additionalProperties", "$schema", "const", "exclusiveMinimum", "exclusiveMaximum",
        "propertyNames", "patternProperties", "$ref", "$defs", "definitions", "oneOf",
        "allOf", "not", "if", "then", "else", "multipleOf", "uniqueItems", "prefixItems",
        "contains", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
        "examples", "$comment", "$id", "default", "minLength", "maxLength", "pattern",
        "minimum", "maximum", "nullable", "title", "deprecated", "readOnly", "writeOnly",
        "contentEncoding", "contentMediaType", "minProperties", "maxProperties",
    }
)  # fmt: skip
"""JSON Schema keywords a message may name; any other key is "a keyword of the server's own"."""


def _keywords_outside(allowed: frozenset[str], closed_ok: bool = False) -> Check:
    """Keywords outside ``allowed``; ``closed_ok``: ``additionalProperties: false`` passes (the
    google-genai SDK refuses only a truthy one for the Gemini Developer API,
    ``_transformers._raise_for_unsupported_mldev_properties``)."""

    def check(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
        out = []
        for ptr, node, _ in walk(_schema(tool)):
            for k in node:
                if closed_ok and k == "additionalProperties" and node[k] is False:
                    continue
                if k not in allowed:
                    shown = k if k in _SHOWN_KEYWORDS else "a keyword of the server's own"
                    out.append(Hit(pointer_join(ptr, k), f"{shown} is not in its schema subset"))
        return out

    return check


def _type_list(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    return [
        Hit(pointer_join(ptr, "type"), "type is a list")
        for ptr, node, _ in walk(_schema(tool))
        if isinstance(node.get("type"), list)
    ]


def _too_deep(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    limit = int(n.get("max_depth", 10))
    # Levels of nesting: the root is level 1, each schema under another one level more.
    levels = max((d + 1 for _p, node, d in walk(_schema(tool)) if _is_object(node)), default=0)
    if levels > limit:
        return [Hit("/inputSchema", f"{levels} levels of nesting (limit {limit})")]
    return []


def _description_cut(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    cut = int(n.get("description_cut", 2048))
    d = tool.get("description")
    if isinstance(d, str) and len(d) > cut:
        return [Hit("/description", f"a {len(d):,}-character description cut at {cut:,}", cut)]
    return []


_NAME_OK = re.compile(r"[a-zA-Z0-9_-]+")


def _name_pattern(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    name = tool.get("name")
    limit = int(n.get("max_name", 64))
    if not isinstance(name, str):
        return []
    if not _NAME_OK.fullmatch(name):
        return [Hit("/name", f"a name outside [a-zA-Z0-9_-]{{1,{limit}}}")]
    if len(name) > limit:
        return [Hit("/name", f"a {len(name)}-character name (limit {limit})")]
    return []


def given(profile: Profile, server: str) -> bool:
    """Whether the host of ``profile`` is given the user's server ``server``. ``--config auto``
    names a server ``client:name`` (services/discover.py): a client's servers are given to
    that client's host only (Cursor never loads a server of Claude Code's config); a host of no
    client dialect (a model API) and every other server name: given."""
    client, sep, _ = server.partition(":")
    if not sep or client not in DIALECT_WORDS or not profile.loads_its_config:
        return True
    return client == profile.dialect


def prefixed_name(profile: Profile, server: str, tool: str) -> str:
    """The name ``profile`` gives the model for ``tool`` of the user's server ``server``
    (``--config auto`` names a server ``client:name``: the client's own name is used)."""
    local = server.rsplit(":", 1)[-1]
    if not profile.prefix:
        return tool
    return profile.prefix.format(server=local, tool=tool)


def _prefixed_length(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    limit = int(n.get("max_name", 60))
    full = str(n.get("_prefixed", ""))
    if len(full) > limit:
        return [Hit("/name", f"a {len(full)}-character prefixed name (limit {limit})")]
    return []


def _required_not_list(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    out = []
    for ptr, node, _ in walk(_schema(tool)):
        req = node.get("required", [])
        if not isinstance(req, list) or not all(isinstance(x, str) for x in req):
            out.append(Hit(pointer_join(ptr, "required"), "required is not a list of names"))
    return out


def _output_not_object(tool: dict[str, Any], n: Mapping[str, Any], server: str) -> list[Hit]:
    if "outputSchema" not in tool:
        return []
    s = tool.get("outputSchema")
    if not isinstance(s, dict) or s.get("type") != "object":
        return [Hit("/outputSchema/type", 'the output schema root is not type "object"')]
    return []


CHECKS: dict[str, Check] = {
    "root-combinator": _root_combinator,
    "root-forbidden": _root_forbidden,
    "root-not-object": _root_not_object,
    "open-object": _open_object,
    "object-closed": _object_closed,
    "format-unsupported": _format_unsupported,
    "optional-made-required": _optional_made_required,
    "array-without-items": _array_without_items,
    "gemini-keyword": _keywords_outside(_GEMINI_KEYWORDS, closed_ok=True),
    "gemini-json-keyword": _keywords_outside(_GEMINI_JSON_KEYWORDS),
    "type-list": _type_list,
    "too-deep": _too_deep,
    "description-cut": _description_cut,
    "name-pattern": _name_pattern,
    "prefixed-length": _prefixed_length,
    "required-not-list": _required_not_list,
    "output-not-object": _output_not_object,
}
FLEET_CHECKS = frozenset({"max-tools", "duplicate-names"})


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

EFFECT_WORDS = {
    Effect.SESSION: "refused by {label}: the request fails, so every tool of every server is "
    "lost in the session",
    Effect.SERVER: "{label} drops every tool of this server",
    Effect.TOOL: "{label} drops this tool",
    Effect.DEGRADE: "{label} accepts it, but the model sees another contract",
    Effect.TRUNCATE: "{label} shows the model only a prefix",
}
"""The effect in words (every format and the app use them)."""

DIALECT_WORDS = {p.dialect: p.name for p in PROFILES.values() if p.dialect}
"""Client config dialect (services/discover.py's client names) -> the profile it means."""


def effect_words(profile: Profile | str, effect: Effect) -> str:
    p = PROFILES.get(profile, None) if isinstance(profile, str) else profile
    label = p.label if p is not None else str(profile)
    return EFFECT_WORDS[effect].format(label=label)


# Overrides and targets --------------------------------------------------------------------------

_NUMBER_KEYS = ("max_tools", "max_name", "description_cut", "max_depth")


class HostsError(ValueError):
    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True, slots=True)
class HostsConfig:
    """``[hosts]`` in the config: the targets, and the numbers a user overrides."""

    targets: tuple[str, ...] | None = None
    """None: not said (inferred from what the user runs)."""
    profiles: Mapping[str, Profile] = field(default_factory=lambda: dict(PROFILES))


def parse_hosts(raw: Any) -> HostsConfig:
    """``[hosts]`` as read from TOML: ``targets = [...]`` and ``[hosts.profiles.NAME]`` with
    numbers (``max_tools``, ``max_name``, ``description_cut``, ``max_depth``). HostsError
    (with the key) on anything else."""
    if not isinstance(raw, dict):
        raise HostsError("'hosts' must be a table", "hosts")
    for k in raw:
        if k not in ("targets", "profiles"):
            raise HostsError(f"unknown key {k!r} in [hosts] (expected targets, profiles)", k)
    targets = None
    if "targets" in raw:
        t = raw["targets"]
        if not isinstance(t, list) or not all(isinstance(x, str) for x in t):
            raise HostsError("[hosts] targets must be a list of profile names", "targets")
        targets = check_names(t)
    profiles = dict(PROFILES)
    over = raw.get("profiles", {})
    if not isinstance(over, dict):
        raise HostsError("[hosts.profiles] must be a table of [hosts.profiles.NAME]", "profiles")
    for name, nums in over.items():
        if name not in PROFILES:
            raise HostsError(f"unknown host profile {name!r} ({known_names()})", name)
        if not isinstance(nums, dict):
            raise HostsError(f"[hosts.profiles.{name}] must be a table", name)
        merged = dict(PROFILES[name].numbers)
        for k, v in nums.items():
            if k not in _NUMBER_KEYS:
                raise HostsError(
                    f"[hosts.profiles.{name}]: unknown key {k!r} (expected one of: "
                    f"{', '.join(_NUMBER_KEYS)})",
                    k,
                )
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise HostsError(f"[hosts.profiles.{name}] {k} must be a positive integer", k)
            merged[k] = v
        profiles[name] = replace(PROFILES[name], numbers=merged)
    return HostsConfig(targets, profiles)


def known_names() -> str:
    return "known: " + ", ".join(PROFILES)


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """The profile names given, in order, each once; HostsError naming an unknown one."""
    out: list[str] = []
    for n in names:
        if n not in PROFILES:
            raise HostsError(f"unknown host profile {n!r} ({known_names()})", n)
        if n not in out:
            out.append(n)
    return tuple(out)


def profile_for_client(name: str | None) -> str | None:
    """The profile a ``clientInfo.name`` means (case-folded exact match), or None."""
    if not isinstance(name, str):
        return None
    folded = name.strip().casefold()
    for p in PROFILES.values():
        if folded in p.clients:
            return p.name
    return None


@dataclass(frozen=True, slots=True)
class Targets:
    """Which hosts count, with the profiles (overrides applied) and where each target came
    from (``config [hosts] targets``, ``--hosts``, ``client config: PATH``, ``clientInfo``)."""

    names: tuple[str, ...]
    profiles: Mapping[str, Profile] = field(default_factory=lambda: dict(PROFILES))
    origin: Mapping[str, str] = field(default_factory=dict)

    @property
    def inferred(self) -> dict[str, str]:
        """Targets inferred (not named by the user), with where from."""
        return {n: o for n, o in self.origin.items() if o.startswith("inferred")}

    def profile(self, name: str) -> Profile:
        return self.profiles[name]

    def to_json(self) -> dict[str, Any]:
        return {"targets": list(self.names), "origin": dict(self.origin)}


# Judging ----------------------------------------------------------------------------------------


def tool_findings(profile: Profile, wire: Mapping[str, Any], server: str) -> list[Finding]:
    """Every tool- and server-scoped rule of ``profile`` (and the fleet's per-tool name length)
    that fires on the definition ``wire`` of the user's server ``server``."""
    tool = dict(wire)
    nums = dict(profile.numbers)
    name = tool.get("name")
    if isinstance(name, str):
        nums["_prefixed"] = prefixed_name(profile, server, name)
    out: list[Finding] = []
    for r in profile.rules:
        if r.check in FLEET_CHECKS:
            continue
        for h in CHECKS[r.check](tool, nums, server):
            out.append(_finding(profile, r, h))
    return out


def _finding(profile: Profile, r: HostRule, h: Hit) -> Finding:
    msg = r.message + (f" ({h.detail})" if h.detail else "")
    return Finding(
        profile.name, profile.rule_id(r), r.effect, r.scope, r.confidence, h.pointer, msg, h.at
    )


@dataclass(frozen=True, slots=True)
class FleetTool:
    """One tool as a fleet rule sees it: the user's server name and the tool's name."""

    server: str
    tool: str


def fleet_findings(
    profile: Profile,
    tools: Sequence[FleetTool],
    *,
    blame: Collection[tuple[str, str]] | None = None,
    before: int | None = None,
) -> dict[tuple[str, str], list[Finding]]:
    """The fleet rules of ``profile`` over every tool it is given: (server, tool) -> findings.
    ``max-tools`` fires, when the tools pass the cap, on the tools of ``blame`` (the tools an
    upgrade adds), else on the tools past the cap in the order given (servers and tools by
    name: which ones a host leaves out is its own affair, the count is what holds);
    ``duplicate-names`` on every tool whose prefixed name another tool has too. ``before``:
    how many tools the host loaded before (said in the message)."""
    out: dict[tuple[str, str], list[Finding]] = {}
    for r in profile.rules:
        if r.check == "max-tools":
            cap = int(profile.numbers.get("max_tools", 0) or 0)
            if cap and len(tools) > cap:
                hit = [ft for ft in tools if (ft.server, ft.tool) in blame] if blame else []
                if blame is None:
                    hit = list(tools[cap:])
                was = f", {before} before this upgrade" if before is not None else ""
                for ft in hit:
                    h = Hit("", f"{len(tools)} tools against a cap of {cap}{was}")
                    out.setdefault((ft.server, ft.tool), []).append(_finding(profile, r, h))
        elif r.check == "duplicate-names":
            by: dict[str, list[FleetTool]] = {}
            for ft in tools:
                by.setdefault(prefixed_name(profile, ft.server, ft.tool).casefold(), []).append(ft)
            for group in by.values():
                if len(group) > 1:
                    for ft in group:
                        h = Hit("/name", f"{len(group)} tools share one prefixed name")
                        out.setdefault((ft.server, ft.tool), []).append(_finding(profile, r, h))
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the hosts make of one change (pinned definition -> live)."""

    regressions: tuple[Finding, ...] = ()
    """Refusals on a target that the pinned definition did not have."""
    degrades: tuple[Finding, ...] = ()
    """New degrades and truncations on a target."""


def regressions(before: Iterable[Finding], after: Iterable[Finding]) -> Verdict:
    """What ``after`` refuses or degrades that ``before`` did not (compared by profile and
    rule: the same rule moving within the schema is not a new refusal)."""
    had = {(f.profile, f.rule) for f in before}
    regs: list[Finding] = []
    degs: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for f in after:
        k = (f.profile, f.rule)
        if k in had or k in seen:
            continue
        seen.add(k)
        (regs if f.refuses else degs).append(f)
    return Verdict(tuple(regs), tuple(degs))


# Changes ----------------------------------------------------------------------------------------

REGRESSION_RULE = HOST_REGRESSION
DEGRADE_RULE = HOST_DEGRADE

OUTSIDE_TEMPLATES[REGRESSION_RULE] = "{effect} ({host_rule}, {confidence}): {what}"
OUTSIDE_TEMPLATES[DEGRADE_RULE] = "{effect} ({host_rule}, {confidence}): {what}"
OUTSIDE_SETTLE[DEGRADE_RULE] = (
    "check how the model uses this tool on that host: if it still calls it as it should with "
    "the contract the host shows it, this is compatible there; a call that goes wrong because "
    "of it makes it breaking (or set the host apart with [hosts] targets)"
)


def change_for(f: Finding, profile: Profile | None = None) -> Change:
    """The change a finding makes on a target host: ``host-regression`` (breaking) for a
    refusal, ``host-degrade`` (potentially breaking) for a degrade or a cut. Its words are ours
    (the message of a rule, an effect, a count), never server text."""
    p = profile or PROFILES[f.profile]
    return Change(
        REGRESSION_RULE if f.refuses else DEGRADE_RULE,
        ChangeClass.BREAKING if f.refuses else ChangeClass.POTENTIALLY_BREAKING,
        f.pointer,
        (
            ("effect", effect_words(p, f.effect)),
            ("host_rule", f.rule),
            ("confidence", str(f.confidence)),
            ("what", f.message),
            ("profile", f.profile),
        ),
        Direction.TOOL,
    )


def host_rule_of(change: Change) -> str | None:
    """The host rule id a ``host-*`` change carries (None for any other change)."""
    if change.rule not in HOST_RULES:
        return None
    return dict(change.params).get("host_rule")


def host_rule(rule_id: str) -> tuple[Profile, HostRule] | None:
    """The profile and rule of a full id ``host-<profile>-<rule>`` (None when it is none)."""
    for p in PROFILES.values():
        for r in p.rules:
            if p.rule_id(r) == rule_id:
                return p, r
    return None


# The matrix of what is pinned now ----------------------------------------------------------------

_EFFECT_RANK = {
    Effect.SESSION: 5,
    Effect.SERVER: 4,
    Effect.TOOL: 3,
    Effect.DEGRADE: 2,
    Effect.TRUNCATE: 1,
}


def worst(findings: Iterable[Finding]) -> Effect | None:
    """The most severe effect among ``findings`` (None: the host takes the tool as it is)."""
    return max((f.effect for f in findings), key=_EFFECT_RANK.__getitem__, default=None)


@dataclass(frozen=True, slots=True)
class MatrixRow:
    server: str
    principal: str
    tool: str
    cells: Mapping[str, tuple[Finding, ...]]
    """profile -> its findings on this tool (empty: accepted as it is)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "principal": self.principal,
            "tool": self.tool,
            "hosts": {
                p: {
                    "effect": str(worst(fs)) if fs else "ok",
                    "findings": [f.to_json() for f in fs],
                }
                for p, fs in self.cells.items()
            },
        }


def matrix(
    tools: Sequence[tuple[str, str, Mapping[str, Any]]], profiles: Sequence[Profile]
) -> list[MatrixRow]:
    """A tool x host matrix: ``tools`` as (server, principal, wire definition), each judged on
    each profile (fleet rules over all of them, per principal as the host is given them)."""
    fleet: dict[tuple[str, str, str], list[Finding]] = {}
    by_principal: dict[str, list[FleetTool]] = {}
    for server, principal, wire in sorted(tools, key=lambda x: (x[0], str(x[2].get("name")))):
        by_principal.setdefault(principal, []).append(FleetTool(server, str(wire.get("name"))))
    for p in profiles:
        for principal, fts in by_principal.items():
            mine = [ft for ft in fts if given(p, ft.server)]
            for (s, t), fs in fleet_findings(p, mine).items():
                fleet.setdefault((principal, s, t), []).extend(fs)
    rows = []
    for server, principal, wire in tools:
        name = str(wire.get("name"))
        extra = fleet.get((principal, server, name), [])
        cells = {
            p.name: tuple(
                [*tool_findings(p, wire, server), *(f for f in extra if f.profile == p.name)]
            )
            if given(p, server)
            else ()
            for p in profiles
        }
        rows.append(MatrixRow(server, principal, name, cells))
    return rows


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a target host cuts a text the model reads (the ``description-cut`` rules)."""

    profile: str
    rule: str
    field: str
    at: int
    """The model reads the first ``at`` characters."""
    length: int

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "rule": self.rule,
            "field": self.field,
            "at": self.at,
            "length": self.length,
            "past": self.length - self.at,
        }


def cuts(findings: Iterable[Finding], wire: Mapping[str, Any]) -> list[Cut]:
    """The cuts among a tool's findings on its targets (``description-cut``), with where."""
    d = wire.get("description")
    if not isinstance(d, str):
        return []
    return [
        Cut(f.profile, f.rule, "description", f.at, len(d))
        for f in findings
        if f.effect is Effect.TRUNCATE and f.pointer == "/description" and f.at is not None
    ]


def held_for_host(t: Any) -> bool:
    """The precedence list's host row (engine/enforcement.py): a change that
    is a host regression for the connected client's host (``host-*`` changes: the enforcer
    judged the tool for that host only) can be held when the approved definition is accepted
    there, so the client is served the approved definition and its session keeps working,
    though the change is breaking for that host. False when no host regression is there, or
    the approved definition is refused there too (nothing better to serve). ``t``: an engine
    ToolStatus."""
    cmp = t.comparison
    if cmp is None or t.pin is None:
        return False
    host = [c for c in cmp.changes if c.rule in HOST_RULES]
    if not any(c.rule == REGRESSION_RULE for c in host):
        return False
    approved = t.pin.tool_def().wire
    for name in {dict(c.params).get("profile", "") for c in host}:
        profile = PROFILES.get(name)
        if profile is None or any(f.refuses for f in tool_findings(profile, approved, t.server)):
            return False
    return True
