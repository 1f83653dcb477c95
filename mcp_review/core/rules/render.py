"""Rule registry: every classified change has a stable id, a class, a direction and a message.

The schema walker (``schema_diff``) only decides *which* rule fired, where, and with what
effect on the set of valid values; this module owns the words. Messages are templates keyed by
rule id (oasdiff's messages.yaml habit) so the CLI and the TUI word a change identically.

Schema rules are written from the input side ("does new accept every call old accepted?"). A
rule with an ``effect`` gets its class from the effect and the polarity where it fired: in an
``outputSchema`` (or inside ``not``) narrowing is compatible and widening is breaking. Rules
with no effect (trust, cosmetic, undecidable) keep their class wherever they fire.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mcp_review.core.hidden import decode_tags, find_hidden, visible
from mcp_review.core.model import Change, ChangeClass, Direction, NewText, pointer_tokens

QUOTE_CAP = 200
"""Longest quoted server value in a message (characters, before the ellipsis)."""


class Effect(StrEnum):
    """What a schema change does to the set of valid values (on the input side)."""

    NARROW = "narrow"  # some value valid before is now rejected
    WIDEN = "widen"  # every value valid before still is, and more are accepted
    BOTH = "both"  # some values lost and some gained: breaking whichever way it is read
    UNKNOWN = "unknown"  # cannot be decided statically
    MAYBE_NARROW = "maybe-narrow"  # narrows by an amount we cannot measure (pattern added)
    MAYBE_WIDEN = "maybe-widen"  # widens by an amount we cannot measure (pattern removed)


_B, _P, _C = ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING, ChangeClass.COMPATIBLE
_CLASS_BY_EFFECT: dict[Effect, tuple[ChangeClass, ChangeClass]] = {
    # effect: (class where new must accept what old accepted, class where polarity is flipped)
    Effect.NARROW: (_B, _C),
    Effect.WIDEN: (_C, _B),
    Effect.BOTH: (_B, _B),
    Effect.UNKNOWN: (_P, _P),
    Effect.MAYBE_NARROW: (_P, _C),
    Effect.MAYBE_WIDEN: (_C, _P),
}


def class_for(effect: Effect, positive: bool) -> ChangeClass:
    """Class of a change with ``effect`` under the given polarity."""
    return _CLASS_BY_EFFECT[effect][0 if positive else 1]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    cls: ChangeClass
    """Class on the input side (or the fixed class when ``effect`` is None)."""
    direction: Direction
    """INPUT for schema rules (the output side is the same rule with the polarity flipped);
    TOOL for rules about the definition around the schemas."""
    purpose: str
    message: str
    effect: Effect | None = None


_I, _T = Direction.INPUT, Direction.TOOL
_TR, _CO = ChangeClass.TRUST, ChangeClass.COSMETIC
_N, _W, _X, _U = Effect.NARROW, Effect.WIDEN, Effect.BOTH, Effect.UNKNOWN


def _r(id: str, cls: ChangeClass, direction: Direction, purpose: str, message: str,
       effect: Effect | None = None) -> Rule:
    return Rule(id, cls, direction, purpose, message, effect)


_RULES: list[Rule] = [
    # Tool level -----------------------------------------------------------------------------
    _r("tool-renamed", _B, _T, "the tool's name changed: calls by the old name fail",
       "tool renamed {old} -> {new}: calls by the old name fail"),
    _r("tool-description-changed", _TR, _T, "the tool description text changed",
       "tool description changed: {delta}"),
    _r("tool-title-changed", _TR, _T, "the tool title changed", "tool title changed: {delta}"),
    _r("output-schema-added", _C, _T, "an outputSchema was declared where none was",
       "outputSchema added: results are now described"),
    _r("output-schema-removed", _P, _T, "the outputSchema was dropped",
       "outputSchema removed: results are no longer promised to have any shape"),
    _r("annotation-relaxed", _TR, _T,
       "a safety hint moved towards more power (MCP defaults apply when absent)",
       "annotation {hint} relaxed: {old} -> {new} ({meaning})"),
    _r("annotation-gates-less", _TR, _T,
       "a safety hint now claims less power, so clients gate the tool less (MCP defaults "
       "apply when absent): never approved automatically",
       "annotation {hint} now claims less: {old} -> {new} ({meaning}); never approved "
       "automatically"),
    _r("annotation-explicit-default", _CO, _T,
       "a hint was written out or dropped with the MCP default value: same meaning",
       "annotation {hint}: {old} -> {new} (same effective value {value})"),
    _r("annotation-title-changed", _TR, _T, "annotations.title changed",
       "annotation title changed: {delta}"),
    _r("annotation-other-changed", _TR, _T, "an annotation this tool does not know changed",
       "annotation {key} changed: {old} -> {new}"),
    _r("hidden-characters-added", _TR, _T,
       "a string now carries invisible or control characters it did not have",
       "hidden characters added in {where}: {tokens}{decoded}"),
    _r("hidden-characters-present", _TR, _T,
       "a string carries invisible or control characters (new tool or first pin)",
       "hidden characters in {where}: {tokens}{decoded}"),
    _r("execution-changed", _P, _T,
       "the tool's execution contract changed (e.g. taskSupport forbidden -> required)",
       "execution {key} changed: {old} -> {new}{meaning}"),
    _r("icons-changed", _TR, _T, "the tool's icons changed: server-chosen content shown to users",
       "icons changed: {old} -> {new}"),
    _r("meta-changed", _CO, _T,
       "_meta changed: shown for review, not part of the contract (never hashed)",
       "_meta {key} changed: {old} -> {new} (not hashed: not part of the pinned contract)"),
    # Text anywhere ------------------------------------------------------------------------------
    _r("schema-description-changed", _TR, _I, "a description inside a schema changed",
       "{where}: description changed: {delta}"),
    _r("schema-title-changed", _TR, _I, "a title inside a schema changed",
       "{where}: title changed: {delta}"),
    _r("schema-comment-changed", _TR, _I,
       "a $comment inside a schema gained or changed text (the model reads the whole schema)",
       "{where}: $comment changed: {delta}"),
    _r("schema-examples-changed", _TR, _I,
       "examples inside a schema gained text the model reads",
       "{where}: {field} gained text: {added}"),
    _r("schema-text-added", _TR, _I,
       "server-written text the old definition did not have, where no other change names it "
       "(an unreferenced $defs entry, a folded allOf part, ...)",
       "{where}: new {field} text: {delta}"),
    _r("text-whitespace-changed", _CO, _I, "only whitespace changed in a text field",
       "{where}: {field} changed in whitespace only"),
    _r("text-normalization-changed", _CO, _I,
       "a text field changed only in Unicode normalisation (NFC-equal)",
       "{where}: {field} changed in Unicode normalisation only (same text under NFC)"),
    _r("schema-annotation-changed", _CO, _I,
       "an annotation keyword (deprecated, readOnly, ...) changed, or examples/$comment lost "
       "text or changed only in whitespace (removed text puts nothing new before the model)",
       "{where}: annotation {keyword} changed: {old} -> {new}"),
    _r("schema-dialect-changed", _CO, _I,
       "$schema changed; the walker normalises draft-07 and 2020-12 forms",
       "{where}: $schema changed {old} -> {new}"),
    _r("default-changed", _TR, _I, "a default value changed: same calls, different behaviour",
       "{where}: default changed {old} -> {new} (calls that omit it now behave differently)"),
    _r("default-added", _TR, _I, "a default value was declared",
       "{where}: default {new} declared (calls that omit it may behave differently)"),
    _r("default-removed", _TR, _I, "a default value was dropped",
       "{where}: default {old} dropped (calls that omit it may behave differently)"),
    # Whole-schema ----------------------------------------------------------------------------
    _r("schema-now-false", _B, _I, "a schema now rejects every value",
       "{where}: now rejects every value", _N),
    _r("schema-no-longer-false", _C, _I, "a schema that rejected every value now accepts some",
       "{where}: no longer rejects every value", _W),
    _r("schema-invalid", _P, _I, "a schema is neither an object nor a boolean",
       "{where}: not a valid schema ({kind}); cannot compare"),
    _r("schema-too-deep", _P, _I, "nesting beyond the walker's limit; not compared",
       "{where}: nested deeper than {limit} levels; not compared"),
    _r("engine-error", _P, _I,
       "the engine failed on this part of the definition; it is not compared",
       "{where}: not compared: the engine failed here ({error}); review it by hand"),
    _r("header-mapping-changed", _P, _I,
       "a property's x-mcp-header mapping was added, removed or renamed",
       "{where}: x-mcp-header {how} ({old} -> {new}): on HTTP the argument now travels in "
       "another header, which can break routing"),
    _r("unsupported-keyword-changed", _P, _I,
       "a keyword the classifier does not understand was added, removed or changed",
       "{where}: keyword {keyword} {how} ({old} -> {new}); effect unknown", _U),
    # type ------------------------------------------------------------------------------------
    _r("type-narrowed", _B, _I, "fewer JSON types are accepted",
       "{where}: type narrowed {old} -> {new} (no longer accepts {lost})", _N),
    _r("type-widened", _C, _I, "more JSON types are accepted",
       "{where}: type widened {old} -> {new}", _W),
    _r("type-changed", _B, _I, "types were both dropped and added",
       "{where}: type changed {old} -> {new} (no longer accepts {lost})", _X),
    _r("type-added", _B, _I, "a type constraint appeared where any type was accepted",
       "{where}: type {new} required where any type was accepted", _N),
    _r("type-removed", _C, _I, "the type constraint was dropped: any type accepted",
       "{where}: type {old} dropped: any type accepted", _W),
    # enum / const ----------------------------------------------------------------------------
    _r("enum-narrowed", _B, _I, "allowed values were dropped",
       "{where}: enum shrank: dropped {dropped}", _N),
    _r("enum-widened", _C, _I, "allowed values were added",
       "{where}: enum grew: added {added}", _W),
    _r("enum-changed", _B, _I, "allowed values were both dropped and added",
       "{where}: enum changed: dropped {dropped}, added {added}", _X),
    _r("enum-added", _B, _I, "an enum now restricts a value that was free",
       "{where}: now restricted to {new}", _N),
    _r("enum-removed", _C, _I, "the enum restriction was dropped",
       "{where}: enum {old} dropped: any value of the type accepted", _W),
    _r("const-changed", _B, _I, "the single allowed value changed",
       "{where}: const changed {old} -> {new}", _X),
    _r("const-added", _B, _I, "a const now fixes a value that was free",
       "{where}: now fixed to {new}", _N),
    _r("const-removed", _C, _I, "the const was dropped",
       "{where}: const {old} dropped", _W),
    # numbers ---------------------------------------------------------------------------------
    _r("multiple-of-added", _B, _I, "multipleOf appeared",
       "{where}: multipleOf {new} added", _N),
    _r("multiple-of-removed", _C, _I, "multipleOf was dropped",
       "{where}: multipleOf {old} dropped", _W),
    _r("multiple-of-narrowed", _B, _I, "multipleOf changed so fewer numbers qualify",
       "{where}: multipleOf {old} -> {new} (fewer numbers qualify)", _N),
    _r("multiple-of-widened", _C, _I, "multipleOf changed to a divisor of the old one",
       "{where}: multipleOf {old} -> {new} (every old multiple still qualifies)", _W),
    _r("multiple-of-changed", _B, _I, "multipleOf changed to an unrelated step",
       "{where}: multipleOf {old} -> {new} (some old values no longer qualify)", _X),
    # strings ---------------------------------------------------------------------------------
    _r("pattern-added", _P, _I, "a regex pattern now restricts a string",
       "{where}: pattern {new} added", Effect.MAYBE_NARROW),
    _r("pattern-removed", _C, _I, "the regex pattern was dropped",
       "{where}: pattern {old} dropped", Effect.MAYBE_WIDEN),
    _r("pattern-changed", _P, _I, "the regex pattern changed (subset not decidable here)",
       "{where}: pattern changed {old} -> {new}", _U),
    _r("format-added", _P, _I, "a format now restricts a string (if the server validates it)",
       "{where}: format {new} added", Effect.MAYBE_NARROW),
    _r("format-removed", _C, _I, "the format was dropped",
       "{where}: format {old} dropped", Effect.MAYBE_WIDEN),
    _r("format-changed", _P, _I, "the format changed",
       "{where}: format changed {old} -> {new}", _U),
    # arrays ----------------------------------------------------------------------------------
    _r("unique-items-added", _B, _I, "array items must now be unique",
       "{where}: items must now be unique", _N),
    _r("unique-items-removed", _C, _I, "array items no longer need to be unique",
       "{where}: items no longer need to be unique", _W),
    _r("contains-added", _B, _I, "an array must now contain a matching item",
       "{where}: must now contain an item matching the contains schema", _N),
    _r("contains-removed", _C, _I, "the contains constraint was dropped",
       "{where}: contains constraint dropped", _W),
    # objects ---------------------------------------------------------------------------------
    _r("property-added-optional", _C, _I,
       "an optional property was declared (closed world: old calls never set it)",
       "{parent}: optional property {name} added (old calls stay valid)"),
    _r("property-added-required", _B, _I, "a required property was declared: old calls omit it",
       "{parent}: required property {name} added (old calls omit it)", _N),
    _r("property-removed-closed", _B, _I,
       "a property was removed from an object that rejects undeclared keys",
       "{parent}: property {name} removed under additionalProperties {ap} "
       "(a call using it is now rejected)", _N),
    _r("property-removed-open", _P, _I,
       "a property was removed from an open object",
       "{parent}: property {name} removed (calls that set it still validate but the server may "
       "now ignore it)", _U),
    _r("property-rename-suspected", _P, _I,
       "one property removed and one with the same schema added: probably a rename",
       "{parent}: property {old} looks renamed to {new} (same schema); calls sending {old} "
       "need updating"),
    _r("required-added", _B, _I, "an existing property became required",
       "{where}: property {name} is now required", _N),
    _r("required-removed", _C, _I, "a property is no longer required",
       "{where}: property {name} is no longer required", _W),
    _r("additional-properties-closed", _B, _I,
       "undeclared keys were accepted and are now rejected",
       "{where}: additionalProperties {old} -> false: a call with an extra key is now rejected",
       _N),
    _r("additional-properties-restricted", _B, _I,
       "undeclared keys were free and must now match a schema",
       "{where}: additionalProperties {old} -> a schema: extra keys must now match it", _N),
    _r("additional-properties-opened", _C, _I, "undeclared keys are accepted more freely",
       "{where}: additionalProperties {old} -> {new}", _W),
    _r("pattern-property-added", _B, _I, "a patternProperties entry was added",
       "{where}: patternProperties {pattern} added", _N),
    _r("pattern-property-removed", _C, _I, "a patternProperties entry was removed",
       "{where}: patternProperties {pattern} removed", _W),
    _r("property-names-added", _B, _I, "property names are now constrained",
       "{where}: propertyNames constraint added", _N),
    _r("property-names-removed", _C, _I, "the propertyNames constraint was dropped",
       "{where}: propertyNames constraint dropped", _W),
    _r("dependent-required-added", _B, _I,
       "setting a property now requires others",
       "{where}: setting {name} now also requires {names}", _N),
    _r("dependent-required-removed", _C, _I, "a dependentRequired requirement was dropped",
       "{where}: setting {name} no longer requires {names}", _W),
    _r("dependent-schema-added", _B, _I, "setting a property now imposes a schema",
       "{where}: setting {name} now imposes a dependent schema", _N),
    _r("dependent-schema-removed", _C, _I, "a dependent schema was dropped",
       "{where}: setting {name} no longer imposes a dependent schema", _W),
    # composition -----------------------------------------------------------------------------
    _r("any-of-branch-added", _C, _I, "an anyOf alternative was added",
       "{where}: anyOf alternative added: {branch}", _W),
    _r("any-of-branch-removed", _B, _I, "an anyOf alternative was removed",
       "{where}: anyOf alternative removed: {branch}", _N),
    _r("one-of-branch-added", _P, _I,
       "a oneOf alternative was added (a value matching two now fails)",
       "{where}: oneOf alternative added: {branch} (values matching two alternatives now fail)",
       _U),
    _r("one-of-branch-removed", _B, _I, "a oneOf alternative was removed",
       "{where}: oneOf alternative removed: {branch}", _N),
    _r("all-of-branch-added", _B, _I, "an allOf constraint was added",
       "{where}: allOf constraint added: {branch}", _N),
    _r("all-of-branch-removed", _C, _I, "an allOf constraint was removed",
       "{where}: allOf constraint removed: {branch}", _W),
    _r("composition-added", _B, _I, "anyOf/oneOf now constrains a value that was free",
       "{where}: {keyword} added: a value must now match one of its alternatives", _N),
    _r("composition-removed", _C, _I, "an anyOf/oneOf constraint was dropped",
       "{where}: {keyword} dropped: its alternatives no longer restrict the value", _W),
    _r("not-added", _B, _I, "a not constraint was added", "{where}: not {branch} added", _N),
    _r("not-removed", _C, _I, "a not constraint was removed",
       "{where}: not {branch} removed", _W),
    _r("if-changed", _P, _I, "an if condition was added, removed or changed",
       "{where}: if condition {how}; which branch applies to a call may change", _U),
    _r("conditional-branch-added", _B, _I, "a then/else branch was added",
       "{where}: {keyword} branch added", _N),
    _r("conditional-branch-removed", _C, _I, "a then/else branch was removed",
       "{where}: {keyword} branch removed", _W),
    # references ------------------------------------------------------------------------------
    _r("ref-unresolved", _P, _I, "a local $ref does not resolve; its target is unknown",
       "{where}: $ref {ref} does not resolve ({why}); cannot compare", _U),
    _r("ref-remote", _P, _I, "a remote $ref is never fetched; its target is unknown",
       "{where}: $ref {ref} is remote and is not fetched; cannot compare", _U),
]


def _bounds_rules() -> list[Rule]:
    """minimum/maximum and the count keywords: added, removed, tightened, loosened."""
    out = []
    specs = [
        # (rule stem, keyword shown, is_lower, noun)
        ("minimum", "minimum", True, "lower bound"),
        ("maximum", "maximum", False, "upper bound"),
        ("min-length", "minLength", True, "minimum length"),
        ("max-length", "maxLength", False, "maximum length"),
        ("min-items", "minItems", True, "minimum item count"),
        ("max-items", "maxItems", False, "maximum item count"),
        ("min-properties", "minProperties", True, "minimum property count"),
        ("max-properties", "maxProperties", False, "maximum property count"),
        ("min-contains", "minContains", True, "minimum count of matching items"),
        ("max-contains", "maxContains", False, "maximum count of matching items"),
    ]
    for stem, kw, lower, noun in specs:
        tighter, looser = ("increased", "decreased") if lower else ("decreased", "increased")
        out += [
            _r(f"{stem}-added", _B, _I, f"a {noun} ({kw}) appeared",
               "{where}: " + kw + " {new} added", _N),
            _r(f"{stem}-removed", _C, _I, f"the {noun} ({kw}) was dropped",
               "{where}: " + kw + " {old} dropped", _W),
            _r(f"{stem}-{tighter}", _B, _I, f"the {noun} ({kw}) tightened",
               "{where}: " + kw + " {old} -> {new} (tightened)", _N),
            _r(f"{stem}-{looser}", _C, _I, f"the {noun} ({kw}) loosened",
               "{where}: " + kw + " {old} -> {new} (loosened)", _W),
        ]
    return out


_RULES += _bounds_rules()

RULES: dict[str, Rule] = {r.id: r for r in _RULES}
"""The registry: rule id -> Rule."""

assert len(RULES) == len(_RULES), "duplicate rule id"


# Quoting -------------------------------------------------------------------------------------


class Raw(str):
    """Text written by us (not the server): inserted into a message as is."""

    __slots__ = ()


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _cap(s: str, cap: int = QUOTE_CAP) -> str:
    return s if len(s) <= cap else s[:cap] + "…"


def _safe(s: str) -> str:
    s = visible(s)
    if _SURROGATE.search(s):  # a lone surrogate would crash whoever prints the message
        s = _SURROGATE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", s)
    return s


def quote(value: Any, cap: int = QUOTE_CAP) -> str:
    """A server value as a short, single-line, visible literal (JSON-style quoting)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, str):
        # Cut before escaping so a 10 MB description costs O(cap), not O(size).
        cut = len(value) > cap
        text = json.dumps(_safe(value[:cap]), ensure_ascii=False)
        return text + ("…" if cut else "")
    if isinstance(value, (list, tuple, set, frozenset)):
        parts: list[str] = []
        used = 0
        items = list(value)
        for i, item in enumerate(items):
            q = quote(item, max(20, cap - used))
            parts.append(q)
            used += len(q) + 2
            if used > cap and i < len(items) - 1:
                parts.append(f"… {len(items) - i - 1} more")
                break
        return "[" + ", ".join(parts) + "]"
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return _cap(_safe(_cap(text, cap * 4)), cap)


