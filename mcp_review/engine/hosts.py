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
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mcp_review.engine.host_profiles import (
    PROFILES,
    REFUSALS,
    STRICT_CLAUDE_FORMATS,
    STRICT_OPENAI_FORMATS,
    Check,
    Confidence,
    Effect,
    Hit,
    HostRule,
    Profile,
    Scope,
)
from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_join
from mcp_review.engine.rules.outside import HOST_DEGRADE, HOST_REGRESSION, HOST_RULES
from mcp_review.engine.rules.render import OUTSIDE_TEMPLATES
from mcp_review.engine.rules.settle import OUTSIDE_SETTLE

# The profiles as data (PROFILES, the rule and profile types) live in engine/host_profiles.py;
# they are re-exported here, where the services, the formats, the app and the tests import them.
__all__ = [
    "CHECKS",
    "DEGRADE_RULE",
    "DIALECT_WORDS",
    "EFFECT_WORDS",
    "FLEET_CHECKS",
    "PROFILES",
    "REFUSALS",
    "REGRESSION_RULE",
    "STRICT_CLAUDE_FORMATS",
    "STRICT_OPENAI_FORMATS",
    "Check",
    "Confidence",
    "Cut",
    "Effect",
    "Finding",
    "FleetTool",
    "Hit",
    "HostRule",
    "HostsConfig",
    "HostsError",
    "MatrixRow",
    "Profile",
    "Scope",
    "Targets",
    "Verdict",
    "change_for",
    "check_names",
    "cuts",
    "effect_words",
    "fleet_findings",
    "given",
    "held_for_host",
    "host_rule",
    "host_rule_of",
    "known_names",
    "matrix",
    "parse_hosts",
    "prefixed_name",
    "profile_for_client",
    "regressions",
    "tool_findings",
    "walk",
    "worst",
]


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