def where(pointer: str) -> str:
    """A short human label for a schema location: ``property 'a.b[]'``, ``input schema``."""
    toks = pointer_tokens(pointer)
    if not toks:
        return "tool"
    side = {"inputSchema": "input", "outputSchema": "output"}.get(toks[0], toks[0])
    path = ""
    i = 1
    named = False
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t in ("properties", "patternProperties", "$defs", "definitions",
                 "dependentSchemas") and nxt is not None:
            sep = "" if not path else "."
            label = nxt if t == "properties" else f"{t}/{nxt}"
            path += sep + _cap(_safe(label), 60)
            named = named or t == "properties"
            i += 2
            continue
        if t in ("prefixItems", "anyOf", "oneOf", "allOf") and nxt is not None:
            path += f"[{nxt}]" if t == "prefixItems" else f"<{t} {nxt}>"
            i += 2
            continue
        if t in ("items", "additionalItems"):
            path += "[]"
        elif t == "additionalProperties":
            path += ".*"
        elif t in ("not", "if", "then", "else", "contains", "propertyNames"):
            path += f"<{t}>"
        else:
            break  # a keyword at the end (enum, minimum, ...): not part of the location
        i += 1
    if not path:
        return f"{side} schema"
    return f"{side} property '{path}'" if named else f"{side} schema '{path}'"


def make(rule_id: str, pointer: str, *, cls: ChangeClass | None = None,
         direction: Direction | None = None, **params: Any) -> Change:
    """Render ``rule_id``'s message with safely quoted ``params`` into a Change.

    ``cls`` overrides the registry class (the walker passes the polarity-adjusted class);
    ``direction`` defaults to the rule's. ``where`` is derived from the pointer unless given.
    """
    rule = RULES[rule_id]
    fields = {k: quote(v) for k, v in params.items()}
    fields.setdefault("where", where(pointer))
    if "{parent}" in rule.message and "parent" not in fields:
        toks = pointer.split("/")
        fields["parent"] = where("/".join(toks[:-2] if len(toks) > 2 and toks[-2] ==
                                          "properties" else toks))
    try:
        message = rule.message.format(**fields)
    except (KeyError, IndexError):  # a missing parameter must not lose the change
        message = f"{rule.purpose} ({', '.join(f'{k}={v}' for k, v in fields.items())})"
    return Change(rule_id, cls or rule.cls, pointer, message, direction or rule.direction)


def text_delta(old: str | None, new: str | None, context: int = 40) -> Raw:
    """The changed middle of two texts with a little context, visible and bounded:
    ``…common [-removed-]{+added+} common…``. Long texts cost O(size) once, messages O(cap)."""
    a, b = old or "", new or ""
    if not a:
        return Raw("(none) -> " + quote(b))
    if not b:
        return Raw(quote(a) + " -> (none)")
    n = min(len(a), len(b))
    pre = _common(lambda k: a[:k] == b[:k], n)
    suf = _common(lambda k: a[len(a) - k:] == b[len(b) - k:], n - pre)
    head = a[max(0, pre - context):pre]
    tail = a[len(a) - suf:len(a) - suf + context]
    gone = a[pre:len(a) - suf]
    came = b[pre:len(b) - suf]
    half = QUOTE_CAP // 2
    out = ("…" if pre > context else "") + _safe(head)
    if gone:
        out += "[-" + _safe(_cap(gone, half)) + "-]"
    if came:
        out += "{+" + _safe(_cap(came, half)) + "+}"
    out += _safe(tail) + ("…" if suf > context else "")
    return Raw(json.dumps(out, ensure_ascii=False))


def _common(same: Callable[[int], bool], limit: int) -> int:
    """Longest k <= limit with same(k): a binary search over C-speed slice comparisons, so a
    10 MB description is not walked character by character in Python."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def hidden_tokens(text: str, cap: int = 12) -> tuple[Raw, Raw]:
    """(the distinct visible tokens of hidden characters in ``text``, the decoded TAG text)."""
    seen: dict[str, int] = {}
    for h in find_hidden(text):
        seen[h.label] = seen.get(h.label, 0) + 1
    labels = [f"{k}×{v}" if v > 1 else k for k, v in seen.items()]
    shown = " ".join(labels[:cap]) + (f" … {len(labels) - cap} more kinds" if len(labels) > cap
                                      else "")
    tags = decode_tags(text)
    decoded = f"; TAG text decodes to {quote(tags)}" if tags else ""
    return Raw(_safe(shown)), Raw(decoded)


NEW_TEXT_SHOWN = 2
"""New texts quoted in a change's message (all of them, up to the cap, are in ``new_text``)."""
NEW_TEXT_QUOTE = 160


def new_text(pointer: str, field: str, text: str) -> NewText:
    """A NewText with the server's ``text`` (and a server-named ``field``) made visible and
    bounded, as every quoted server value is."""
    return NewText(pointer, _safe(_cap(field, 60)), quote(text, NEW_TEXT_QUOTE))


def with_new_text(change: Change, items: list[NewText], more: int = 0) -> Change:
    """``change`` carrying ``items`` on the trust axis, named at the end of its message so every
    output that shows the message shows the text too."""
    shown = ", ".join(f"{t.field} {t.text}" for t in items[:NEW_TEXT_SHOWN])
    extra = len(items) - NEW_TEXT_SHOWN + more
    suffix = "; new text the model reads: " + shown + (f" (+{extra} more)" if extra > 0 else "")
    return dataclasses.replace(change, message=change.message + suffix,
                               new_text=change.new_text + tuple(items))
